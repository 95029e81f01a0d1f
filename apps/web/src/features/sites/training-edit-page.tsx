import { Alert, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type TPage, ZPageRequest } from '@stn/contracts/users';
import { useTranslation } from 'react-i18next';
import { TextareaField, TextField } from '../../components/form/fields.tsx';
import { FormCard } from '../../components/form/form-section.tsx';
import { Loading } from '../../components/load-state.tsx';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import { usePage, useSavePage } from './api/pages.ts';

/** admin.training: the training page agencies read (GET/PUT /v1/pages/training). */
export default function TrainingPage() {
  const { t } = useTranslation();
  const page = usePage('training');
  return (
    <Stack maw={960}>
      <Title order={2} data-testid="page-title">
        {t('menu.training')}
      </Title>
      {page.isPending ? (
        <Loading />
      ) : page.data ? (
        <TrainingForm page={page.data} />
      ) : (
        <Alert color="red">{t('admin.training.load_failed')}</Alert>
      )}
    </Stack>
  );
}

type Values = { title: string; content: string };

function TrainingForm({ page }: { page: TPage }) {
  const { t } = useTranslation();
  const save = useSavePage('training');
  const form = useForm<Values>({
    initialValues: { title: page.title, content: page.content },
    validate: zodResolver(ZPageRequest),
  });

  const submit = form.onSubmit(async (values) => {
    try {
      const res = await save.mutateAsync(values);
      const saved = { title: res.data.title, content: res.data.content };
      form.setValues(saved);
      form.resetDirty(saved);
    } catch (err) {
      applyServerErrors(form, err, ['title', 'content']);
    }
  });

  return (
    <FormCard form={form} onSubmit={submit} submitting={save.isPending} submitTestId="training-submit">
      {page.source === 'none' && (
        <Text size="sm" c="dimmed">
          {t('admin.training.not_written')}
        </Text>
      )}
      <TextField name="title" label={t('admin.training.title')} required testId="training-title" />
      <TextareaField
        name="content"
        label={t('admin.training.content')}
        description={t('admin.training.content_hint')}
        minRows={14}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        testId="training-content"
      />
    </FormCard>
  );
}

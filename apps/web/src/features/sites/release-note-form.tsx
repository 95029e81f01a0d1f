import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  Stack,
  Switch,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { type TReleaseNote, ZReleaseNoteRequest } from '@stn/contracts/users';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { pathOf } from '../../app/route-table.ts';
import { Loading } from '../../components/load-state.tsx';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import { useReleaseNote, useSaveReleaseNote } from './api/release-notes.ts';

type Values = { title: string; content: string; published: boolean };
const FIELDS = ['title', 'content', 'published'] as const;

/** admin.releaseNote.create and admin.releaseNote.edit (:id): title, content and whether it is published. */
export default function ReleaseNoteFormPage() {
  const { id } = useParams();
  if (!id) return <ReleaseNoteForm />;
  return <EditReleaseNote id={Number(id)} />;
}

function EditReleaseNote({ id }: { id: number }) {
  const { t } = useTranslation();
  const note = useReleaseNote(id);
  if (note.isPending) return <Loading />;
  if (!note.data) return <Alert color="red">{t('admin.release_notes.not_found')}</Alert>;
  return <ReleaseNoteForm key={id} note={note.data} />;
}

function ReleaseNoteForm({ note }: { note?: TReleaseNote }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const save = useSaveReleaseNote(note?.id);
  const form = useForm<Values>({
    initialValues: {
      title: note?.title ?? '',
      content: note?.content ?? '',
      published: note?.published ?? true,
    },
    validate: zodResolver(ZReleaseNoteRequest),
  });

  const submit = form.onSubmit(async (values) => {
    try {
      await save.mutateAsync(values);
      navigate(pathOf('admin.releaseNote'));
    } catch (err) {
      applyServerErrors(form, err, FIELDS);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack maw={860}>
        <div>
          <Anchor component={Link} to={pathOf('admin.releaseNote')} size="sm">
            {t('admin.release_notes.back')}
          </Anchor>
          <Title order={2} data-testid="page-title">
            {note ? t('admin.release_notes.edit_title') : t('admin.release_notes.add')}
          </Title>
        </div>
        <Paper withBorder p="lg" radius="md">
          <Stack>
            <TextInput
              label={t('admin.release_notes.title_field')}
              required
              data-testid="release-note-title"
              {...form.getInputProps('title')}
            />
            <Textarea
              label={t('admin.release_notes.content')}
              description={t('admin.release_notes.content_hint')}
              required
              autosize
              minRows={8}
              data-testid="release-note-content"
              {...form.getInputProps('content')}
            />
            <Switch
              label={t('admin.release_notes.published')}
              data-testid="release-note-published"
              {...form.getInputProps('published', { type: 'checkbox' })}
            />
          </Stack>
        </Paper>
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} data-testid="release-note-submit">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

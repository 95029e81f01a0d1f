import { Alert, Button, FileButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import {
  type TPhoneList,
  type TPhoneListEntry,
  ZPhoneImportRequest,
  ZPhoneListRequest,
} from '@stn/contracts/users';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BoundForm, TextareaField, TextField } from '../../components/form/fields.tsx';
import { type Column, DataTable } from '../../components/list/data-table.tsx';
import { PhoneField } from '../../components/phone-field.tsx';
import { formatDate } from '../../lib/format.ts';
import { keys } from '../../lib/query-keys.ts';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import {
  type ImportResult,
  phoneListPath,
  useAddToPhoneList,
  useImportBlacklist,
  useRemoveFromPhoneList,
} from './api/phone-lists.ts';

type EntryValues = { phone: string; note: string };
const resolveEntry = zodResolver(ZPhoneListRequest);
const entryRequest = (v: EntryValues) => ({ phone: v.phone, note: v.note.trim() || null });

/** A blacklist or whitelist (the platform's or a business's): the numbers, add, remove; the blacklist imports. */
export function PhoneListPage({ list }: { list: TPhoneList }) {
  const { t } = useTranslation();
  const remove = useRemoveFromPhoneList(list);

  const confirmDelete = (row: TPhoneListEntry) =>
    modals.openConfirmModal({
      title: t(`phone_lists.${list}.delete_title`),
      children: <Text size="sm">{t('phone_lists.delete_confirm', { phone: row.phone })}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(row.id),
    });

  const columns: Column<TPhoneListEntry>[] = [
    { key: 'phone', title: t('phone_lists.phone'), render: (e) => e.phone },
    { key: 'note', title: t('phone_lists.note'), render: (e) => e.note ?? '' },
    {
      key: 'created',
      title: t('phone_lists.added_on'),
      render: (e) => formatDate(e.created_at),
    },
  ];

  return (
    <Stack>
      <Title order={2} data-testid="page-title">
        {t(`phone_lists.${list}.title`)}
      </Title>
      <Text c="dimmed" size="sm">
        {t(`phone_lists.${list}.hint`)}
      </Text>
      <AddEntryForm list={list} />
      {list === 'blacklist' && <ImportForm />}
      <DataTable<TPhoneListEntry>
        path={phoneListPath(list)}
        queryKey={keys.phoneLists.list(list)}
        columns={columns}
        testId={`${list}-table`}
        actions={(e) => (
          <Group justify="flex-end">
            <Button
              size="xs"
              variant="light"
              color="red"
              onClick={() => confirmDelete(e)}
              data-testid={`${list}-delete-${e.id}`}
            >
              {t('common.delete')}
            </Button>
          </Group>
        )}
      />
    </Stack>
  );
}

function AddEntryForm({ list }: { list: TPhoneList }) {
  const { t } = useTranslation();
  const add = useAddToPhoneList(list);
  const form = useForm<EntryValues>({
    initialValues: { phone: '', note: '' },
    validate: (v) => resolveEntry(entryRequest(v)),
  });
  const submit = form.onSubmit(async (values) => {
    try {
      await add.mutateAsync(entryRequest(values));
      form.reset();
    } catch (err) {
      applyServerErrors(form, err, ['phone', 'note']);
    }
  });
  return (
    <BoundForm form={form} onSubmit={submit}>
      <Paper withBorder p="md" radius="md">
        <Group align="flex-start" wrap="wrap">
          <PhoneField
            label={t('phone_lists.phone')}
            required
            data-testid={`${list}-phone`}
            {...form.getInputProps('phone')}
            value={form.values.phone}
          />
          <TextField name="note" label={t('phone_lists.note')} flex={1} miw={200} testId={`${list}-note`} />
          <Button type="submit" mt={25} loading={add.isPending} data-testid={`${list}-add`}>
            {t('phone_lists.add')}
          </Button>
        </Group>
      </Paper>
    </BoundForm>
  );
}

const resolveImport = zodResolver(ZPhoneImportRequest);

/** Numbers from a CSV (pasted, or a file read as text); the answer says how many went in. */
function ImportForm() {
  const { t } = useTranslation();
  const run = useImportBlacklist();
  const [result, setResult] = useState<ImportResult | null>(null);
  const form = useForm<{ csv: string }>({
    initialValues: { csv: '' },
    // The contract names the list 'phones' when both are empty: here it is the text area.
    validate: (v) => {
      const errors = resolveImport({ csv: v.csv });
      return errors.phones ? { csv: errors.phones } : errors;
    },
  });
  const readFile = (file: File | null) => {
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => form.setFieldValue('csv', String(reader.result ?? ''));
    reader.readAsText(file);
  };
  const submit = form.onSubmit(async ({ csv }) => {
    setResult(null);
    try {
      const res = await run.mutateAsync({ csv });
      setResult(res.data);
      form.reset();
    } catch (err) {
      applyServerErrors(form, err, ['csv']);
    }
  });
  return (
    <BoundForm form={form} onSubmit={submit}>
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm">
          <Title order={5}>{t('phone_lists.import_title')}</Title>
          <TextareaField
            name="csv"
            label={t('phone_lists.import_csv')}
            description={t('phone_lists.import_hint')}
            minRows={3}
            maxRows={8}
            testId="blacklist-import-csv"
          />
          <Group justify="space-between">
            <FileButton onChange={readFile} accept=".csv,text/csv,text/plain">
              {(props) => (
                <Button variant="default" {...props} data-testid="blacklist-import-file">
                  {t('phone_lists.import_file')}
                </Button>
              )}
            </FileButton>
            <Button type="submit" loading={run.isPending} data-testid="blacklist-import-submit">
              {t('phone_lists.import')}
            </Button>
          </Group>
          {result && (
            <Alert color="blue" data-testid="blacklist-import-result">
              {t('phone_lists.import_result', {
                count: result.imported,
                skipped: result.skipped,
              })}
              {result.invalid.length > 0 && (
                <Text size="sm" mt={4}>
                  {t('phone_lists.import_invalid', { list: result.invalid.join(', ') })}
                </Text>
              )}
            </Alert>
          )}
        </Stack>
      </Paper>
    </BoundForm>
  );
}

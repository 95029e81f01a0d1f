import {
  Alert,
  Button,
  FileButton,
  Group,
  Paper,
  Progress,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadTemplate, useImportStatus, useInstallOptions, useStartImport } from './api/contacts.ts';

/** A report's rows (line and message), the first 200 shown with "and n more". */
function RowsTable({
  rows,
  title,
  testId,
  rowTestId,
}: {
  rows: { line: number; message: string }[];
  title: string;
  testId: string;
  rowTestId?: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Text size="sm" mt={4}>
        {title}
      </Text>
      <Table mt={4} data-testid={testId} withRowBorders={false}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('contacts.import.line')}</Table.Th>
            <Table.Th>{t('contacts.import.message')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.slice(0, 200).map((e) => (
            <Table.Tr
              key={`${e.line}-${e.message}`}
              data-testid={rowTestId ? `${rowTestId}-${e.line}` : undefined}
            >
              <Table.Td>{e.line}</Table.Td>
              <Table.Td>{e.message}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {rows.length > 200 && (
        <Text size="xs" c="dimmed">
          {t('contacts.import.more_rows', { count: rows.length - 200 })}
        </Text>
      )}
    </>
  );
}

/**
 * The CSV import: download the template, pick a file, then a progress bar while the import job runs (its
 * status polled every second), then the imported count and each bad row with its line and reason. A
 * phone already a contact is skipped or updates the contact, as chosen before the upload (ADR 052), and
 * each such row is listed too.
 */
export function ImportPanel() {
  const { t } = useTranslation();
  const start = useStartImport();
  const installs = useInstallOptions();
  const [picked, setPicked] = useState<string | null>(null);
  // The imported contacts are texted from (and exported with) this install; the first one unless chosen.
  const installId = picked ?? (installs.data?.[0] ? String(installs.data[0].id) : null);
  const [importId, setImportId] = useState<number | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  /** A phone already a contact (or earlier in the file): skip the row (the default) or update the contact. */
  const [duplicates, setDuplicates] = useState<'skip' | 'update'>('skip');
  const status = useImportStatus(importId);
  const job = status.data;
  const running = importId !== null && (!job || job.status === 'queued' || job.status === 'running');

  const upload = (file: File | null) => {
    if (!file) return;
    setFileError(null);
    const reader = new FileReader();
    reader.onload = () => {
      const csv = String(reader.result ?? '');
      if (!csv.trim()) {
        setFileError(t('contacts.import.empty_file'));
        return;
      }
      start.mutate(
        { csv, install_id: installId ? Number(installId) : null, duplicates },
        { onSuccess: (res) => setImportId(res.data.import_id) },
      );
    };
    reader.onerror = () => setFileError(t('contacts.import.read_failed'));
    reader.readAsText(file);
  };

  const percent = job && job.total > 0 ? Math.round((job.processed / job.total) * 100) : 0;

  return (
    <Paper withBorder p="md" radius="md" data-testid="contacts-import">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={5}>{t('contacts.import.title')}</Title>
          <Group gap="xs">
            {(installs.data?.length ?? 0) > 1 && (
              <Select
                size="xs"
                aria-label={t('contacts.install')}
                data={(installs.data ?? []).map((i) => ({ value: String(i.id), label: i.name }))}
                value={installId}
                onChange={setPicked}
                allowDeselect={false}
                data-testid="contacts-import-install"
              />
            )}
            <Button
              variant="subtle"
              size="xs"
              onClick={() => void downloadTemplate().catch(() => undefined)}
              data-testid="contacts-import-template"
            >
              {t('contacts.import.template')}
            </Button>
            <FileButton onChange={upload} accept=".csv,text/csv,text/plain">
              {(props) => (
                <Button
                  size="xs"
                  {...props}
                  loading={start.isPending || running}
                  data-testid="contacts-import-file"
                >
                  {t('contacts.import.upload')}
                </Button>
              )}
            </FileButton>
          </Group>
        </Group>
        <Text size="sm" c="dimmed">
          {t('contacts.import.hint')}
        </Text>
        <Group gap="xs" wrap="wrap">
          <Text size="sm">{t('contacts.import.duplicates')}</Text>
          <SegmentedControl
            size="xs"
            value={duplicates}
            onChange={(v) => setDuplicates(v === 'update' ? 'update' : 'skip')}
            data={[
              { value: 'skip', label: t('contacts.import.duplicates_skip') },
              { value: 'update', label: t('contacts.import.duplicates_update') },
            ]}
            disabled={running}
            data-testid="contacts-import-duplicates"
          />
        </Group>
        {fileError && (
          <Alert color="red" data-testid="contacts-import-file-error">
            {fileError}
          </Alert>
        )}
        {importId !== null && running && (
          <Stack gap={4} data-testid="contacts-import-progress">
            <Progress value={percent} animated />
            <Text size="xs" c="dimmed">
              {t('contacts.import.progress', { processed: job?.processed ?? 0, total: job?.total ?? 0 })}
            </Text>
          </Stack>
        )}
        {status.isError && (
          <Alert color="red" data-testid="contacts-import-status-error">
            {status.error.message}
          </Alert>
        )}
        {job && job.status === 'failed' && (
          <Alert color="red" data-testid="contacts-import-failed">
            {job.errors.find((e) => e.line === 0)?.message ?? t('contacts.import.failed')}
          </Alert>
        )}
        {job && job.status === 'done' && (
          <Alert
            color={job.errors.length || job.duplicate_rows.length ? 'yellow' : 'green'}
            data-testid="contacts-import-result"
          >
            <Text size="sm" data-testid="contacts-import-count">
              {t('contacts.import.imported', { count: job.imported })}
            </Text>
            {(job.updated > 0 || job.skipped > 0) && (
              <Text size="sm" data-testid="contacts-import-duplicates-count">
                {job.duplicates === 'update'
                  ? t('contacts.import.updated', { count: job.updated })
                  : t('contacts.import.skipped', { count: job.skipped })}
              </Text>
            )}
            {job.duplicate_rows.length > 0 && (
              <RowsTable
                rows={job.duplicate_rows}
                title={t('contacts.import.duplicate_rows', { count: job.duplicate_rows.length })}
                testId="contacts-import-duplicate-rows"
              />
            )}
            {job.errors.length > 0 && (
              <RowsTable
                rows={job.errors}
                title={t('contacts.import.bad_rows', { count: job.errors.length })}
                testId="contacts-import-errors"
                rowTestId="contacts-import-error"
              />
            )}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

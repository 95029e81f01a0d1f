import {
  Alert,
  Button,
  FileButton,
  Group,
  Paper,
  Progress,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadTemplate, useImportStatus, useInstallOptions, useStartImport } from './api/contacts.ts';

/**
 * The CSV import: download the template, pick a file, then a progress bar while the import job runs (its
 * status polled every second), then the imported count and each bad row with its line and reason.
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
        { csv, install_id: installId ? Number(installId) : null },
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
            {t('contacts.import.failed')}
          </Alert>
        )}
        {job && job.status === 'done' && (
          <Alert color={job.errors.length ? 'yellow' : 'green'} data-testid="contacts-import-result">
            <Text size="sm" data-testid="contacts-import-count">
              {t('contacts.import.imported', { count: job.imported })}
            </Text>
            {job.errors.length > 0 && (
              <>
                <Text size="sm" mt={4}>
                  {t('contacts.import.bad_rows', { count: job.errors.length })}
                </Text>
                <Table mt={4} data-testid="contacts-import-errors" withRowBorders={false}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('contacts.import.line')}</Table.Th>
                      <Table.Th>{t('contacts.import.message')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {job.errors.slice(0, 200).map((e) => (
                      <Table.Tr
                        key={`${e.line}-${e.message}`}
                        data-testid={`contacts-import-error-${e.line}`}
                      >
                        <Table.Td>{e.line}</Table.Td>
                        <Table.Td>{e.message}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
                {job.errors.length > 200 && (
                  <Text size="xs" c="dimmed">
                    {t('contacts.import.more_rows', { count: job.errors.length - 200 })}
                  </Text>
                )}
              </>
            )}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

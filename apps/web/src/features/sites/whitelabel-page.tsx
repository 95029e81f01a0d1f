import { Badge, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/list/data-table.tsx';
import { keys } from '../../lib/query-keys.ts';
import { useRequestCertificate, WHITELABELS_PATH, type WhitelabelItem } from './api/whitelabels.ts';

const CERT_COLORS: Record<WhitelabelItem['cert_status'], string> = {
  none: 'gray',
  pending: 'yellow',
  issued: 'green',
  failed: 'red',
};

/** White-label entries (admin.whitelabel): domain, agency, certificate status and the certificate request. */
export default function WhitelabelPage() {
  const { t } = useTranslation();
  const cert = useRequestCertificate();

  const columns: Column<WhitelabelItem>[] = [
    { key: 'domain', title: t('admin.whitelabels.domain'), render: (w) => <Text fw={500}>{w.domain}</Text> },
    {
      key: 'type',
      title: t('admin.whitelabels.type'),
      render: (w) => t(`admin.agency_form.domain_types.${w.type}`),
    },
    { key: 'agency', title: t('admin.whitelabels.agency'), render: (w) => w.agency.name },
    {
      key: 'cert',
      title: t('admin.whitelabels.certificate'),
      render: (w) => (
        <Stack gap={2}>
          <Badge color={CERT_COLORS[w.cert_status]} data-testid={`whitelabel-cert-${w.id}`}>
            {t(`admin.whitelabels.cert_statuses.${w.cert_status}`)}
          </Badge>
          {w.cert_message && (
            <Text size="xs" c="dimmed" maw={420}>
              {w.cert_message}
            </Text>
          )}
        </Stack>
      ),
    },
  ];

  return (
    <Stack>
      <Title order={2} data-testid="page-title">
        {t('menu.whitelabel')}
      </Title>
      <Paper withBorder p="md" radius="md">
        <DataTable<WhitelabelItem>
          path={WHITELABELS_PATH}
          queryKey={keys.whitelabels.list()}
          columns={columns}
          testId="whitelabel-table"
          actions={(w) => (
            // The answer's message is toasted by the api client.
            <Button
              size="xs"
              variant="light"
              loading={cert.isPending && cert.variables === w.id}
              onClick={() => cert.mutate(w.id)}
              data-testid={`whitelabel-request-cert-${w.id}`}
            >
              {t('admin.whitelabels.request_cert')}
            </Button>
          )}
        />
      </Paper>
    </Stack>
  );
}

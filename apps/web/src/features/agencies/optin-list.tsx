import { Button, Group, Stack, Text, Title } from '@mantine/core';
import type { TOptinUser } from '@stn/contracts/optins';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/list/data-table.tsx';
import { apiBlob } from '../../lib/api-client.ts';
import { saveBlob } from '../../lib/files.ts';
import { formatDate } from '../../lib/format.ts';

// The agency's free-demo requests from its landing page (issue 23; spec 001 GET /v1/agencies/optin-users):
// newest first, searchable, and the same rows as a CSV file.

export const OPTINS_KEY = ['agencies', 'optin-users'] as const;

export function OptinList() {
  const { t } = useTranslation();
  const [exporting, setExporting] = useState(false);
  const exportCsv = async () => {
    setExporting(true);
    try {
      saveBlob(await apiBlob('/v1/agencies/optin-users/export'), 'demo-requests.csv');
    } finally {
      setExporting(false);
    }
  };
  return (
    <Stack gap="xs" data-testid="optin-list">
      <Group justify="space-between">
        <Title order={3}>{t('agency.landing.optins.title')}</Title>
        <Button
          variant="default"
          size="xs"
          onClick={() => void exportCsv()}
          loading={exporting}
          data-testid="optin-export"
        >
          {t('agency.landing.optins.export')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t('agency.landing.optins.hint')}
      </Text>
      <DataTable<TOptinUser>
        path="/v1/agencies/optin-users"
        queryKey={OPTINS_KEY}
        testId="optin-table"
        perPage={10}
        minWidth={640}
        empty={t('agency.landing.optins.empty')}
        columns={[
          { key: 'date', title: t('agency.landing.optins.date'), render: (r) => formatDate(r.created_at) },
          { key: 'name', title: t('agency.landing.optins.full_name'), render: (r) => r.full_name },
          {
            key: 'business',
            title: t('agency.landing.optins.business_name'),
            render: (r) => r.business_name,
          },
          { key: 'email', title: t('agency.landing.optins.email'), render: (r) => r.email },
          { key: 'phone', title: t('agency.landing.optins.phone'), render: (r) => r.phone },
        ]}
      />
    </Stack>
  );
}

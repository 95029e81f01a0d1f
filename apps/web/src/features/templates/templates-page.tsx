import { Badge, Button, Group, SegmentedControl, Stack, Switch, Text, Title } from '@mantine/core';
import { pruneText } from '@stn/contracts/format';
import type { TTemplate, TTemplateProvider } from '@stn/contracts/templates';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { askDelete } from '../../components/list/confirm.tsx';
import { type Column, DataTable } from '../../components/list/data-table.tsx';
import { EditDeleteButtons } from '../../components/list/row-actions.tsx';
import { type ActiveFilter, ActiveFilterControl, statusParam } from '../../components/list/status-filter.tsx';
import { pathOf } from '../../lib/nav/route-table.ts';
import { keys } from '../../lib/query-keys.ts';
import { TEMPLATES_PATH, useDeleteTemplate, useToggleTemplate } from './api/templates.ts';

/** The business's message templates (route business.templates): provider and status filters, toggle. */
export default function TemplatesPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<ActiveFilter>('all');
  const [provider, setProvider] = useState<'all' | TTemplateProvider>('all');
  const toggle = useToggleTemplate();
  const remove = useDeleteTemplate();

  const confirmDelete = (row: TTemplate) =>
    askDelete(
      ['business.templates.delete_title', 'business.templates.delete_confirm', 'business.common.delete'],
      { name: row.name },
      () => remove.mutate(row.id),
    );

  const columns: Column<TTemplate>[] = [
    { key: 'name', title: t('business.templates.name'), render: (row) => row.name },
    {
      key: 'body',
      title: t('business.templates.body'),
      render: (row) => (
        <Text size="sm" title={row.body}>
          {pruneText(row.body)}
        </Text>
      ),
    },
    {
      key: 'provider',
      title: t('business.templates.provider'),
      render: (row) => <Badge variant="light">{t(`business.templates.providers.${row.provider}`)}</Badge>,
    },
    {
      key: 'active',
      title: t('business.common.active'),
      render: (row) => (
        <Switch
          checked={row.active}
          onChange={(e) => toggle.mutate({ id: row.id, active: e.currentTarget.checked })}
          aria-label={t('business.common.active')}
          data-testid={`template-active-${row.id}`}
        />
      ),
    },
  ];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2} data-testid="page-title">
          {t('business.templates.title')}
        </Title>
        <Button component={Link} to={pathOf('business.templates.create')} data-testid="templates-add">
          {t('business.templates.add')}
        </Button>
      </Group>
      <Group>
        <ActiveFilterControl value={status} onChange={setStatus} testId="templates-status-filter" />
        <SegmentedControl
          value={provider}
          onChange={(v) => setProvider(v as 'all' | TTemplateProvider)}
          data={[
            { value: 'all', label: t('business.common.status.all') },
            { value: 'sms', label: t('business.templates.providers.sms') },
            { value: 'email', label: t('business.templates.providers.email') },
          ]}
          data-testid="templates-provider-filter"
        />
      </Group>
      <DataTable<TTemplate>
        path={TEMPLATES_PATH}
        queryKey={keys.templates.list()}
        filters={{ status: statusParam(status), provider: provider === 'all' ? undefined : provider }}
        columns={columns}
        empty={t('business.templates.empty')}
        testId="templates-table"
        actions={(row) => (
          <EditDeleteButtons
            name="template"
            id={row.id}
            edit={pathOf('business.templates.edit', { id: row.id })}
            onDelete={() => confirmDelete(row)}
          />
        )}
      />
    </Stack>
  );
}

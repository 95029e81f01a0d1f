import { Button, Drawer, Group, Paper, Select, Stack, TextInput, Title } from '@mantine/core';
import type { TCall } from '@stn/contracts/telephony';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { type Column, DataTable } from '../../components/list/data-table.tsx';
import { formatDate } from '../../lib/format.ts';
import { keys } from '../../lib/query-keys.ts';
import { CALLS_PATH } from './api/calls.ts';
import {
  InstallSelect,
  KindBadge,
  kindOptions,
  OutcomeBadge,
  outcomeOptions,
  VisitorCell,
} from './call-badges.tsx';
import { CallDetail } from './call-detail.tsx';
import {
  type CallFilters,
  callFilterQuery,
  formatConnectTime,
  formatSeconds,
  NO_FILTERS,
} from './call-format.ts';
import { OwnCallsNote } from './own-calls-note.tsx';

const CALLS_REFRESH_MS = 10_000;

/**
 * The business's calls (route business.calls): filters by outcome, kind, install, date range and keyword
 * (the list's search box: visitor name or phone), a paged table, and a row's detail in a drawer whose call
 * id is in the address (?call=12), so a call can be linked and the back button closes it.
 */
export default function CallsPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<CallFilters>(NO_FILTERS);
  const [params, setParams] = useSearchParams();
  const openId = Number(params.get('call')) || null;
  const set = (patch: Partial<CallFilters>) => setFilters((f) => ({ ...f, ...patch }));

  const open = (id: number) => setParams({ call: String(id) });
  const close = () => setParams({}, { replace: false });

  const columns: Column<TCall>[] = [
    {
      key: 'requested',
      title: t('business.calls.requested_at'),
      render: (c) => formatDate(c.requested_at, 'short'),
    },
    {
      key: 'visitor',
      title: t('business.calls.visitor'),
      render: (c) => (
        <VisitorCell phone={c.visitor_phone} name={c.visitor_name} testId={`call-phone-${c.id}`} />
      ),
    },
    { key: 'install', title: t('business.calls.install'), render: (c) => c.install_name },
    { key: 'kind', title: t('business.calls.kind_label'), render: (c) => <KindBadge kind={c.kind} /> },
    {
      key: 'outcome',
      title: t('business.calls.outcome_label'),
      render: (c) => <OutcomeBadge outcome={c.outcome} testId={`call-outcome-${c.id}`} />,
    },
    {
      key: 'agent',
      title: t('business.calls.agent'),
      render: (c) => c.agent_name ?? t('business.calls.none'),
    },
    {
      key: 'connect',
      title: t('business.calls.time_to_connect'),
      render: (c) => formatConnectTime(c.time_to_connect),
    },
    { key: 'duration', title: t('business.calls.duration'), render: (c) => formatSeconds(c.duration) },
  ];

  return (
    <Stack>
      <Title order={2} data-testid="page-title">
        {t('business.calls.title')}
      </Title>
      <OwnCallsNote textKey="business.calls.own_only" />
      <Paper withBorder p="sm" radius="md">
        <Group align="flex-end" wrap="wrap" gap="sm">
          <Select
            label={t('business.calls.outcome_label')}
            placeholder={t('business.calls.any')}
            data={outcomeOptions(t)}
            value={filters.outcome}
            onChange={(v) => set({ outcome: v })}
            clearable
            w={170}
            data-testid="calls-filter-outcome"
          />
          <Select
            label={t('business.calls.kind_label')}
            placeholder={t('business.calls.any')}
            data={kindOptions(t)}
            value={filters.kind}
            onChange={(v) => set({ kind: v })}
            clearable
            w={150}
            data-testid="calls-filter-kind"
          />
          <InstallSelect
            label={t('business.calls.install')}
            placeholder={t('business.calls.any')}
            value={filters.installId}
            onChange={(v) => set({ installId: v })}
            clearable
            w={200}
            testId="calls-filter-install"
          />
          <TextInput
            type="date"
            label={t('business.calls.from')}
            value={filters.from}
            onChange={(e) => set({ from: e.currentTarget.value })}
            data-testid="calls-filter-from"
          />
          <TextInput
            type="date"
            label={t('business.calls.to')}
            value={filters.to}
            onChange={(e) => set({ to: e.currentTarget.value })}
            data-testid="calls-filter-to"
          />
          <Button variant="subtle" onClick={() => setFilters(NO_FILTERS)} data-testid="calls-filter-reset">
            {t('business.calls.reset_filters')}
          </Button>
        </Group>
      </Paper>
      <DataTable<TCall>
        path={CALLS_PATH}
        queryKey={keys.calls.list()}
        filters={callFilterQuery(filters)}
        columns={columns}
        empty={t('business.calls.empty')}
        testId="calls-table"
        minWidth={820}
        // Callbacks come in and finish by themselves; until realtime pushes calls, the list looks again.
        refetchInterval={CALLS_REFRESH_MS}
        actions={(c) => (
          <Group justify="flex-end">
            <Button size="xs" variant="light" onClick={() => open(c.id)} data-testid={`call-open-${c.id}`}>
              {t('business.calls.details')}
            </Button>
          </Group>
        )}
      />
      <Drawer
        opened={openId !== null}
        onClose={close}
        position="right"
        size="lg"
        title={<Title order={3}>{t('business.calls.detail_title')}</Title>}
        data-testid="call-drawer"
      >
        {openId !== null && <CallDetail id={openId} />}
      </Drawer>
    </Stack>
  );
}

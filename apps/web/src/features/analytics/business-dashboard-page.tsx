import { Button, Group, MultiSelect, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { CONNECT_PROMISE_SECONDS, leadsOf, type TBusinessAnalytics } from '@stn/contracts/analytics';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadBusinessAnalytics, useBusinessAnalytics } from './api/analytics.ts';
import { CallbacksChart, HoursChart, LeadsChart, TextsChart, WeekdaysChart } from './charts.tsx';
import { DashboardBody, Stat, useCounterStat, useFormat } from './figures.tsx';
import { RangeControl, refusalOf, useRangeParams } from './range-control.tsx';

/**
 * The business dashboard (route business.dashboard, issue 24): a range of local days and some installs in the
 * address, the figures of the daily rollups as cards, charts and the agents' table, and the same range as CSV.
 */
export default function BusinessDashboardPage() {
  const { t } = useTranslation();
  const { range, ids, set } = useRangeParams('installs');
  const query = { ...range, ...(ids.length > 0 ? { install_ids: ids } : {}) };
  const analytics = useBusinessAnalytics(query);
  const refusal = refusalOf(analytics.error);
  const [exporting, setExporting] = useState(false);
  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadBusinessAnalytics(query);
    } finally {
      setExporting(false);
    }
  };
  // The installs to choose from come with the figures; while a new range loads, the last answer's list stays.
  const installs = analytics.data?.installs ?? [];

  return (
    <Stack>
      <Group justify="space-between" align="center">
        <Title order={2} data-testid="page-title">
          {t('menu.analytics')}
        </Title>
        <Button
          variant="light"
          onClick={() => void exportCsv()}
          loading={exporting}
          disabled={refusal !== null}
          data-testid="analytics-export"
        >
          {t('dashboards.export')}
        </Button>
      </Group>
      <RangeControl range={range} onChange={(r) => set(r)} errors={refusal ?? undefined}>
        <MultiSelect
          label={t('dashboards.installs')}
          placeholder={ids.length === 0 ? t('dashboards.all_installs') : undefined}
          data={installs.map((i) => ({ value: String(i.id), label: i.name }))}
          value={ids.map(String)}
          onChange={(v) => set({ ids: v.map(Number) })}
          clearable
          searchable
          miw={240}
          data-testid="analytics-installs"
        />
      </RangeControl>
      <DashboardBody query={analytics}>{(data) => <BusinessFigures data={data} />}</DashboardBody>
    </Stack>
  );
}

function BusinessFigures({ data }: { data: TBusinessAnalytics }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const { totals, connect } = data;
  const n = useCounterStat(totals);
  const leads = leadsOf(totals);
  return (
    <Stack data-testid="business-dashboard" data-from={data.from} data-to={data.to}>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }}>
        {n('callbacks_requested', t('dashboards.stats.callbacks_requested'))}
        {n(
          'callbacks_answered',
          t('dashboards.stats.callbacks_answered'),
          t('dashboards.answer_rate', {
            rate: fmt.share(totals.callbacks_answered, totals.callbacks_requested),
          }),
        )}
        {n('callbacks_missed', t('dashboards.stats.callbacks_missed'))}
        <Stat
          id="connect_median"
          label={t('dashboards.stats.connect_median')}
          value={fmt.seconds(connect.median)}
          raw={connect.median}
          hint={t('dashboards.connect_p90', { value: fmt.seconds(connect.p90) })}
        />
        <Stat
          id="connect_within"
          label={t('dashboards.stats.connect_within', { n: CONNECT_PROMISE_SECONDS })}
          value={fmt.share(connect.within_promise, connect.measured)}
          raw={connect.within_promise}
          hint={t('dashboards.measured', { n: fmt.number(connect.measured) })}
        />
        {n('texts_in', t('dashboards.stats.texts_in'))}
        {n('texts_out', t('dashboards.stats.texts_out'))}
        {n('conversations_started', t('dashboards.stats.conversations_started'))}
        {n('opt_outs', t('dashboards.stats.opt_outs'))}
        <Stat id="leads" label={t('dashboards.stats.leads')} value={fmt.number(leads)} raw={leads} />
        {totals.broadcast_texts > 0 ? n('broadcast_texts', t('dashboards.stats.broadcast_texts')) : null}
        {totals.automation_texts > 0 ? n('automation_texts', t('dashboards.stats.automation_texts')) : null}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <CallbacksChart days={data.days} />
        <TextsChart days={data.days} />
        <HoursChart byHour={data.by_hour} />
        <WeekdaysChart byWeekday={data.by_weekday} />
        <LeadsChart
          leads={{
            callback: totals.leads_callback,
            text: totals.leads_text,
            booking: totals.leads_booking,
            form: totals.leads_form,
          }}
        />
        <AgentsTable agents={data.agents} />
      </SimpleGrid>
    </Stack>
  );
}

function AgentsTable({ agents }: { agents: TBusinessAnalytics['agents'] }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  return (
    <Stack gap="xs">
      <Text fw={600}>{t('dashboards.agents.title')}</Text>
      <Table striped data-testid="analytics-agents">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('dashboards.agents.agent')}</Table.Th>
            <Table.Th ta="right">{t('dashboards.agents.answered')}</Table.Th>
            <Table.Th ta="right">{t('dashboards.agents.talk_time')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {agents.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={3}>
                <Text c="dimmed" size="sm">
                  {t('dashboards.agents.empty')}
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : (
            agents.map((a) => (
              <Table.Tr key={a.agent_user_id} data-testid={`agent-${a.agent_user_id}`}>
                <Table.Td>{a.agent_name}</Table.Td>
                <Table.Td ta="right" data-value={a.calls_answered}>
                  {fmt.number(a.calls_answered)}
                </Table.Td>
                <Table.Td ta="right" data-value={a.talk_seconds}>
                  {fmt.duration(a.talk_seconds)}
                </Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

import { Group, Progress, SimpleGrid, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { leadsOf, type TAgencyAnalytics, type TAgencyBusinessFigures } from '@stn/contracts/analytics';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAgencyAnalytics } from './api/analytics.ts';
import { CallbacksChart, HoursChart, TextsChart } from './charts.tsx';
import { DashboardBody, Stat, useCounterStat, useFormat } from './figures.tsx';
import { RangeControl, refusalOf, useRangeParams } from './range-control.tsx';

/**
 * The agency dashboard (route agency.dashboard, issue 24): its businesses' figures together for a range of
 * days in the address, the call and message views over the days, and the businesses ranked with their usage
 * of the month against their plan's caps.
 */
export default function AgencyDashboardPage() {
  const { t } = useTranslation();
  const { range, set } = useRangeParams('businesses');
  const analytics = useAgencyAnalytics(range);
  const refusal = refusalOf(analytics.error);
  return (
    <Stack>
      <Title order={2} data-testid="page-title">
        {t('menu.analytics')}
      </Title>
      <RangeControl range={range} onChange={(r) => set(r)} errors={refusal ?? undefined} />
      <DashboardBody query={analytics}>{(data) => <AgencyFigures data={data} />}</DashboardBody>
    </Stack>
  );
}

function AgencyFigures({ data }: { data: TAgencyAnalytics }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const { totals, connect } = data;
  const n = useCounterStat(totals);
  const leads = leadsOf(totals);
  return (
    <Stack data-testid="agency-dashboard" data-from={data.from} data-to={data.to}>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }}>
        <Stat
          id="businesses"
          label={t('dashboards.stats.businesses')}
          value={fmt.number(data.businesses.length)}
          raw={data.businesses.length}
        />
        {n('callbacks_requested', t('dashboards.stats.callbacks_requested'))}
        {n('callbacks_answered', t('dashboards.stats.callbacks_answered'))}
        {n('callbacks_missed', t('dashboards.stats.callbacks_missed'))}
        <Stat
          id="answer_rate"
          label={t('dashboards.stats.answer_rate')}
          value={fmt.share(totals.callbacks_answered, totals.callbacks_requested)}
        />
        <Stat
          id="connect_median"
          label={t('dashboards.stats.connect_median')}
          value={fmt.seconds(connect.median)}
          raw={connect.median}
          hint={t('dashboards.connect_p90', { value: fmt.seconds(connect.p90) })}
        />
        {n('texts_in', t('dashboards.stats.texts_in'))}
        {n('texts_out', t('dashboards.stats.texts_out'))}
        <Stat id="leads" label={t('dashboards.stats.leads')} value={fmt.number(leads)} raw={leads} />
        <Stat
          id="at_limit"
          label={t('dashboards.stats.at_limit')}
          value={fmt.number(data.at_limit)}
          raw={data.at_limit}
          hint={t('dashboards.near_limit', { n: fmt.number(data.near_limit) })}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <CallbacksChart days={data.days} />
        <TextsChart days={data.days} />
        <HoursChart byHour={data.by_hour} />
      </SimpleGrid>
      <Ranking businesses={data.businesses} />
    </Stack>
  );
}

type SortKey = 'name' | 'leads' | 'callbacks' | 'texts' | 'calls' | 'messages';
const sortValue: Record<SortKey, (b: TAgencyBusinessFigures) => number | string> = {
  name: (b) => b.name.toLowerCase(),
  leads: (b) => b.leads,
  callbacks: (b) => b.callbacks_answered,
  texts: (b) => b.texts_in + b.texts_out,
  calls: (b) => b.calls_used,
  messages: (b) => b.messages_used,
};

/** The businesses as the server ranks them (by leads, then calls answered); a header click sorts by it. */
function Ranking({ businesses }: { businesses: TAgencyBusinessFigures[] }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const [sort, setSort] = useState<{ key: SortKey; desc: boolean } | null>(null);
  const rows = sort
    ? [...businesses].sort((a, b) => {
        const x = sortValue[sort.key](a);
        const y = sortValue[sort.key](b);
        const c = x < y ? -1 : x > y ? 1 : 0;
        return sort.desc ? -c : c;
      })
    : businesses;
  const header = (key: SortKey, label: string) => (
    <Table.Th aria-sort={sort?.key === key ? (sort.desc ? 'descending' : 'ascending') : undefined}>
      <UnstyledButton
        fw={600}
        fz="sm"
        data-testid={`ranking-sort-${key}`}
        onClick={() => setSort((s) => ({ key, desc: s?.key === key ? !s.desc : key !== 'name' }))}
      >
        {label}
        {sort?.key === key ? (sort.desc ? ' ↓' : ' ↑') : ''}
      </UnstyledButton>
    </Table.Th>
  );
  return (
    <Stack gap="xs">
      <Text fw={600}>{t('dashboards.ranking.title')}</Text>
      <Table.ScrollContainer minWidth={820} type="native">
        <Table striped data-testid="analytics-ranking">
          <Table.Thead>
            <Table.Tr>
              {header('name', t('dashboards.ranking.business'))}
              {header('leads', t('dashboards.stats.leads'))}
              {header('callbacks', t('dashboards.ranking.callbacks'))}
              {header('texts', t('dashboards.ranking.texts'))}
              {header('calls', t('dashboards.ranking.calls_used'))}
              {header('messages', t('dashboards.ranking.messages_used'))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={6}>
                  <Text c="dimmed" size="sm">
                    {t('dashboards.ranking.empty')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              rows.map((b) => (
                <Table.Tr key={b.business_id} data-testid={`ranking-row-${b.business_id}`}>
                  <Table.Td>{b.name}</Table.Td>
                  <Table.Td data-testid="ranking-leads" data-value={b.leads}>
                    {fmt.number(b.leads)}
                  </Table.Td>
                  <Table.Td data-testid="ranking-callbacks">
                    {fmt.number(b.callbacks_answered)} / {fmt.number(b.callbacks_requested)}
                  </Table.Td>
                  <Table.Td data-testid="ranking-texts">
                    {fmt.number(b.texts_in)} / {fmt.number(b.texts_out)}
                  </Table.Td>
                  <Table.Td>
                    <Usage used={b.calls_used} cap={b.calls_cap} testId="ranking-calls" />
                  </Table.Td>
                  <Table.Td>
                    <Usage used={b.messages_used} cap={b.messages_cap} testId="ranking-messages" />
                  </Table.Td>
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

/** Used of a cap this month, as "used / cap" over a bar: red at the cap, orange from 90%; "∞" with no cap. */
function Usage({ used, cap, testId }: { used: number; cap: number | null; testId: string }) {
  const fmt = useFormat();
  const ratio = cap === null ? 0 : used / cap;
  const color = ratio >= 1 ? 'red' : ratio >= 0.9 ? 'orange' : 'blue';
  return (
    <Stack gap={4} miw={120} data-testid={testId} data-color={cap === null ? undefined : color}>
      <Group gap={4}>
        <Text size="sm">
          {fmt.number(used)} / {cap === null ? '∞' : fmt.number(cap)}
        </Text>
      </Group>
      {cap === null ? null : <Progress value={Math.min(100, ratio * 100)} color={color} size="sm" />}
    </Stack>
  );
}

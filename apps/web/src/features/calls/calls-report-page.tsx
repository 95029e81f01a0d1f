import { Alert, Button, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import type { TCallsReport } from '@stn/contracts/telephony';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyRow } from '../../components/list/data-table.tsx';
import { Loading } from '../../components/load-state.tsx';
import { useReportForbidden } from '../../components/not-allowed.tsx';
import { StatCard } from '../../components/stat-card.tsx';
import { textValue } from '../../lib/text-value.ts';
import { type ReportQuery, useCallsReport } from './api/calls.ts';
import { InstallSelect, OutcomeBadge } from './call-badges.tsx';
import { dateRange, formatConnectTime, formatSeconds } from './call-format.ts';

/** The calls report (route business.calls-report): totals, by outcome and by agent, for a range and install. */
export default function CallsReportPage() {
  const { t } = useTranslation();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [installId, setInstallId] = useState<string | null>(null);
  const [a, b] = dateRange(from, to);
  const query: ReportQuery = { from: a, to: b, install_id: installId ? Number(installId) : undefined };
  const report = useCallsReport(query);
  const forbidden = useReportForbidden(report.error);
  if (forbidden) return null;

  return (
    <Stack>
      <Title order={2} data-testid="page-title">
        {t('business.calls.report.title')}
      </Title>
      <Paper withBorder p="sm" radius="md">
        <Group align="flex-end" wrap="wrap" gap="sm">
          <TextInput
            type="date"
            label={t('business.calls.from')}
            {...textValue(from, setFrom)}
            data-testid="report-from"
          />
          <TextInput
            type="date"
            label={t('business.calls.to')}
            {...textValue(to, setTo)}
            data-testid="report-to"
          />
          <InstallSelect
            label={t('business.calls.install')}
            placeholder={t('business.calls.any')}
            value={installId}
            onChange={setInstallId}
            clearable
            w={220}
            testId="report-install"
          />
          <Button
            variant="subtle"
            onClick={() => {
              setFrom('');
              setTo('');
              setInstallId(null);
            }}
          >
            {t('business.calls.reset_filters')}
          </Button>
        </Group>
      </Paper>
      {report.isPending ? (
        <Loading />
      ) : report.isError ? (
        <Alert color="red" data-testid="report-error">
          {t('common.load_failed')}
        </Alert>
      ) : (
        <ReportView report={report.data} />
      )}
    </Stack>
  );
}

function ReportView({ report }: { report: TCallsReport }) {
  const { t } = useTranslation();
  const { totals } = report;
  return (
    <Stack data-testid="calls-report">
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }}>
        <StatCard
          label={t('business.calls.report.requested')}
          value={totals.requested}
          testId="report-requested"
        />
        <StatCard
          label={t('business.calls.report.completed')}
          value={totals.completed}
          testId="report-completed"
        />
        <StatCard label={t('business.calls.report.missed')} value={totals.missed} testId="report-missed" />
        <StatCard
          label={t('business.calls.report.no_answer')}
          value={totals.no_answer}
          testId="report-no-answer"
        />
        <StatCard
          label={t('business.calls.report.median_connect')}
          value={formatConnectTime(totals.median_time_to_connect)}
          testId="report-median"
        />
      </SimpleGrid>

      <Title order={4}>{t('business.calls.report.by_outcome')}</Title>
      {report.by_outcome.length === 0 ? (
        <Text c="dimmed">{t('business.calls.report.empty')}</Text>
      ) : (
        <Group gap="md" data-testid="report-by-outcome">
          {report.by_outcome.map((o) => (
            <Group key={o.outcome} gap={6}>
              <OutcomeBadge outcome={o.outcome} />
              <Text fw={600} data-testid={`report-outcome-${o.outcome}`}>
                {o.count}
              </Text>
            </Group>
          ))}
        </Group>
      )}

      <Title order={4}>{t('business.calls.report.by_agent')}</Title>
      <Table.ScrollContainer minWidth={560} type="native">
        <Table striped data-testid="report-by-agent">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('business.calls.agent')}</Table.Th>
              <Table.Th>{t('business.calls.report.claimed')}</Table.Th>
              <Table.Th>{t('business.calls.report.completed')}</Table.Th>
              <Table.Th>{t('business.calls.report.talk_time')}</Table.Th>
              <Table.Th>{t('business.calls.report.median_connect')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {report.by_agent.map((row) => (
              <Table.Tr
                key={`${row.agent_phone}-${row.agent_name}`}
                data-testid={`report-agent-${row.agent_phone}`}
              >
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {row.agent_name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {row.agent_phone}
                  </Text>
                </Table.Td>
                <Table.Td>{row.claimed}</Table.Td>
                <Table.Td>{row.completed}</Table.Td>
                <Table.Td>{formatSeconds(row.talk_seconds)}</Table.Td>
                <Table.Td>{formatConnectTime(row.median_time_to_connect)}</Table.Td>
              </Table.Tr>
            ))}
            {report.by_agent.length === 0 && <EmptyRow colSpan={5} text={t('business.calls.report.empty')} />}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

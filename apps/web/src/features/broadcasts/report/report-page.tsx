import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  MultiSelect,
  Pagination,
  Paper,
  Progress,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import {
  RECIPIENT_STATES,
  type TBroadcast,
  type TBroadcastReport,
  type TBroadcastStatus,
  type TRecipientState,
} from '@stn/contracts/broadcasts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { confirmAction } from '../../../components/list/confirm.tsx';
import { EmptyRow } from '../../../components/list/data-table.tsx';
import { LoadFailed, Loading } from '../../../components/load-state.tsx';
import { useReportForbidden } from '../../../components/not-allowed.tsx';
import { StatCard } from '../../../components/stat-card.tsx';
import { formatDate } from '../../../lib/format.ts';
import { useTagOptions } from '../../../lib/pickers.ts';
import { useBroadcasters } from '../api/broadcasts.ts';
import {
  countOf,
  downloadReport,
  type ReportFilters,
  useBroadcastReport,
  useBulkOptout,
  useLiveProgress,
  useRefreshStatuses,
  useRerunBroadcast,
  useStopBroadcast,
  useTagRecipients,
} from './api.ts';
import { failureText, recipientReason, skipText } from './reasons.ts';
import { TimelineChart } from './timeline-chart.tsx';

const PER_PAGE = 10;
const R = 'business.broadcast_report';

export const STATUS_COLORS: Record<TBroadcastStatus, string> = {
  draft: 'gray',
  scheduled: 'violet',
  sending: 'blue',
  stopped: 'orange',
  completed: 'green',
  failed: 'red',
};
const STATE_COLORS: Record<TRecipientState, string> = {
  pending: 'gray',
  sending: 'blue',
  sent: 'cyan',
  delivered: 'green',
  failed: 'red',
  skipped: 'yellow',
};

type Replied = 'any' | 'yes' | 'no';

/** business.broadcast.report: one broadcast's results, live while it sends, with its follow-up actions. */
export default function BroadcastReportPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id ?? 0);
  const [page, setPage] = useState(1);
  const [state, setState] = useState<TRecipientState | null>(null);
  const [replied, setReplied] = useState<Replied>('any');
  const filters: ReportFilters = {
    page,
    perPage: PER_PAGE,
    state: state ?? undefined,
    replied: replied === 'any' ? undefined : replied === 'yes',
  };
  const report = useBroadcastReport(id, filters);
  useLiveProgress(id);
  const forbidden = useReportForbidden(report.error);
  if (forbidden) return null;
  if (report.isPending) return <Loading />;
  if (report.isError) return <LoadFailed message={report.error.message} testId="report-error" />;
  const data = report.data;
  return (
    <Stack data-testid="broadcast-report">
      <Header broadcast={data.broadcast} />
      <Actions broadcast={data.broadcast} />
      <Stats broadcast={data.broadcast} />
      <Paper withBorder p="md" radius="md">
        <Title order={4} mb="sm">
          {t(`${R}.timeline_title`)}
        </Title>
        <TimelineChart timeline={data.timeline} />
      </Paper>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <ReasonList
          title={t(`${R}.failed_by_reason`)}
          rows={data.failed_by_reason.map((r) => ({
            key: r.reason,
            text: failureText(r.reason),
            count: r.count,
          }))}
          testId="report-failed-reasons"
        />
        <ReasonList
          title={t(`${R}.skipped_by_reason`)}
          rows={data.skipped_by_reason.map((r) => ({
            key: r.reason,
            text: skipText(r.reason),
            count: r.count,
          }))}
          testId="report-skipped-reasons"
        />
      </SimpleGrid>
      <Paper withBorder p="md" radius="md">
        <Group justify="space-between" align="flex-end" mb="sm">
          <Title order={4}>{t(`${R}.recipients_title`)}</Title>
          <Group gap="sm" align="flex-end">
            <Select
              label={t(`${R}.state`)}
              placeholder={t(`${R}.all_states`)}
              data={RECIPIENT_STATES.map((s) => ({ value: s, label: t(`${R}.states.${s}`) }))}
              value={state}
              onChange={(v) => {
                setState(v as TRecipientState | null);
                setPage(1);
              }}
              clearable
              w={180}
              data-testid="report-state-filter"
            />
            <SegmentedControl
              aria-label={t(`${R}.replied`)}
              data={[
                { value: 'any', label: t(`${R}.replied_any`) },
                { value: 'yes', label: t(`${R}.replied_yes`) },
                { value: 'no', label: t(`${R}.replied_no`) },
              ]}
              value={replied}
              onChange={(v) => {
                setReplied(v as Replied);
                setPage(1);
              }}
              data-testid="report-replied-filter"
            />
          </Group>
        </Group>
        <RecipientsTable report={data} />
        {data.meta.total > PER_PAGE && (
          <Group justify="flex-end" mt="sm">
            <Pagination
              total={Math.ceil(data.meta.total / PER_PAGE)}
              value={page}
              onChange={setPage}
              siblings={2}
              data-testid="report-pagination"
            />
          </Group>
        )}
      </Paper>
    </Stack>
  );
}

function Header({ broadcast }: { broadcast: TBroadcast }) {
  const { t } = useTranslation();
  const broadcasters = useBroadcasters();
  const chosen = (broadcasters.data ?? []).filter((b) =>
    broadcast.broadcaster_ids.length ? broadcast.broadcaster_ids.includes(b.id) : b.active,
  );
  return (
    <Stack gap={4}>
      <Anchor component={Link} to="/business/broadcast" size="sm" data-testid="report-back">
        {t(`${R}.back`)}
      </Anchor>
      <Group gap="sm">
        <Title order={2} data-testid="page-title">
          {broadcast.name}
        </Title>
        <Badge
          color={STATUS_COLORS[broadcast.status]}
          data-testid="report-status"
          data-status={broadcast.status}
        >
          {t(`${R}.statuses.${broadcast.status}`)}
        </Badge>
      </Group>
      <Group gap="lg" c="dimmed">
        <Text size="sm" data-testid="report-numbers">
          {t(`${R}.numbers`)}: {chosen.length ? chosen.map((b) => b.phone_number).join(', ') : '—'}
        </Text>
        <Text size="sm" data-testid="report-started">
          {t(`${R}.started`)}: {formatDate(broadcast.started_at, 'long')}
        </Text>
        <Text size="sm" data-testid="report-completed">
          {t(`${R}.completed_at`)}: {formatDate(broadcast.completed_at, 'long')}
        </Text>
      </Group>
    </Stack>
  );
}

function Stats({ broadcast }: { broadcast: TBroadcast }) {
  const { t } = useTranslation();
  const c = broadcast.counts;
  const done = c.sent + c.failed + c.skipped;
  const percent = c.total ? Math.round((done / c.total) * 100) : 0;
  const cards: [string, number, string][] = [
    [t(`${R}.recipients`), c.total, 'stat-total'],
    [t(`${R}.sent`), c.sent, 'stat-sent'],
    [t(`${R}.delivered`), c.delivered, 'stat-delivered'],
    [t(`${R}.failed`), c.failed, 'stat-failed'],
    [t(`${R}.skipped`), c.skipped, 'stat-skipped'],
    [t(`${R}.replied`), c.replied, 'stat-replied'],
    [t(`${R}.opted_out`), c.opted_out, 'stat-opted-out'],
    [t(`${R}.credits_used`), c.credits_used, 'stat-credits'],
  ];
  return (
    <Stack gap="xs">
      {(broadcast.status === 'sending' || broadcast.status === 'stopped') && (
        <div>
          <Progress
            value={percent}
            aria-label={t(`${R}.progress`, { percent })}
            animated={broadcast.status === 'sending'}
            data-testid="report-progress"
          />
          <Text size="xs" c="dimmed" mt={2}>
            {t(`${R}.progress_text`, { done, total: c.total })}
          </Text>
        </div>
      )}
      <SimpleGrid cols={{ base: 2, sm: 4 }} data-testid="report-stats">
        {cards.map(([label, value, testId]) => (
          <StatCard key={testId} label={label} value={value} testId={testId} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

function ReasonList(props: {
  title: string;
  rows: { key: string; text: string; count: number }[];
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={4} mb="sm">
        {props.title}
      </Title>
      {props.rows.length === 0 ? (
        <Text c="dimmed" size="sm" data-testid={`${props.testId}-empty`}>
          {t(`${R}.none`)}
        </Text>
      ) : (
        <Table data-testid={props.testId}>
          <Table.Tbody>
            {props.rows.map((r) => (
              <Table.Tr key={r.key} data-testid={`${props.testId}-${r.key}`}>
                <Table.Td>
                  {/^\d+$/.test(r.key) && (
                    <Text span c="dimmed" size="sm" mr={6}>
                      {r.key}
                    </Text>
                  )}
                  {r.text}
                </Table.Td>
                <Table.Td ta="right" fw={600}>
                  {r.count}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

function RecipientsTable({ report }: { report: TBroadcastReport }) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={860} type="native">
      <Table striped data-testid="report-recipients">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t(`${R}.name`)}</Table.Th>
            <Table.Th>{t(`${R}.phone`)}</Table.Th>
            <Table.Th>{t(`${R}.state`)}</Table.Th>
            <Table.Th>{t(`${R}.reason`)}</Table.Th>
            <Table.Th>{t(`${R}.sent`)}</Table.Th>
            <Table.Th>{t(`${R}.delivered`)}</Table.Th>
            <Table.Th>{t(`${R}.replied`)}</Table.Th>
            <Table.Th>{t(`${R}.reply`)}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {report.recipients.map((r) => (
            <Table.Tr key={r.id} data-testid={`report-recipient-${r.id}`} data-state={r.state}>
              <Table.Td>{r.name}</Table.Td>
              <Table.Td>{r.phone}</Table.Td>
              <Table.Td>
                <Badge color={STATE_COLORS[r.state]} variant="light">
                  {t(`${R}.states.${r.state}`)}
                </Badge>
              </Table.Td>
              <Table.Td>{recipientReason(r)}</Table.Td>
              <Table.Td>{r.sent_at ? formatDate(r.sent_at, 'short') : ''}</Table.Td>
              <Table.Td>{r.delivered_at ? formatDate(r.delivered_at, 'short') : ''}</Table.Td>
              <Table.Td>{r.replied_at ? formatDate(r.replied_at, 'short') : ''}</Table.Td>
              <Table.Td maw={260}>
                <Text size="sm" lineClamp={2} title={r.reply ?? undefined}>
                  {r.reply ?? ''}
                </Text>
                {r.asks_to_stop && (
                  <Badge color="orange" variant="light" size="xs" data-testid={`report-asks-to-stop-${r.id}`}>
                    {t(`${R}.asks_to_stop`)}
                  </Badge>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
          {report.recipients.length === 0 && <EmptyRow colSpan={8} text={t(`${R}.no_recipients`)} />}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Actions({ broadcast }: { broadcast: TBroadcast }) {
  const { t } = useTranslation();
  const id = broadcast.id;
  const [downloading, setDownloading] = useState(false);
  const [rerunOpen, setRerunOpen] = useState(false);
  const [tagOpen, setTagOpen] = useState(false);
  const [optedOut, setOptedOut] = useState<number | null>(null);
  const stop = useStopBroadcast(id);
  const refresh = useRefreshStatuses(id);
  const optout = useBulkOptout(id);
  const started = broadcast.status !== 'draft' && broadcast.status !== 'scheduled';
  const canStop = broadcast.status === 'sending' || broadcast.status === 'scheduled';
  const canRerun = ['stopped', 'completed', 'failed'].includes(broadcast.status);
  return (
    <Stack gap="xs">
      <Group gap="sm">
        <Button
          variant="light"
          loading={downloading}
          onClick={() => {
            setDownloading(true);
            downloadReport(id, broadcast.name)
              .catch(() => undefined)
              .finally(() => setDownloading(false));
          }}
          data-testid="report-download"
        >
          {t(`${R}.download`)}
        </Button>
        {started && (
          <Button
            variant="light"
            loading={refresh.isPending}
            onClick={() => refresh.mutate()}
            data-testid="report-refresh"
          >
            {t(`${R}.refresh`)}
          </Button>
        )}
        {canStop && (
          <Button
            color="red"
            variant="light"
            loading={stop.isPending}
            onClick={() =>
              confirmAction({
                title: t(`${R}.stop_title`),
                text: t(`${R}.stop_confirm`, { name: broadcast.name }),
                confirm: t(`${R}.stop`),
                onConfirm: () => stop.mutate(),
                testId: 'report-stop-confirm',
              })
            }
            data-testid="report-stop"
          >
            {t(`${R}.stop`)}
          </Button>
        )}
        {canRerun && (
          <Button variant="light" onClick={() => setRerunOpen(true)} data-testid="report-rerun">
            {t(`${R}.rerun`)}
          </Button>
        )}
        {started && (
          <Button variant="light" onClick={() => setTagOpen(true)} data-testid="report-tag">
            {t(`${R}.tag`)}
          </Button>
        )}
        {started && (
          <Button
            variant="light"
            color="orange"
            loading={optout.isPending}
            onClick={() =>
              confirmAction({
                title: t(`${R}.optout_title`),
                text: t(`${R}.optout_confirm`),
                confirm: t(`${R}.optout_ok`),
                onConfirm: () =>
                  optout.mutate(undefined, { onSuccess: (answer) => setOptedOut(countOf(answer) ?? 0) }),
                testId: 'report-optout-confirm',
              })
            }
            data-testid="report-optout"
          >
            {t(`${R}.optout`)}
          </Button>
        )}
      </Group>
      {optedOut !== null && (
        <Alert
          color="orange"
          withCloseButton
          onClose={() => setOptedOut(null)}
          data-testid="report-optout-result"
        >
          {t(`${R}.optout_done`, { count: optedOut })}
        </Alert>
      )}
      <RerunModal broadcast={broadcast} opened={rerunOpen} onClose={() => setRerunOpen(false)} />
      <TagModal id={id} opened={tagOpen} onClose={() => setTagOpen(false)} />
    </Stack>
  );
}

function RerunModal(props: { broadcast: TBroadcast; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [includeNew, setIncludeNew] = useState(false);
  const rerun = useRerunBroadcast(props.broadcast.id);
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={t(`${R}.rerun_title`)}>
      <Stack>
        <Text size="sm">{t(`${R}.rerun_text`, { name: props.broadcast.name })}</Text>
        <Checkbox
          label={t(`${R}.include_new`)}
          checked={includeNew}
          onChange={(e) => setIncludeNew(e.currentTarget.checked)}
          data-testid="report-rerun-include-new"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            loading={rerun.isPending}
            onClick={() => rerun.mutate({ include_new: includeNew }, { onSuccess: props.onClose })}
            data-testid="report-rerun-ok"
          >
            {t(`${R}.rerun`)}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function TagModal(props: { id: number; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [tagIds, setTagIds] = useState<string[]>([]);
  const [who, setWho] = useState<'recipients' | 'replied'>('recipients');
  const [error, setError] = useState<string | null>(null);
  const tag = useTagRecipients(props.id);
  const tags = useTagOptions();
  // The tags may have changed since the report opened (a tag made for this, in another tab).
  const { refetch } = tags;
  useEffect(() => {
    if (props.opened) void refetch();
  }, [props.opened, refetch]);
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={t(`${R}.tag_title`)}>
      <Stack>
        <SegmentedControl
          data={[
            { value: 'recipients', label: t(`${R}.tag_all`) },
            { value: 'replied', label: t(`${R}.tag_replied`) },
          ]}
          value={who}
          onChange={(v) => setWho(v as 'recipients' | 'replied')}
          data-testid="report-tag-who"
        />
        <MultiSelect
          label={t(`${R}.tags`)}
          data={(tags.data ?? []).map((tg) => ({ value: String(tg.id), label: tg.name }))}
          value={tagIds}
          onChange={(v) => {
            setTagIds(v);
            setError(null);
          }}
          error={error}
          searchable
          clearable
          data-testid="report-tag-picker"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            loading={tag.isPending}
            onClick={() => {
              if (tagIds.length === 0) return setError(t(`${R}.tag_required`));
              tag.mutate(
                { tag_ids: tagIds.map(Number), who },
                {
                  onSuccess: () => {
                    setTagIds([]);
                    props.onClose();
                  },
                },
              );
            }}
            data-testid="report-tag-ok"
          >
            {t(`${R}.tag_ok`)}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

import { Badge, Button, Checkbox, Group, Progress, Select, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { BROADCAST_STATUSES, type TBroadcast, type TBroadcastStatus } from '@stn/contracts/broadcasts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { askDelete, confirmAction } from '../../components/list/confirm.tsx';
import { type Column, DataTable } from '../../components/list/data-table.tsx';
import { ListHeader } from '../../components/list/list-header.tsx';
import { RowButtons } from '../../components/list/row-actions.tsx';
import { pathOf } from '../../lib/nav/route-table.ts';
import { keys } from '../../lib/query-keys.ts';
import { BROADCASTS_PATH, useBroadcastAction, useDeleteBroadcast } from './api/broadcasts.ts';
import { formatInZone } from './zoned-time.ts';

export const STATUS_COLORS: Record<TBroadcastStatus, string> = {
  draft: 'gray',
  scheduled: 'blue',
  sending: 'teal',
  stopped: 'orange',
  completed: 'green',
  failed: 'red',
};

/** Recipients done (sent, skipped or failed) of all, as a percentage. */
export function progressOf(b: Pick<TBroadcast, 'counts'>): number {
  const { total, sent, skipped, failed } = b.counts;
  return total > 0 ? Math.min(100, Math.round(((sent + skipped + failed) / total) * 100)) : 0;
}

const EDITABLE: readonly TBroadcastStatus[] = ['draft', 'scheduled'];
const STOPPABLE: readonly TBroadcastStatus[] = ['sending', 'scheduled'];
const RERUNNABLE: readonly TBroadcastStatus[] = ['stopped', 'completed', 'failed'];

/**
 * business.broadcast: the business's broadcasts with their status, progress and counts, searched and
 * filtered by status. Progress moves live: `broadcast_progress` events patch the cached rows
 * (lib/realtime.ts).
 */
export default function BroadcastsPage() {
  const { t, i18n } = useTranslation();
  const [status, setStatus] = useState<TBroadcastStatus | null>(null);
  const remove = useDeleteBroadcast();
  const stop = useBroadcastAction('stop');
  const rerun = useBroadcastAction('rerun');

  const columns: Column<TBroadcast>[] = [
    {
      key: 'name',
      title: t('business.broadcasts.name'),
      render: (b) => (
        <Text size="sm" fw={500} data-testid={`broadcast-name-${b.id}`}>
          {b.name}
        </Text>
      ),
    },
    {
      key: 'status',
      title: t('business.broadcasts.status'),
      render: (b) => (
        <Stack gap={2} align="flex-start">
          <Badge color={STATUS_COLORS[b.status]} variant="light" data-testid={`broadcast-status-${b.id}`}>
            {t(`business.broadcasts.statuses.${b.status}`)}
          </Badge>
          {b.failure && (
            // Why it failed (a locale key): e.g. its number is not registered for texting (ADR 092).
            <Text size="xs" c="red" maw={260} data-testid={`broadcast-failure-${b.id}`}>
              {i18n.exists(b.failure) ? t(b.failure) : b.failure}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'progress',
      title: t('business.broadcasts.progress'),
      width: 160,
      render: (b) => (
        <Stack gap={2}>
          <Progress
            value={progressOf(b)}
            size="sm"
            aria-label={t('business.broadcasts.progress')}
            data-testid={`broadcast-progress-${b.id}`}
            data-value={progressOf(b)}
          />
          <Text size="xs" c="dimmed">
            {t('business.broadcasts.progress_of', {
              done: b.counts.sent + b.counts.skipped + b.counts.failed,
              total: b.counts.total,
            })}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'counts',
      title: t('business.broadcasts.counts'),
      render: (b) => (
        <Text size="xs" data-testid={`broadcast-counts-${b.id}`}>
          {t('business.broadcasts.counts_line', {
            sent: b.counts.sent,
            delivered: b.counts.delivered,
            failed: b.counts.failed,
            replied: b.counts.replied,
          })}
        </Text>
      ),
    },
    {
      key: 'send_at',
      title: t('business.broadcasts.scheduled'),
      render: (b) => (
        <Text size="sm" data-testid={`broadcast-send-at-${b.id}`}>
          {b.send_at
            ? `${formatInZone(b.send_at, b.time_zone, i18n.language)} (${b.time_zone})`
            : b.started_at
              ? formatInZone(b.started_at, b.time_zone, i18n.language)
              : '—'}
        </Text>
      ),
    },
  ];

  const askStop = (b: TBroadcast) =>
    confirmAction({
      title: t('business.broadcasts.stop_title'),
      text: t('business.broadcasts.stop_confirm', { name: b.name }),
      confirm: t('business.broadcasts.stop'),
      testId: 'broadcast-stop-ok',
      onConfirm: () => stop.mutate({ id: b.id }),
    });
  const askRerun = (b: TBroadcast) => {
    // Optionally to contacts who joined the audience since (new members of its tags or installs).
    let includeNew = false;
    modals.openConfirmModal({
      title: t('business.broadcasts.rerun_title'),
      children: (
        <Stack gap="sm">
          <Text size="sm">{t('business.broadcasts.rerun_confirm', { name: b.name })}</Text>
          <Checkbox
            label={t('business.broadcasts.rerun_include_new')}
            onChange={(e) => {
              includeNew = e.currentTarget.checked;
            }}
            data-testid="broadcast-rerun-include-new"
          />
        </Stack>
      ),
      labels: { confirm: t('business.broadcasts.rerun'), cancel: t('common.cancel') },
      confirmProps: { 'data-testid': 'broadcast-rerun-ok' } as Record<string, string>,
      onConfirm: () => rerun.mutate({ id: b.id, include_new: includeNew }),
    });
  };

  return (
    <Stack>
      <ListHeader
        title={t('business.broadcasts.title')}
        add={{
          label: t('business.broadcasts.add'),
          to: pathOf('business.broadcast.create'),
          testId: 'broadcasts-add',
        }}
      />
      <Group justify="space-between" align="flex-end">
        <Select
          label={t('business.broadcasts.status')}
          placeholder={t('business.broadcasts.statuses.all')}
          data={BROADCAST_STATUSES.map((s) => ({ value: s, label: t(`business.broadcasts.statuses.${s}`) }))}
          value={status}
          onChange={(v) => setStatus(v as TBroadcastStatus | null)}
          clearable
          w={200}
          data-testid="broadcasts-status-filter"
        />
        <Button
          variant="default"
          component={Link}
          to={pathOf('business.setting.broadcast-numbers')}
          data-testid="broadcasts-numbers-link"
        >
          {t('business.broadcasts.numbers.title')}
        </Button>
      </Group>
      <DataTable<TBroadcast>
        path={BROADCASTS_PATH}
        queryKey={keys.broadcasts.lists()}
        filters={{ status: status ?? undefined }}
        columns={columns}
        empty={t('business.broadcasts.empty')}
        testId="broadcasts-table"
        minWidth={900}
        actions={(b) => (
          <RowButtons
            actions={[
              {
                label: t('business.broadcasts.edit'),
                to: pathOf('business.broadcast.edit', { id: b.id }),
                testId: `broadcast-edit-${b.id}`,
                hidden: !EDITABLE.includes(b.status),
              },
              {
                label: t('business.broadcasts.duplicate'),
                to: pathOf('business.broadcast.duplicate', { id: b.id }),
                testId: `broadcast-duplicate-${b.id}`,
              },
              {
                label: t('business.broadcasts.report'),
                to: pathOf('business.broadcast.report', { id: b.id }),
                testId: `broadcast-report-${b.id}`,
                hidden: b.status === 'draft',
              },
              {
                label: t('business.broadcasts.stop'),
                color: 'orange',
                onClick: () => askStop(b),
                testId: `broadcast-stop-${b.id}`,
                hidden: !STOPPABLE.includes(b.status),
              },
              {
                label: t('business.broadcasts.rerun'),
                onClick: () => askRerun(b),
                testId: `broadcast-rerun-${b.id}`,
                hidden: !RERUNNABLE.includes(b.status),
              },
              {
                label: t('business.common.delete'),
                color: 'red',
                onClick: () =>
                  askDelete(
                    [
                      'business.broadcasts.delete_title',
                      'business.broadcasts.delete_confirm',
                      'business.common.delete',
                    ],
                    { name: b.name },
                    () => remove.mutate(b.id),
                    'broadcast-delete-ok',
                  ),
                testId: `broadcast-delete-${b.id}`,
                hidden: b.status === 'sending',
              },
            ]}
          />
        )}
      />
    </Stack>
  );
}

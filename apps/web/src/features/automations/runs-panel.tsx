import { Badge, Code, Group, Modal, NativeSelect, Stack, Table, Text, Timeline } from '@mantine/core';
import { RUN_STATUSES, type TBlock, type TRun, type TRunStatus } from '@stn/contracts/automations';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmAction } from '../../components/list/confirm.tsx';
import { type Column, DataTable } from '../../components/list/data-table.tsx';
import { RowButtons } from '../../components/list/row-actions.tsx';
import { Loading } from '../../components/load-state.tsx';
import { formatDate } from '../../lib/format.ts';
import { keys } from '../../lib/query-keys.ts';
import { runsPath, useRun, useStopRun } from './api/automations.ts';

// An automation's runs: each contact's journey with its status and where it is, filtered by status or
// block; a journey opens step by step; a journey in progress can be stopped.

export const RUN_COLORS: Record<TRunStatus, string> = {
  active: 'blue',
  waiting: 'cyan',
  completed: 'green',
  stopped: 'orange',
  failed: 'red',
};
const LIVE: readonly TRunStatus[] = ['active', 'waiting'];

type RunRow = Omit<TRun, 'steps'>;

export function RunsPanel({ automationId, blocks }: { automationId: number; blocks: readonly TBlock[] }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState('');
  const [block, setBlock] = useState('');
  const [open, setOpen] = useState<number | null>(null);
  const stop = useStopRun();
  const blockName = (id: string | null) => {
    const b = blocks.find((x) => x.id === id);
    return b ? `${b.id} · ${t(`business.automations.kinds.${b.type}`)}` : (id ?? '—');
  };
  const columns: Column<RunRow>[] = [
    {
      key: 'contact',
      title: t('business.automations.run_contact'),
      render: (r) => (
        <Stack gap={0}>
          <Text size="sm">{r.contact_name || r.contact_phone}</Text>
          <Text size="xs" c="dimmed">
            {r.contact_phone}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'status',
      title: t('business.automations.run_status'),
      render: (r) => (
        <Badge color={RUN_COLORS[r.status]} variant="light" data-testid={`run-status-${r.id}`}>
          {t(`business.automations.run_statuses.${r.status}`)}
        </Badge>
      ),
    },
    { key: 'at', title: t('business.automations.run_at'), render: (r) => blockName(r.current_block) },
    {
      key: 'started',
      title: t('business.automations.run_started'),
      render: (r) => formatDate(r.started_at, 'long'),
    },
  ];
  return (
    <Stack>
      <Group>
        <NativeSelect
          label={t('business.automations.run_status')}
          data={[
            { value: '', label: t('business.automations.run_statuses.all') },
            ...RUN_STATUSES.map((s) => ({ value: s, label: t(`business.automations.run_statuses.${s}`) })),
          ]}
          value={status}
          onChange={(e) => setStatus(e.currentTarget.value)}
          data-testid="runs-status"
        />
        <NativeSelect
          label={t('business.automations.run_at')}
          data={[
            { value: '', label: t('business.automations.run_statuses.all') },
            ...blocks.map((b) => ({ value: b.id, label: blockName(b.id) })),
          ]}
          value={block}
          onChange={(e) => setBlock(e.currentTarget.value)}
          data-testid="runs-block"
        />
      </Group>
      <DataTable<RunRow>
        path={runsPath(automationId)}
        queryKey={keys.automations.runs(automationId)}
        filters={{ status: status || undefined, block_id: block || undefined }}
        columns={columns}
        empty={t('business.automations.runs_empty')}
        testId="runs-table"
        refetchInterval={10_000}
        actions={(r) => (
          <RowButtons
            actions={[
              {
                label: t('business.automations.journey'),
                onClick: () => setOpen(r.id),
                testId: `run-journey-${r.id}`,
              },
              {
                label: t('business.automations.stop'),
                color: 'orange',
                hidden: !LIVE.includes(r.status),
                testId: `run-stop-${r.id}`,
                onClick: () =>
                  confirmAction({
                    title: t('business.automations.stop_title'),
                    text: t('business.automations.stop_confirm', { name: r.contact_name || r.contact_phone }),
                    confirm: t('business.automations.stop'),
                    color: 'orange',
                    testId: 'run-stop-ok',
                    onConfirm: () => stop.mutate({ contactId: r.contact_id, automationId }),
                  }),
              },
            ]}
          />
        )}
      />
      <Modal
        opened={open !== null}
        onClose={() => setOpen(null)}
        title={t('business.automations.journey')}
        size="lg"
      >
        {open !== null && <Journey runId={open} blockName={blockName} />}
      </Modal>
    </Stack>
  );
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A step's detail value for people: a moment in the app's date format, the rest as it came. */
function detailText(v: unknown): string {
  if (typeof v === 'string') return ISO.test(v) ? formatDate(v, 'long') : v;
  return JSON.stringify(v);
}

/** One contact's journey, step by step: the block, what it did, the output it took. */
function Journey({ runId, blockName }: { runId: number; blockName: (id: string | null) => string }) {
  const { t } = useTranslation();
  const run = useRun(runId);
  if (!run.data) return <Loading />;
  const r = run.data;
  return (
    <Stack data-testid="run-journey">
      <Group>
        <Text fw={600}>{r.contact_name || r.contact_phone}</Text>
        <Badge color={RUN_COLORS[r.status]} variant="light">
          {t(`business.automations.run_statuses.${r.status}`)}
        </Badge>
        <Text size="xs" c="dimmed">
          {t(`business.automations.triggers.${r.trigger}`)} · {formatDate(r.started_at, 'long')}
        </Text>
      </Group>
      <Timeline bulletSize={14} lineWidth={2} active={r.steps.length - 1}>
        {r.steps.map((s) => (
          <Timeline.Item
            key={s.seq}
            color={s.status === 'failed' ? 'red' : s.status === 'done' ? 'green' : 'blue'}
            title={blockName(s.block_id)}
            data-testid={`run-step-${s.seq}`}
          >
            <Text size="xs">
              {t(`business.automations.step_statuses.${s.status}`)}
              {s.output ? ` → ${t(`business.automations.outputs.${s.output}`)}` : ''}
              {s.finished_at
                ? ` · ${formatDate(s.finished_at, 'long')}`
                : ` · ${formatDate(s.due_at, 'long')}`}
            </Text>
            {s.error && (
              <Text size="xs" c="red">
                {s.error}
              </Text>
            )}
            {Object.keys(s.detail).length > 0 && (
              <Table fz="xs" withRowBorders={false}>
                <Table.Tbody>
                  {Object.entries(s.detail).map(([k, v]) => (
                    <Table.Tr key={k}>
                      <Table.Td c="dimmed">{k}</Table.Td>
                      <Table.Td>
                        <Code>{detailText(v)}</Code>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Timeline.Item>
        ))}
      </Timeline>
    </Stack>
  );
}

import { Group, Table, Text } from '@mantine/core';
import type { TBroadcastReport } from '@stn/contracts/broadcasts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format.ts';
import { niceMax, ticks } from './chart-scale.ts';

type Bucket = TBroadcastReport['timeline'][number];

const W = 640;
const H = 200;
const PAD = { top: 12, right: 12, bottom: 28, left: 44 };
const SENT = 'var(--mantine-color-blue-3)';
const DELIVERED = 'var(--mantine-color-teal-7)';

/**
 * Deliveries over time, drawn by hand in SVG (no chart library in the web bundle): per bucket a bar of the
 * messages sent and, over it, one of those delivered. The SVG is an image with a title and a description;
 * the same figures are a table under it (ADR 065).
 */
export function TimelineChart({ timeline }: { timeline: Bucket[] }) {
  const { t } = useTranslation();
  const titleId = useId();
  const descId = useId();
  if (timeline.length === 0)
    return (
      <Text c="dimmed" size="sm" data-testid="report-timeline-empty">
        {t('business.broadcast_report.timeline_empty')}
      </Text>
    );
  const top = niceMax(Math.max(...timeline.map((b) => Math.max(b.sent, b.delivered))));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = innerW / timeline.length;
  const bar = Math.min(48, Math.max(1, slot * 0.7));
  const y = (v: number) => PAD.top + innerH - (v / top) * innerH;
  const totalSent = timeline.reduce((s, b) => s + b.sent, 0);
  const totalDelivered = timeline.reduce((s, b) => s + b.delivered, 0);
  const first = timeline[0] as Bucket;
  const last = timeline[timeline.length - 1] as Bucket;
  return (
    <div data-testid="report-timeline">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        width="100%"
        role="img"
        aria-labelledby={`${titleId} ${descId}`}
        style={{ maxWidth: W, display: 'block' }}
      >
        <title id={titleId}>{t('business.broadcast_report.timeline_title')}</title>
        <desc id={descId}>
          {t('business.broadcast_report.timeline_desc', {
            sent: totalSent,
            delivered: totalDelivered,
            from: formatDate(first.at, 'short'),
            to: formatDate(last.at, 'short'),
          })}
        </desc>
        {ticks(top).map((v) => (
          <g key={v}>
            <line
              x1={PAD.left}
              x2={W - PAD.right}
              y1={y(v)}
              y2={y(v)}
              stroke="var(--mantine-color-gray-3)"
              strokeWidth={1}
            />
            <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" fontSize={11} fill="currentColor">
              {v}
            </text>
          </g>
        ))}
        {timeline.map((b, i) => {
          const x = PAD.left + i * slot + (slot - bar) / 2;
          return (
            <g key={b.at} data-testid="report-timeline-bar">
              <rect x={x} y={y(b.sent)} width={bar} height={y(0) - y(b.sent)} fill={SENT} />
              <rect x={x} y={y(b.delivered)} width={bar} height={y(0) - y(b.delivered)} fill={DELIVERED} />
            </g>
          );
        })}
        <text x={PAD.left} y={H - 8} fontSize={11} fill="currentColor">
          {formatDate(first.at, 'short')}
        </text>
        {timeline.length > 1 && (
          <text x={W - PAD.right} y={H - 8} textAnchor="end" fontSize={11} fill="currentColor">
            {formatDate(last.at, 'short')}
          </text>
        )}
      </svg>
      <Group gap="md" mt={4} aria-hidden>
        <Legend color={SENT} label={t('business.broadcast_report.sent')} />
        <Legend color={DELIVERED} label={t('business.broadcast_report.delivered')} />
      </Group>
      <details>
        <summary>
          <Text span size="sm">
            {t('business.broadcast_report.timeline_table')}
          </Text>
        </summary>
        <Table data-testid="report-timeline-table" withTableBorder>
          <Table.Caption>{t('business.broadcast_report.timeline_title')}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('business.broadcast_report.time')}</Table.Th>
              <Table.Th>{t('business.broadcast_report.sent')}</Table.Th>
              <Table.Th>{t('business.broadcast_report.delivered')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {timeline.map((b) => (
              <Table.Tr key={b.at}>
                <Table.Td>{formatDate(b.at, 'short')}</Table.Td>
                <Table.Td>{b.sent}</Table.Td>
                <Table.Td>{b.delivered}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </details>
    </div>
  );
}

function Legend({ color, label }: { color: string; label: string }) {
  return (
    <Group gap={4}>
      <span style={{ width: 10, height: 10, background: color, display: 'inline-block', borderRadius: 2 }} />
      <Text size="xs">{label}</Text>
    </Group>
  );
}

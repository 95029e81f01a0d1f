import { Alert, Paper, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import type { TAnalyticsCounter, TAnalyticsCounters } from '@stn/contracts/analytics';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LiveCard } from './live-card.tsx';
import { refusalOf } from './range-control.tsx';

// The dashboards' figures: numbers in the user's language ('br' is Brazilian Portuguese to us, Breton to
// Intl), a stat card that carries its raw number for tests and tools (data-value), and the loading shape.

export const EMPTY = '—';

const intlLocale = (lang: string) => (lang === 'br' ? 'pt-BR' : lang);

/** Formatters for the current language: whole numbers, percentages, seconds and talk time. */
export function useFormat() {
  const { t, i18n } = useTranslation();
  const locale = intlLocale(i18n.language);
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
  return {
    number: (n: number) => number.format(n),
    /** part of whole as a percentage; "—" when there is no whole. */
    share: (part: number, whole: number) => (whole > 0 ? percent.format(part / whole) : EMPTY),
    seconds: (s: number | null) => (s === null ? EMPTY : t('dashboards.seconds', { n: number.format(s) })),
    /** Talk time as h:mm:ss (or m:ss). */
    duration: (total: number) => {
      const h = Math.floor(total / 3600);
      const m = Math.floor((total % 3600) / 60);
      const s = String(total % 60).padStart(2, '0');
      return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
    },
  };
}

/** One figure: its label, its value (formatted) and a line under it. */
export function Stat({
  id,
  label,
  value,
  raw,
  hint,
}: {
  id: string;
  label: string;
  value: string;
  /** The unformatted number (data-value), when the figure is one. */
  raw?: number | null;
  hint?: ReactNode;
}) {
  return (
    <Paper withBorder p="md" radius="md" data-testid={`card-${id}`}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text
        size="xl"
        fw={700}
        data-testid={`stat-${id}`}
        data-value={raw === undefined || raw === null ? undefined : String(raw)}
      >
        {value}
      </Text>
      {hint ? (
        <Text size="xs" c="dimmed" data-testid={`stat-${id}-hint`}>
          {hint}
        </Text>
      ) : null}
    </Paper>
  );
}

/** A chart's frame: its title and the chart (data-testid="chart-<id>"). */
export function ChartCard({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md" data-testid={`chart-${id}`}>
      <Text fw={600} mb="sm">
        {title}
      </Text>
      {children}
    </Paper>
  );
}

/** The dashboard's shape while its figures load. */
export function DashboardSkeleton() {
  return (
    <Stack data-testid="dashboard-loading">
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }}>
        {Array.from({ length: 10 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
          <Skeleton key={i} h={84} radius="md" />
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Skeleton h={260} radius="md" />
        <Skeleton h={260} radius="md" />
      </SimpleGrid>
    </Stack>
  );
}

/**
 * What both dashboards show under their range: the live card, the server's refusal, then the figures of the
 * answer (or their loading shape while the first one comes).
 */
export function DashboardBody<T>({
  query,
  children,
}: {
  query: { data: T | undefined; isPending: boolean; error: unknown };
  children: (data: T) => ReactNode;
}) {
  const alert = refusalOf(query.error)?.alert;
  return (
    <>
      <LiveCard />
      {alert ? (
        <Alert color="red" data-testid="analytics-error">
          {alert}
        </Alert>
      ) : null}
      {query.data ? children(query.data) : query.isPending ? <DashboardSkeleton /> : null}
    </>
  );
}

/** A stat card of one counter of a set of totals, with its raw number. */
export function useCounterStat(totals: TAnalyticsCounters) {
  const fmt = useFormat();
  return (id: TAnalyticsCounter, label: string, hint?: string) => (
    <Stat id={id} label={label} value={fmt.number(totals[id])} raw={totals[id]} hint={hint} />
  );
}

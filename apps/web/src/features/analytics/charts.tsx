import { AreaChart, BarChart } from '@mantine/charts';
import { Text } from '@mantine/core';
import type { TAnalyticsDay } from '@stn/contracts/analytics';
import { useTranslation } from 'react-i18next';
import { ChartCard, useFormat } from './figures.tsx';

// The dashboards' charts (Mantine charts over recharts). This file is imported only by the dashboard
// screens, which are lazy chunks: the chart library never reaches the sign-in page's bundle.

const H = 240;

/** Day labels as the user's language writes a short date (Mar 4, 4 mar.). */
function useDayLabel() {
  const { i18n } = useTranslation();
  const f = new Intl.DateTimeFormat(i18n.language === 'br' ? 'pt-BR' : i18n.language, {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
  return (day: string) => f.format(new Date(`${day}T00:00:00Z`));
}

/** Callbacks per day: requested, answered, missed. */
export function CallbacksChart({ days }: { days: TAnalyticsDay[] }) {
  const { t } = useTranslation();
  const label = useDayLabel();
  const fmt = useFormat();
  return (
    <ChartCard id="callbacks" title={t('dashboards.charts.callbacks')}>
      <AreaChart
        h={H}
        data={days.map((d) => ({
          day: label(d.day),
          requested: d.callbacks_requested,
          answered: d.callbacks_answered,
          missed: d.callbacks_missed,
        }))}
        dataKey="day"
        withLegend
        curveType="monotone"
        valueFormatter={fmt.number}
        series={[
          { name: 'requested', label: t('dashboards.series.requested'), color: 'blue.6' },
          { name: 'answered', label: t('dashboards.series.answered'), color: 'teal.6' },
          { name: 'missed', label: t('dashboards.series.missed'), color: 'red.6' },
        ]}
      />
    </ChartCard>
  );
}

/** Texts per day, received and sent. */
export function TextsChart({ days }: { days: TAnalyticsDay[] }) {
  const { t } = useTranslation();
  const label = useDayLabel();
  const fmt = useFormat();
  return (
    <ChartCard id="texts" title={t('dashboards.charts.texts')}>
      <BarChart
        h={H}
        data={days.map((d) => ({ day: label(d.day), in: d.texts_in, out: d.texts_out }))}
        dataKey="day"
        withLegend
        valueFormatter={fmt.number}
        series={[
          { name: 'in', label: t('dashboards.series.texts_in'), color: 'indigo.6' },
          { name: 'out', label: t('dashboards.series.texts_out'), color: 'cyan.6' },
        ]}
      />
    </ChartCard>
  );
}

/** Calls answered by local hour of the day, 0..23. */
export function HoursChart({ byHour }: { byHour: number[] }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  return (
    <ChartCard id="hours" title={t('dashboards.charts.hours')}>
      <BarChart
        h={H}
        data={byHour.map((n, hour) => ({ hour: String(hour), answered: n }))}
        dataKey="hour"
        valueFormatter={fmt.number}
        series={[{ name: 'answered', label: t('dashboards.series.answered'), color: 'teal.6' }]}
      />
    </ChartCard>
  );
}

/** Calls answered by weekday, Sunday first (as the API counts them), named in the user's language. */
export function WeekdaysChart({ byWeekday }: { byWeekday: number[] }) {
  const { t, i18n } = useTranslation();
  const fmt = useFormat();
  const name = new Intl.DateTimeFormat(i18n.language === 'br' ? 'pt-BR' : i18n.language, {
    weekday: 'short',
    timeZone: 'UTC',
  });
  // 2023-01-01 was a Sunday.
  const dayName = (i: number) => name.format(new Date(Date.UTC(2023, 0, 1 + i)));
  return (
    <ChartCard id="weekdays" title={t('dashboards.charts.weekdays')}>
      <BarChart
        h={H}
        data={byWeekday.map((n, i) => ({ weekday: dayName(i), answered: n }))}
        dataKey="weekday"
        valueFormatter={fmt.number}
        series={[{ name: 'answered', label: t('dashboards.series.answered'), color: 'teal.6' }]}
      />
    </ChartCard>
  );
}

export type LeadSources = { callback: number; text: number; booking: number; form: number };

/** New leads by where they came from. */
export function LeadsChart({ leads }: { leads: LeadSources }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const colors: Record<keyof LeadSources, string> = {
    callback: 'blue.6',
    text: 'indigo.6',
    booking: 'grape.6',
    form: 'orange.6',
  };
  const data = (Object.keys(colors) as (keyof LeadSources)[]).map((k) => ({
    source: t(`dashboards.leads.${k}`),
    leads: leads[k],
    color: colors[k],
  }));
  const total = data.reduce((s, d) => s + d.leads, 0);
  return (
    <ChartCard id="leads" title={t('dashboards.charts.leads')}>
      {total === 0 ? (
        <Text c="dimmed" size="sm" data-testid="chart-leads-empty">
          {t('dashboards.no_leads')}
        </Text>
      ) : null}
      <BarChart
        h={H}
        data={data}
        dataKey="source"
        valueFormatter={fmt.number}
        series={[{ name: 'leads', label: t('dashboards.stats.leads'), color: 'grape.6' }]}
      />
    </ChartCard>
  );
}

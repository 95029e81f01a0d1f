// The dashboards' figures (issue 24, ADR 081), read only from the daily rollups: a business's installs' rows
// in a range of local days, an agency's businesses' rows. Never a scan of the raw calls or messages.
import {
  ANALYTICS_COUNTERS,
  CONNECT_HIST_BINS,
  CONNECT_PROMISE_SECONDS,
  histogramPercentile,
  leadsOf,
  type TAgencyAnalytics,
  type TAgencyAnalyticsRequest,
  type TAnalyticsCounters,
  type TAnalyticsDay,
  type TBusinessAnalytics,
  type TBusinessAnalyticsRequest,
  type TConnectTimes,
} from '@stn/contracts/analytics';
import { type SQL, sql } from 'drizzle-orm';
import { toCsv } from '../../platform/http/csv.ts';
import { invalid } from '../../platform/http/errors.ts';
import { businessOf, type Ctx, targetAgency } from '../../platform/tenancy/context.ts';

export { type DayKey, rebuildDays, rebuildDirty } from './rollup.ts';

const SUMS = sql.raw(ANALYTICS_COUNTERS.map((c) => `coalesce(sum(${c}), 0)::int as ${c}`).join(', '));

type CounterRow = Record<string, unknown>;
const countersOf = (row: CounterRow | undefined): TAnalyticsCounters =>
  Object.fromEntries(ANALYTICS_COUNTERS.map((c) => [c, Number(row?.[c] ?? 0)])) as TAnalyticsCounters;

/** Every date from `from` to `to`, both included (YYYY-MM-DD). */
export function datesOf(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** The figures over a set of rollup rows: totals, days, distributions (`where` selects the rows). */
async function figuresOf(ctx: Ctx, where: SQL, range: { from: string; to: string }) {
  const [days, bins] = await Promise.all([
    ctx.db.execute<CounterRow & { day: string }>(
      sql`select day::text as day, ${SUMS} from analytics_daily where ${where} group by day order by day`,
    ),
    ctx.db.execute<{ series: number; bin: number; n: number }>(
      sql`select series, bin, sum(n)::int as n from analytics_bins where ${where} group by series, bin`,
    ),
  ]);
  const byDay = new Map(days.rows.map((r) => [r.day, countersOf(r)]));
  const series: TAnalyticsDay[] = datesOf(range.from, range.to).map((day) => ({
    day,
    ...(byDay.get(day) ?? countersOf(undefined)),
  }));
  const totals = countersOf(undefined);
  for (const d of series) for (const c of ANALYTICS_COUNTERS) totals[c] += d[c];
  const histogram = new Array<number>(CONNECT_HIST_BINS).fill(0);
  const byHour = new Array<number>(24).fill(0);
  for (const b of bins.rows) {
    if (b.series === 0 && b.bin >= 0 && b.bin < CONNECT_HIST_BINS) histogram[b.bin] = Number(b.n);
    if (b.series === 1 && b.bin >= 0 && b.bin < 24) byHour[b.bin] = Number(b.n);
  }
  const byWeekday = new Array<number>(7).fill(0);
  for (const d of series) {
    const dow = new Date(`${d.day}T00:00:00Z`).getUTCDay();
    byWeekday[dow] = (byWeekday[dow] ?? 0) + d.calls_answered;
  }
  return { totals, days: series, connect: connectOf(histogram), by_hour: byHour, by_weekday: byWeekday };
}

export function connectOf(histogram: number[]): TConnectTimes {
  const measured = histogram.reduce((a, b) => a + b, 0);
  return {
    median: histogramPercentile(histogram, 0.5),
    p90: histogramPercentile(histogram, 0.9),
    within_promise: histogram.slice(0, CONNECT_PROMISE_SECONDS).reduce((a, b) => a + b, 0),
    measured,
    histogram,
  };
}

/** The business's installs (not deleted), for the filter. */
async function installsOf(ctx: Ctx, businessId: number) {
  const { rows } = await ctx.db.execute<{ id: number; name: string }>(
    sql`select id, name from installs where business_id = ${businessId} and status <> 'deleted' order by id`,
  );
  return rows;
}

/** POST /v1/business/analytics: the business dashboard for a range of local days and some installs. */
export async function businessAnalytics(ctx: Ctx, q: TBusinessAnalyticsRequest): Promise<TBusinessAnalytics> {
  const { businessId } = businessOf(ctx);
  const installs = await installsOf(ctx, businessId);
  const chosen = [...new Set(q.install_ids ?? [])];
  if (chosen.length > 0) {
    const { rows } = await ctx.db.execute<{ n: number }>(
      sql`select count(*)::int as n from installs where business_id = ${businessId}
            and id = any(${sql.param(chosen)}::int[])`,
    );
    if ((rows[0]?.n ?? 0) !== chosen.length) throw invalid('install_ids', 'analytics.unknown_install');
  }
  const where = sql`business_id = ${businessId} and day between ${q.from}::date and ${q.to}::date${
    chosen.length > 0 ? sql` and install_id = any(${sql.param(chosen)}::int[])` : sql``
  }`;
  const [figures, agents] = await Promise.all([
    figuresOf(ctx, where, q),
    ctx.db.execute<{
      agent_user_id: number;
      agent_name: string;
      calls_answered: number;
      talk_seconds: number;
    }>(
      sql`select agent_user_id, max(agent_name) as agent_name, sum(calls_answered)::int as calls_answered,
            sum(talk_seconds)::int as talk_seconds
          from analytics_agent_daily where ${where}
          group by agent_user_id order by 3 desc, 1`,
    ),
  ]);
  return {
    from: q.from,
    to: q.to,
    install_ids: chosen,
    ...figures,
    agents: agents.rows.map((a) => ({ ...a, agent_name: a.agent_name ?? '' })),
    installs,
  };
}

/** The CSV of the business dashboard: one line per day, then the totals (the screen's figures). */
export async function businessAnalyticsCsv(ctx: Ctx, q: TBusinessAnalyticsRequest) {
  const a = await businessAnalytics(ctx, q);
  const header = ['day', ...ANALYTICS_COUNTERS, 'leads'];
  const line = (day: string, c: TAnalyticsCounters) => [
    day,
    ...ANALYTICS_COUNTERS.map((k) => c[k]),
    leadsOf(c),
  ];
  const csv = toCsv(header, [...a.days.map((d) => line(d.day, d)), line('total', a.totals)]);
  return { csv, filename: `analytics-${q.from}-${q.to}.csv` };
}

/** POST /v1/agency/business/analytics: the agency's businesses together, ranked, with their usage. */
export async function agencyAnalytics(
  ctx: Ctx,
  q: TAgencyAnalyticsRequest & { agency_id?: number },
): Promise<TAgencyAnalytics> {
  const agencyId = targetAgency(ctx, q.agency_id);
  const chosen = [...new Set(q.business_ids ?? [])];
  const { rows: businesses } = await ctx.db.execute<{
    id: number;
    name: string;
    calls: number;
    number_of_calls: number;
    messages: number;
    number_of_messages: number;
  }>(
    sql`select id, name, calls, number_of_calls, messages, number_of_messages from businesses
        where agency_id = ${agencyId} and deleted_at is null and status <> 'deleted'
        ${chosen.length > 0 ? sql`and id = any(${sql.param(chosen)}::int[])` : sql``}
        order by id`,
  );
  if (chosen.length > 0 && businesses.length !== chosen.length)
    throw invalid('business_ids', 'analytics.unknown_business');
  const where = sql`agency_id = ${agencyId} and day between ${q.from}::date and ${q.to}::date${
    chosen.length > 0 ? sql` and business_id = any(${sql.param(chosen)}::int[])` : sql``
  }`;
  const [figures, perBusiness] = await Promise.all([
    figuresOf(ctx, where, q),
    ctx.db.execute<CounterRow & { business_id: number }>(
      sql`select business_id, ${SUMS} from analytics_daily where ${where} group by business_id`,
    ),
  ]);
  const sums = new Map(perBusiness.rows.map((r) => [Number(r.business_id), countersOf(r)]));
  const capOf = (cap: number) => (cap > 0 ? cap : null);
  const ranked = businesses
    .map((b) => {
      const c = sums.get(b.id) ?? countersOf(undefined);
      return {
        business_id: b.id,
        name: b.name,
        ...c,
        leads: leadsOf(c),
        calls_used: b.number_of_calls,
        calls_cap: capOf(b.calls),
        messages_used: b.number_of_messages,
        messages_cap: capOf(b.messages),
      };
    })
    .sort(
      (x, y) => y.leads - x.leads || y.calls_answered - x.calls_answered || x.business_id - y.business_id,
    );
  const ratio = (used: number, cap: number | null) => (cap === null ? 0 : used / cap);
  const worst = (b: (typeof ranked)[number]) =>
    Math.max(ratio(b.calls_used, b.calls_cap), ratio(b.messages_used, b.messages_cap));
  return {
    from: q.from,
    to: q.to,
    ...figures,
    businesses: ranked,
    at_limit: ranked.filter((b) => worst(b) >= 1).length,
    near_limit: ranked.filter((b) => worst(b) >= 0.9 && worst(b) < 1).length,
  };
}

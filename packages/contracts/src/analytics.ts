import { isIsoDate } from './contacts.ts';
import { z } from './zod.ts';

// Analytics (issue 24, ADR 081): the business dashboard (`POST /v1/business/analytics`, its CSV at
// `GET /v1/business/analytics/export`) and the agency dashboard (`POST /v1/agency/business/analytics`). Every
// figure is read from daily rollups per install and local day (the install's time zone), so a range of dates
// is a range of local days.

/** The instant-callback promise: the visitor is connected within this many seconds (spec 000 §1). */
export const CONNECT_PROMISE_SECONDS = 14;
/** Time to connect is kept as whole seconds 0..120, then one bin for anything longer. */
export const CONNECT_HIST_MAX = 120;
export const CONNECT_HIST_BINS = CONNECT_HIST_MAX + 2;
/** The longest range a dashboard reads (days, both ends included). */
export const ANALYTICS_MAX_DAYS = 366;

/**
 * The counters of a day (and of a range, summed). The order is the CSV's column order.
 * - callbacks_*: instant callbacks asked for through the widget (answered = the visitor was connected;
 *   missed = nobody on staff claimed it in time);
 * - scheduled_calls: calls booked (on the day they were booked); inbound_*: calls to the install's number;
 * - calls_answered, talk_seconds: every call connected, and its length;
 * - texts_in/out, segments_out: texts received and sent (sent = not scheduled or canceled);
 * - conversations_started: contacts whose first text ever was that day; opt_outs: contacts who opted out that
 *   day (and still are);
 * - leads_*: new leads by source (callback asked, conversation started by the visitor's text, call booked,
 *   lead form sent);
 * - broadcast_texts, automation_texts: texts sent by broadcasts and by automations.
 */
export const ANALYTICS_COUNTERS = [
  'callbacks_requested',
  'callbacks_answered',
  'callbacks_missed',
  'scheduled_calls',
  'inbound_calls',
  'inbound_answered',
  'calls_answered',
  'talk_seconds',
  'texts_in',
  'texts_out',
  'segments_out',
  'conversations_started',
  'opt_outs',
  'leads_callback',
  'leads_text',
  'leads_booking',
  'leads_form',
  'broadcast_texts',
  'automation_texts',
] as const;
export type TAnalyticsCounter = (typeof ANALYTICS_COUNTERS)[number];
export type TAnalyticsCounters = Record<TAnalyticsCounter, number>;

const zCounters = z.object(
  Object.fromEntries(ANALYTICS_COUNTERS.map((k) => [k, z.number().int()])) as Record<
    TAnalyticsCounter,
    z.ZodNumber
  >,
);

const zDay = () =>
  z
    .string()
    .trim()
    .refine((v) => isIsoDate(v), { message: 'analytics.date_format' });

/** Days between two YYYY-MM-DD dates (to - from). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

type TRange = { from: string; to: string };
const rangeOrdered = (r: TRange) => !isIsoDate(r.from) || !isIsoDate(r.to) || daysBetween(r.from, r.to) >= 0;
const rangeShort = (r: TRange) =>
  !isIsoDate(r.from) || !isIsoDate(r.to) || daysBetween(r.from, r.to) < ANALYTICS_MAX_DAYS;

/** A range of local days with more fields: the end not before the start, at most ANALYTICS_MAX_DAYS days. */
const zRange = <T extends z.ZodRawShape>(extra: T) =>
  z
    .object({ from: zDay(), to: zDay() })
    .extend(extra)
    .refine((r) => rangeOrdered(r as TRange), { message: 'analytics.range_order', path: ['to'] })
    .refine((r) => rangeShort(r as TRange), { message: 'analytics.range_too_long', path: ['to'] });

/** The business dashboard's question: a range of local days and, optionally, some of its installs. */
export const ZBusinessAnalyticsRequest = zRange({
  install_ids: z.array(z.number().int().positive()).max(200).optional(),
});
export type TBusinessAnalyticsRequest = z.infer<typeof ZBusinessAnalyticsRequest>;

/** The CSV export's query string: the same question (install_ids comma separated). */
export const ZBusinessAnalyticsExportQuery = zRange({
  install_ids: z
    .string()
    .regex(/^\d+(,\d+)*$/, { message: 'analytics.installs_format' })
    .optional(),
});

/** The agency dashboard's question: a range and, optionally, some of its businesses. */
export const ZAgencyAnalyticsRequest = zRange({
  business_ids: z.array(z.number().int().positive()).max(1000).optional(),
});
export type TAgencyAnalyticsRequest = z.infer<typeof ZAgencyAnalyticsRequest>;

/** Time to connect of the answered instant callbacks, whole seconds (null when none was answered). */
export const ZConnectTimes = z.object({
  median: z.number().int().nullable(),
  p90: z.number().int().nullable(),
  /** Answered callbacks connected within the promise, and how many were measured. */
  within_promise: z.number().int(),
  measured: z.number().int(),
  /** Histogram of whole seconds 0..CONNECT_HIST_MAX, the last bin longer. */
  histogram: z.array(z.number().int()),
});
export type TConnectTimes = z.infer<typeof ZConnectTimes>;

export const ZAnalyticsDay = zCounters.extend({ day: z.string() });
export type TAnalyticsDay = z.infer<typeof ZAnalyticsDay>;

export const ZBusinessAnalytics = z.object({
  from: z.string(),
  to: z.string(),
  install_ids: z.array(z.number().int()),
  totals: zCounters,
  connect: ZConnectTimes,
  /** Every day of the range, in order (zeros where nothing happened). */
  days: z.array(ZAnalyticsDay),
  /** Calls answered by local hour 0..23 and by weekday 0 (Sunday)..6. */
  by_hour: z.array(z.number().int()),
  by_weekday: z.array(z.number().int()),
  agents: z.array(
    z.object({
      agent_user_id: z.number().int(),
      agent_name: z.string(),
      calls_answered: z.number().int(),
      talk_seconds: z.number().int(),
    }),
  ),
  /** The business's installs, for the filter. */
  installs: z.array(z.object({ id: z.number().int(), name: z.string() })),
});
export type TBusinessAnalytics = z.infer<typeof ZBusinessAnalytics>;

/** One business in the agency's ranking (by leads, then callbacks answered). */
export const ZAgencyBusinessFigures = zCounters.extend({
  business_id: z.number().int(),
  name: z.string(),
  leads: z.number().int(),
  /** Usage of the current month against the plan's caps (null cap: no cap). */
  calls_used: z.number().int(),
  calls_cap: z.number().int().nullable(),
  messages_used: z.number().int(),
  messages_cap: z.number().int().nullable(),
});
export type TAgencyBusinessFigures = z.infer<typeof ZAgencyBusinessFigures>;

export const ZAgencyAnalytics = z.object({
  from: z.string(),
  to: z.string(),
  totals: zCounters,
  connect: ZConnectTimes,
  days: z.array(ZAnalyticsDay),
  by_hour: z.array(z.number().int()),
  by_weekday: z.array(z.number().int()),
  businesses: z.array(ZAgencyBusinessFigures),
  /** Businesses at or over a cap, and at 90% of one. */
  at_limit: z.number().int(),
  near_limit: z.number().int(),
});
export type TAgencyAnalytics = z.infer<typeof ZAgencyAnalytics>;

/** Leads of a set of counters: every source. */
export const leadsOf = (c: TAnalyticsCounters) =>
  c.leads_callback + c.leads_text + c.leads_booking + c.leads_form;

/**
 * The nearest-rank percentile of a histogram of whole seconds (as PostgreSQL's percentile_disc): the first
 * bin where the running count reaches p of the total. Null for an empty histogram.
 */
export function histogramPercentile(hist: readonly number[], p: number): number | null {
  const total = hist.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  let run = 0;
  for (let i = 0; i < hist.length; i++) {
    run += hist[i] ?? 0;
    if (run >= p * total) return i;
  }
  return hist.length - 1;
}

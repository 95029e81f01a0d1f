import { date, index, integer, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import { tz } from '../../platform/db/columns.ts';

// The analytics module's tables (issue 24, ADR 081): daily rollups per install and local day, rebuilt from the
// raw rows (calls, messages, contacts, lead submissions, automation steps), never incremented. Install 0 holds
// what belongs to no install (a text sent from a number of no install, an automation's text), on the local days
// of the business's time zone (its first install's). Only this module writes them.

const counter = (name: string) => integer(name).notNull().default(0);

export const analyticsDaily = pgTable(
  'analytics_daily',
  {
    business_id: integer('business_id').notNull(),
    install_id: integer('install_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    agency_id: integer('agency_id').notNull(),
    callbacks_requested: counter('callbacks_requested'),
    callbacks_answered: counter('callbacks_answered'),
    callbacks_missed: counter('callbacks_missed'),
    scheduled_calls: counter('scheduled_calls'),
    inbound_calls: counter('inbound_calls'),
    inbound_answered: counter('inbound_answered'),
    calls_answered: counter('calls_answered'),
    talk_seconds: counter('talk_seconds'),
    texts_in: counter('texts_in'),
    texts_out: counter('texts_out'),
    segments_out: counter('segments_out'),
    conversations_started: counter('conversations_started'),
    opt_outs: counter('opt_outs'),
    leads_callback: counter('leads_callback'),
    leads_text: counter('leads_text'),
    leads_booking: counter('leads_booking'),
    leads_form: counter('leads_form'),
    broadcast_texts: counter('broadcast_texts'),
    automation_texts: counter('automation_texts'),
    built_at: tz('built_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.business_id, t.install_id, t.day] }),
    // An agency's dashboard reads every counter of its businesses' rows in a range: the index holds them all
    // (an index-only scan of one contiguous range instead of a heap page per row).
    index('analytics_daily_agency_idx').on(
      t.agency_id,
      t.day,
      t.business_id,
      t.callbacks_requested,
      t.callbacks_answered,
      t.callbacks_missed,
      t.scheduled_calls,
      t.inbound_calls,
      t.inbound_answered,
      t.calls_answered,
      t.talk_seconds,
      t.texts_in,
      t.texts_out,
      t.segments_out,
      t.conversations_started,
      t.opt_outs,
      t.leads_callback,
      t.leads_text,
      t.leads_booking,
      t.leads_form,
      t.broadcast_texts,
      t.automation_texts,
    ),
  ],
);

/**
 * Distributions of a day, sparse: series 0 is the time to connect of answered callbacks (bin = whole seconds,
 * 0..120, 121 longer), series 1 the calls answered by local hour (bin 0..23). A range's distribution is one
 * grouped sum of its rows.
 */
export const analyticsBins = pgTable(
  'analytics_bins',
  {
    business_id: integer('business_id').notNull(),
    install_id: integer('install_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    agency_id: integer('agency_id').notNull(),
    series: smallint('series').notNull(),
    bin: smallint('bin').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.business_id, t.install_id, t.day, t.series, t.bin] }),
    index('analytics_bins_agency_idx').on(t.agency_id, t.day, t.series, t.bin, t.n),
  ],
);

/** Calls answered and talk time per agent, install and local day. */
export const analyticsAgentDaily = pgTable(
  'analytics_agent_daily',
  {
    business_id: integer('business_id').notNull(),
    install_id: integer('install_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    agent_user_id: integer('agent_user_id').notNull(),
    agent_name: text('agent_name').notNull().default(''),
    calls_answered: counter('calls_answered'),
    talk_seconds: counter('talk_seconds'),
  },
  (t) => [primaryKey({ columns: [t.business_id, t.install_id, t.day, t.agent_user_id] })],
);

/** Days to rebuild: marked by events and by the sweep, taken by the rollup job. */
export const analyticsDirty = pgTable(
  'analytics_dirty',
  {
    business_id: integer('business_id').notNull(),
    install_id: integer('install_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    marked_at: tz('marked_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.business_id, t.install_id, t.day] })],
);

/** The sweep's watermark per source table (what changed since it last looked). */
export const analyticsWatermarks = pgTable('analytics_watermarks', {
  source: text('source').primaryKey(),
  seen_until: tz('seen_until').notNull(),
});

/**
 * Report e-mails sent (ADR 084): one row per business, schedule and period, inserted in the transaction that
 * puts the mails in the outbox, so that a retried or repeated job never sends a period twice.
 */
export const analyticsReportRuns = pgTable(
  'analytics_report_runs',
  {
    business_id: integer('business_id').notNull(),
    schedule: text('schedule').$type<'daily' | 'weekly' | 'monthly'>().notNull(),
    period_from: date('period_from', { mode: 'string' }).notNull(),
    period_to: date('period_to', { mode: 'string' }).notNull(),
    recipients: integer('recipients').notNull().default(0),
    sent_at: tz('sent_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.business_id, t.schedule, t.period_from] })],
);

import type { TAutomationOptions, TBlock, TTrigger } from '@stn/contracts/automations';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { timestamps, tz } from '../../platform/db/columns.ts';
import { tenantKeys } from '../businesses/tables.ts';

// The automations module's tables (ADR 067): the automations (a trigger and a graph of blocks), their runs
// (one journey of one contact, a state machine: the block it is at, its variables) and the runs' steps
// (one row a block reached: the unit of exactly-once work, keyed by run and sequence).

export const automations = pgTable(
  'automations',
  {
    id: serial('id').primaryKey(),
    ...tenantKeys(),
    name: text('name').notNull(),
    /** The trigger's kind (contracts' TRIGGER_KINDS), kept beside `trigger` for the listeners' lookups. */
    start_trigger: text('start_trigger').notNull(),
    trigger: jsonb('trigger').$type<TTrigger>().notNull(),
    active: boolean('active').notNull().default(false),
    blocks: jsonb('blocks').$type<TBlock[]>().notNull().default([]),
    options: jsonb('options').$type<TAutomationOptions>().notNull(),
    installs: jsonb('installs').$type<number[]>().notNull().default([]),
    tags: jsonb('tags').$type<number[]>().notNull().default([]),
    /** The unique inbound URL's token (webhook and home-advisor triggers). */
    webhook_token: text('webhook_token'),
    /** The share link's token (`/business/automation/{token}/share`). */
    share_token: text('share_token').notNull(),
    /** Each save + 1: a run remembers the version it walks. */
    version: integer('version').notNull().default(1),
    created_by: integer('created_by'),
    deleted_at: tz('deleted_at'),
    ...timestamps,
  },
  (t) => [
    index('automations_business_idx').on(t.business_id, t.created_at),
    index('automations_trigger_idx')
      .on(t.business_id, t.start_trigger)
      .where(sql`${t.active} and ${t.deleted_at} is null`),
    uniqueIndex('automations_webhook_token_uq').on(t.webhook_token),
    uniqueIndex('automations_share_token_uq').on(t.share_token),
  ],
);

/**
 * One journey of one contact through an automation. `status`: active (a step is due or being worked),
 * waiting (a Wait, a ProcessBetween window or a CollectContactData answer), completed, stopped, failed.
 * `entry_key` makes an entry idempotent (the same missed call, the same day's birthday enter once).
 */
export const automationRuns = pgTable(
  'automation_runs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ...tenantKeys(),
    automation_id: integer('automation_id').notNull(),
    contact_id: integer('contact_id').notNull(),
    status: text('status').notNull().default('active'),
    trigger: text('trigger').notNull(),
    /** What the trigger said (the call id, the text, the webhook's fields). */
    trigger_data: jsonb('trigger_data').$type<Record<string, unknown>>().notNull().default({}),
    entry_key: text('entry_key').notNull(),
    current_block: text('current_block'),
    /** The run's variables (collected answers, the last call's outcome...). */
    vars: jsonb('vars').$type<Record<string, unknown>>().notNull().default({}),
    version: integer('version').notNull().default(1),
    started_at: tz('started_at').notNull().defaultNow(),
    finished_at: tz('finished_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('automation_runs_entry_uq').on(t.automation_id, t.contact_id, t.entry_key),
    // At most one journey of a contact in an automation at a time.
    uniqueIndex('automation_runs_live_uq')
      .on(t.automation_id, t.contact_id)
      .where(sql`${t.status} in ('active', 'waiting')`),
    index('automation_runs_contact_idx').on(t.contact_id),
    index('automation_runs_automation_idx').on(t.automation_id, t.status),
  ],
);

/**
 * A block reached by a run: the engine's job row. Its key is (run_id, seq), so a step's effect is written
 * once whatever worker works it. `status`: pending (due at `due_at`), running (claimed by a worker at
 * `claimed_at`), waiting (for an answer until `due_at`), done, failed, skipped.
 */
export const automationSteps = pgTable(
  'automation_steps',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    run_id: bigint('run_id', { mode: 'number' }).notNull(),
    business_id: integer('business_id').notNull(),
    automation_id: integer('automation_id').notNull(),
    seq: integer('seq').notNull(),
    block_id: text('block_id').notNull(),
    type: text('type').notNull(),
    status: text('status').notNull().default('pending'),
    output: text('output'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    due_at: tz('due_at').notNull().defaultNow(),
    claimed_at: tz('claimed_at'),
    /**
     * The engine instance (worker process) that claimed it: it holds a session advisory lock on that id
     * while alive, so a `running` step whose claimer's lock is gone was left by a dead worker (ADR 068).
     */
    claimed_by: integer('claimed_by'),
    /** A waiting step an inbound text of the contact wakes early (CollectContactData). */
    answer_wait: boolean('answer_wait').notNull().default(false),
    /** The inbound text that woke it (then `pending`, due now). */
    answer: text('answer'),
    finished_at: tz('finished_at'),
    created_at: tz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('automation_steps_key_uq').on(t.run_id, t.seq),
    index('automation_steps_due_idx').on(t.due_at).where(sql`${t.status} in ('pending', 'waiting')`),
    index('automation_steps_running_idx').on(t.claimed_by).where(sql`${t.status} = 'running'`),
    index('automation_steps_block_idx').on(t.automation_id, t.block_id, t.status),
    // The texts automations sent, by message and by time: the analytics rollups count them (ADR 081).
    index('automation_steps_message_idx')
      .on(sql`(${t.detail}->>'message_id')`)
      .where(sql`${t.type} = 'SendMessage'`),
    index('automation_steps_finished_idx').on(t.finished_at).where(sql`${t.type} = 'SendMessage'`),
  ],
);

import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { timestamps, tz } from '../../platform/db/columns.ts';
import { tenantKeys } from '../businesses/tables.ts';

// The broadcasts module's tables (ADR 061): the business's sending numbers (broadcasters), its broadcasts,
// each broadcast's recipient snapshot (one row a recipient: the unit of exactly-once sending), and the
// throttle's next free slot per sending number, shared by every worker process.

export type BroadcastMedia = { url: string; content_type: string; size: number; name: string };
export type BroadcastAudienceRow = {
  tag_ids: number[];
  exclude_tag_ids: number[];
  install_ids: number[];
  contact_ids: number[];
};

/** A number of the business chosen for broadcasts (setting/broadcast-numbers). */
export const broadcasters = pgTable(
  'broadcasters',
  {
    id: serial('id').primaryKey(),
    ...tenantKeys(),
    /** The telephony module's number. */
    number_id: integer('number_id').notNull(),
    phone_number: text('phone_number').notNull(),
    /** long_code, toll_free, 10dlc_low, 10dlc_mid, 10dlc_high: its default rate (contracts' BROADCASTER_RATES). */
    kind: text('kind').notNull().default('long_code'),
    /** Messages a second, when the business set its own. */
    custom_rate: real('custom_rate'),
    active: boolean('active').notNull().default(true),
    ...timestamps,
  },
  (t) => [uniqueIndex('broadcasters_number_uq').on(t.business_id, t.number_id)],
);

export const broadcasts = pgTable(
  'broadcasts',
  {
    id: serial('id').primaryKey(),
    ...tenantKeys(),
    name: text('name').notNull(),
    /** draft, scheduled, sending, stopped, completed, failed. */
    status: text('status').notNull().default('draft'),
    body: text('body').notNull().default(''),
    media: jsonb('media').$type<BroadcastMedia[]>().notNull().default([]),
    template_id: integer('template_id'),
    audience: jsonb('audience').$type<BroadcastAudienceRow>().notNull(),
    /** Broadcaster ids; empty: every active broadcaster of the business. */
    broadcaster_ids: jsonb('broadcaster_ids').$type<number[]>().notNull().default([]),
    send_at: tz('send_at'),
    /** Each start or rerun is a new run: a job of an earlier run finds nothing to do. */
    run: integer('run').notNull().default(0),
    credits_estimated: integer('credits_estimated').notNull().default(0),
    started_at: tz('started_at'),
    completed_at: tz('completed_at'),
    /** Why it failed (a key of the broadcasts texts), when it did. */
    failure: text('failure'),
    created_by: integer('created_by'),
    deleted_at: tz('deleted_at'),
    ...timestamps,
  },
  (t) => [index('broadcasts_business_idx').on(t.business_id, t.created_at)],
);

/**
 * One recipient of a broadcast, written with the broadcast's start (the snapshot). Its state moves
 * pending → sending (claimed by a worker, `claimed_at`) → sent (the carrier's sid) → delivered / failed;
 * or pending → skipped with a reason. A recipient claimed by a worker that died is looked up at the
 * carrier before it is sent again (ADR 061), so each gets at most one message.
 */
export const broadcastRecipients = pgTable(
  'broadcast_recipients',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    broadcast_id: integer('broadcast_id')
      .notNull()
      .references(() => broadcasts.id, { onDelete: 'cascade' }),
    business_id: integer('business_id').notNull(),
    contact_id: integer('contact_id'),
    phone: text('phone').notNull(),
    name: text('name').notNull().default(''),
    install_id: integer('install_id'),
    /** pending, sending, sent, delivered, failed, skipped. */
    state: text('state').notNull().default('pending'),
    skip_reason: text('skip_reason'),
    /** The recipient's time zone (contact's, else the phone's area code's, else the business's). */
    time_zone: text('time_zone'),
    /** When it may be sent: the start, or 08:00 local when quiet hours deferred it. */
    due_at: tz('due_at').notNull(),
    broadcaster_id: integer('broadcaster_id'),
    from_number: text('from_number'),
    claimed_at: tz('claimed_at'),
    attempts: integer('attempts').notNull().default(0),
    /** The chats module's message (the conversation's row). */
    message_id: integer('message_id'),
    carrier_sid: text('carrier_sid'),
    error_code: integer('error_code'),
    error_message: text('error_message'),
    credits: integer('credits').notNull().default(0),
    sent_at: tz('sent_at'),
    delivered_at: tz('delivered_at'),
    replied_at: tz('replied_at'),
    opted_out_at: tz('opted_out_at'),
    created_at: tz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('broadcast_recipients_phone_uq').on(t.broadcast_id, t.phone),
    /** A send job's claim: the due pending recipients of one number of a broadcast, oldest first (ADR 061). */
    index('broadcast_recipients_due_idx')
      .on(t.broadcast_id, t.from_number, t.due_at)
      .where(sql`${t.state} = 'pending'`),
    index('broadcast_recipients_state_idx').on(t.broadcast_id, t.state),
    index('broadcast_recipients_contact_idx').on(t.contact_id),
    index('broadcast_recipients_message_idx').on(t.message_id),
  ],
);

/** The throttle: the next time each sending number may send (E.164), shared by every process. */
export const sendSlots = pgTable('broadcast_send_slots', {
  phone_number: text('phone_number').primaryKey(),
  next_at: tz('next_at').notNull(),
});

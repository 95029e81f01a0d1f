import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps, tz } from '../../platform/db/columns.ts';
import { businesses, tenantKeys } from '../businesses/tables.ts';
import { installs } from '../installs/tables.ts';

// The telephony module's tables: the business's carrier numbers, the calls it makes and receives (one row
// per callback, scheduled call or inbound call, and one row per carrier call leg), voicemails, and the
// webhook deliveries already handled (idempotency on the carrier's retries). Times are UTC; numbers E.164.

/** A number of the business: bought from the carrier, its own landline (texting), or a verified caller id. */
export const numbers = pgTable(
  'numbers',
  {
    id: serial('id').primaryKey(),
    ...tenantKeys(),
    install_id: integer('install_id').references(() => installs.id, { onDelete: 'set null' }),
    phone_number: text('phone_number').notNull(),
    friendly_name: text('friendly_name').notNull().default(''),
    kind: text('kind').$type<'purchased' | 'landline' | 'caller_id'>().notNull(),
    /** The carrier's sid: PN... for a purchased number, CA/PN... of the caller id once validated. */
    carrier_sid: text('carrier_sid'),
    capabilities: jsonb('capabilities')
      .$type<{ voice: boolean; sms: boolean; mms: boolean }>()
      .notNull()
      .default({ voice: true, sms: true, mms: false }),
    verified: boolean('verified').notNull().default(false),
    /** The validation code the carrier's call asks for, while a verification is pending. */
    validation_code: text('validation_code'),
    sms_enabled: boolean('sms_enabled').notNull().default(true),
    released_at: tz('released_at'),
    ...timestamps,
  },
  (t) => [
    // One live row per number and kind in a business; a released number may be bought again.
    uniqueIndex('numbers_live_uq')
      .on(t.business_id, t.phone_number, t.kind)
      .where(sql`${t.released_at} is null`),
    index('numbers_phone_idx').on(t.phone_number),
    index('numbers_install_idx').on(t.install_id),
  ],
);

/**
 * A call as the business sees it: a callback requested through the widget, a scheduled call, or an
 * inbound call to an install's number. Its legs (staff phones, the visitor) are `call_legs`.
 */
export const calls = pgTable(
  'calls',
  {
    id: serial('id').primaryKey(),
    ...tenantKeys(),
    install_id: integer('install_id')
      .notNull()
      .references(() => installs.id),
    kind: text('kind').$type<'callback' | 'scheduled' | 'inbound'>().notNull(),
    outcome: text('outcome')
      .$type<'in_progress' | 'completed' | 'missed' | 'no_answer' | 'scheduled' | 'canceled' | 'failed'>()
      .notNull(),
    visitor_phone: text('visitor_phone').notNull(),
    visitor_name: text('visitor_name'),
    visitor_email: text('visitor_email'),
    visitor_ip: text('visitor_ip'),
    department_id: integer('department_id'),
    /** The number the carrier calls from (the install's number) and the caller id the visitor sees. */
    from_number: text('from_number'),
    caller_id: text('caller_id'),
    /** The staff member who claimed it. */
    agent_user_id: integer('agent_user_id'),
    agent_name: text('agent_name'),
    agent_phone: text('agent_phone'),
    /** The staff leg that claimed it: the one claim, taken atomically. */
    claimed_leg_sid: text('claimed_leg_sid'),
    requested_at: tz('requested_at').notNull().defaultNow(),
    scheduled_for: tz('scheduled_for'),
    claimed_at: tz('claimed_at'),
    connected_at: tz('connected_at'),
    ended_at: tz('ended_at'),
    duration: integer('duration'),
    recording_sid: text('recording_sid'),
    recording_url: text('recording_url'),
    recording_duration: integer('recording_duration'),
    /** Round-robin and in-order ringing: who is next, and who has been tried. */
    ring_state: jsonb('ring_state').$type<Record<string, unknown>>().notNull().default({}),
    /** Counted against the business's monthly calls once (when staff are first rung). */
    counted: boolean('counted').notNull().default(false),
    /** The call reconciler's last check of a call in progress, and how many it made (ADR 051). */
    reconciled_at: tz('reconciled_at'),
    reconcile_checks: integer('reconcile_checks').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    index('calls_business_idx').on(t.business_id, t.requested_at),
    index('calls_install_idx').on(t.install_id),
    // A phone's calls (the widget's cap per phone and day, a contact's call history), and the install's last
    // claimed call (round robin starts after its agent): read by index, not by reading the business's or
    // the install's every call (issue 27).
    index('calls_visitor_idx').on(t.business_id, t.visitor_phone, t.requested_at),
    index('calls_install_claimed_idx').on(t.install_id, t.claimed_at).where(sql`${t.claimed_at} is not null`),
    // What changed lately: the analytics sweep marks those days to rebuild (ADR 081).
    index('calls_updated_idx').on(t.updated_at),
    // One callback in flight per visitor phone and business.
    uniqueIndex('calls_in_flight_uq')
      .on(t.business_id, t.visitor_phone)
      .where(sql`${t.outcome} = 'in_progress'`),
  ],
);

/** One carrier call (a CallSid) of a call: a staff phone rung, the visitor's leg, the missed-call message. */
export const callLegs = pgTable(
  'call_legs',
  {
    id: serial('id').primaryKey(),
    call_id: integer('call_id')
      .notNull()
      .references(() => calls.id, { onDelete: 'cascade' }),
    business_id: integer('business_id').notNull(),
    call_sid: text('call_sid').notNull(),
    role: text('role').$type<'staff' | 'visitor' | 'missed_message'>().notNull(),
    to_number: text('to_number').notNull(),
    agent_user_id: integer('agent_user_id'),
    agent_name: text('agent_name'),
    status: text('status').notNull().default('queued'),
    /** The carrier's SequenceNumber of the last status applied: older events are ignored. */
    sequence: integer('sequence').notNull().default(-1),
    answered_by: text('answered_by'),
    digits: text('digits'),
    duration: integer('duration'),
    ...timestamps,
  },
  (t) => [uniqueIndex('call_legs_sid_uq').on(t.call_sid), index('call_legs_call_idx').on(t.call_id)],
);

/** A voicemail left by a visitor (after a missed callback) or a caller. */
export const voiceRecords = pgTable(
  'voice_records',
  {
    id: serial('id').primaryKey(),
    agency_id: integer('agency_id').notNull(),
    business_id: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    install_id: integer('install_id').references(() => installs.id, { onDelete: 'set null' }),
    call_id: integer('call_id').references(() => calls.id, { onDelete: 'set null' }),
    from_number: text('from_number').notNull(),
    recording_sid: text('recording_sid').notNull(),
    recording_url: text('recording_url').notNull(),
    duration: integer('duration').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('voice_records_sid_uq').on(t.recording_sid),
    index('voice_records_business_idx').on(t.business_id),
  ],
);

/**
 * Carrier webhook deliveries already handled, by provider event key (e.g. `status:CA...:ringing:3`,
 * `gather:CA...`, `recording:RE...`): the carrier retries, and a retry must have no second effect.
 */
export const carrierEvents = pgTable('carrier_events', {
  key: text('key').primaryKey(),
  received_at: tz('received_at').notNull().defaultNow(),
});

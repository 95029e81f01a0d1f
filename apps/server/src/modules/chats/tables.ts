import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps, tz } from '../../platform/db/columns.ts';
import { businesses } from '../businesses/tables.ts';
import { contacts } from '../contacts/tables.ts';

// The chats module's tables: the messages of each conversation (a contact of a business), inbound and
// outbound, with their carrier status; and when each user last read each conversation (unread counts).

export type MessageMedia = { url: string; content_type: string; size: number; name: string };

export const messages = pgTable(
  'messages',
  {
    id: serial('id').primaryKey(),
    agency_id: integer('agency_id').notNull(),
    business_id: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    contact_id: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    install_id: integer('install_id'),
    direction: text('direction').$type<'in' | 'out'>().notNull(),
    body: text('body').notNull().default(''),
    media: jsonb('media').$type<MessageMedia[]>().notNull().default([]),
    /** An inbound MMS's media still being fetched by the chats.inbound-media job (ADR 049). */
    media_pending: integer('media_pending').notNull().default(0),
    /** An inbound MMS's media the carrier did not give us (refused, gone, too large, failed after retries). */
    media_unavailable: integer('media_unavailable').notNull().default(0),
    /** scheduled, queued, sending, sent, delivered, undelivered, failed, received, canceled, refused. */
    status: text('status').notNull(),
    error_code: integer('error_code'),
    error_message: text('error_message'),
    /** The carrier's MessageSid: one row per carrier message, whatever the retries. */
    carrier_sid: text('carrier_sid'),
    from_number: text('from_number').notNull(),
    to_number: text('to_number').notNull(),
    /** Messages counted against the monthly limit (spec 000 §4 message counter). */
    segments: integer('segments').notNull().default(1),
    /** The carrier's time of the message (ordering), else our own. */
    sent_at: tz('sent_at').notNull().defaultNow(),
    /** A scheduled message's time. */
    send_at: tz('send_at'),
    user_id: integer('user_id'),
    /** The broadcast it was sent by, or (inbound) the broadcast it replies to (broadcasts module, ADR 061). */
    broadcast_id: integer('broadcast_id'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('messages_carrier_sid_uq').on(t.carrier_sid),
    index('messages_contact_idx').on(t.contact_id, t.sent_at),
    index('messages_business_idx').on(t.business_id, t.sent_at),
    // What changed lately: the analytics sweep marks those days to rebuild (ADR 081).
    index('messages_updated_idx').on(t.updated_at),
    index('messages_broadcast_idx').on(t.broadcast_id).where(sql`${t.broadcast_id} is not null`),
    // Texts stored but not (yet) handed to the carrier: few at any moment, swept when stuck (ADR 128).
    index('messages_unhanded_idx')
      .on(t.updated_at)
      .where(
        sql`${t.status} = 'queued' and ${t.carrier_sid} is null and ${t.direction} = 'out' and ${t.broadcast_id} is null`,
      ),
  ],
);

/**
 * When a user last saw a conversation, and how many messages in it had then (`contacts.in_count`): the
 * ones in since are unread for them (ADR 103).
 */
export const conversationReads = pgTable(
  'conversation_reads',
  {
    contact_id: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    user_id: integer('user_id').notNull(),
    seen_at: tz('seen_at').notNull().defaultNow(),
    seen_in_count: integer('seen_in_count').notNull().default(0),
  },
  (t) => [
    uniqueIndex('conversation_reads_uq').on(t.contact_id, t.user_id),
    // A user's looks, for its unread total (ADR 104).
    index('conversation_reads_user_idx').on(t.user_id),
  ],
);

import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { MailAttachment } from '../../platform/mail.ts';

/** Every e-mail the platform sends; with no SMTP_URL this is the outbox people read. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    agency_id: integer('agency_id'),
    business_id: integer('business_id'),
    to: text('to').notNull(),
    from: text('from').notNull(),
    /** The Reply-To address (an agency's support address), when there is one. */
    reply_to: text('reply_to'),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    /** The HTML alternative, when the message has one. */
    html: text('html'),
    /** Files sent with the message (a report's CSV). */
    attachments: jsonb('attachments').$type<MailAttachment[]>().notNull().default([]),
    status: text('status').$type<'queued' | 'stored' | 'sent' | 'failed'>().notNull(),
    error: text('error'),
    message_id: text('message_id'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mail_outbox_created_idx').on(t.created_at)],
);

import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { timestamps } from '../../platform/db/columns.ts';
import { tenantKeys } from '../businesses/tables.ts';
import { contacts } from '../contacts/tables.ts';

// The templates module's tables: a business's message templates (sms or e-mail) and its media library
// (images uploaded in the library, and the media of messages, which the chats module records here).

export const templates = pgTable(
  'templates',
  {
    id: serial('id').primaryKey(),
    ...tenantKeys(),
    name: text('name').notNull(),
    body: text('body').notNull(),
    provider: text('provider').$type<'sms' | 'email'>().notNull().default('sms'),
    active: boolean('active').notNull().default(true),
    ...timestamps,
  },
  (t) => [index('templates_business_idx').on(t.business_id, t.provider)],
);

export const medias = pgTable(
  'medias',
  {
    id: serial('id').primaryKey(),
    ...tenantKeys(),
    contact_id: integer('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    /** The message it came with (chats module), when any. */
    message_id: integer('message_id'),
    source: text('source').$type<'upload' | 'message'>().notNull().default('upload'),
    url: text('url').notNull(),
    name: text('name').notNull().default(''),
    mime: text('mime').notNull(),
    size: integer('size').notNull().default(0),
    uploaded_by: integer('uploaded_by'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('medias_business_idx').on(t.business_id, t.id), index('medias_contact_idx').on(t.contact_id)],
);

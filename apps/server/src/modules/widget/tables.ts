import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { businesses } from '../businesses/tables.ts';
import { contacts } from '../contacts/tables.ts';

/**
 * Guesses of the visitor code (ADR 048), one row each, kept a day: counted here rather than in a process's
 * memory so that more processes or a restart give no more guesses. A right guess removes its row, so the
 * rows are the wrong ones. Keyed by the business and the phone (its contact) and the conversation's thread
 * (the code). Only the widget module writes it.
 */
export const widgetCodeGuesses = pgTable(
  'widget_code_guesses',
  {
    id: serial('id').primaryKey(),
    business_id: integer('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    contact_id: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    thread: text('thread').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('widget_code_guesses_phone_idx').on(t.business_id, t.contact_id, t.created_at)],
);

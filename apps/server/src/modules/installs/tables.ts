import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { agencies } from '../agencies/tables.ts';
import { businesses } from '../businesses/tables.ts';

/**
 * A widget install: one business's widget on one website. The key is public (it sits in the page's
 * script tag): it names the install, it does not authenticate a person. `settings` holds what the widget
 * shows; all of it is public.
 */
export const installs = pgTable(
  'installs',
  {
    id: serial('id').primaryKey(),
    agency_id: integer('agency_id')
      .notNull()
      .references(() => agencies.id),
    business_id: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    key: text('key').notNull(),
    name: text('name').notNull(),
    status: text('status').$type<'active' | 'disabled'>().notNull().default('active'),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('installs_key_idx').on(t.key), index('installs_business_idx').on(t.business_id)],
);

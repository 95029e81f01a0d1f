import { index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { tz } from '../../platform/db/columns.ts';
import { agencies } from '../agencies/tables.ts';

// The optins module's table (issue 23): the free-demo requests of an agency's landing page (spec 000 §3
// "Opt-in user": email, full_name, business_name, phone, domain).

export const optinUsers = pgTable(
  'optin_users',
  {
    id: serial('id').primaryKey(),
    agency_id: integer('agency_id')
      .notNull()
      .references(() => agencies.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    full_name: text('full_name').notNull(),
    business_name: text('business_name').notNull(),
    phone: text('phone').notNull(),
    /** The host of the page the request was made on. */
    domain: text('domain').notNull(),
    created_at: tz('created_at').notNull().defaultNow(),
  },
  (t) => [index('optin_users_agency_idx').on(t.agency_id, t.created_at)],
);

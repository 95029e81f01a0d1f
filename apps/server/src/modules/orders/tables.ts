import { index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { timestamps } from '../../platform/db/columns.ts';
import { agencies } from '../agencies/tables.ts';

// The orders module's table (issue 22): the agency popup's visitors. Created by migration 0020 with the
// billing tables; the orders module writes it, so its definition lives here (a move changes no SQL).

/** Visitors of an agency's popup (spec 001 `modal-users`) and what came of their payment (`charge`). */
export const modalUsers = pgTable(
  'modal_users',
  {
    id: serial('id').primaryKey(),
    agency_id: integer('agency_id')
      .notNull()
      .references(() => agencies.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    full_name: text('full_name').notNull(),
    business_name: text('business_name'),
    phone: text('phone'),
    plan_id: integer('plan_id'),
    status: text('status').$type<'new' | 'paid' | 'failed'>().notNull().default('new'),
    business_id: integer('business_id'),
    last_error: text('last_error'),
    ...timestamps,
  },
  (t) => [index('modal_users_agency_idx').on(t.agency_id)],
);

import { sql } from 'drizzle-orm';
import { integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from '../../platform/db/columns.ts';
import { agencies } from '../agencies/tables.ts';
import { businesses } from '../businesses/tables.ts';

// A foreign key to another module's table is the one reason a tables.ts imports another module's
// tables.ts (the architecture test allows it from tables.ts only).

/** Blocked (blacklist) and always-allowed (whitelist) numbers: platform-wide, an agency's or a business's. */
export const phoneLists = pgTable(
  'phone_lists',
  {
    id: serial('id').primaryKey(),
    list: text('list').$type<'blacklist' | 'whitelist'>().notNull(),
    agency_id: integer('agency_id').references(() => agencies.id, { onDelete: 'cascade' }),
    business_id: integer('business_id').references(() => businesses.id, { onDelete: 'cascade' }),
    phone: text('phone').notNull(),
    note: text('note'),
    created_by: integer('created_by'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('phone_lists_uq').on(
      t.list,
      sql`coalesce(${t.agency_id}, 0)`,
      sql`coalesce(${t.business_id}, 0)`,
      t.phone,
    ),
  ],
);

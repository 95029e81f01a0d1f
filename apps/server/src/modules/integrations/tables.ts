import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { businesses } from '../businesses/tables.ts';

// The integrations module's tables (issue 25). AI drafts a business asked for, per calendar month (UTC,
// 'YYYY-MM'): the monthly limit counts here (ADR 086).
export const aiUsage = pgTable(
  'ai_usage',
  {
    business_id: integer('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    month: text('month').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.business_id, t.month] })],
);

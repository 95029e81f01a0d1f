import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const auditLogs = pgTable(
  'audit_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    agency_id: integer('agency_id'),
    business_id: integer('business_id'),
    /** The person who acted (the impersonator when impersonating). */
    actor_id: integer('actor_id'),
    action: text('action').notNull(),
    target_user_id: integer('target_user_id'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    ip: text('ip'),
    request_id: text('request_id'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_logs_agency_idx').on(t.agency_id, t.created_at)],
);

import { bigserial, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

// The e-mailed links (user_tokens) live in platform/auth/tables.ts beside the sessions: the users module
// ends them when a user's e-mail or password changes, and it does not import this module (ADR 019).

/** Failed sign-ins, counted per account and per address for rate limiting. */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    email: text('email').notNull(),
    ip: text('ip').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('login_failures_email_idx').on(t.email, t.created_at),
    index('login_failures_ip_idx').on(t.ip, t.created_at),
  ],
);

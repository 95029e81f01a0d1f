import { bigint, index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

// The Stripe sandbox's own state (ADR 076): kept in PostgreSQL so that the ids the product stores
// (customers, subscriptions, payment methods) outlive a restart of `npm start` and are the same for
// every process of a scaled-out platform. Only platform/payments/sandbox reads or writes these tables.

/** A sandbox Stripe account: its key pair and its clock (real time plus an offset moved by `advance`). */
export const stripeSandboxAccounts = pgTable('stripe_sandbox_accounts', {
  id: text('id').primaryKey(),
  secret_key: text('secret_key').notNull().unique(),
  publishable_key: text('publishable_key').notNull().unique(),
  clock_offset_ms: bigint('clock_offset_ms', { mode: 'number' }).notNull().default(0),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every object of a sandbox account as Stripe would return it (customer, payment_method, setup_intent,
 * product, price, subscription, invoice, payment_intent, coupon, promotion_code, webhook_endpoint, event),
 * plus the answers kept by Idempotency-Key (type 'idempotency').
 */
export const stripeSandboxObjects = pgTable(
  'stripe_sandbox_objects',
  {
    /** Unique within its account: ids a caller chooses (a coupon's) may repeat across accounts, as on Stripe. */
    id: text('id').notNull(),
    account_id: text('account_id').notNull(),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.account_id, t.id] }),
    index('stripe_sandbox_objects_type_idx').on(t.account_id, t.type, t.created_at),
  ],
);

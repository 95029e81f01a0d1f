import { boolean, index, integer, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps, tz } from '../../platform/db/columns.ts';
import { agencies } from '../agencies/tables.ts';

// The subscriptions module's tables (issue 22, ADR 076): what each account bought from its seller on
// Stripe, the Stripe events already handled, the packages bought once, and the webhook endpoint this
// platform registered on each seller's Stripe account.

/**
 * What an account (an agency paying the platform, or a business paying its agency) has bought: its Stripe
 * customer and subscription, mirrored from Stripe by the subscribe calls and the webhooks (re-read from
 * Stripe, never taken from an event's body). `agency_id` is the tenant: the business's agency, or the agency.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: serial('id').primaryKey(),
    account_kind: text('account_kind').$type<'agency' | 'business'>().notNull(),
    account_id: integer('account_id').notNull(),
    agency_id: integer('agency_id')
      .notNull()
      .references(() => agencies.id, { onDelete: 'cascade' }),
    /** 'platform' or 'agency:<id>' (whose keys). */
    stripe_account: text('stripe_account').notNull(),
    customer_id: text('customer_id').notNull(),
    subscription_id: text('subscription_id'),
    plan_id: integer('plan_id'),
    status: text('status').notNull().default('none'),
    current_period_end: tz('current_period_end'),
    trial_end: tz('trial_end'),
    cancel_at_period_end: boolean('cancel_at_period_end').notNull().default(false),
    coupon_code: text('coupon_code'),
    /** Stripe's message for the last failed payment, until a payment succeeds. */
    last_error: text('last_error'),
    /** Whether the customer has a saved card (kept by our calls and the payment_method events). */
    has_payment_method: boolean('has_payment_method').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('subscriptions_account_uq').on(t.account_kind, t.account_id),
    uniqueIndex('subscriptions_customer_uq').on(t.stripe_account, t.customer_id),
    index('subscriptions_agency_idx').on(t.agency_id),
  ],
);

/** Stripe events already handled, per Stripe account: a redelivery of one is answered and ignored. */
export const stripeEvents = pgTable(
  'stripe_events',
  {
    stripe_account: text('stripe_account').notNull(),
    event_id: text('event_id').notNull(),
    type: text('type').notNull(),
    received_at: tz('received_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.stripe_account, t.event_id] })],
);

/** Packages bought once (by card) or given by the agency: the credits they added. */
export const packagePurchases = pgTable(
  'package_purchases',
  {
    id: serial('id').primaryKey(),
    agency_id: integer('agency_id')
      .notNull()
      .references(() => agencies.id, { onDelete: 'cascade' }),
    account_kind: text('account_kind').$type<'agency' | 'business'>().notNull(),
    account_id: integer('account_id').notNull(),
    package_id: integer('package_id'),
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    quantity: integer('quantity').notNull(),
    price_cents: integer('price_cents').notNull(),
    source: text('source').$type<'card' | 'agency'>().notNull(),
    payment_intent_id: text('payment_intent_id'),
    ...timestamps,
  },
  (t) => [
    index('package_purchases_account_idx').on(t.account_kind, t.account_id),
    uniqueIndex('package_purchases_intent_uq').on(t.payment_intent_id),
  ],
);

/** The webhook endpoint registered on a seller's Stripe account (its signing secret sealed). */
export const stripeWebhooks = pgTable('stripe_webhooks', {
  stripe_account: text('stripe_account').primaryKey(),
  /** A hash of the secret key it was made with: new keys, a new endpoint. */
  key_hash: text('key_hash').notNull(),
  endpoint_id: text('endpoint_id').notNull(),
  secret: text('secret').notNull(),
  ...timestamps,
});

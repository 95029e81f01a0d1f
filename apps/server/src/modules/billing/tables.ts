import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { timestamps, tz } from '../../platform/db/columns.ts';
import { agencies } from '../agencies/tables.ts';

// A foreign key to another module's table is the one reason a tables.ts imports another module's
// tables.ts (the architecture test allows it from tables.ts only).

/** Plan feature keys of spec 001 §9. */
export type PlanFeatures = {
  Default?: boolean;
  Visible?: boolean;
  RemoveBranding?: boolean;
  Zapier?: boolean;
  Department?: boolean;
  AiIntegration?: boolean;
  Users?: number;
  Installs?: number;
  Automations?: number;
  Messages?: number;
  Calls?: number;
  Description?: string;
};

/** An agency's subscription plans for its businesses. Money in integer cents. */
export const plans = pgTable(
  'plans',
  {
    id: serial('id').primaryKey(),
    agency_id: integer('agency_id')
      .notNull()
      .references(() => agencies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    interval: text('interval').$type<'month' | 'year'>().notNull().default('month'),
    price_cents: integer('price_cents').notNull().default(0),
    trial_days: integer('trial_days').notNull().default(0),
    features: jsonb('features').$type<PlanFeatures>().notNull().default({}),
    active: boolean('active').notNull().default(true),
    /** Who buys it: 'business' (the agency's businesses) or 'agency' (the main agency's plans sold to agencies). */
    type: text('type').$type<'agency' | 'business'>().notNull().default('business'),
    /** The Stripe account (see `stripeAccountKey`) the product and price below belong to; re-made when it changes. */
    stripe_account: text('stripe_account'),
    stripe_product_id: text('stripe_product_id'),
    stripe_price_id: text('stripe_price_id'),
    ...timestamps,
  },
  (t) => [index('plans_agency_idx').on(t.agency_id)],
);

/** Add-on packages (extra messages or calls) an agency sells to its businesses. */
export const packages = pgTable(
  'packages',
  {
    id: serial('id').primaryKey(),
    agency_id: integer('agency_id')
      .notNull()
      .references(() => agencies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    kind: text('kind').$type<'messages' | 'calls' | 'installs'>().notNull(),
    quantity: integer('quantity').notNull(),
    price_cents: integer('price_cents').notNull(),
    active: boolean('active').notNull().default(true),
    /** Offered as a one-click extra on the order pages (an order bump). */
    order_bump: boolean('order_bump').notNull().default(false),
    ...timestamps,
  },
  (t) => [index('packages_agency_idx').on(t.agency_id)],
);

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

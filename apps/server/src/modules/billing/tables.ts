import { boolean, index, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { timestamps } from '../../platform/db/columns.ts';
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

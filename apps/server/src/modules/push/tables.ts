import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { timestamps } from '../../platform/db/columns.ts';

// The push module's tables (ADR 037): the platform's VAPID key pair (one row, the private key sealed with
// the secrets key) and the browsers' Web Push subscriptions, one per endpoint.

export const pushVapidKeys = pgTable('push_vapid_keys', {
  id: serial('id').primaryKey(),
  /** The uncompressed P-256 public key, base64url: what browsers subscribe with. */
  public_key: text('public_key').notNull(),
  /** The private key's JWK `d`, sealed (platform/secrets.ts). */
  private_key: text('private_key').notNull(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id').notNull(),
    agency_id: integer('agency_id'),
    business_id: integer('business_id'),
    endpoint: text('endpoint').notNull().unique(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    ...timestamps,
  },
  (t) => [index('push_subscriptions_business_idx').on(t.business_id)],
);

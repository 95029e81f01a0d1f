import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { agencies } from '../agencies/tables.ts';
import { businesses } from '../businesses/tables.ts';
import { installs } from '../installs/tables.ts';

// The integrations module's tables (issue 25, ADR 088). Secrets (SMTP passwords, SendGrid keys, Google
// tokens) are sealed with the platform's secrets and never answered.

// AI drafts a business asked for, per calendar month (UTC, 'YYYY-MM'): the monthly limit counts here (ADR 086).
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

/**
 * An e-mail account a business (or an agency, for its own mail: business_id null) sends through. Provider
 * SMTP only (spec 001); the password is sealed; saved only once a connection with it succeeded.
 */
export const emailAccounts = pgTable(
  'email_accounts',
  {
    id: serial('id').primaryKey(),
    agency_id: integer('agency_id')
      .notNull()
      .references(() => agencies.id, { onDelete: 'cascade' }),
    /** null: the agency's own account (agency integrations). */
    business_id: integer('business_id').references(() => businesses.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<'smtp'>().notNull().default('smtp'),
    name: text('name').notNull().default(''),
    from_email: text('from_email').notNull(),
    from_name: text('from_name').notNull().default(''),
    host: text('host').notNull(),
    port: integer('port').notNull(),
    security: text('security').$type<'none' | 'starttls' | 'tls'>().notNull(),
    username: text('username').notNull().default(''),
    /** Sealed. */
    password: text('password').notNull().default(''),
    /** The account the owner's mail goes through (one per owner). */
    is_default: boolean('is_default').notNull().default(false),
    verified_at: timestamp('verified_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('email_accounts_business_idx').on(t.business_id),
    index('email_accounts_agency_idx').on(t.agency_id),
  ],
);

/**
 * A keyed integration of a business or (business_id null) an agency: 'sendgrid' with a sealed API key.
 * `config` holds what is not secret (the From address and name).
 */
export const userIntegrations = pgTable(
  'user_integrations',
  {
    id: serial('id').primaryKey(),
    agency_id: integer('agency_id')
      .notNull()
      .references(() => agencies.id, { onDelete: 'cascade' }),
    business_id: integer('business_id').references(() => businesses.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    name: text('name').notNull().default(''),
    config: jsonb('config').$type<Record<string, unknown>>().notNull().default({}),
    /** Sealed (a SendGrid API key). */
    secret: text('secret').notNull().default(''),
    active: boolean('active').notNull().default(true),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('user_integrations_business_idx').on(t.business_id),
    index('user_integrations_agency_idx').on(t.agency_id),
  ],
);

/**
 * Mail a business (or agency) sent through its own account or integration, not the platform's mailer:
 * queued, then sent or failed by the `business-mail.send` job. The body is dropped once delivered.
 */
export const ownMail = pgTable(
  'own_mail',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    agency_id: integer('agency_id').notNull(),
    business_id: integer('business_id'),
    /** Which way it went: an e-mail account or a user integration. */
    email_account_id: integer('email_account_id'),
    user_integration_id: integer('user_integration_id'),
    contact_id: integer('contact_id'),
    user_id: integer('user_id'),
    /** What sent it: inbox, automation, leadform, alert, report... */
    source: text('source').notNull(),
    to: text('to').notNull(),
    from: text('from').notNull(),
    reply_to: text('reply_to'),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    status: text('status').$type<'queued' | 'sent' | 'failed'>().notNull().default('queued'),
    error: text('error'),
    message_id: text('message_id'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sent_at: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('own_mail_business_idx').on(t.business_id, t.created_at),
    index('own_mail_contact_idx').on(t.contact_id),
  ],
);

/** A business's connection to Google Business Profile (OAuth): the sealed refresh token and the account. */
export const googleIntegrations = pgTable(
  'google_integrations',
  {
    id: serial('id').primaryKey(),
    agency_id: integer('agency_id')
      .notNull()
      .references(() => agencies.id, { onDelete: 'cascade' }),
    business_id: integer('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    /** Google's account name ('accounts/123'). */
    account_id: text('account_id').notNull(),
    account_name: text('account_name').notNull().default(''),
    email: text('email').notNull().default(''),
    /** Sealed. */
    refresh_token: text('refresh_token').notNull(),
    /** Sealed; with its expiry, kept to spare a refresh per call. */
    access_token: text('access_token'),
    access_expires_at: timestamp('access_expires_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('google_integrations_account_idx').on(t.business_id, t.account_id)],
);

/** A Google Business location tied to one install: it gives the install its review link. */
export const googleLocations = pgTable(
  'google_locations',
  {
    id: serial('id').primaryKey(),
    agency_id: integer('agency_id')
      .notNull()
      .references(() => agencies.id, { onDelete: 'cascade' }),
    business_id: integer('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    google_integration_id: integer('google_integration_id')
      .notNull()
      .references(() => googleIntegrations.id, { onDelete: 'cascade' }),
    install_id: integer('install_id')
      .notNull()
      .references(() => installs.id, { onDelete: 'cascade' }),
    /** Google's location name ('locations/456'). */
    location_id: text('location_id').notNull(),
    title: text('title').notNull().default(''),
    address: text('address').notNull().default(''),
    place_id: text('place_id').notNull().default(''),
    review_link: text('review_link').notNull().default(''),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('google_locations_install_idx').on(t.install_id),
    index('google_locations_business_idx').on(t.business_id),
  ],
);

// ---- Zapier (ADR 089): the OAuth codes and tokens Zapier's app holds, API keys, and REST hooks.

/** A one-use authorization code (10 minutes) a business user's consent gave Zapier; stored hashed. */
export const zapierCodes = pgTable(
  'zapier_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    code_hash: text('code_hash').notNull(),
    agency_id: integer('agency_id')
      .notNull()
      .references(() => agencies.id, { onDelete: 'cascade' }),
    business_id: integer('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    user_id: integer('user_id').notNull(),
    client_id: text('client_id').notNull(),
    redirect_uri: text('redirect_uri').notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    used_at: timestamp('used_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('zapier_codes_hash_uq').on(t.code_hash)],
);

/**
 * A connection of Zapier's app to a business (one per code exchanged): its access token (short-lived) and
 * refresh token, both stored hashed; revoked from the business's Zapier card, or when the user who
 * consented is switched off. A refresh replaces both tokens on the same row.
 */
export const zapierTokens = pgTable(
  'zapier_tokens',
  {
    id: serial('id').primaryKey(),
    agency_id: integer('agency_id')
      .notNull()
      .references(() => agencies.id, { onDelete: 'cascade' }),
    business_id: integer('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    user_id: integer('user_id').notNull(),
    client_id: text('client_id').notNull(),
    access_hash: text('access_hash').notNull(),
    access_expires_at: timestamp('access_expires_at', { withTimezone: true }).notNull(),
    refresh_hash: text('refresh_hash').notNull(),
    last_used_at: timestamp('last_used_at', { withTimezone: true }),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('zapier_tokens_access_uq').on(t.access_hash),
    uniqueIndex('zapier_tokens_refresh_uq').on(t.refresh_hash),
    index('zapier_tokens_business_idx').on(t.business_id),
  ],
);

/** A business's API key (header X-Api-Key): shown once, stored hashed, its first characters kept to tell it. */
export const zapierApiKeys = pgTable(
  'zapier_api_keys',
  {
    id: serial('id').primaryKey(),
    agency_id: integer('agency_id')
      .notNull()
      .references(() => agencies.id, { onDelete: 'cascade' }),
    business_id: integer('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    user_id: integer('user_id').notNull(),
    name: text('name').notNull(),
    key_hash: text('key_hash').notNull(),
    prefix: text('prefix').notNull(),
    last_used_at: timestamp('last_used_at', { withTimezone: true }),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('zapier_api_keys_hash_uq').on(t.key_hash),
    index('zapier_api_keys_business_idx').on(t.business_id),
  ],
);

/** A REST hook Zapier subscribed: the business's event posted to target_url (a 410 unsubscribes). */
export const zapierHooks = pgTable(
  'zapier_hooks',
  {
    id: serial('id').primaryKey(),
    agency_id: integer('agency_id')
      .notNull()
      .references(() => agencies.id, { onDelete: 'cascade' }),
    business_id: integer('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    target_url: text('target_url').notNull(),
    /** The connection or key that subscribed it: revoking it removes its hooks. */
    token_id: integer('token_id').references(() => zapierTokens.id, { onDelete: 'cascade' }),
    api_key_id: integer('api_key_id').references(() => zapierApiKeys.id, { onDelete: 'cascade' }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('zapier_hooks_business_event_idx').on(t.business_id, t.event)],
);

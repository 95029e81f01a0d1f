import type { TCustomTypePage } from '@stn/contracts/roles';
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** Statuses of spec 000 §4 shared by agencies, businesses and installs. */
export type EntityStatus = 'active' | 'archived' | 'deleted';

export type AgencyBranding = {
  title?: string;
  headerLogo?: string | null;
  loginLogo?: string | null;
  favicon?: string | null;
  supportEmail?: string | null;
  address?: string | null;
  custom_script?: string | null;
  landingPage?: boolean;
};

export type AgencyProperties = {
  installs?: number;
  incomingCallsPhoneNumber?: string;
  monthlyCostIsFree?: boolean;
  monthlyCost?: number;
  sendRegistration?: boolean;
  twPrimaryProfileSid?: string;
  twProfileSid?: string;
  twCampaignSid?: string;
  whiteLabel?: { companyName?: string; address?: string; phone?: string };
  poweredBy?: { enabled?: boolean; url?: string; name?: string };
  landingPage?: boolean;
};

// The agency is the tenant root: its id is the agency_id every tenant row carries.
export const agencies = pgTable(
  'agencies',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email'),
    /** Custom white-label domain (acme-calls.com); null when only the subdomain is used. */
    domain: text('domain'),
    /** White-label subdomain: <subdomain>.<MAIN_DOMAIN>. */
    subdomain: text('subdomain'),
    is_main: boolean('is_main').notNull().default(false),
    is_template: boolean('is_template').notNull().default(false),
    free_fee: boolean('free_fee').notNull().default(false),
    active: boolean('active').notNull().default(true),
    status: text('status').$type<EntityStatus>().notNull().default('active'),
    zapier_enabled: boolean('zapier_enabled').notNull().default(false),
    zapier_free: boolean('zapier_free').notNull().default(false),
    department_enabled: boolean('department_enabled').notNull().default(false),
    remove_branding: boolean('remove_branding').notNull().default(false),
    profanity_enabled: boolean('profanity_enabled').notNull().default(false),
    branding: jsonb('branding').$type<AgencyBranding>().notNull().default({}),
    properties: jsonb('properties').$type<AgencyProperties>().notNull().default({}),
    /** Card payments (spec: stripeConfig); the secret key never leaves the server. */
    stripe_config: jsonb('stripe_config')
      .$type<{ publicKey?: string; secretKey?: string }>()
      .notNull()
      .default({}),
    /** Telephony-provider account (spec: twilioConfig). */
    twilio_config: jsonb('twilio_config')
      .$type<{ accountSid?: string; authToken?: string }>()
      .notNull()
      .default({}),
    /** Countries the agency's businesses may text and call (International). */
    allowed_countries: jsonb('allowed_countries').$type<string[]>().notNull().default(['US', 'CA']),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    archived_at: timestamp('archived_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('agencies_domain_uq').on(sql`lower(${t.domain})`),
    uniqueIndex('agencies_subdomain_uq').on(sql`lower(${t.subdomain})`),
    // At most one main agency.
    uniqueIndex('agencies_main_uq').on(t.is_main).where(sql`${t.is_main}`),
  ],
);

export const businesses = pgTable(
  'businesses',
  {
    id: serial('id').primaryKey(),
    agency_id: integer('agency_id')
      .notNull()
      .references(() => agencies.id),
    name: text('name').notNull(),
    owner_id: integer('owner_id'),
    status: text('status').$type<EntityStatus>().notNull().default('active'),
    active: boolean('active').notNull().default(true),
    free_fee: boolean('free_fee').notNull().default(false),
    is_template: boolean('is_template').notNull().default(false),
    widget_type: integer('widget_type').notNull().default(3),
    is_on_trial: boolean('is_on_trial').notNull().default(false),
    calls: integer('calls').notNull().default(200),
    number_of_calls: integer('number_of_calls').notNull().default(0),
    messages: integer('messages').notNull().default(2000),
    number_of_messages: integer('number_of_messages').notNull().default(0),
    number_of_users: integer('number_of_users').notNull().default(1),
    number_of_installs: integer('number_of_installs').notNull().default(1),
    number_of_automations: integer('number_of_automations').notNull().default(2),
    dep_enabled: boolean('dep_enabled').notNull().default(false),
    caller_id_enabled: boolean('caller_id_enabled').notNull().default(false),
    custom_number_enabled: boolean('custom_number_enabled').notNull().default(false),
    form_enabled: boolean('form_enabled').notNull().default(false),
    sendgrid_enabled: boolean('sendgrid_enabled').notNull().default(false),
    ai_enabled: boolean('ai_enabled').notNull().default(false),
    subscription_plan_id: integer('subscription_plan_id'),
    opt_out_msg: text('opt_out_msg'),
    report_emails: jsonb('report_emails').$type<string[]>().notNull().default([]),
    report_schedules: jsonb('report_schedules').$type<string[]>().notNull().default([]),
    deleted_at: timestamp('deleted_at', { withTimezone: true }),
    has_sales_user_extension: boolean('has_sales_user_extension').notNull().default(false),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [index('businesses_agency_idx').on(t.agency_id)],
);

export type UserSettings = Record<string, unknown> & {
  language?: 'en' | 'es' | 'br';
  custom_type_pages?: TCustomTypePage[];
  email_unsubscribed?: boolean;
};

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** Null for platform admins; set for every agency and business user. */
    agency_id: integer('agency_id').references(() => agencies.id),
    business_id: integer('business_id').references(() => businesses.id),
    email: text('email').notNull(),
    password_hash: text('password_hash').notNull(),
    first_name: text('first_name').notNull().default(''),
    last_name: text('last_name').notNull().default(''),
    avatar: text('avatar'),
    role_group: text('role_group').$type<'Admin' | 'Agency' | 'Business'>().notNull(),
    role: text('role')
      .$type<'SuperAdmin' | 'Admin' | 'AgencyAdmin' | 'AgencyUser' | 'BusinessAdmin' | 'BusinessUser'>()
      .notNull(),
    user_type: text('user_type').$type<'1' | '2' | '3' | '4'>(),
    agent_type: text('agent_type').$type<'agent' | 'smsAgent' | 'voiceAgent'>(),
    settings: jsonb('settings').$type<UserSettings>().notNull().default({}),
    countries: jsonb('countries').$type<string[]>().notNull().default([]),
    active: boolean('active').notNull().default(true),
    email_verified_at: timestamp('email_verified_at', { withTimezone: true }),
    password_changed_at: timestamp('password_changed_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_uq').on(sql`lower(${t.email})`),
    index('users_agency_idx').on(t.agency_id),
    index('users_business_idx').on(t.business_id),
  ],
);

/** Bearer tokens: only a SHA-256 of the token is stored. */
export const authTokens = pgTable(
  'auth_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    token_hash: text('token_hash').notNull(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    agency_id: integer('agency_id'),
    business_id: integer('business_id'),
    kind: text('kind').$type<'access' | 'impersonation'>().notNull().default('access'),
    /** Set on impersonation tokens: who is really acting, and the token they started from. */
    impersonator_id: integer('impersonator_id').references(() => users.id, { onDelete: 'cascade' }),
    parent_token_id: integer('parent_token_id'),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
    last_used_at: timestamp('last_used_at', { withTimezone: true }),
    ip: text('ip'),
    user_agent: text('user_agent'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('auth_tokens_hash_uq').on(t.token_hash), index('auth_tokens_user_idx').on(t.user_id)],
);

/** One-time (or, for unsubscribe, standing) tokens sent by e-mail; stored hashed. */
export const userTokens = pgTable(
  'user_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    token_hash: text('token_hash').notNull(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    agency_id: integer('agency_id'),
    business_id: integer('business_id'),
    purpose: text('purpose').$type<'password_reset' | 'verify_email' | 'unsubscribe'>().notNull(),
    /** For verify_email: the address being confirmed. */
    email: text('email'),
    expires_at: timestamp('expires_at', { withTimezone: true }),
    used_at: timestamp('used_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('user_tokens_hash_uq').on(t.token_hash), index('user_tokens_user_idx').on(t.user_id)],
);

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

/** Every e-mail the platform sends; with no SMTP_URL this is the outbox people read. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    agency_id: integer('agency_id'),
    business_id: integer('business_id'),
    to: text('to').notNull(),
    from: text('from').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    status: text('status').$type<'queued' | 'stored' | 'sent' | 'failed'>().notNull(),
    error: text('error'),
    message_id: text('message_id'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mail_outbox_created_idx').on(t.created_at)],
);

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

/** White-label entries: an agency's custom domain and the state of its TLS certificate. */
export const whitelabels = pgTable(
  'whitelabels',
  {
    id: serial('id').primaryKey(),
    agency_id: integer('agency_id')
      .notNull()
      .references(() => agencies.id, { onDelete: 'cascade' }),
    domain: text('domain').notNull(),
    type: text('type').$type<'domain' | 'subdomain'>().notNull().default('domain'),
    cert_status: text('cert_status')
      .$type<'none' | 'pending' | 'issued' | 'failed'>()
      .notNull()
      .default('none'),
    cert_message: text('cert_message'),
    cert_requested_at: timestamp('cert_requested_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [uniqueIndex('whitelabels_domain_uq').on(sql`lower(${t.domain})`)],
);

/** Editable pages: training, terms-of-services, privacy-policy; platform-wide (agency_id null) or an agency's. */
export const pages = pgTable(
  'pages',
  {
    id: serial('id').primaryKey(),
    agency_id: integer('agency_id').references(() => agencies.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    title: text('title').notNull(),
    content: text('content').notNull().default(''),
    ...timestamps,
  },
  (t) => [uniqueIndex('pages_key_uq').on(sql`coalesce(${t.agency_id}, 0)`, t.key)],
);

export const releaseNotes = pgTable('release_notes', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  content: text('content').notNull(),
  published: boolean('published').notNull().default(true),
  published_at: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
  author_id: integer('author_id'),
  ...timestamps,
});

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

export const departments = pgTable(
  'departments',
  {
    id: serial('id').primaryKey(),
    agency_id: integer('agency_id')
      .notNull()
      .references(() => agencies.id),
    business_id: integer('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [index('departments_business_idx').on(t.business_id)],
);

/** Which users answer a department's texts (sms) and calls (voice). */
export const departmentAgents = pgTable(
  'department_agents',
  {
    department_id: integer('department_id')
      .notNull()
      .references(() => departments.id, { onDelete: 'cascade' }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    agency_id: integer('agency_id').notNull(),
    business_id: integer('business_id').notNull(),
    channel: text('channel').$type<'sms' | 'voice'>().notNull(),
  },
  (t) => [uniqueIndex('department_agents_uq').on(t.department_id, t.user_id, t.channel)],
);

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
    kind: text('kind').$type<'messages' | 'calls'>().notNull(),
    quantity: integer('quantity').notNull(),
    price_cents: integer('price_cents').notNull(),
    active: boolean('active').notNull().default(true),
    ...timestamps,
  },
  (t) => [index('packages_agency_idx').on(t.agency_id)],
);

import type { TLandingTexts } from '@stn/contracts/site';
import { sql } from 'drizzle-orm';
import { boolean, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from '../../platform/db/columns.ts';

// The agencies module's tables: the agency is the tenant root.

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
  /** The landing page's own texts per language (issue 23); empty ones are not kept. */
  landingTexts?: TLandingTexts;
  /** The main agency's external marketing site, where its '/' goes (ADR 077). */
  marketingUrl?: string;
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
    /** Telephony-provider account (spec: twilioConfig); `sandbox` when it is a sandbox-carrier account. */
    twilio_config: jsonb('twilio_config')
      .$type<{ accountSid?: string; authToken?: string; sandbox?: boolean }>()
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

import { index, integer, jsonb, pgTable, real, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps, tz } from '../../platform/db/columns.ts';
import { agencies } from '../agencies/tables.ts';
import { businesses } from '../businesses/tables.ts';
import { numbers } from '../telephony/tables.ts';

// The registration module's tables (issue 26, ADR 092): what an agency registered with the carrier so that
// US carriers let its businesses text (TrustHub customer profiles, A2P 10DLC brands and campaigns on a
// Messaging Service, toll-free verifications). Statuses are the carrier's own words; our rows follow them
// by the sync job and the status webhooks.

/** A TrustHub customer profile of an agency (the business information Twilio asks for). */
export const carrierProfiles = pgTable(
  'carrier_profiles',
  {
    id: serial('id').primaryKey(),
    agency_id: integer('agency_id')
      .notNull()
      .references(() => agencies.id, { onDelete: 'cascade' }),
    /** BU…; null while the carrier has not taken it (e.g. its create failed half-way). */
    sid: text('sid'),
    friendly_name: text('friendly_name').notNull(),
    email: text('email').notNull(),
    /** The business, representative and address as sent (carrier.ts CustomerProfileInput's parts). */
    business: jsonb('business').$type<Record<string, unknown>>().notNull(),
    representative: jsonb('representative').$type<Record<string, unknown>>().notNull(),
    address: jsonb('address').$type<Record<string, unknown>>().notNull(),
    /** draft, pending-review, in-review, twilio-approved, twilio-rejected. */
    status: text('status').notNull().default('draft'),
    /** Twilio's reasons (rejected) or the evaluation's problems (validate). */
    reasons: jsonb('reasons').$type<string[]>().notNull().default([]),
    problems: jsonb('problems')
      .$type<{ part: string; field: string | null; reason: string }[]>()
      .notNull()
      .default([]),
    submitted_at: tz('submitted_at'),
    synced_at: tz('synced_at'),
    ...timestamps,
  },
  (t) => [
    index('carrier_profiles_agency_idx').on(t.agency_id),
    uniqueIndex('carrier_profiles_sid_uq').on(t.sid),
  ],
);

/**
 * An agency's A2P 10DLC registration: the brand on a customer profile, the Messaging Service and the
 * campaign on it. One live row per agency (a failed one is fixed and resubmitted in place).
 */
export const carrierCampaigns = pgTable(
  'carrier_campaigns',
  {
    id: serial('id').primaryKey(),
    agency_id: integer('agency_id')
      .notNull()
      .references(() => agencies.id, { onDelete: 'cascade' }),
    profile_id: integer('profile_id')
      .notNull()
      .references(() => carrierProfiles.id, { onDelete: 'cascade' }),
    /** The brand as asked: e-mail, company type, brand type. */
    brand_input: jsonb('brand_input').$type<Record<string, unknown>>().notNull(),
    /** BN…, its status (PENDING, APPROVED, FAILED…) and TCR's reasons. */
    brand_sid: text('brand_sid'),
    brand_status: text('brand_status'),
    brand_reasons: jsonb('brand_reasons').$type<string[]>().notNull().default([]),
    /** MG… */
    messaging_service_sid: text('messaging_service_sid'),
    /** The campaign as asked: use case, description, samples, message flow, keywords and messages. */
    campaign_input: jsonb('campaign_input').$type<Record<string, unknown>>().notNull(),
    /** QE…, TCR's campaign id once verified, status (PENDING, IN_PROGRESS, VERIFIED, FAILED), failures. */
    campaign_sid: text('campaign_sid'),
    campaign_id: text('campaign_id'),
    campaign_status: text('campaign_status'),
    campaign_failures: jsonb('campaign_failures')
      .$type<{ code: number | null; reason: string }[]>()
      .notNull()
      .default([]),
    /** Messages per second the carriers allow once verified. */
    throughput_mps: real('throughput_mps'),
    /** The numbers (PN…) put into the Messaging Service's sender pool. */
    number_sids: jsonb('number_sids').$type<string[]>().notNull().default([]),
    /** Our summary: brand-pending, campaign-pending, approved, failed. */
    status: text('status').notNull().default('brand-pending'),
    synced_at: tz('synced_at'),
    ...timestamps,
  },
  (t) => [uniqueIndex('carrier_campaigns_agency_uq').on(t.agency_id)],
);

/** A toll-free number's verification (per install number). */
export const tollfreeVerifications = pgTable(
  'tollfree_verifications',
  {
    id: serial('id').primaryKey(),
    agency_id: integer('agency_id')
      .notNull()
      .references(() => agencies.id, { onDelete: 'cascade' }),
    business_id: integer('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    install_id: integer('install_id').notNull(),
    number_id: integer('number_id')
      .notNull()
      .references(() => numbers.id, { onDelete: 'cascade' }),
    /** HH… */
    sid: text('sid'),
    input: jsonb('input').$type<Record<string, unknown>>().notNull(),
    /** PENDING_REVIEW, IN_REVIEW, TWILIO_APPROVED, TWILIO_REJECTED. */
    status: text('status').notNull().default('PENDING_REVIEW'),
    rejection_reason: text('rejection_reason'),
    error_code: integer('error_code'),
    synced_at: tz('synced_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('tollfree_verifications_number_uq').on(t.number_id),
    index('tollfree_verifications_business_idx').on(t.business_id),
  ],
);

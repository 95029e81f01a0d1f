import { zPhone } from './users.ts';
import { z } from './zod.ts';

// SMS registration (issue 26, ADR 092; spec 001 "Phone-provider profiles and campaigns",
// `/v1/installs/{id}/tollfree-verification`): an agency's TrustHub customer profiles, its A2P 10DLC brand and
// campaign on a Messaging Service, and the toll-free verification of an install's number. Statuses are the
// carrier's own words (Twilio's); reasons are the carrier's texts.

export const PROFILE_STATUSES = [
  'draft',
  'pending-review',
  'in-review',
  'twilio-approved',
  'twilio-rejected',
] as const;
export type TProfileStatus = (typeof PROFILE_STATUSES)[number];

export const PROFILE_BUSINESS_TYPES = [
  'Sole Proprietorship',
  'Partnership',
  'Limited Liability Corporation',
  'Co-operative',
  'Non-profit Corporation',
  'Corporation',
] as const;
/** Twilio's industry keys offered in the form. */
export const PROFILE_INDUSTRIES = [
  'AUTOMOTIVE',
  'CONSTRUCTION',
  'EDUCATION',
  'FINANCIAL',
  'HEALTHCARE',
  'HOSPITALITY',
  'INSURANCE',
  'LEGAL',
  'PROFESSIONAL_SERVICES',
  'REAL_ESTATE',
  'RETAIL',
  'TECHNOLOGY',
] as const;
export const JOB_POSITIONS = ['Director', 'GM', 'VP', 'CEO', 'CFO', 'General Counsel', 'Other'] as const;
export const A2P_COMPANY_TYPES = ['private', 'public', 'non-profit', 'government'] as const;
export const A2P_BRAND_TYPES = ['STANDARD', 'LOW_VOLUME_STANDARD'] as const;
export const A2P_USE_CASES = [
  'MIXED',
  'MARKETING',
  'ACCOUNT_NOTIFICATION',
  'CUSTOMER_CARE',
  'LOW_VOLUME',
] as const;
export const TOLLFREE_USE_CASES = [
  'APPOINTMENTS',
  'CUSTOMER_CARE',
  'MARKETING',
  'ACCOUNT_NOTIFICATIONS',
  'DELIVERY_NOTIFICATIONS',
] as const;
export const TOLLFREE_OPT_IN_TYPES = [
  'VERBAL',
  'WEB_FORM',
  'PAPER_FORM',
  'VIA_TEXT',
  'MOBILE_QR_CODE',
] as const;
export const TOLLFREE_VOLUMES = ['10', '100', '1,000', '10,000', '100,000', '250,000'] as const;

const text = (max: number) => z.string().trim().min(1).max(max);
const optionalText = (max: number) => z.string().trim().max(max).optional();
const url = z
  .string()
  .trim()
  .max(500)
  .regex(/^https?:\/\/[^\s/]+\.[^\s]+$/i, 'validation.url');

export const ZProfileBusiness = z.object({
  /** Exactly as registered with the tax authority (the EIN's name). */
  legal_name: text(191),
  business_type: z.enum(PROFILE_BUSINESS_TYPES),
  industry: z.enum(PROFILE_INDUSTRIES),
  /** The EIN, 12-3456789. */
  ein: z
    .string()
    .trim()
    .regex(/^\d{2}-?\d{7}$/, 'registration.ein_invalid'),
  website: url,
});
export const ZProfileRepresentative = z.object({
  first_name: text(100),
  last_name: text(100),
  email: z.email().trim().max(191),
  phone: zPhone(),
  business_title: text(100),
  job_position: z.enum(JOB_POSITIONS),
});
export const ZProfileAddress = z.object({
  street: text(191),
  street_secondary: optionalText(191),
  city: text(100),
  /** State, e.g. CA. */
  region: text(100),
  postal_code: text(20),
  /** ISO 3166-1 alpha-2. */
  iso_country: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'validation.invalid')
    .transform((s) => s.toUpperCase()),
});

/**
 * POST /v1/twilio/profiles: a new customer profile (a draft at the carrier), or, with `id`, the changes to a
 * draft or rejected one (Fix and resubmit).
 */
export const ZProfileInput = z.object({
  id: z.number().int().positive().optional(),
  friendly_name: text(191),
  /** Where the carrier writes about the review. */
  email: z.email().trim().max(191),
  business: ZProfileBusiness,
  representative: ZProfileRepresentative,
  address: ZProfileAddress,
});
export type TProfileInput = z.input<typeof ZProfileInput>;

export const ZProfileProblem = z.object({
  part: z.string(),
  field: z.string().nullable(),
  reason: z.string(),
});
export type TProfileProblem = z.infer<typeof ZProfileProblem>;

export const ZCarrierProfile = z.object({
  id: z.number().int(),
  sid: z.string().nullable(),
  friendly_name: z.string(),
  email: z.string(),
  business: ZProfileBusiness,
  // As stored (E.164, upper-case country): an answer is serialized, and a one-way transform cannot be.
  representative: ZProfileRepresentative.extend({ phone: z.string() }),
  address: ZProfileAddress.extend({ iso_country: z.string() }),
  status: z.enum(PROFILE_STATUSES),
  /** The carrier's reasons when rejected. */
  reasons: z.array(z.string()),
  /** What the last validation found missing. */
  problems: z.array(ZProfileProblem),
  is_primary: z.boolean(),
  /** A campaign registration is built on it (it cannot be deleted). */
  in_use: z.boolean(),
  submitted_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TCarrierProfile = z.infer<typeof ZCarrierProfile>;

export const ZProfileResponse = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: ZCarrierProfile,
});
export const ZProfileListResponse = z.object({ success: z.literal(true), data: z.array(ZCarrierProfile) });
export const ZProfileEvaluationResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ compliant: z.boolean(), problems: z.array(ZProfileProblem), profile: ZCarrierProfile }),
});
/** POST /profiles/{sid}/register: the id or the BU… sid. */
export const ZProfileSidParams = z.object({ sid: z.string().trim().min(1).max(64) });

/** POST /v1/twilio/register-campaign: the brand on a profile and the campaign (new, or a failed one fixed). */
export const ZCampaignInput = z.object({
  profile_id: z.number().int().positive(),
  brand: z.object({
    /** For the A2P messaging profile. */
    email: z.email().trim().max(191),
    company_type: z.enum(A2P_COMPANY_TYPES),
    brand_type: z.enum(A2P_BRAND_TYPES).default('STANDARD'),
    stock_exchange: optionalText(50),
    stock_ticker: optionalText(20),
  }),
  campaign: z.object({
    use_case: z.enum(A2P_USE_CASES),
    description: z.string().trim().min(40, 'registration.description_short').max(4096),
    /** At least 2, each naming the business. */
    sample_messages: z
      .array(z.string().trim().min(20, 'registration.sample_short').max(1024))
      .min(2, 'registration.samples_min')
      .max(5),
    /** How people opt in. */
    message_flow: z.string().trim().min(40, 'registration.flow_short').max(2048),
    has_embedded_links: z.boolean().default(false),
    has_embedded_phone: z.boolean().default(false),
    opt_in_keywords: z.array(z.string().trim().min(1).max(30)).max(10).default([]),
    opt_in_message: optionalText(320),
    opt_out_keywords: z.array(z.string().trim().min(1).max(30)).max(10).default(['STOP']),
    opt_out_message: optionalText(320),
    help_keywords: z.array(z.string().trim().min(1).max(30)).max(10).default(['HELP']),
    help_message: optionalText(320),
  }),
});
export type TCampaignInput = z.input<typeof ZCampaignInput>;

/** Our summary of an agency's A2P registration. */
export const REGISTRATION_STATES = ['brand-pending', 'campaign-pending', 'approved', 'failed'] as const;
export type TRegistrationState = (typeof REGISTRATION_STATES)[number];

export const ZNumberRegistration = z.object({
  id: z.number().int(),
  phone_number: z.string(),
  business_id: z.number().int(),
  business_name: z.string(),
  install_id: z.number().int().nullable(),
  toll_free: z.boolean(),
  /** May it text US phones at volume: on the approved campaign, or an approved toll-free verification. */
  registered: z.boolean(),
  /** Why not, as a locale key (registration.number_*), null when registered. */
  reason: z.string().nullable(),
});
export type TNumberRegistration = z.infer<typeof ZNumberRegistration>;

export const ZCampaignRegistration = z.object({
  id: z.number().int(),
  profile_id: z.number().int(),
  status: z.enum(REGISTRATION_STATES),
  brand: z.object({
    sid: z.string().nullable(),
    status: z.string().nullable(),
    reasons: z.array(z.string()),
    email: z.string(),
    company_type: z.enum(A2P_COMPANY_TYPES),
    brand_type: z.enum(A2P_BRAND_TYPES),
  }),
  messaging_service_sid: z.string().nullable(),
  campaign: ZCampaignInput.shape.campaign.extend({
    sid: z.string().nullable(),
    campaign_id: z.string().nullable(),
    status: z.string().nullable(),
    failures: z.array(z.object({ code: z.number().nullable(), reason: z.string() })),
    throughput_mps: z.number().nullable(),
  }),
  synced_at: z.string().nullable(),
  updated_at: z.string(),
});
export type TCampaignRegistration = z.infer<typeof ZCampaignRegistration>;

/** GET /v1/twilio/campaign (and the answers of register-campaign and sync-campaign). */
export const ZCampaignResponse = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: z.object({
    registration: ZCampaignRegistration.nullable(),
    /** The numbers it covers: the agency's (agency users) or the business's own (business users). */
    numbers: z.array(ZNumberRegistration),
    /** Whether the agency's texts are held to registration (ADR 092). */
    required: z.boolean(),
  }),
});
export type TCampaignResponse = z.infer<typeof ZCampaignResponse>['data'];

export const TOLLFREE_STATUSES = [
  'PENDING_REVIEW',
  'IN_REVIEW',
  'TWILIO_APPROVED',
  'TWILIO_REJECTED',
] as const;

/** POST /v1/installs/{id}/tollfree-verification: the install's toll-free number's verification (new or fixed). */
export const ZTollfreeInput = z.object({
  business_name: text(191),
  business_website: url,
  notification_email: z.email().trim().max(191),
  use_case_categories: z.array(z.enum(TOLLFREE_USE_CASES)).min(1, 'registration.use_case_required'),
  use_case_summary: z.string().trim().min(20, 'registration.summary_short').max(1000),
  production_message_sample: z.string().trim().min(20, 'registration.sample_short').max(1000),
  opt_in_image_urls: z.array(url).min(1, 'registration.opt_in_image_required').max(5),
  opt_in_type: z.enum(TOLLFREE_OPT_IN_TYPES),
  message_volume: z.enum(TOLLFREE_VOLUMES),
  additional_information: optionalText(1000),
});
export type TTollfreeInput = z.input<typeof ZTollfreeInput>;

export const ZTollfreeVerification = ZTollfreeInput.extend({
  id: z.number().int(),
  sid: z.string().nullable(),
  status: z.enum(TOLLFREE_STATUSES),
  rejection_reason: z.string().nullable(),
  error_code: z.number().nullable(),
  updated_at: z.string(),
});
export type TTollfreeVerification = z.infer<typeof ZTollfreeVerification>;

export const ZTollfreeResponse = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: z.object({
    /** The install's live purchased number, null when it has none. */
    number: z.object({ id: z.number().int(), phone_number: z.string(), toll_free: z.boolean() }).nullable(),
    verification: ZTollfreeVerification.nullable(),
  }),
});
export type TTollfreeResponse = z.infer<typeof ZTollfreeResponse>['data'];

/** Toll-free area codes of the North American plan (+1 8xx). */
export const TOLL_FREE_PREFIXES = ['+1800', '+1833', '+1844', '+1855', '+1866', '+1877', '+1888'] as const;
export const isTollFree = (e164: string) => TOLL_FREE_PREFIXES.some((p) => e164.startsWith(p));

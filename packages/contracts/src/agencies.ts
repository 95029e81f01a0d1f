import { ZBusiness } from './businesses.ts';
import { listOf, ZListQuery } from './http.ts';
import { ZLandingTexts } from './site.ts';
import { HOSTNAME_RE, SUBDOMAIN_RE, zEmail, zPassword, zUrl } from './validation.ts';
import { z } from './zod.ts';

// Agencies, white-label entries and international settings (spec 000 §3 "Agency", spec 001 §7).

export const AGENCY_STATUSES = ['active', 'archived', 'deleted'] as const;
export const AGENCY_IMAGE_TYPES = ['headerLogo', 'loginLogo', 'favicon'] as const;
export type TAgencyImageType = (typeof AGENCY_IMAGE_TYPES)[number];
export const AGENCY_IMAGE_MAX_BYTES = 1024 * 1024;
export const WHITELABEL_TYPES = ['domain', 'subdomain'] as const;
export const CERT_STATUSES = ['none', 'pending', 'issued', 'failed'] as const;

/** ISO 3166-1 alpha-2 country codes. */
export const COUNTRY_CODES = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV ' +
  'BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ' +
  'ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE ' +
  'IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY ' +
  'MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU ' +
  'NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM ' +
  'SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE ' +
  'VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');

const bool = () => z.boolean();
const name = () => z.string().trim().min(1).max(191);
const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();

/** White-label of the create form: a custom domain, or a subdomain of the main domain. */
export const ZWhitelabelInput = z
  .object({
    domain: z.string().trim().toLowerCase().min(1).max(253),
    type: z.enum(WHITELABEL_TYPES).default('domain'),
  })
  .superRefine((v, ctx) => {
    if (v.type === 'domain' && (/^http/i.test(v.domain) || !HOSTNAME_RE.test(v.domain)))
      ctx.addIssue({ code: 'custom', path: ['domain'], message: 'validation.customurl' });
    if (v.type === 'subdomain' && (v.domain.length > 63 || !SUBDOMAIN_RE.test(v.domain)))
      ctx.addIssue({ code: 'custom', path: ['domain'], message: 'validation.subdomain' });
  });
export type TWhitelabelInput = z.infer<typeof ZWhitelabelInput>;

const ACCOUNT_SID_RE = /^AC[0-9a-fA-F]{32}$/;
export const ZTwilioConfigInput = z.object({
  accountSid: z.string().trim().regex(ACCOUNT_SID_RE, { message: 'agencies.account_sid_invalid' }),
  authToken: z.string().trim().min(1).max(128),
});
export type TTwilioConfigInput = z.infer<typeof ZTwilioConfigInput>;

/**
 * Agency Setup (PUT /v1/agencies/twilio-config): the agency's own Twilio account (SID and auth token,
 * checked against the carrier before saving), or `{ sandbox: true }` to try the product on the sandbox
 * carrier. One object rather than a union, so a bad SID still reports on its own field.
 */
const twilioSetupFields = {
  sandbox: z.literal(true).optional(),
  accountSid: ZTwilioConfigInput.shape.accountSid.optional(),
  authToken: ZTwilioConfigInput.shape.authToken.optional(),
};
export const ZTwilioSetupInput = z.object(twilioSetupFields).superRefine((v, ctx) => {
  if (v.sandbox) return;
  if (!v.accountSid) ctx.addIssue({ code: 'custom', path: ['accountSid'], message: 'validation.required' });
  if (!v.authToken) ctx.addIssue({ code: 'custom', path: ['authToken'], message: 'validation.required' });
});
export type TTwilioSetupInput = z.infer<typeof ZTwilioSetupInput>;

/**
 * PUT /v1/agencies/{business_id}/twilio-config (ADR 093): what ZTwilioSetupInput takes, or, for a
 * business (the caller an AgencyAdmin), `{ inherit: true }`: the business goes back to the agency's account.
 */
export const ZCarrierAccountInput = z
  .object({ ...twilioSetupFields, inherit: z.literal(true).optional() })
  .superRefine((v, ctx) => {
    if (v.sandbox || v.inherit) return;
    if (!v.accountSid) ctx.addIssue({ code: 'custom', path: ['accountSid'], message: 'validation.required' });
    if (!v.authToken) ctx.addIssue({ code: 'custom', path: ['authToken'], message: 'validation.required' });
  });
export type TCarrierAccountInput = z.infer<typeof ZCarrierAccountInput>;

const ZAgencyFlags = z.object({
  free_fee: bool(),
  is_template: bool(),
  zapier_enabled: bool(),
  zapier_free: bool(),
  department_enabled: bool(),
  remove_branding: bool(),
  profanity_enabled: bool(),
});
/** The agency's on/off settings, one list for the server's writes and the web's form. */
export const AGENCY_FLAGS = ZAgencyFlags.keyof().options;
export type TAgencyFlag = (typeof AGENCY_FLAGS)[number];

const ZInstallsProperty = z.object({ installs: z.number().int().min(0).max(1_000_000).optional() });

export const ZCreateAgencyRequest = z
  .object({
    name: name(),
    email: zEmail().nullable().optional(),
    properties: ZInstallsProperty.optional(),
    user: z.object({
      email: zEmail(),
      firstName: z.string().trim().min(1).max(100),
      lastName: z.string().trim().max(100).default(''),
      /** When left out, the agency admin gets an e-mail to choose one. */
      password: z.preprocess((v) => (v === '' || v === null ? undefined : v), zPassword().optional()),
    }),
    whitelabel: ZWhitelabelInput,
    twilioConfig: ZTwilioConfigInput.nullable().optional(),
  })
  .extend(ZAgencyFlags.partial().shape);
export type TCreateAgencyRequest = z.infer<typeof ZCreateAgencyRequest>;

export const ZUpdateAgencyRequest = z
  .object({
    name: name().optional(),
    email: zEmail().nullable().optional(),
    properties: ZInstallsProperty.optional(),
    user: z
      .object({
        email: zEmail().optional(),
        firstName: z.string().trim().min(1).max(100).optional(),
        lastName: z.string().trim().max(100).optional(),
      })
      .optional(),
    whitelabel: ZWhitelabelInput.optional(),
    twilioConfig: ZTwilioConfigInput.nullable().optional(),
  })
  .extend(ZAgencyFlags.partial().shape);
export type TUpdateAgencyRequest = z.infer<typeof ZUpdateAgencyRequest>;

export const ZWhitelabel = z.object({
  id: z.number().int(),
  agency_id: z.number().int(),
  domain: z.string(),
  type: z.enum(WHITELABEL_TYPES),
  cert_status: z.enum(CERT_STATUSES),
  cert_message: z.string().nullable(),
  cert_requested_at: z.string().nullable(),
});
export type TWhitelabel = z.infer<typeof ZWhitelabel>;

export const ZAgencyBranding = z.object({
  title: z.string().nullable().optional(),
  headerLogo: z.string().nullable().optional(),
  loginLogo: z.string().nullable().optional(),
  favicon: z.string().nullable().optional(),
  supportEmail: z.string().nullable().optional(),
  address: z.string().nullable().optional(),
  custom_script: z.string().nullable().optional(),
  landingPage: z.boolean().optional(),
  landingTexts: ZLandingTexts.optional(),
  marketingUrl: z.string().nullable().optional(),
});

const ZWhiteLabelProperty = z.object({
  companyName: z.string().trim().max(191).optional(),
  address: z.string().trim().max(500).optional(),
  phone: z.string().trim().max(50).optional(),
});
const ZPoweredByProperty = z.object({
  enabled: z.boolean().optional(),
  url: z.union([z.literal(''), zUrl()]).optional(),
  name: z.string().trim().max(191).optional(),
});

/** Who an agency is and where it answers: its full row and the profile's summary of it both start so. */
export const ZAgencyIdentity = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  domain: z.string().nullable(),
  subdomain: z.string().nullable(),
  is_main: z.boolean(),
});

export const ZAgency = z.object({
  ...ZAgencyIdentity.shape,
  active: z.boolean(),
  status: z.enum(AGENCY_STATUSES),
  ...ZAgencyFlags.shape,
  branding: ZAgencyBranding,
  properties: z.record(z.string(), z.unknown()),
  settings: z.record(z.string(), z.unknown()),
  allowed_countries: z.array(z.string()),
  /** The secret key never leaves the server: only whether it is set. */
  stripeConfig: z.object({ publicKey: z.string().nullable(), secretKeySet: z.boolean() }),
  /** The account SID masked; the auth token never leaves the server. */
  twilioConfig: z.object({ accountSid: z.string().nullable(), authTokenSet: z.boolean() }),
  whitelabel: ZWhitelabel.nullable(),
  user: z
    .object({ id: z.number().int(), email: z.string(), first_name: z.string(), last_name: z.string() })
    .nullable(),
  archived_at: z.string().nullable(),
  created_at: z.string(),
});
export type TAgency = z.infer<typeof ZAgency>;

export const ZAgencyListQuery = ZListQuery.extend({
  status: z.enum(['active', 'archived']).default('active'),
});
export type TAgencyListQuery = z.infer<typeof ZAgencyListQuery>;
export const ZAgencyList = listOf(ZAgency);

export const ZAgencyResponse = z.object({ success: z.literal(true), data: ZAgency });
export const ZAgencyMessageResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: ZAgency,
});

/**
 * PUT /v1/agencies/{business_id}/twilio-config (ADR 093): the business (its `carrier_account` masked) when an
 * AgencyAdmin set one of its businesses' account; the agency when a platform admin set an agency's.
 */
export const ZTwilioConfigResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.union([ZAgency, ZBusiness]),
});

export const ZIdsRequest = z.object({
  ids: z.array(z.number().int().positive()).min(1).max(100),
});
export const ZCountResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ count: z.number().int() }),
});

export const ZAgencySettingsRequest = z.object({
  title: z.string().trim().min(1).max(191).optional(),
  supportEmail: z
    .union([z.literal(''), zEmail()])
    .nullable()
    .optional(),
  address: optionalText(500),
  landingPage: z.boolean().optional(),
  /** Replaces the agency's landing texts as a whole (issue 23). */
  landingTexts: ZLandingTexts.optional(),
  /** The agency's custom script (admins: the main agency's, run on its order pages; ADR 079). */
  custom_script: z.string().max(20_000).nullable().optional(),
  /** The main agency only ('agencies.marketing_url_main_only' otherwise); '' or null removes it. */
  marketingUrl: z
    .union([z.literal(''), zUrl()])
    .nullable()
    .optional(),
  /** The notification settings screen's switches and addresses. */
  notification: z
    .record(z.string().max(64), z.union([z.boolean(), z.string().max(500), z.number(), z.null()]))
    .optional(),
  properties: z
    .object({ whiteLabel: ZWhiteLabelProperty.optional(), poweredBy: ZPoweredByProperty.optional() })
    .optional(),
});
export type TAgencySettingsRequest = z.infer<typeof ZAgencySettingsRequest>;

export const ZStripeSettingRequest = z
  .object({
    publicKey: z
      .string()
      .trim()
      .regex(/^pk_(test|live)_[A-Za-z0-9_]+$/, { message: 'agencies.stripe_public_key' })
      .optional(),
    /** Left out to keep the stored one. */
    secretKey: z
      .string()
      .trim()
      .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/, { message: 'agencies.stripe_secret_key' })
      .optional(),
    /** True: the platform makes a Stripe sandbox account for the agency and stores its keys (ADR 076). */
    sandbox: z.boolean().optional(),
  })
  .refine((v) => v.sandbox === true || v.publicKey !== undefined, {
    message: 'agencies.stripe_public_key',
    path: ['publicKey'],
  });
export type TStripeSettingRequest = z.infer<typeof ZStripeSettingRequest>;

export const ZCustomScriptRequest = z.object({ custom_script: z.string().max(20_000).nullable() });

/** The landing page's texts, replaced as a whole (issue 23): those who may edit the landing page may. */
export const ZLandingTextsRequest = z.strictObject({ landingTexts: ZLandingTexts });

/** Only these keys: an unknown one is refused ('validation.unknown_field'), not kept in the settings. */
export const ZPopupPaymentRequest = z.strictObject({
  enabled: z.boolean().optional(),
  title: z.string().trim().max(191).optional(),
  description: z.string().trim().max(5000).optional(),
  button_text: z.string().trim().max(100).optional(),
  /** One of the agency's own plans (checked by the server). */
  plan_id: z.number().int().positive().nullable().optional(),
});
export type TPopupPaymentRequest = z.infer<typeof ZPopupPaymentRequest>;

export const ZChangeAgencyPasswordRequest = z
  .object({ password: zPassword(), password_confirmation: z.string().max(200) })
  .refine((v) => v.password === v.password_confirmation, {
    message: 'validation.password_confirmation',
    path: ['password_confirmation'],
  });

export const ZTwilioStatusResponse = z.object({
  success: z.literal(true),
  data: z.object({
    configured: z.boolean(),
    accountSid: z.string().nullable(),
    /** The agency chose the sandbox carrier: calls and texts are simulated (Sandbox Phones screen). */
    sandbox: z.boolean(),
  }),
});

export const ZAgencyImageRequest = z.object({
  type: z.enum(AGENCY_IMAGE_TYPES),
  /** A data URL: data:image/png;base64,... */
  data: z.string().min(1).max(1_500_000),
});
export const ZAgencyImageParams = z.object({
  id: z.coerce.number().int().positive(),
  type: z.enum(AGENCY_IMAGE_TYPES),
});
export const ZAgencyImageResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ type: z.enum(AGENCY_IMAGE_TYPES), url: z.string().nullable(), branding: ZAgencyBranding }),
});

export const ZInstallStatsResponse = z.object({
  success: z.literal(true),
  data: z.object({ total_installs: z.number().int(), available_installs: z.number().int() }),
});

export const ZExportQuery = z.object({ agency_id: z.coerce.number().int().positive().optional() });

export const ZWhitelabelListItem = ZWhitelabel.extend({
  agency: z.object({ id: z.number().int(), name: z.string(), status: z.enum(AGENCY_STATUSES) }),
});
export const ZWhitelabelList = listOf(ZWhitelabelListItem);
export const ZWhitelabelMessageResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: ZWhitelabelListItem,
});

export const ZInternationalRequest = z.object({
  countries: z
    .array(z.string().trim().max(8))
    .max(COUNTRY_CODES.length)
    .refine((list) => list.every((c) => COUNTRY_CODES.includes(c.toUpperCase())), {
      message: 'validation.country',
    })
    .transform((list) => [...new Set(list.map((c) => c.toUpperCase()))]),
});
export const ZInternationalResponse = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: z.object({ allowed_countries: z.array(z.string()) }),
});

export const ZSendNotificationRequest = z.object({
  business_ids: z.array(z.number().int().positive()).max(1000).optional(),
  subject: z.string().trim().min(1).max(191),
  message: z.string().trim().min(1).max(10_000),
});
export const ZSendNotificationResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ sent: z.number().int() }),
});

import { isSupportedCountry } from 'libphonenumber-js';
import { BUSINESS_CREATE_DEFAULTS, PLAN_DEFAULTS } from './constants.ts';
import { listOf, ZListQuery } from './http.ts';
import { zEmail, zPassword } from './validation.ts';
import { z } from './zod.ts';

// Contracts of the agency's business accounts, agency users, plans and packages, and the business's own
// settings (spec 000 §3 "Business", spec 001 §4, §7 "Business", "Agency users", "Subscription plans",
// packages; defaults of §9).

const ok = z.literal(true);
const zName = () => z.string().trim().min(1).max(191);
const zCount = () => z.number().int().min(0).max(100_000_000);
/**
 * Lists checked as a whole, so that an error names the list ('The report emails must be a valid email
 * address.') rather than an item's index.
 */
const zEmailList = (max: number) =>
  z
    .array(z.string().trim().toLowerCase(), { message: 'validation.array' })
    .max(max)
    .refine((list) => list.every((v) => z.email().max(191).safeParse(v).success), {
      message: 'validation.email',
    });
const zSubsetOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z
    .array(z.string(), { message: 'validation.array' })
    .max(values.length * 4)
    .refine((list) => list.every((v) => (values as readonly string[]).includes(v)), {
      message: 'validation.in',
    })
    .transform((list) => list as T[number][]);
/** Query flags arrive as text. */
const zQueryBool = () => z.enum(['1', '0', 'true', 'false']).transform((v) => v === '1' || v === 'true');

// ---------------------------------------------------------------------------------------------------------
// Business accounts

export const BUSINESS_STATUSES = ['active', 'archived', 'deleted'] as const;
export const REPORT_SCHEDULES = ['daily', 'weekly', 'monthly'] as const;

/** A business's kind and usage counts: its full row and the profile's summary of it both carry them. */
export const ZBusinessUsage = z.object({
  free_fee: z.boolean(),
  is_template: z.boolean(),
  widget_type: z.number().int(),
  is_on_trial: z.boolean(),
  calls: z.number().int(),
  number_of_calls: z.number().int(),
  messages: z.number().int(),
  number_of_messages: z.number().int(),
  number_of_users: z.number().int(),
  number_of_installs: z.number().int(),
  number_of_automations: z.number().int(),
});

export const ZBusinessOwner = z.object({
  id: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  active: z.boolean(),
});

export const ZBusiness = z.object({
  id: z.number().int(),
  agency_id: z.number().int(),
  /** The agency's name (the admin area's list and form show it). */
  agency_name: z.string(),
  name: z.string(),
  owner_id: z.number().int().nullable(),
  owner: ZBusinessOwner.nullable(),
  status: z.enum(BUSINESS_STATUSES),
  active: z.boolean(),
  ...ZBusinessUsage.shape,
  caller_id_enabled: z.boolean(),
  custom_number_enabled: z.boolean(),
  form_enabled: z.boolean(),
  dep_enabled: z.boolean(),
  sendgrid_enabled: z.boolean(),
  ai_enabled: z.boolean(),
  has_sales_user_extension: z.boolean(),
  subscription_plan_id: z.number().int().nullable(),
  opt_out_msg: z.string().nullable(),
  report_emails: z.array(z.string()),
  report_schedules: z.array(z.string()),
  settings: z.record(z.string(), z.unknown()),
  /**
   * The business's own carrier account (ADR 093), the SID masked (never the token); null: its calls and
   * texts go through the agency's account.
   */
  carrier_account: z.object({ accountSid: z.string(), sandbox: z.boolean() }).nullable(),
  deleted_at: z.string().nullable(),
  created_at: z.string(),
});
export type TBusiness = z.infer<typeof ZBusiness>;

export const ZBusinessResponse = z.object({ success: ok, message: z.string().optional(), data: ZBusiness });
export const ZBusinessList = listOf(ZBusiness);

export const ZBusinessListQuery = ZListQuery.extend({
  status: z.enum(BUSINESS_STATUSES).default('active'),
  /** Platform admins only: one agency's businesses. */
  agency_id: z.coerce.number().int().positive().optional(),
});
export type TBusinessListQuery = z.infer<typeof ZBusinessListQuery>;

/** The limits and switches an agency sets on a business (the add and edit forms). */
const businessFields = {
  name: zName(),
  free_fee: z.boolean(),
  is_template: z.boolean(),
  widget_type: z.union([z.literal(1), z.literal(2), z.literal(3)], { message: 'validation.in' }),
  is_on_trial: z.boolean(),
  calls: zCount(),
  messages: zCount(),
  number_of_users: z.number().int().min(1).max(10_000),
  number_of_installs: z.number().int().min(1).max(10_000),
  number_of_automations: z.number().int().min(0).max(10_000),
  caller_id_enabled: z.boolean(),
  custom_number_enabled: z.boolean(),
  form_enabled: z.boolean(),
  dep_enabled: z.boolean(),
  sendgrid_enabled: z.boolean(),
  ai_enabled: z.boolean(),
  has_sales_user_extension: z.boolean(),
  subscription_plan_id: z.number().int().positive().nullable(),
  opt_out_msg: z.string().trim().max(500).nullable(),
};

export const ZBusinessOwnerInput = z.object({
  email: zEmail(),
  first_name: zName(),
  last_name: z.string().trim().max(191).default(''),
  /** Without a password the owner gets an e-mail to choose one. */
  password: zPassword().optional(),
});

export const ZCreateBusinessRequest = z.object({
  ...businessFields,
  free_fee: businessFields.free_fee.default(false),
  is_template: businessFields.is_template.default(false),
  widget_type: businessFields.widget_type.default(BUSINESS_CREATE_DEFAULTS.widget_type),
  is_on_trial: businessFields.is_on_trial.default(false),
  calls: businessFields.calls.default(BUSINESS_CREATE_DEFAULTS.calls),
  messages: businessFields.messages.default(BUSINESS_CREATE_DEFAULTS.messages),
  number_of_users: businessFields.number_of_users.default(BUSINESS_CREATE_DEFAULTS.number_of_users),
  number_of_installs: businessFields.number_of_installs.default(BUSINESS_CREATE_DEFAULTS.number_of_installs),
  number_of_automations: businessFields.number_of_automations.default(
    BUSINESS_CREATE_DEFAULTS.number_of_automations,
  ),
  caller_id_enabled: businessFields.caller_id_enabled.default(false),
  custom_number_enabled: businessFields.custom_number_enabled.default(false),
  form_enabled: businessFields.form_enabled.default(false),
  dep_enabled: businessFields.dep_enabled.default(false),
  sendgrid_enabled: businessFields.sendgrid_enabled.default(false),
  ai_enabled: businessFields.ai_enabled.default(false),
  has_sales_user_extension: businessFields.has_sales_user_extension.default(false),
  subscription_plan_id: businessFields.subscription_plan_id.default(null),
  opt_out_msg: businessFields.opt_out_msg.default(null),
  /** Platform admins name the agency; agency users always add to their own. */
  agency_id: z.number().int().positive().optional(),
  owner: ZBusinessOwnerInput,
});
export type TCreateBusinessRequest = z.infer<typeof ZCreateBusinessRequest>;

export const ZUpdateBusinessRequest = z
  .object(businessFields)
  .partial()
  .extend({
    owner: z
      .object({ email: zEmail(), first_name: zName(), last_name: z.string().trim().max(191) })
      .partial()
      .optional(),
  });
export type TUpdateBusinessRequest = z.infer<typeof ZUpdateBusinessRequest>;

export const ZBusinessResetPasswordRequest = z
  .object({
    /** With a password it is set at once; without one the business admin gets a reset link. */
    password: zPassword().optional(),
    password_confirmation: z.string().optional(),
  })
  .refine((v) => v.password === undefined || v.password === v.password_confirmation, {
    message: 'validation.password_confirmation',
    path: ['password_confirmation'],
  });
export type TBusinessResetPasswordRequest = z.infer<typeof ZBusinessResetPasswordRequest>;

export const ZActiveRequest = z.object({ active: z.boolean() });

export const ZBusinessNamesResponse = z.object({
  success: ok,
  data: z.array(z.object({ id: z.number().int(), name: z.string() })),
});

export const ZInstallStatsQuery = z.object({ agency_id: z.coerce.number().int().positive().optional() });
export const ZInstallStats = z.object({
  total_installs: z.number().int(),
  used: z.number().int(),
  available_installs: z.number().int(),
});
export const ZInstallStatsResponse = z.object({ success: ok, data: ZInstallStats });

// The business's own settings.

export const ZBusinessInfoRequest = z.object({
  name: zName(),
  opt_out_msg: z.string().trim().max(500).nullable().optional(),
  email: z
    .union([zEmail(), z.literal('')])
    .nullable()
    .optional(),
  phone: z.string().trim().max(32).nullable().optional(),
  address: z.string().trim().max(500).nullable().optional(),
  website: z.string().trim().max(500).nullable().optional(),
  timezone: z.string().trim().max(64).nullable().optional(),
});
export type TBusinessInfoRequest = z.infer<typeof ZBusinessInfoRequest>;

export const ZBusinessReportRequest = z.object({
  report_emails: zEmailList(20),
  report_schedules: zSubsetOf(REPORT_SCHEDULES),
});
export type TBusinessReportRequest = z.infer<typeof ZBusinessReportRequest>;

/** Notification settings (kept in businesses.settings.notifications). */
export const ZBusinessNotificationSettings = z.object({
  email_notifications: z.boolean().optional(),
  sms_notifications: z.boolean().optional(),
  desktop_notifications: z.boolean().optional(),
  new_message: z.boolean().optional(),
  new_task: z.boolean().optional(),
  missed_call: z.boolean().optional(),
  new_lead: z.boolean().optional(),
  notification_emails: zEmailList(20).optional(),
  notification_phone: z.string().trim().max(32).nullable().optional(),
});
export type TBusinessNotificationSettings = z.infer<typeof ZBusinessNotificationSettings>;

/** The widget's events reported to the host page's analytics (issue 25, ADR 087). */
export const WIDGET_TAG_EVENTS = [
  'widget_open',
  'callback_request',
  'text_sent',
  'call_booked',
  'lead_submitted',
] as const;
export type TWidgetTagEvent = (typeof WIDGET_TAG_EVENTS)[number];

/**
 * The "analytics integration" setting (kept in businesses.settings.analytics): when on, the widget reports
 * its events to the page's Google Analytics 4 (`gtag`) and/or Tag Manager data layer. Turned on, it names
 * at least one of the two.
 */
export const ZBusinessAnalyticsSettings = z
  .object({ enabled: z.boolean(), gtag: z.boolean(), data_layer: z.boolean() })
  .refine((v) => !v.enabled || v.gtag || v.data_layer, {
    message: 'businesses.analytics_target_required',
    path: ['gtag'],
  });
export type TBusinessAnalyticsSettings = z.infer<typeof ZBusinessAnalyticsSettings>;

/**
 * The "contacts" settings (kept in businesses.settings.contacts; ADR 094): the country of a phone number
 * typed or imported without a country code (ISO 3166 alpha-2, e.g. US, GB, BR). Absent: US (spec 000 §5).
 */
export const ZBusinessContactsSettings = z.object({
  default_country: z
    .string()
    .trim()
    .toUpperCase()
    .refine((v) => isSupportedCountry(v), { message: 'businesses.country_invalid' }),
});
export type TBusinessContactsSettings = z.infer<typeof ZBusinessContactsSettings>;

export const AWAY_EVERY_HOURS_MAX = 168;
export const SIGNATURE_MAX = 60;
export const AWAY_MESSAGE_MAX = 480;

/**
 * The "messages" settings (ADR 094): the opt-out message (the businesses.opt_out_msg column, the STOP
 * confirmation), the signature appended to texts staff send from the inbox, and the away auto-reply to a
 * text that arrives while its install is closed (at most one per conversation every `away_every_hours`).
 * A switch turned on needs its text. The signature and away reply are kept in businesses.settings.messages.
 */
export const ZBusinessMessagesSettings = z
  .object({
    opt_out_msg: z.string().trim().max(500).nullable().optional(),
    signature_enabled: z.boolean(),
    signature: z.string().trim().max(SIGNATURE_MAX),
    away_enabled: z.boolean(),
    away_message: z.string().trim().max(AWAY_MESSAGE_MAX),
    away_every_hours: z.number().int().min(1).max(AWAY_EVERY_HOURS_MAX),
  })
  .refine((v) => !v.signature_enabled || v.signature.length > 0, {
    message: 'businesses.signature_required',
    path: ['signature'],
  })
  .refine((v) => !v.away_enabled || v.away_message.length > 0, {
    message: 'businesses.away_message_required',
    path: ['away_message'],
  });
export type TBusinessMessagesSettings = z.infer<typeof ZBusinessMessagesSettings>;

export const MESSAGES_SETTINGS_DEFAULTS: Omit<TBusinessMessagesSettings, 'opt_out_msg'> = {
  signature_enabled: false,
  signature: '',
  away_enabled: false,
  away_message: '',
  away_every_hours: 12,
};

/** The stored messages settings of a business's `settings`, the defaults where none (or a broken one). */
export function messagesSettingsOf(settings: unknown): Omit<TBusinessMessagesSettings, 'opt_out_msg'> {
  const stored = (settings as { messages?: unknown } | null | undefined)?.messages;
  const parsed = ZBusinessMessagesSettings.safeParse({ ...MESSAGES_SETTINGS_DEFAULTS, ...(stored ?? {}) });
  if (!parsed.success) return MESSAGES_SETTINGS_DEFAULTS;
  const { opt_out_msg: _, ...rest } = parsed.data;
  return rest;
}

/** The stored contacts settings of a business's `settings`: US when none. */
export function contactsSettingsOf(settings: unknown): TBusinessContactsSettings {
  const stored = (settings as { contacts?: unknown } | null | undefined)?.contacts;
  const parsed = ZBusinessContactsSettings.safeParse(stored ?? {});
  return parsed.success ? parsed.data : { default_country: 'US' };
}

/**
 * PUT /v1/businesses/setting: the notification settings (merged), the analytics integration, the contacts
 * settings, the messages settings: any of them (each of the last three replaces what was stored).
 */
export const ZBusinessSettingRequest = z.object({
  notifications: ZBusinessNotificationSettings.optional(),
  analytics: ZBusinessAnalyticsSettings.optional(),
  contacts: ZBusinessContactsSettings.optional(),
  messages: ZBusinessMessagesSettings.optional(),
});
export type TBusinessSettingRequest = z.infer<typeof ZBusinessSettingRequest>;

export const BUSINESS_IMAGE_TYPES = ['logo'] as const;
export const ZBusinessImageRequest = z.object({
  type: z.enum(BUSINESS_IMAGE_TYPES),
  /** A data URL: data:image/png;base64,... (png, jpeg, gif or webp). */
  data: z.string().max(1_000_000),
});
export const ZBusinessImageParams = z.object({ type: z.enum(BUSINESS_IMAGE_TYPES) });

// ---------------------------------------------------------------------------------------------------------
// Agency users (AccountManager 1, FinanaceManager 2, MarketingManager 3)

export const AGENCY_USER_TYPE_VALUES = ['1', '2', '3'] as const;

export const ZAgencyUser = z.object({
  id: z.number().int(),
  email: z.string(),
  /** Answered by GET and PUT by id: a new address asked for and not confirmed yet (ADR 050), or null. */
  pending_email: z.string().nullable().optional(),
  first_name: z.string(),
  last_name: z.string(),
  user_type: z.enum(AGENCY_USER_TYPE_VALUES),
  active: z.boolean(),
  created_at: z.string(),
});
export type TAgencyUser = z.infer<typeof ZAgencyUser>;
export const ZAgencyUserList = listOf(ZAgencyUser);
export const ZAgencyUserResponse = z.object({
  success: ok,
  message: z.string().optional(),
  data: ZAgencyUser,
});
export const ZAgencyUserAllResponse = z.object({ success: ok, data: z.array(ZAgencyUser) });

export const ZAgencyUserListQuery = ZListQuery.extend({
  user_type: z.enum(AGENCY_USER_TYPE_VALUES).optional(),
});

export const ZCreateAgencyUserRequest = z
  .object({
    email: zEmail(),
    first_name: zName(),
    last_name: z.string().trim().max(191).default(''),
    user_type: z.enum(AGENCY_USER_TYPE_VALUES),
    password: zPassword(),
    password_confirmation: z.string(),
  })
  .refine((v) => v.password === v.password_confirmation, {
    message: 'validation.password_confirmation',
    path: ['password_confirmation'],
  });
export type TCreateAgencyUserRequest = z.infer<typeof ZCreateAgencyUserRequest>;

export const ZUpdateAgencyUserRequest = z.object({
  email: zEmail(),
  first_name: zName(),
  last_name: z.string().trim().max(191).default(''),
  user_type: z.enum(AGENCY_USER_TYPE_VALUES),
  active: z.boolean().optional(),
});
export type TUpdateAgencyUserRequest = z.infer<typeof ZUpdateAgencyUserRequest>;

export const ZChangePasswordRequest = z
  .object({ password: zPassword(), password_confirmation: z.string() })
  .refine((v) => v.password === v.password_confirmation, {
    message: 'validation.password_confirmation',
    path: ['password_confirmation'],
  });

// ---------------------------------------------------------------------------------------------------------
// Subscription plans

export const PLAN_INTERVALS = ['month', 'year'] as const;

export const ZPlanFeatures = z.object({
  Default: z.boolean().default(false),
  Visible: z.boolean().default(true),
  RemoveBranding: z.boolean().default(false),
  Zapier: z.boolean().default(false),
  Department: z.boolean().default(false),
  AiIntegration: z.boolean().default(false),
  Users: z.number().int().min(1).max(10_000).default(PLAN_DEFAULTS.Users),
  Installs: z.number().int().min(1).max(10_000).default(PLAN_DEFAULTS.Installs),
  Automations: z.number().int().min(0).max(10_000).default(PLAN_DEFAULTS.Automations),
  Messages: zCount().default(PLAN_DEFAULTS.Messages),
  Calls: zCount().default(PLAN_DEFAULTS.Calls),
  Description: z.string().trim().max(2000).default(''),
});
export type TPlanFeatures = z.infer<typeof ZPlanFeatures>;

/** What a plan and a package both are: an agency's priced item. */
const ZPricedItemHead = z.object({ id: z.number().int(), agency_id: z.number().int(), name: z.string() });
const ZPricedItemTail = z.object({
  price_cents: z.number().int(),
  active: z.boolean(),
  created_at: z.string(),
});
/** The list, one-item and all-items answers of a priced item. */
const pricedItemAnswers = <T extends z.ZodType>(item: T) => ({
  list: listOf(item),
  one: z.object({ success: ok, message: z.string().optional(), data: item }),
  all: z.object({ success: ok, data: z.array(item) }),
});

export const ZPlan = z.object({
  ...ZPricedItemHead.shape,
  interval: z.enum(PLAN_INTERVALS),
  trial_days: z.number().int(),
  features: ZPlanFeatures,
  /** 'business': sold to the agency's businesses; 'agency': the main agency's plans, sold to agencies. */
  type: z.enum(['agency', 'business']),
  ...ZPricedItemTail.shape,
});
export type TPlan = z.infer<typeof ZPlan>;
export const { list: ZPlanList, one: ZPlanResponse, all: ZPlanAllResponse } = pricedItemAnswers(ZPlan);
export const ZHasDefaultPlanResponse = z.object({
  success: ok,
  data: z.object({ has_default: z.boolean(), plan_id: z.number().int().nullable() }),
});

export const ZPlanRequest = z.object({
  name: zName(),
  interval: z.enum(PLAN_INTERVALS).default('month'),
  /** Integer cents. */
  price_cents: z.number().int().min(0).max(100_000_000),
  trial_days: z.number().int().min(0).max(365).default(0),
  features: ZPlanFeatures.default(ZPlanFeatures.parse({})),
  active: z.boolean().default(true),
  type: z.enum(['agency', 'business']).default('business'),
});
export type TPlanRequest = z.infer<typeof ZPlanRequest>;

/** Features a PUT changes: the ones it names (no defaults here, or a PUT would reset the others). */
const features = ZPlanFeatures.shape;
export const ZPlanFeaturesPatch = z.object({
  Default: features.Default.unwrap().optional(),
  Visible: features.Visible.unwrap().optional(),
  RemoveBranding: features.RemoveBranding.unwrap().optional(),
  Zapier: features.Zapier.unwrap().optional(),
  Department: features.Department.unwrap().optional(),
  AiIntegration: features.AiIntegration.unwrap().optional(),
  Users: features.Users.unwrap().optional(),
  Installs: features.Installs.unwrap().optional(),
  Automations: features.Automations.unwrap().optional(),
  Messages: features.Messages.unwrap().optional(),
  Calls: features.Calls.unwrap().optional(),
  Description: features.Description.unwrap().optional(),
});

/** Edit a plan: a field left out keeps its value (PUT /v1/agencies/{id}/subscription/plans/{plan_id}). */
export const ZUpdatePlanRequest = z.object({
  name: ZPlanRequest.shape.name.optional(),
  interval: ZPlanRequest.shape.interval.unwrap().optional(),
  price_cents: ZPlanRequest.shape.price_cents.optional(),
  trial_days: ZPlanRequest.shape.trial_days.unwrap().optional(),
  features: ZPlanFeaturesPatch.optional(),
  active: ZPlanRequest.shape.active.unwrap().optional(),
  type: ZPlanRequest.shape.type.unwrap().optional(),
});
export type TUpdatePlanRequest = z.infer<typeof ZUpdatePlanRequest>;

export const ZAgencyParams = z.object({ agency_id: z.coerce.number().int().positive() });
export const ZPlanParams = ZAgencyParams.extend({ plan_id: z.coerce.number().int().positive() });

// ---------------------------------------------------------------------------------------------------------
// Packages (extra messages or calls)

export const PACKAGE_KINDS = ['messages', 'calls', 'installs'] as const;

export const ZPackage = z.object({
  ...ZPricedItemHead.shape,
  kind: z.enum(PACKAGE_KINDS),
  quantity: z.number().int(),
  /** Offered as a one-click extra on the order pages. */
  order_bump: z.boolean(),
  ...ZPricedItemTail.shape,
});
export type TPackage = z.infer<typeof ZPackage>;
export const {
  list: ZPackageList,
  one: ZPackageResponse,
  all: ZPackageAllResponse,
} = pricedItemAnswers(ZPackage);

export const ZPackageListQuery = ZListQuery.extend({
  active: zQueryBool().optional(),
  kind: z.enum(PACKAGE_KINDS).optional(),
});
export type TPackageListQuery = z.infer<typeof ZPackageListQuery>;

export const ZPackageRequest = z.object({
  name: zName(),
  kind: z.enum(PACKAGE_KINDS),
  quantity: z.number().int().min(1).max(100_000_000),
  price_cents: z.number().int().min(0).max(100_000_000),
  active: z.boolean().default(true),
  order_bump: z.boolean().default(false),
});
export type TPackageRequest = z.infer<typeof ZPackageRequest>;

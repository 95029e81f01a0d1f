import { ZAgencyIdentity } from './agencies.ts';
import { ZBusinessUsage } from './businesses.ts';
import { LANGUAGES } from './constants.ts';
import { AGENT_TYPES, CUSTOM_TYPE_PAGES, ROLE_GROUPS, ROLES, USER_TYPES } from './roles.ts';
import { zEmail, zPassword, zUrl } from './validation.ts';
import { z } from './zod.ts';

export const ZUserSettings = z
  .object({
    language: z.enum(LANGUAGES, { message: 'validation.language' }).optional(),
    custom_type_pages: z.array(z.enum(CUSTOM_TYPE_PAGES)).optional(),
    desktop_notifications: z.boolean().optional(),
    email_notifications: z.boolean().optional(),
    timezone: z.string().max(64).optional(),
  })
  .catchall(z.unknown());

export const ZAgencySummary = z.object({
  ...ZAgencyIdentity.shape,
  is_template: z.boolean(),
  free_fee: z.boolean(),
  active: z.boolean(),
  zapier_enabled: z.boolean(),
  zapier_free: z.boolean(),
  department_enabled: z.boolean(),
  remove_branding: z.boolean(),
  profanity_enabled: z.boolean(),
  /** The telephony-provider registration state behind the agency SMS banners (spec 000 §8). */
  properties: z.object({ twProfileSid: z.string().nullable(), twCampaignSid: z.string().nullable() }),
});

export const ZBusinessSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  ...ZBusinessUsage.shape,
  dep_enabled: z.boolean(),
  has_sales_user_extension: z.boolean(),
  /** AI drafts are switched on (the plan may still refuse them, ADR 086). */
  ai_enabled: z.boolean(),
  /** The business's own e-mail (ADR 090): a SendGrid integration, an SMTP e-mail account. */
  has_integrations: z.object({ sendgrid: z.boolean(), email: z.boolean() }).optional(),
});

// The user / profile entity of spec 000 §3.
export const ZUser = z.object({
  id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  email_verified: z.boolean(),
  /** A new address asked for and not confirmed yet: `email` stays the user's until the link is followed. */
  pending_email: z.string().nullable().optional(),
  avatar: z.string().nullable(),
  role: z.enum(ROLES),
  role_group: z.enum(ROLE_GROUPS),
  user_type: z.enum(USER_TYPES).nullable(),
  agent_type: z.enum(AGENT_TYPES).nullable(),
  settings: ZUserSettings,
  subscriptions: z.object({ zapier: z.boolean() }),
  has_twilio_setup: z.boolean(),
  /** The user's agency uses the platform's carrier sandbox (the Sandbox Phones screen is shown). */
  carrier_sandbox: z.boolean(),
  stripe_active: z.boolean(),
  subscribed: z.boolean(),
  has_payment_method: z.boolean(),
  agency_has_stripe_config: z.boolean(),
  max_departments: z.number().int(),
  open_install_wizard: z.union([z.literal(false), z.literal(true), z.number().int()]),
  number_of_messages: z.number().int(),
  number_of_tasks: z.number().int(),
  /** The install key of the support chat to load for this user (spec 000 §2 Layout), or null for none. */
  support_widget_key: z.string().nullable(),
  countries: z.array(z.string()),
  agency: ZAgencySummary.nullable(),
  business: ZBusinessSummary.nullable(),
});
export type TUser = z.infer<typeof ZUser>;

export const ZProfileQuery = z.object({ i: z.coerce.number().int().optional() });

export const ZProfileResponse = z.object({
  success: z.literal(true),
  data: z.object({
    user: ZUser,
    impersonating: z.boolean(),
    impersonator: z
      .object({ id: z.number().int(), name: z.string(), email: z.string(), role_group: z.enum(ROLE_GROUPS) })
      .nullable(),
  }),
});

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

export const ZUpdateProfileRequest = z
  .object({
    first_name: z.string().trim().min(1).max(100),
    last_name: z.string().trim().max(100).default(''),
    email: zEmail(),
    // An http(s) URL ('URL format is invalid.' otherwise, spec 000 §5); blank clears the avatar.
    avatar: z.preprocess(
      (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
      zUrl().max(2048).nullable().optional(),
    ),
    language: z.enum(LANGUAGES, { message: 'validation.language' }).optional(),
    current_password: z.preprocess(blankToUndefined, z.string().max(200).optional()),
    password: z.preprocess(blankToUndefined, zPassword().optional()),
    password_confirmation: z.preprocess(blankToUndefined, z.string().max(200).optional()),
  })
  .refine((v) => v.password === undefined || v.password === v.password_confirmation, {
    message: 'validation.password_confirmation',
    path: ['password_confirmation'],
  });
export type TUpdateProfileRequest = z.infer<typeof ZUpdateProfileRequest>;

// What a user may set about themselves: not custom_type_pages (their permissions, set by whoever manages
// users) nor server-kept flags; unknown keys are refused.
export const ZSettingRequest = z.strictObject({
  language: z.enum(LANGUAGES, { message: 'validation.language' }).optional(),
  desktop_notifications: z.boolean().optional(),
  email_notifications: z.boolean().optional(),
  timezone: z.string().max(64).optional(),
});
export type TSettingRequest = z.infer<typeof ZSettingRequest>;

export const ZCountriesRequest = z.object({
  countries: z.array(z.string().regex(/^[A-Z]{2}$/, { message: 'validation.country' })).max(250),
});

export const ZUserResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ user: ZUser }),
});

import {
  type CountryCode,
  isSupportedCountry,
  isValidPhoneNumber,
  parsePhoneNumberFromString,
} from 'libphonenumber-js';
import { allItemsOf, dataOf, itemAnswerOf, listOf, ZListQuery } from './http.ts';
import { AGENT_TYPES, CUSTOM_TYPE_PAGES, USER_TYPES } from './roles.ts';
import { withPasswordConfirmation, zEmail, zPassword } from './validation.ts';
import { z } from './zod.ts';

// Contracts of the `users` domain: business users, global users, departments, release notes,
// blacklist and whitelist, editable pages (spec 001 §7, spec 000 §3 and §6).

// ---------------------------------------------------------------- phone numbers (spec 000 §5)

/** US and CA are the preferred countries: a number without a country code is read as North American. */
export const DEFAULT_PHONE_COUNTRY = 'US' as const;

/**
 * The E.164 form of a phone number, or null when it is not a valid number. `country`: the country of a
 * number written without its country code (a business's contacts setting; US by default).
 */
export function toE164(raw: string, country: string = DEFAULT_PHONE_COUNTRY): string | null {
  const value = raw.trim();
  const c = (isSupportedCountry(country) ? country : DEFAULT_PHONE_COUNTRY) as CountryCode;
  if (!value || value.length > 40 || !isValidPhoneNumber(value, c)) return null;
  return parsePhoneNumberFromString(value, c)?.number ?? null;
}

/** A phone number, 'Wrong phone number format!!' when invalid, stored in E.164. */
export const zPhone = () =>
  z
    .string()
    .trim()
    .min(1)
    .max(40)
    .refine((v) => toE164(v) !== null, { message: 'validation.phone' })
    .transform((v) => toE164(v) ?? v);

const zName = () => z.string().trim().min(1).max(100);
const zLastName = () => z.string().trim().max(100).default('');
const zTimestamp = () => z.string();

// ---------------------------------------------------------------- business users

export const BUSINESS_USER_ROLES = ['BusinessAdmin', 'BusinessUser'] as const;

export const ZBusinessUserSettings = z.object({
  custom_type_pages: z.array(z.enum(CUSTOM_TYPE_PAGES)).max(CUSTOM_TYPE_PAGES.length).optional(),
});

export const ZBusinessUser = z.object({
  id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  /** Answered by GET and PUT by id: a new address asked for and not confirmed yet (ADR 050), or null. */
  pending_email: z.string().nullable().optional(),
  role: z.enum(BUSINESS_USER_ROLES),
  user_type: z.enum(USER_TYPES).nullable(),
  agent_type: z.enum(AGENT_TYPES).nullable(),
  settings: z.object({ custom_type_pages: z.array(z.enum(CUSTOM_TYPE_PAGES)) }),
  /** The staff phone a voice agent is rung on for callbacks (E.164), or null. */
  phone: z.string().nullable(),
  active: z.boolean(),
  /** The business owner: nobody deletes it. */
  is_owner: z.boolean(),
  created_at: zTimestamp(),
});
export type TBusinessUser = z.infer<typeof ZBusinessUser>;

/** The short form used by pickers (agents, departments). */
export const ZUserSummary = z.object({
  id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  role: z.string(),
  user_type: z.enum(USER_TYPES).nullable(),
  agent_type: z.enum(AGENT_TYPES).nullable(),
  /** The staff phone (E.164), or null. */
  phone: z.string().nullable(),
});
export type TUserSummary = z.infer<typeof ZUserSummary>;

const businessUserFields = {
  first_name: zName(),
  last_name: zLastName(),
  email: zEmail(),
  role: z.enum(BUSINESS_USER_ROLES).default('BusinessUser'),
  user_type: z.enum(USER_TYPES).nullable().optional(),
  agent_type: z.enum(AGENT_TYPES).nullable().optional(),
  /** The staff phone, stored in E.164; null (or absent on create) for none, absent on an edit keeps it. */
  phone: zPhone().nullable().optional(),
  settings: ZBusinessUserSettings.optional(),
};

type RoleFields = {
  role: (typeof BUSINESS_USER_ROLES)[number];
  user_type?: string | null;
  settings?: { custom_type_pages?: string[] };
};

/** A BusinessUser needs a user type; the custom type (4) needs at least one page (spec 000 §6). */
function checkBusinessRole(v: RoleFields, ctx: z.RefinementCtx) {
  if (v.role !== 'BusinessUser') return;
  if (!v.user_type) ctx.addIssue({ code: 'custom', message: 'validation.required', path: ['user_type'] });
  else if (v.user_type === '4' && !v.settings?.custom_type_pages?.length)
    ctx.addIssue({
      code: 'custom',
      message: 'validation.required',
      path: ['settings', 'custom_type_pages'],
    });
}

export const ZCreateBusinessUserRequest = withPasswordConfirmation(
  z.object({
    ...businessUserFields,
    password: zPassword(),
    password_confirmation: z.string().max(200),
  }),
).superRefine(checkBusinessRole);
export type TCreateBusinessUserRequest = z.infer<typeof ZCreateBusinessUserRequest>;

export const ZUpdateBusinessUserRequest = z
  .object({ ...businessUserFields, active: z.boolean().optional() })
  .superRefine(checkBusinessRole);
export type TUpdateBusinessUserRequest = z.infer<typeof ZUpdateBusinessUserRequest>;

export const ZBusinessUserListQuery = ZListQuery.extend({
  status: z.enum(['active', 'inactive']).optional(),
  role: z.enum(BUSINESS_USER_ROLES).optional(),
});
export type TBusinessUserListQuery = z.infer<typeof ZBusinessUserListQuery>;

/** sms: agents and smsAgents; voice: agents and voiceAgents; none: every agent. */
export const ZAgentsQuery = z.object({ channel: z.enum(['sms', 'voice']).optional() });
export type TAgentsQuery = z.infer<typeof ZAgentsQuery>;

export const ZBusinessUserList = listOf(ZBusinessUser);
export const ZBusinessUserResponse = itemAnswerOf(ZBusinessUser);
export const ZUserSummaryList = allItemsOf(ZUserSummary);

export const ZChangePasswordRequest = withPasswordConfirmation(
  z.object({ password: zPassword(), password_confirmation: z.string().max(200) }),
);
export type TChangePasswordRequest = z.infer<typeof ZChangePasswordRequest>;

// ---------------------------------------------------------------- global users (SuperAdmin only)

export const GLOBAL_USER_ROLES = ['SuperAdmin', 'Admin'] as const;

export const ZGlobalUser = z.object({
  id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  /** Answered by GET and PUT by id: a new address asked for and not confirmed yet (ADR 050), or null. */
  pending_email: z.string().nullable().optional(),
  role: z.enum(GLOBAL_USER_ROLES),
  active: z.boolean(),
  created_at: zTimestamp(),
});
export type TGlobalUser = z.infer<typeof ZGlobalUser>;

export const ZCreateGlobalUserRequest = withPasswordConfirmation(
  z.object({
    first_name: zName(),
    last_name: zLastName(),
    email: zEmail(),
    role: z.enum(GLOBAL_USER_ROLES),
    password: zPassword(),
    password_confirmation: z.string().max(200),
  }),
);
export type TCreateGlobalUserRequest = z.infer<typeof ZCreateGlobalUserRequest>;

export const ZUpdateGlobalUserRequest = z.object({
  first_name: zName(),
  last_name: zLastName(),
  email: zEmail(),
  role: z.enum(GLOBAL_USER_ROLES),
  active: z.boolean().optional(),
});
export type TUpdateGlobalUserRequest = z.infer<typeof ZUpdateGlobalUserRequest>;

export const ZGlobalUserListQuery = ZListQuery.extend({ role: z.enum(GLOBAL_USER_ROLES).optional() });
export type TGlobalUserListQuery = z.infer<typeof ZGlobalUserListQuery>;
export const ZGlobalUserList = listOf(ZGlobalUser);
export const ZGlobalUserResponse = itemAnswerOf(ZGlobalUser);

// ---------------------------------------------------------------- departments

export const ZDepartment = z.object({
  id: z.number().int(),
  name: z.string(),
  active: z.boolean(),
  sms_agents: z.array(ZUserSummary),
  voice_agents: z.array(ZUserSummary),
  created_at: zTimestamp(),
});
export type TDepartment = z.infer<typeof ZDepartment>;

const zUserIds = () => z.array(z.number().int().positive()).max(200).default([]);

export const ZDepartmentRequest = z.object({
  name: zName(),
  active: z.boolean().default(true),
  sms_agents: zUserIds(),
  voice_agents: zUserIds(),
});
export type TDepartmentRequest = z.infer<typeof ZDepartmentRequest>;

export const ZToggleActiveRequest = z.object({ active: z.boolean() });

export const ZDepartmentListQuery = ZListQuery.extend({ status: z.enum(['active', 'inactive']).optional() });
export type TDepartmentListQuery = z.infer<typeof ZDepartmentListQuery>;
export const ZDepartmentList = listOf(ZDepartment);
export const ZDepartmentAll = allItemsOf(ZDepartment);
export const ZDepartmentResponse = itemAnswerOf(ZDepartment);

// ---------------------------------------------------------------- release notes

export const ZReleaseNote = z.object({
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  published: z.boolean(),
  published_at: zTimestamp(),
  created_at: zTimestamp(),
  updated_at: zTimestamp(),
});
export type TReleaseNote = z.infer<typeof ZReleaseNote>;

export const ZReleaseNoteRequest = z.object({
  title: z.string().trim().min(1).max(200),
  content: z.string().trim().min(1).max(100_000),
  published: z.boolean().default(true),
});
export type TReleaseNoteRequest = z.infer<typeof ZReleaseNoteRequest>;

export const ZReleaseNoteListQuery = ZListQuery.extend({ status: z.enum(['published', 'draft']).optional() });
export type TReleaseNoteListQuery = z.infer<typeof ZReleaseNoteListQuery>;
export const ZReleaseNoteList = listOf(ZReleaseNote);
export const ZReleaseNoteResponse = itemAnswerOf(ZReleaseNote);

// ---------------------------------------------------------------- blacklist and whitelist

export const PHONE_LISTS = ['blacklist', 'whitelist'] as const;
export type TPhoneList = (typeof PHONE_LISTS)[number];

export const ZPhoneListEntry = z.object({
  id: z.number().int(),
  phone: z.string(),
  note: z.string().nullable(),
  created_at: zTimestamp(),
});
export type TPhoneListEntry = z.infer<typeof ZPhoneListEntry>;

export const ZPhoneListRequest = z.object({
  phone: zPhone(),
  note: z.string().trim().max(255).nullable().optional(),
});
export type TPhoneListRequest = z.infer<typeof ZPhoneListRequest>;

/** Either a list of numbers, or the text of a CSV file (one number per line, or per cell). */
export const ZPhoneImportRequest = z
  .object({
    phones: z.array(z.string().max(40)).max(10_000).optional(),
    csv: z.string().max(900_000).optional(),
  })
  .refine((v) => (v.phones?.length ?? 0) > 0 || Boolean(v.csv?.trim()), {
    message: 'validation.required',
    path: ['phones'],
  });
export type TPhoneImportRequest = z.infer<typeof ZPhoneImportRequest>;

export const ZPhoneImportResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({
    imported: z.number().int(),
    /** Numbers already on the list (or repeated in the file) plus invalid ones. */
    skipped: z.number().int(),
    /** The values that are not valid phone numbers (at most 100). */
    invalid: z.array(z.string()),
  }),
});

export const ZPhoneListList = listOf(ZPhoneListEntry);
export const ZPhoneListResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: ZPhoneListEntry,
});

// ---------------------------------------------------------------- pages

/** The editable pages: training (agencies read it), and the terms and privacy pages of the sites. */
export const PAGE_KEYS = ['training', 'terms-of-services', 'privacy-policy'] as const;
export type TPageKey = (typeof PAGE_KEYS)[number];
/** The pages an agency may override for its own domain. */
export const AGENCY_PAGE_KEYS: readonly TPageKey[] = ['terms-of-services', 'privacy-policy'];

export const ZPageParams = z.object({ key: z.string().min(1).max(64) });

export const ZPage = z.object({
  key: z.string(),
  title: z.string(),
  content: z.string(),
  /** agency: the caller's agency's own page; platform: the platform page; none: not written yet. */
  source: z.enum(['agency', 'platform', 'none']),
  updated_at: zTimestamp().nullable(),
});
export type TPage = z.infer<typeof ZPage>;

export const ZPageRequest = z.object({
  title: z.string().trim().min(1).max(200),
  content: z.string().max(200_000),
});
export type TPageRequest = z.infer<typeof ZPageRequest>;

export const ZPageResponse = itemAnswerOf(ZPage);

export const ZPublicPageQuery = z.object({ domain: z.string().trim().min(1).max(253) });
/** Spec 000 §7: the answer carries the page as data.data (title and content). */
export const ZPublicPageResponse = z.object({
  success: z.literal(true),
  data: dataOf(z.object({ key: z.string(), title: z.string(), content: z.string() })),
});

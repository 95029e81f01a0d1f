import { allItemsOf, itemAnswerOf, listOf, ZListQuery } from './http.ts';
import { z } from './zod.ts';

// Contracts of the `contacts` domain (spec 001 "Contacts", spec 000 §3 Contact): a business's contacts
// (one per phone number), their custom fields, tags, the bulk actions and the CSV import and export.

/** How a contact came: a text, a call, or a form (lead form or the widget's). Spec filter types add 'all'. */
export const CONTACT_SOURCES = ['sms', 'voice', 'cms'] as const;
export type TContactSource = (typeof CONTACT_SOURCES)[number];
export const CONTACT_FILTER_TYPES = ['all', ...CONTACT_SOURCES] as const;

export const CONTACT_FIELD_TYPES = ['text', 'number', 'date', 'email', 'phone'] as const;
export type TContactFieldType = (typeof CONTACT_FIELD_TYPES)[number];

/** The most ids one bulk call takes, and the most rows one import takes. */
export const CONTACT_BULK_MAX = 10_000;
export const CONTACT_IMPORT_MAX_ROWS = 10_000;
/** The columns every import file may carry besides the custom fields (phone is required). */
export const CONTACT_IMPORT_COLUMNS = [
  'phone',
  'first_name',
  'last_name',
  'email',
  'birthday',
  'tags',
] as const;

/** A calendar date, YYYY-MM-DD, that exists. */
export function isIsoDate(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}
const EMAIL = z.email();
export const isEmail = (v: string) => EMAIL.safeParse(v).success;
/** A date or nothing ('' or null clears it). */
const zDate = () =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || isIsoDate(v), { message: 'contacts.date_format' })
    .nullable();
const zOptionalEmail = () =>
  z
    .string()
    .trim()
    .toLowerCase()
    .max(191)
    .refine((v) => v === '' || isEmail(v), { message: 'validation.email' })
    .nullable();
const zId = () => z.number().int().positive();

export const ZTagRef = z.object({ id: z.number().int(), name: z.string() });

export const ZContact = z.object({
  id: z.number().int(),
  phone: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  birthday: z.string().nullable(),
  anniversary: z.string().nullable(),
  fields: z.record(z.string(), z.string()),
  source: z.enum(CONTACT_SOURCES),
  install_id: z.number().int().nullable(),
  agent_user_id: z.number().int().nullable(),
  on_top: z.boolean(),
  opted_out: z.boolean(),
  opted_out_at: z.string().nullable(),
  blocked: z.boolean(),
  blocked_at: z.string().nullable(),
  last_message_at: z.string().nullable(),
  tags: z.array(ZTagRef),
  automations: z.array(z.number().int()),
  created_at: z.string(),
});
export type TContact = z.infer<typeof ZContact>;
export const ZContactResponse = itemAnswerOf(ZContact);
export const ZContactList = listOf(ZContact);

export const ZContactListQuery = ZListQuery.extend({
  type: z.enum(CONTACT_FILTER_TYPES).default('all'),
  tag_id: z.coerce.number().int().positive().optional(),
  install_id: z.coerce.number().int().positive().optional(),
  opted_out: z.enum(['0', '1', 'true', 'false']).optional(),
  blocked: z.enum(['0', '1', 'true', 'false']).optional(),
});
export type TContactListQuery = z.infer<typeof ZContactListQuery>;

/** A contact's editable fields (create: phone required). Custom field values by key. */
export const ZContactWrite = z
  .object({
    /**
     * Read in the business's default country when it has no country code (its contacts setting, ADR 094),
     * stored in E.164; 'Wrong phone number format!!' when it is no number there.
     */
    phone: z.string().trim().min(1).max(40),
    first_name: z.string().trim().max(100).optional(),
    last_name: z.string().trim().max(100).optional(),
    email: zOptionalEmail().optional(),
    birthday: zDate().optional(),
    anniversary: zDate().optional(),
    fields: z.record(z.string().max(64), z.string().max(1000)).optional(),
    install_id: zId().nullable().optional(),
    tag_ids: z.array(zId()).max(100).optional(),
  })
  .strict();
export type TContactWrite = z.infer<typeof ZContactWrite>;
export const ZContactCreate = ZContactWrite;
export const ZContactUpdate = ZContactWrite.partial().strict();
export type TContactUpdate = z.infer<typeof ZContactUpdate>;

export const ZContactIds = z.object({ ids: z.array(zId()).min(1).max(CONTACT_BULK_MAX) }).strict();
export type TContactIds = z.infer<typeof ZContactIds>;
export const ZBulkResult = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ count: z.number().int() }),
});

/** POST /v1/contacts/tag: tags onto many contacts; POST /v1/contacts/{id}/tag: set one contact's tags. */
export const ZBulkTagRequest = z
  .object({ ids: z.array(zId()).min(1).max(CONTACT_BULK_MAX), tag_ids: z.array(zId()).min(1).max(100) })
  .strict();
export type TBulkTagRequest = z.infer<typeof ZBulkTagRequest>;
export const ZContactTagRequest = z
  .object({
    tag_ids: z.array(zId()).max(100),
    /** 'set' (default): the contact's tags become exactly these; 'add' or 'remove' change only these. */
    mode: z.enum(['set', 'add', 'remove']).default('set'),
  })
  .strict();
export type TContactTagRequest = z.infer<typeof ZContactTagRequest>;

export const ZOptOutRequest = z.object({ opted_out: z.boolean().default(true) }).strict();
export const ZOnTopRequest = z.object({ on_top: z.boolean().default(true) }).strict();

/** Calls whose path says everything: an empty JSON object, or no body. */
export const ZNoBody = z.object({}).strict().nullish();

export const ZAgentParams = z.object({
  id: z.coerce.number().int().positive(),
  agent_id: z.coerce.number().int().positive(),
});
export const ZAutomationParams = z.object({
  id: z.coerce.number().int().positive(),
  automation_id: z.coerce.number().int().positive(),
});

// ---------------------------------------------------------------- custom fields

export const ZContactField = z.object({
  id: z.number().int(),
  key: z.string(),
  label: z.string(),
  type: z.enum(CONTACT_FIELD_TYPES),
  active: z.boolean(),
  created_at: z.string(),
});
export type TContactField = z.infer<typeof ZContactField>;
export const ZContactFieldList = allItemsOf(ZContactField);
export const ZContactFieldResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: ZContactField,
});
/** A key is what an import column and a template's placeholder use: lower case, digits and _. */
export const ZContactFieldWrite = z
  .object({
    label: z.string().trim().min(1).max(100),
    key: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[a-z][a-z0-9_]*$/, { message: 'contacts.field_key_format' })
      .optional(),
    type: z.enum(CONTACT_FIELD_TYPES).default('text'),
    active: z.boolean().default(true),
  })
  .strict();
export type TContactFieldWrite = z.infer<typeof ZContactFieldWrite>;
export const ZContactFieldUpdate = z
  .object({
    label: z.string().trim().min(1).max(100).optional(),
    type: z.enum(CONTACT_FIELD_TYPES).optional(),
    active: z.boolean().optional(),
  })
  .strict();
export type TContactFieldUpdate = z.infer<typeof ZContactFieldUpdate>;

// ---------------------------------------------------------------- tags

export const ZTag = z.object({
  id: z.number().int(),
  name: z.string(),
  contacts: z.number().int(),
  created_at: z.string(),
});
export type TTag = z.infer<typeof ZTag>;
export const ZTagList = listOf(ZTag);
export const ZTagAll = allItemsOf(ZTagRef);
export const ZTagWrite = z.object({ name: z.string().trim().min(1).max(100) }).strict();
export type TTagWrite = z.infer<typeof ZTagWrite>;
export const ZTagResponse = z.object({ success: z.literal(true), message: z.string(), data: ZTag });
export const ZTagIds = z.object({ ids: z.array(zId()).min(1).max(1000) }).strict();

// ---------------------------------------------------------------- import

/** The file as text (the web app reads the chosen file); 10,000 rows at most. */
export const CONTACT_IMPORT_DUPLICATES = ['skip', 'update'] as const;
export const ZContactImportRequest = z
  .object({
    csv: z
      .string()
      .min(1)
      .max(8 * 1024 * 1024),
    install_id: zId().nullable().optional(),
    /** A phone already a contact (or earlier in the file): skip the row (default) or update the contact. */
    duplicates: z.enum(CONTACT_IMPORT_DUPLICATES).optional(),
  })
  .strict();
export type TContactImportRequest = z.infer<typeof ZContactImportRequest>;
export const ZContactImportStarted = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ import_id: z.number().int() }),
  import_id: z.number().int(),
});
export const CONTACT_IMPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export const ZContactImportError = z.object({ line: z.number().int(), message: z.string() });
export const ZContactImportStatus = z.object({
  id: z.number().int(),
  status: z.enum(CONTACT_IMPORT_STATUSES),
  duplicates: z.enum(CONTACT_IMPORT_DUPLICATES),
  processed: z.number().int(),
  total: z.number().int(),
  /** New contacts. */
  imported: z.number().int(),
  /** Contacts that were there and took the file's values (duplicates: update). */
  updated: z.number().int(),
  /** Rows skipped as duplicates (duplicates: skip). */
  skipped: z.number().int(),
  errors: z.array(ZContactImportError),
  /** Each row whose phone was already a contact or earlier in the file, and what was done. */
  duplicate_rows: z.array(ZContactImportError),
});
export type TContactImportStatus = z.infer<typeof ZContactImportStatus>;
export const ZContactImportStatusResponse = ZContactImportStatus.extend({
  success: z.literal(true),
  data: ZContactImportStatus,
});

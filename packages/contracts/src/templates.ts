import { z } from 'zod';
import { allItemsOf, itemAnswerOf, listOf, ZListQuery } from './http.ts';

// Message templates (spec 001 "Departments, templates, numbers, packages, media") and the media library.

export const TEMPLATE_PROVIDERS = ['sms', 'email'] as const;
export const ZTemplateProvider = z.enum(TEMPLATE_PROVIDERS);
export type TTemplateProvider = z.infer<typeof ZTemplateProvider>;

export const ZTemplate = z.object({
  id: z.number().int(),
  name: z.string(),
  body: z.string(),
  provider: ZTemplateProvider,
  active: z.boolean(),
  created_at: z.string(),
});
export type TTemplate = z.infer<typeof ZTemplate>;

/**
 * The merge fields a template may carry (ADR 039), filled for the contact when it is sent: `{first_name}`,
 * `{last_name}`, `{name}`, `{phone}`, `{email}`, `{review_link}` (the Google review link of the contact's
 * install, ADR 091; empty when it has none) and the business's custom contact fields by their key
 * (`{favourite_colour}`). `{first_name|there}` gives a fallback for an empty value.
 */
export const TEMPLATE_MERGE_FIELDS = [
  'first_name',
  'last_name',
  'name',
  'phone',
  'email',
  'review_link',
] as const;
const MERGE_FIELD = /\{\s*([a-z][a-z0-9_]*)\s*(?:\|([^{}]*))?\}/gi;

/**
 * Fills the merge fields of `text` from `values` (keys in lower case). A field it does not know is left
 * as written; a known one with no value takes its fallback, else nothing.
 */
export function fillTemplate(text: string, values: Record<string, string | null | undefined>): string {
  return text.replace(MERGE_FIELD, (whole, key: string, fallback: string | undefined) => {
    const k = key.toLowerCase();
    if (!Object.hasOwn(values, k)) return whole;
    const value = (values[k] ?? '').trim();
    return value || (fallback ?? '').trim();
  });
}

export const ZTemplateRequest = z.object({
  name: z.string().trim().min(1).max(191),
  body: z.string().trim().min(1).max(5000),
  provider: ZTemplateProvider.default('sms'),
  active: z.boolean().default(true),
});
export type TTemplateRequest = z.infer<typeof ZTemplateRequest>;

export const ZTemplateListQuery = ZListQuery.extend({
  search: z.string().trim().max(200).optional(),
  provider: ZTemplateProvider.optional(),
  status: z.enum(['active', 'inactive']).optional(),
});
export type TTemplateListQuery = z.infer<typeof ZTemplateListQuery>;
export const ZTemplateAllQuery = z.object({ provider: ZTemplateProvider.optional() });

export const ZTemplateList = listOf(ZTemplate);
export const ZTemplateAll = allItemsOf(ZTemplate);
export const ZTemplateResponse = itemAnswerOf(ZTemplate);

// ---------------------------------------------------------------- media library

export const ZMedia = z.object({
  id: z.number().int(),
  url: z.string(),
  name: z.string(),
  mime: z.string(),
  size: z.number().int(),
  /** Where it came from: uploaded in the library, or a message's attachment. */
  source: z.enum(['upload', 'message']),
  contact_id: z.number().int().nullable(),
  created_at: z.string(),
});
export type TMedia = z.infer<typeof ZMedia>;

/** Largest image accepted in the media library. */
export const MEDIA_MAX_BYTES = 5 * 1024 * 1024;

export const ZMediaUploadRequest = z.object({
  /** The image as a data URL (png, jpg, gif, webp). */
  data: z.string().min(1).max(8_000_000),
  name: z.string().trim().max(191).default(''),
});
export type TMediaUploadRequest = z.infer<typeof ZMediaUploadRequest>;

export const ZMediaListQuery = ZListQuery.extend({
  contact_id: z.coerce.number().int().positive().optional(),
});
export type TMediaListQuery = z.infer<typeof ZMediaListQuery>;
export const ZMediaList = listOf(ZMedia);
export const ZMediaResponse = itemAnswerOf(ZMedia);

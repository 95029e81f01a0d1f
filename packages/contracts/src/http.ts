import { LIST_MAX_PAGE_SIZE, LIST_PAGE_SIZE } from './constants.ts';
import { z } from './zod.ts';

// The envelopes of spec 000 §8 / 001 §8.
export const ZSuccessMessage = z.object({ success: z.literal(true), message: z.string() });
export type TSuccessMessage = z.infer<typeof ZSuccessMessage>;

/** Machine-readable error codes: screens and clients test these, never the translated message. */
export const ERROR_CODES = [
  'VALIDATION',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'TOO_MANY',
  'CONFLICT',
  'BAD_REQUEST',
  'SERVER',
  /** The database is out of reach or too slow for a moment (503, with Retry-After). */
  'UNAVAILABLE',
] as const;
export const ZErrorCode = z.enum(ERROR_CODES);
export type TErrorCode = z.infer<typeof ZErrorCode>;

export const ZErrorResponse = z.object({
  success: z.literal(false),
  code: ZErrorCode,
  /** A finer reason beside the code where one helps a client (e.g. 'auth.throttle'). */
  reason: z.string().optional(),
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  /** Details a client shows beside the message (the restricted-content preview and its marks). */
  data: z.unknown().optional(),
  request_id: z.string().optional(),
});
export type TErrorResponse = z.infer<typeof ZErrorResponse>;

export const ZListMeta = z.object({
  total: z.number().int(),
  page: z.number().int(),
  perPage: z.number().int(),
});

export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), meta: ZListMeta });
}

export function dataOf<T extends z.ZodType>(item: T) {
  return z.object({ data: item });
}

/** The answer about one item (read, created, saved): `{ success: true, message?, data }`. */
export function itemAnswerOf<T extends z.ZodType>(item: T) {
  return z.object({ success: z.literal(true), message: z.string().optional(), data: item });
}

/** Every item, unpaged: `{ success: true, data: [...] }`. */
export function allItemsOf<T extends z.ZodType>(item: T) {
  return z.object({ success: z.literal(true), data: z.array(item) });
}

export const ZListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  perPage: z.coerce.number().int().min(1).max(LIST_MAX_PAGE_SIZE).default(LIST_PAGE_SIZE),
  keyword: z.string().trim().max(200).optional(),
});
export type TListQuery = z.infer<typeof ZListQuery>;

export const ZIdParams = z.object({ id: z.coerce.number().int().positive() });

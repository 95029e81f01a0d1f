import { ZListQuery } from './http.ts';
import { z } from './zod.ts';

// The free-demo opt-in of an agency's landing page (spec 000 §2 "Opt-in demo modal", §3 "Opt-in user", §5;
// spec 001 POST and GET /v1/agencies/optin-users). Issue 23.

const ok = z.literal(true);

/** A required text of the opt-in form: trimmed, not empty, at most 191 characters; no format checks (§5). */
const zField = () => z.string().trim().min(1).max(191);
/** An empty text is no answer. */
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** POST /v1/agencies/optin-users (public): a visitor of an agency's landing page asks for a demo. */
export const ZOptinUserRequest = z.object({
  email: zField(),
  full_name: zField(),
  business_name: zField(),
  phone: zField(),
  /** The host of the page (its agency); the request's Host when absent. */
  domain: z.preprocess(blankToUndefined, z.string().trim().max(253).optional()),
});
export type TOptinUserRequest = z.infer<typeof ZOptinUserRequest>;

export const ZOptinUser = z.object({
  id: z.number().int(),
  email: z.string(),
  full_name: z.string(),
  business_name: z.string(),
  phone: z.string(),
  domain: z.string(),
  created_at: z.string(),
});
export type TOptinUser = z.infer<typeof ZOptinUser>;

export const ZOptinUserList = z.object({
  success: ok,
  data: z.array(ZOptinUser),
  meta: z.object({ total: z.number().int(), page: z.number().int(), perPage: z.number().int() }),
});

/** GET /v1/agencies/optin-users (and its export): the list query; platform admins name the agency. */
export const ZOptinUserListQuery = ZListQuery.extend({
  agency_id: z.coerce.number().int().positive().optional(),
});
export type TOptinUserListQuery = z.infer<typeof ZOptinUserListQuery>;

/** The export takes the same filter, without paging. */
export const ZOptinUserExportQuery = z.object({
  keyword: z.string().trim().max(200).optional(),
  agency_id: z.coerce.number().int().positive().optional(),
});
export type TOptinUserExportQuery = z.infer<typeof ZOptinUserExportQuery>;

// The merge fields an automation's texts may use (ADR 071): the templates' own (`{first_name}`,
// `{last_name}`, `{name}`, `{phone}`, `{email}`, custom fields by key, `{key|fallback}`), plus the
// contact's dates, the business's name and the review link of the contact's install. Every text an action sends (a message, a call's words, an
// e-mail's subject and body, an alert) is filled here, so they all know the same fields.
import { fillTemplate } from '@stn/contracts/templates';
import { AppError } from '../../../platform/http/errors.ts';
import type { Ctx } from '../../../platform/tenancy/context.ts';
import { businessName } from '../../businesses/service.ts';
import { contactFieldKeys } from '../../contacts/service.ts';
import type { RunContact } from './types.ts';

/** The merge fields of extra standard keys (beyond the templates' own). */
export const AUTOMATION_MERGE_FIELDS = [
  'first_name',
  'last_name',
  'name',
  'phone',
  'email',
  'birthday',
  'anniversary',
  'business_name',
  'review_link',
] as const;

/** The values of every merge field for this contact (custom fields a contact has no value for: ''). */
export async function mergeValues(ctx: Ctx, contact: RunContact): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const key of await contactFieldKeys(ctx)) values[key.toLowerCase()] = contact.fields[key] ?? '';
  const standard: Record<(typeof AUTOMATION_MERGE_FIELDS)[number], string> = {
    first_name: contact.first_name,
    last_name: contact.last_name,
    name: contact.name || `${contact.first_name} ${contact.last_name}`.trim(),
    phone: contact.phone,
    email: contact.email ?? '',
    birthday: contact.birthday ?? '',
    anniversary: contact.anniversary ?? '',
    business_name: await businessName(ctx),
    // The Google review link of the contact's install (ADR 091), from integrations through a port.
    review_link:
      contact.install_id === null
        ? ''
        : ((await ctx.deps.ports.reviews.linksOfInstalls(ctx, { installIds: [contact.install_id] })).get(
            contact.install_id,
          ) ?? ''),
  };
  return { ...values, ...standard };
}

/** Fills the texts' merge fields for the contact (one look-up of the values for all of them). */
export async function fillAll<T extends Record<string, string>>(
  ctx: Ctx,
  contact: RunContact,
  texts: T,
): Promise<T> {
  const values = await mergeValues(ctx, contact);
  const out: Record<string, string> = {};
  for (const [k, text] of Object.entries(texts)) out[k] = fillTemplate(text, values).trim();
  return out as T;
}

/** Fills one text's merge fields for the contact. */
export async function fill(ctx: Ctx, contact: RunContact, text: string): Promise<string> {
  return (await fillAll(ctx, contact, { text })).text;
}

/**
 * The reason a service refused (a 422 or 404 AppError: opted out, blocked, restricted content, a template
 * gone...) as its locale key, or null for any other error (a database or programming error, rethrown so the
 * engine retries or fails the step as it does for the unexpected).
 */
export function refusalOf(err: unknown): string | null {
  if (!(err instanceof AppError)) return null;
  if (err.code !== 'VALIDATION' && err.code !== 'NOT_FOUND' && err.code !== 'FORBIDDEN') return null;
  const field = err.fields ? Object.values(err.fields)[0] : undefined;
  return err.reason ?? (err.message === 'validation.invalid' && field ? field : err.message);
}

// Which numbers the platform will call or text (ADR 041 "Review", ADR 051): on a visitor's word, a widget
// on a page we do not control must not become a way to make a business pay for calls and texts to
// premium-rate or far-away numbers (toll fraud, SMS pumping). US and Canadian numbers are always
// reachable; every other country, the other +1 countries of the Caribbean included (they are billed as
// international), only when the agency allows it. Premium-rate and shared-cost numbers never are,
// wherever they are; abroad, neither are personal (forwarding, the UK's 070), pager, UAN and
// voicemail-only numbers (the US's 5XX personal numbers are billed as ordinary ones, and the carrier's
// test numbers are among them).
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { invalid } from '../../platform/http/errors.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';
import { agencyAllowedCountries } from '../agencies/service.ts';

/** Countries every agency reaches (the platform's own). */
const HOME_COUNTRIES = new Set(['US', 'CA']);
/** Number types whose cost is the called party's business model, never a visitor's phone. */
const NEVER = new Set(['PREMIUM_RATE', 'SHARED_COST']);
/** Number types abroad that forward or bill at rates a visitor's phone never needs. */
const NEVER_ABROAD = new Set(['PERSONAL_NUMBER', 'PAGER', 'UAN', 'VOICEMAIL']);

/** Which refusal a number gets, by what is done with it (a contact is both called and texted). */
export type ReachUse = 'call' | 'text' | 'contact';
const COUNTRY_MESSAGE: Record<ReachUse, string> = {
  call: 'calls.country_not_allowed',
  text: 'calls.text_country_not_allowed',
  contact: 'calls.reach_country_not_allowed',
};

/** The countries the context's agency allows besides US/CA (none at the platform level). */
async function allowedOf(ctx: Ctx): Promise<string[]> {
  if (ctx.tenant.level === 'platform') return [];
  return agencyAllowedCountries(ctx, { agencyId: ctx.tenant.agencyId });
}

/**
 * The rule for one number: null when the business may call and text it, else the message key of the
 * refusal ('validation.phone' for an invalid number); `undefined` when the answer is the agency's allowed
 * countries' and `allowed` is not given (a US or Canadian number never needs them).
 */
function judge(phone: string, use: ReachUse, allowed?: string[]): string | null | undefined {
  const parsed = parsePhoneNumberFromString(phone);
  if (!parsed?.isValid()) return 'validation.phone';
  const type = parsed.getType();
  if (type && NEVER.has(type)) return 'calls.number_not_allowed';
  const country = parsed.country;
  if (country && HOME_COUNTRIES.has(country)) return null;
  if (type && NEVER_ABROAD.has(type)) return 'calls.number_not_allowed';
  if (allowed === undefined) return undefined;
  if (!country || !allowed.includes(country)) return COUNTRY_MESSAGE[use];
  return null;
}

/**
 * The reach rule of an agency, loaded once (an import checks thousands of rows with it): null for a
 * number the business may call and text, else the message key of the refusal. An invalid number is
 * 'validation.phone'.
 */
export async function reachRule(ctx: Ctx): Promise<(phone: string, use: ReachUse) => string | null> {
  const allowed = await allowedOf(ctx);
  return (phone, use) => judge(phone, use, allowed) ?? null;
}

/**
 * Refuses (422 on `field`, `phone` by default) a number the business may not call (`call`), text
 * (`text`) or keep as a contact (`contact`, both): a type in NEVER (or NEVER_ABROAD outside US/CA), or a
 * country outside US/CA and the agency's allowed countries. One rule wherever a number is dialled or
 * texted (ADR 051): callbacks, scheduled calls, contacts, imports, every text. The agency's countries are
 * read only for a number outside US/CA.
 */
export async function assertReachable(
  ctx: Ctx,
  phone: string,
  use: ReachUse,
  field = 'phone',
): Promise<void> {
  let refused = judge(phone, use);
  if (refused === undefined) refused = judge(phone, use, await allowedOf(ctx));
  if (refused) throw invalid(field, refused);
}

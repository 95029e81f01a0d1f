// Which visitor numbers the platform will call or text on a visitor's word (ADR 041, "Review"): a widget
// on a page we do not control must not become a way to make a business pay for calls and texts to
// premium-rate or far-away numbers (toll fraud, SMS pumping). US and Canadian numbers are always
// reachable; every other country, the other +1 countries of the Caribbean included (they are billed as
// international), only when the agency allows it. Premium-rate and shared-cost numbers never are,
// wherever they are; abroad, neither are personal (forwarding, the UK's 070), pager, UAN and
// voicemail-only numbers (the US's 5XX personal numbers are billed as ordinary ones, and the carrier's
// test numbers are among them).
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { invalid } from '../../platform/http/errors.ts';
import { businessOf, type Ctx } from '../../platform/tenancy/context.ts';
import { agencyAllowedCountries } from '../agencies/service.ts';

/** Countries every agency reaches (the platform's own). */
const HOME_COUNTRIES = new Set(['US', 'CA']);
/** Number types whose cost is the called party's business model, never a visitor's phone. */
const NEVER = new Set(['PREMIUM_RATE', 'SHARED_COST']);
/** Number types abroad that forward or bill at rates a visitor's phone never needs. */
const NEVER_ABROAD = new Set(['PERSONAL_NUMBER', 'PAGER', 'UAN', 'VOICEMAIL']);

/**
 * Refuses (422 on `phone`) a number a visitor may not have the business call (`call`) or text (`text`):
 * a type in NEVER (or NEVER_ABROAD outside US/CA), or a country outside US/CA and the agency's allowed
 * countries.
 */
export async function assertReachable(ctx: Ctx, phone: string, what: 'call' | 'text'): Promise<void> {
  const parsed = parsePhoneNumberFromString(phone);
  if (!parsed?.isValid()) throw invalid('phone', 'validation.phone');
  const type = parsed.getType();
  if (type && NEVER.has(type)) throw invalid('phone', 'calls.number_not_allowed');
  const country = parsed.country;
  if (country && HOME_COUNTRIES.has(country)) return;
  if (type && NEVER_ABROAD.has(type)) throw invalid('phone', 'calls.number_not_allowed');
  const allowed = await agencyAllowedCountries(ctx, { agencyId: businessOf(ctx).agencyId });
  if (!country || !allowed.includes(country))
    throw invalid('phone', what === 'call' ? 'calls.country_not_allowed' : 'calls.text_country_not_allowed');
}

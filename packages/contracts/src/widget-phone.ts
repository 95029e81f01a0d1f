import { isValidPhoneNumber, type MetadataJson, parsePhoneNumberFromString } from 'libphonenumber-js/core';
import metadata from './widget-phone-metadata.json' with { type: 'json' };

// The widget's phone check, without zod: the website widget (apps/widget) loads it on its own, when the
// visitor reaches the phone field (@stn/contracts/widget re-exports it for the server's schemas).

const phoneMetadata = metadata as unknown as MetadataJson;

/** US and CA are preferred: a number without a country code is read as North American. */
export const WIDGET_PHONE_COUNTRY = 'US' as const;

// International numbers are allowed. The widget only knows the rules of its preferred countries, so for
// any other calling code it checks the E.164 shape (a leading +, at most 15 digits).
const E164_SHAPE = /^\+[1-9]\d{7,14}$/;

/** The E.164 form of a phone number typed into the widget, or null when it is not a valid number. */
export function widgetPhoneToE164(raw: string): string | null {
  const value = raw.trim();
  if (!value || value.length > 40) return null;
  const parsed = parsePhoneNumberFromString(value, WIDGET_PHONE_COUNTRY, phoneMetadata);
  if (parsed) return isValidPhoneNumber(value, WIDGET_PHONE_COUNTRY, phoneMetadata) ? parsed.number : null;
  const compact = value.replace(/[\s().-]/g, '');
  return E164_SHAPE.test(compact) && !compact.startsWith('+1') ? compact : null;
}

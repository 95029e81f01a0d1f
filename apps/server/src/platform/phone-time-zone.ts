// The time zone of a phone number (quiet hours of broadcasts, ADR 061): a NANP number's area code gives
// its zone; another country's number its country's main zone; unknown: null.
//
// STUB: written by the carrier work of issue 19.

/** The IANA time zone of an E.164 phone, or null when it cannot be told. */
export function timeZoneOfPhone(_e164: string): string | null {
  return null;
}

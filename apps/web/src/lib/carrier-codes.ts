import { i18next } from './i18n.ts';

// A carrier's error code in words (Twilio's numbers, which the sandbox carrier uses too): the broadcast
// report's reasons and the inbox's failed messages say the same thing for the same code.

/** The carrier codes named in words; any other code reads "Carrier error <code>". */
export const KNOWN_CARRIER_CODES = [
  21211, 21408, 21610, 21612, 21614, 30001, 30002, 30003, 30004, 30005, 30006, 30007, 30008, 30032, 30034,
] as const;

const isKnownCode = (code: number) => (KNOWN_CARRIER_CODES as readonly number[]).includes(code);

/** A carrier error code in words, e.g. 21610 "Unsubscribed (replied STOP)". */
export function carrierCodeText(code: number): string {
  return isKnownCode(code)
    ? i18next.t(`business.broadcast_report.codes.${code}`)
    : i18next.t('business.broadcast_report.codes.other', { code });
}

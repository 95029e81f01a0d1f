import type { CarrierErrorKind } from './carrier.ts';

/** Twilio's error codes (https://www.twilio.com/docs/api/errors) the product tells apart. */
const ERROR_KINDS: Record<number, CarrierErrorKind> = {
  20003: 'authentication',
  20404: 'not-found',
  21610: 'opted-out',
  21422: 'number-unavailable',
  21452: 'number-unavailable',
  21450: 'already-verified',
  // The sender is not registered (ADR 092): a toll-free number not verified, a 10DLC number on no campaign.
  30032: 'unregistered-sender',
  30034: 'unregistered-sender',
};
export const twilioErrorKind = (code: number | null): CarrierErrorKind | null =>
  code === null ? null : (ERROR_KINDS[code] ?? null);

import { carrierCodeText } from '../../../lib/carrier-codes.ts';
import { i18next } from '../../../lib/i18n.ts';

// What a failed or skipped recipient's reason means to a person: a carrier's error code (Twilio's numbers,
// which the sandbox carrier uses too) with a human text, our own reasons by their name (ADR 065).

/**
 * A failed_by_reason entry's reason: a carrier code ("21610") in words, one of our reasons by its text when
 * the locale files have it, else as the server wrote it.
 */
export function failureText(reason: string): string {
  if (/^\d+$/.test(reason)) return carrierCodeText(Number(reason));
  const key = `business.broadcast_report.failures.${reason}`;
  return i18next.exists(key) ? i18next.t(key) : reason;
}

/** A skip reason (SKIP_REASONS) in words. */
export function skipText(reason: string): string {
  const key = `business.broadcast_report.skips.${reason}`;
  return i18next.exists(key) ? i18next.t(key) : reason;
}

/** The reason column of a recipient row: why it was skipped, or why it failed. */
export function recipientReason(row: {
  skip_reason: string | null;
  error_code: number | null;
  error_message: string | null;
}): string {
  if (row.skip_reason) return skipText(row.skip_reason);
  if (row.error_code !== null) return `${row.error_code} · ${carrierCodeText(row.error_code)}`;
  return row.error_message ?? '';
}

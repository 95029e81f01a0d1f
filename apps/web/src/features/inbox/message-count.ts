// The message counter of spec 000 §4: ceil(length / 160); a message with images counts 3 outgoing.
export const SEGMENT_LENGTH = 160;

export function messageCount(body: string, images: number): number {
  if (images > 0) return 3;
  return Math.max(1, Math.ceil(body.length / SEGMENT_LENGTH));
}

/**
 * Statuses an agent may act on: a failed one is resent (a scheduled one refused at its time too, as the
 * server allows), a scheduled one cancelled.
 */
export const canResend = (status: string) =>
  status === 'failed' || status === 'undelivered' || status === 'refused';
export const canCancel = (status: string) => status === 'scheduled';

/** The delivery status badge's colour. */
export function statusColor(status: string): string {
  if (status === 'delivered' || status === 'received') return 'green';
  if (status === 'failed' || status === 'undelivered' || status === 'refused') return 'red';
  if (status === 'scheduled') return 'violet';
  if (status === 'canceled') return 'gray';
  return 'blue';
}

/**
 * The server's text key a message's error is (a scheduled text refused at its time keeps the reason's key,
 * e.g. `messages.opted_out`), to be shown in the user's language; null for the carrier's own words.
 */
export function messageErrorKey(error: string | null): string | null {
  return error !== null && /^[a-z_]+(\.[a-z_]+)+$/.test(error) ? error : null;
}

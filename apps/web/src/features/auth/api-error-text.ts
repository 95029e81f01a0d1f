import { ApiError } from '../../lib/api-client.ts';

/**
 * The server's message of a failed call (already in the user's language), or `fallback` when there is
 * none to show: no answer at all (network) or an answer without a message.
 */
export function apiErrorText(error: unknown, fallback: string, field?: string): string {
  if (!(error instanceof ApiError) || error.code === 'NETWORK') return fallback;
  return (field ? error.field(field) : undefined) ?? error.body?.message ?? fallback;
}

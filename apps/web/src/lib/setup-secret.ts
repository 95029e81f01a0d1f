import type { TSetupSecret } from '@stn/contracts/subscriptions';
import { useQuery } from '@tanstack/react-query';
import { ApiError, api } from './api-client.ts';
import { queryClient } from './query-client.ts';
import { keys } from './query-keys.ts';
import type { Data } from './resource-api.ts';

// The card form's setup intent (ADR 076), shared by the billing screens and the order pages.

const S = '/v1/subscriptions';

/**
 * A setup intent's client secret for the card form: the signed-in account's (GET /secret), or, given a
 * domain, the seller's of that site's order pages (POST /secret/{domain}, public). Kept while the form is
 * open; `renewSetupSecret` asks for a new one once a card was set up with it.
 */
export function useSetupSecret(domain: string | null = null) {
  return useQuery({
    queryKey: keys.setupSecret.of(domain),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
    queryFn: async () =>
      (domain
        ? await api<Data<TSetupSecret>>(`${S}/secret/${encodeURIComponent(domain)}`, { method: 'POST' })
        : await api<Data<TSetupSecret>>(`${S}/secret`)
      ).data,
  });
}

export function renewSetupSecret(domain: string | null = null) {
  void queryClient.invalidateQueries({ queryKey: keys.setupSecret.of(domain) });
}

/** The message to show of a failed payment call: Stripe's (errors.payment), else the answer's. */
export function paymentErrorOf(err: unknown): string | null {
  if (err instanceof ApiError) return err.field('payment') ?? err.message;
  return err instanceof Error ? err.message : null;
}

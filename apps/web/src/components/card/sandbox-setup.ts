import type { TSetupSecret } from '@stn/contracts/subscriptions';
import { setupIntentId } from './card-model.ts';

// The Stripe sandbox's setup-intent calls, as Stripe.js makes them against Stripe: straight to the
// platform's emulator on the same origin (not through the /api client), authenticated by the publishable
// key and the client secret (ADR 076 "Card entry").

/** Where a confirmation stands: a payment method, a bank's authentication step, or Stripe's message. */
export type SetupOutcome =
  | { kind: 'succeeded'; paymentMethod: string }
  | { kind: 'requires_action' }
  | { kind: 'error'; message: string };

type SetupIntentBody = {
  status?: string;
  payment_method?: string | { id: string } | null;
  last_setup_error?: { message?: string } | null;
  error?: { message?: string };
};

/** A setup intent's answer as an outcome; `fallback` when Stripe gave no message. */
export function outcomeOf(ok: boolean, body: SetupIntentBody | null, fallback: string): SetupOutcome {
  if (!ok || !body) return { kind: 'error', message: body?.error?.message || fallback };
  if (body.status === 'succeeded') {
    const pm = typeof body.payment_method === 'string' ? body.payment_method : body.payment_method?.id;
    return pm ? { kind: 'succeeded', paymentMethod: pm } : { kind: 'error', message: fallback };
  }
  if (body.status === 'requires_action') return { kind: 'requires_action' };
  return { kind: 'error', message: body.last_setup_error?.message || body.error?.message || fallback };
}

async function post(secret: TSetupSecret, action: string, body: object, fallback: string) {
  const id = encodeURIComponent(setupIntentId(secret.client_secret));
  let res: Response;
  try {
    res = await fetch(`/stripe-sandbox/v1/setup_intents/${id}/${action}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${secret.publishable_key}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify({ client_secret: secret.client_secret, ...body }),
    });
  } catch {
    return { kind: 'error', message: fallback } as const;
  }
  const json = (await res.json().catch(() => null)) as SetupIntentBody | null;
  return outcomeOf(res.ok, json, fallback);
}

export type SandboxCard = { number: string; exp_month: number; exp_year: number; cvc: string };

/** POST …/setup_intents/{id}/confirm with the card. */
export function confirmSandboxSetup(secret: TSetupSecret, card: SandboxCard, fallback: string) {
  return post(secret, 'confirm', { card }, fallback);
}

/** POST …/setup_intents/{id}/authenticate: the bank's page answered (3D Secure's test page). */
export function authenticateSandboxSetup(
  secret: TSetupSecret,
  outcome: 'complete' | 'fail',
  fallback: string,
) {
  return post(secret, 'authenticate', { outcome }, fallback);
}

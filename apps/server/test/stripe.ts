import type { TSetupSecret } from '@stn/contracts/subscriptions';
import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { type Seller, sellerFor } from '../src/modules/subscriptions/sellers.ts';
import { platformSystemContext } from '../src/platform/tenancy/context.ts';
import type { TestApp } from './helpers.ts';

// What the subscriptions tests need of the Stripe sandbox: the seller of an agency's businesses, the SDK on
// its account (as an agency would use its Stripe dashboard: coupons, promotion codes), the card form's
// confirm call, and a wait for the sandbox's webhooks.

const ctxOf = (t: TestApp) => platformSystemContext(t.app.deps, 'payments', 'test');

/** The seller of agency `agencyId`'s businesses (its Stripe account). */
export async function agencySeller(t: TestApp, agencyId: number): Promise<Seller> {
  const seller = await sellerFor(ctxOf(t), { buyer: 'business', agencyId });
  if (!seller) throw new Error(`agency ${agencyId} takes no cards`);
  return seller;
}

/** The platform's seller (what agencies pay). */
export async function platformSeller(t: TestApp): Promise<Seller> {
  const seller = await sellerFor(ctxOf(t), { buyer: 'agency', agencyId: 0 });
  if (!seller) throw new Error('no main agency');
  return seller;
}

export async function sandboxStripe(t: TestApp, seller: Seller): Promise<Stripe> {
  return t.app.deps.payments.client(seller.secretKey);
}

/** The sandbox card form's confirm call, as the browser makes it. */
export async function confirmCard(app: FastifyInstance, secret: TSetupSecret, number: string) {
  const id = secret.client_secret.split('_secret_')[0];
  const res = await app.inject({
    method: 'POST',
    url: `/stripe-sandbox/v1/setup_intents/${id}/confirm`,
    headers: { authorization: `Bearer ${secret.publishable_key}` },
    payload: {
      client_secret: secret.client_secret,
      card: { number, exp_month: 12, exp_year: 2034, cvc: '123' },
    },
  });
  const body = res.json();
  return {
    status: res.statusCode,
    paymentMethod: body.payment_method as string | null,
    intentStatus: body.status as string | undefined,
    message: body.error?.message as string | undefined,
  };
}

/** Waits until every webhook the sandbox has started delivering is answered. */
export async function settle(t: TestApp) {
  await t.app.deps.payments.sandbox?.settle();
}

// Stripe's webhooks (issue 22, ADR 076): POST /webhooks/stripe/platform (the platform's account) and
// /webhooks/stripe/agency/{id} (an agency's). The signature is checked with the secret of the endpoint we
// registered on that account; an event is handled once (stripe_events, in the same transaction as its
// effect); its object is re-read from Stripe, so duplicates and events out of order end in Stripe's state.
import type { FastifyRequest } from 'fastify';
import type Stripe from 'stripe';
import type { Deps } from '../../platform/deps.ts';
import { type Ctx, inTransaction, platformSystemContext } from '../../platform/tenancy/context.ts';
import type { WebhookRegistry } from '../../platform/webhooks/tree.ts';
import { type Seller, sellerByKey, stripeOf, webhookSecret } from './sellers.ts';
import { recordPaymentError, refreshHasCard, refreshSubscription } from './service.ts';
import { stripeEvents } from './tables.ts';

const PROVIDER = 'stripe';

/** The seller key a webhook URL names: /webhooks/stripe/platform → 'platform', …/agency/7 → 'agency:7'. */
function sellerKeyOf(url: string): string | null {
  const path = url.split('?')[0] ?? '';
  if (/\/stripe\/platform$/.test(path)) return 'platform';
  const m = /\/stripe\/agency\/(\d{1,9})$/.exec(path);
  return m ? `agency:${m[1]}` : null;
}

const idOf = (v: string | { id: string } | null | undefined) => (typeof v === 'string' ? v : (v?.id ?? null));

/** The subscription an invoice belongs to (API 2026: under parent.subscription_details). */
function invoiceSubscription(invoice: Stripe.Invoice): string | null {
  return idOf(invoice.parent?.subscription_details?.subscription ?? null);
}

/** Stripe's message for a failed invoice payment: the invoice's payment intent's last error. */
async function failureMessage(stripe: Stripe, invoice: Stripe.Invoice): Promise<string | null> {
  if (invoice.last_finalization_error?.message) return invoice.last_finalization_error.message;
  const customer = idOf(invoice.customer);
  if (!customer) return null;
  const intents = await stripe.paymentIntents.list({ customer, limit: 5 }).catch(() => null);
  const failed = intents?.data.find((pi) => pi.last_payment_error?.message);
  return failed?.last_payment_error?.message ?? null;
}

/** What an event changes: always from a fresh read of its object. */
async function handle(ctx: Ctx, seller: Seller, event: Stripe.Event) {
  const stripe = await stripeOf(ctx, seller);
  switch (event.type) {
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      await refreshSubscription(ctx, { seller, subscriptionId: event.data.object.id });
      return;
    case 'invoice.paid': {
      const invoice = await stripe.invoices.retrieve(event.data.object.id ?? '');
      const sub = invoiceSubscription(invoice);
      if (sub)
        await refreshSubscription(ctx, {
          seller,
          subscriptionId: sub,
          renewed: invoice.billing_reason === 'subscription_cycle',
        });
      return;
    }
    case 'invoice.payment_failed': {
      const invoice = await stripe.invoices.retrieve(event.data.object.id ?? '');
      const customer = idOf(invoice.customer);
      const message = await failureMessage(stripe, invoice);
      // Only while it is still unpaid: a late failure event after the payment leaves no error.
      if (customer && invoice.status === 'open')
        await recordPaymentError(ctx, {
          seller,
          customerId: customer,
          message: message ?? 'The payment failed.',
        });
      const sub = invoiceSubscription(invoice);
      if (sub) await refreshSubscription(ctx, { seller, subscriptionId: sub, lastError: message });
      return;
    }
    case 'payment_method.attached':
    case 'payment_method.detached': {
      const pm = event.data.object;
      const customer = idOf(pm.customer) ?? idOf(event.data.previous_attributes?.customer as string | null);
      if (customer) await refreshHasCard(ctx, { seller, customerId: customer });
      return;
    }
    default:
      return;
  }
}

/** The Stripe provider and its two routes. */
export function registerStripeWebhooks(registry: WebhookRegistry, deps: Deps): void {
  const ctx = platformSystemContext(deps, 'payments', 'stripe webhook');
  const verified = new WeakMap<FastifyRequest, { seller: Seller; event: Stripe.Event }>();
  registry.provider({
    name: PROVIDER,
    errorReply: { type: 'text/plain; charset=utf-8', body: '' },
    async verify(request) {
      const key = sellerKeyOf(request.url);
      const header = request.headers['stripe-signature'];
      if (!key || typeof header !== 'string' || request.rawBody === undefined) return false;
      const [seller, secret] = await Promise.all([sellerByKey(ctx, key), webhookSecret(ctx, key)]);
      if (!seller || !secret) return false;
      const stripe = await deps.payments.client(seller.secretKey);
      try {
        const event = stripe.webhooks.constructEvent(request.rawBody, header, secret);
        verified.set(request, { seller, event });
        return true;
      } catch {
        return false;
      }
    },
  });
  const handler = async (request: FastifyRequest) => {
    const hit = verified.get(request);
    if (!hit) return 'ignored';
    const { seller, event } = hit;
    await inTransaction(ctx, async (tx) => {
      // A second delivery of the event waits here for the first to commit, then finds it done.
      const fresh = await tx.db
        .insert(stripeEvents)
        .values({ stripe_account: seller.key, event_id: event.id, type: event.type })
        .onConflictDoNothing()
        .returning({ id: stripeEvents.event_id });
      if (fresh.length === 0) return;
      await handle(tx, seller, event);
    });
    return 'ok';
  };
  registry.route({ method: 'POST', url: '/stripe/platform', provider: PROVIDER, handler });
  registry.route({ method: 'POST', url: '/stripe/agency/:id', provider: PROVIDER, handler });
}

import { type CardDetails, chargeDecline, setupDecline, testCard } from './cards.ts';
import { invalidRequest, noSuch, type StripeApiError } from './errors.ts';
import { type AccountCtx, newId, render, type StripeObject } from './store.ts';

// Payment methods: card payment methods made from a card collected by the browser route or from a test id
// (pm_card_visa…), attached to customers, charged by invoices and payment intents.

/** A card payment method as Stripe shows it; `_behaviour`/`_authenticated` drive the test card's outcome. */
export function cardPaymentMethod(ctx: AccountCtx, card: CardDetails): StripeObject {
  return {
    id: newId('pm'),
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: {
      address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null },
      email: null,
      name: null,
      phone: null,
      tax_id: null,
    },
    card: {
      brand: card.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
      country: 'US',
      display_brand: card.brand,
      exp_month: card.exp_month,
      exp_year: card.exp_year,
      fingerprint: card.fingerprint,
      funding: 'credit',
      generated_from: null,
      last4: card.last4,
      networks: { available: [card.brand], preferred: null },
      regulated_status: 'unregulated',
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: ctx.now(),
    customer: null,
    customer_account: null,
    livemode: false,
    metadata: {},
    type: 'card',
    _behaviour: card.behaviour,
    _authenticated: false,
  };
}

/**
 * The payment method an id names: a stored pm_…, or a test id (pm_card_visa…) which, as in Stripe's test
 * mode, materialises a new payment method of that card each time.
 */
export async function resolvePaymentMethod(ctx: AccountCtx, id: unknown, param = 'payment_method') {
  if (typeof id !== 'string' || !id) throw noSuch('payment_method', String(id ?? ''), param);
  const card = testCard(id, ctx.now());
  if (card) return ctx.put(cardPaymentMethod(ctx, card));
  return ctx.need('payment_method', id, param);
}

/** Attaches a payment method to a customer (a card that declines refuses, as Stripe's card check does). */
export async function attach(ctx: AccountCtx, pm: StripeObject, customerId: string): Promise<StripeObject> {
  if (pm.customer === customerId) return pm;
  if (pm.customer)
    throw invalidRequest(
      'The payment method you provided has already been attached to a customer.',
      'payment_method',
      'payment_method_already_attached',
    );
  const decline = setupDecline(pm._behaviour as never);
  if (decline) throw withPaymentMethod(decline, pm);
  pm.customer = customerId;
  await ctx.put(pm);
  await ctx.emit('payment_method.attached', pm);
  return pm;
}

/** A payment method id to use for `customerId` (test ids materialise and attach; others must be attached). */
export async function customerPaymentMethod(
  ctx: AccountCtx,
  id: unknown,
  customerId: string,
  param: string,
): Promise<StripeObject> {
  const pm = await resolvePaymentMethod(ctx, id, param);
  if (!pm.customer && typeof id === 'string' && id.startsWith('pm_card_')) return attach(ctx, pm, customerId);
  if (pm.customer !== customerId)
    throw invalidRequest(
      `The customer does not have a payment method with the ID ${pm.id}. The payment method must be attached to the customer.`,
      param,
      'resource_missing',
    );
  return pm;
}

/** The decline of charging a payment method, or null when the charge goes through. */
export function chargeOutcome(pm: StripeObject): StripeApiError | null {
  const decline = chargeDecline(pm._behaviour as never, pm._authenticated === true);
  return decline ? withPaymentMethod(decline, pm) : null;
}

function withPaymentMethod(err: StripeApiError, pm: StripeObject): StripeApiError {
  err.body.payment_method = render(pm);
  return err;
}

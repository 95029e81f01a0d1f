import type {
  TCoupon,
  TCouponInfo,
  TCouponRequest,
  TInvoice,
  TPackagePurchase,
  TPaymentMethod,
  TPlanOffer,
  TSetupSecret,
  TSubscriptionState,
  TSubscriptionStatus,
} from '@stn/contracts/subscriptions';
import { PAID_UP_STATUSES, SUBSCRIPTION_STATUSES } from '@stn/contracts/subscriptions';
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import { AppError, invalid, notFound } from '../../platform/http/errors.ts';
import { type Ctx, inTransaction } from '../../platform/tenancy/context.ts';
import { addAgencyInstalls, applyAgencyPlan } from '../agencies/service.ts';
import {
  type PlanForSale,
  packageOfAgency,
  planByStripePrice,
  planOfAgency,
  plansForSale,
  setPlanStripeIds,
} from '../billing/service.ts';
import { addBusinessCredits, applyBusinessPlan } from '../businesses/service.ts';
import { type Seller, sellerFor, stripeOf } from './sellers.ts';
import { packagePurchases, subscriptions } from './tables.ts';

// Subscriptions (issue 22, ADR 076): an account (an agency, or a business) buys a plan from its seller on
// Stripe. Stripe is the truth: every change is made there first, then mirrored into our row from Stripe's
// answer (or, for webhooks, from a fresh read of the subscription), and the plan's feature keys are
// applied to the account.

export type BillingAccount = {
  kind: 'agency' | 'business';
  id: number;
  /** The agency of the account: the agency itself, or the business's agency. */
  agencyId: number;
  email: string;
  name: string;
};

type Row = typeof subscriptions.$inferSelect;

// ---------------------------------------------------------------------------------------------------
// Errors

/** A card or payment refused by Stripe: a 422 on `payment` with Stripe's own message; nothing changed. */
function isCardError(err: unknown): err is Stripe.errors.StripeError {
  const type = (err as { type?: string } | null)?.type;
  return type === 'StripeCardError';
}
const cardFailed = (err: Stripe.errors.StripeError) =>
  invalid('payment', 'subscriptions.card_failed', { message: err.message });

/** Runs a Stripe call; a card refusal becomes the 422 above, a missing object (bad id) a 422 on `field`. */
async function charge<T>(work: () => Promise<T>, field = 'paymentMethod'): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isCardError(err)) throw cardFailed(err);
    const e = err as { type?: string; code?: string };
    if (e.type === 'StripeInvalidRequestError' && e.code === 'resource_missing')
      throw invalid(field, 'subscriptions.not_found');
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------------
// Rows

async function rowOf(ctx: Ctx, account: Pick<BillingAccount, 'kind' | 'id'>): Promise<Row | null> {
  const [row] = await ctx.db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.account_kind, account.kind), eq(subscriptions.account_id, account.id)));
  return row ?? null;
}

async function requireSeller(ctx: Ctx, account: BillingAccount): Promise<Seller> {
  const seller = await sellerFor(ctx, { buyer: account.kind, agencyId: account.agencyId });
  if (!seller) throw invalid('plan_id', 'subscriptions.no_card_payments');
  return seller;
}

/**
 * The account's Stripe customer on the seller's account, made on first need. A customer of other keys
 * (the agency changed its Stripe account) is replaced by a new one.
 */
async function ensureCustomer(ctx: Ctx, seller: Seller, stripe: Stripe, account: BillingAccount) {
  const row = await rowOf(ctx, account);
  if (row && row.stripe_account === seller.key) return row;
  const customer = await stripe.customers.create({
    email: account.email,
    name: account.name,
    metadata: { account_kind: account.kind, account_id: String(account.id) },
  });
  const values = {
    agency_id: account.agencyId,
    stripe_account: seller.key,
    customer_id: customer.id,
    subscription_id: null,
    plan_id: null,
    status: 'none',
    current_period_end: null,
    trial_end: null,
    cancel_at_period_end: false,
    coupon_code: null,
    last_error: null,
    has_payment_method: false,
    updated_at: new Date(),
  };
  // Two first calls at once: one row wins; the other's customer is left unused (and deleted).
  const [saved] = await ctx.db
    .insert(subscriptions)
    .values({ account_kind: account.kind, account_id: account.id, ...values })
    .onConflictDoUpdate({
      target: [subscriptions.account_kind, subscriptions.account_id],
      set: values,
      where: sql`${subscriptions.stripe_account} <> ${seller.key}`,
    })
    .returning();
  if (saved) return saved;
  await stripe.customers.del(customer.id).catch(() => undefined);
  const again = await rowOf(ctx, account);
  if (!again) throw notFound();
  return again;
}

// ---------------------------------------------------------------------------------------------------
// Plans

function toOffer(p: PlanForSale): TPlanOffer {
  return {
    id: p.id,
    name: p.name,
    interval: p.interval,
    price_cents: p.price_cents,
    currency: 'usd',
    trial_days: p.trial_days,
    features: p.features,
    unlimited: p.features.Messages === 0 && p.features.Calls === 0,
  };
}

/** The plans a seller offers a buyer (visible, active), cheapest first. */
export async function planOffers(
  ctx: Ctx,
  input: { sellerAgencyId: number; buyer: 'agency' | 'business'; interval?: 'month' | 'year' },
): Promise<TPlanOffer[]> {
  const rows = await plansForSale(ctx, {
    agencyId: input.sellerAgencyId,
    type: input.buyer,
    interval: input.interval,
    visibleOnly: true,
  });
  return rows.map(toOffer);
}

/** The plans the caller's account can buy (none when its seller takes no cards). */
export async function offersFor(ctx: Ctx, account: BillingAccount, interval?: 'month' | 'year') {
  const seller = await sellerFor(ctx, { buyer: account.kind, agencyId: account.agencyId });
  if (!seller) return [];
  return planOffers(ctx, { sellerAgencyId: seller.agencyId, buyer: account.kind, interval });
}

/** A plan the account may buy (any visibility: a hidden plan is sold by its link), or a 422. */
async function planToBuy(ctx: Ctx, seller: Seller, account: BillingAccount, planId: number) {
  const plan = await planOfAgency(ctx, { agencyId: seller.agencyId, planId });
  if (!plan?.active || plan.type !== account.kind) throw invalid('plan_id', 'subscriptions.plan_unknown');
  return plan;
}

/** The Stripe price a plan is sold with on the seller's account, made (with its product) on first sale. */
async function priceOf(ctx: Ctx, seller: Seller, stripe: Stripe, plan: PlanForSale): Promise<string> {
  if (plan.stripe_account === seller.key && plan.stripe_price_id) return plan.stripe_price_id;
  const productId =
    plan.stripe_account === seller.key && plan.stripe_product_id
      ? plan.stripe_product_id
      : (await stripe.products.create({ name: plan.name, metadata: { plan_id: String(plan.id) } })).id;
  const price = await stripe.prices.create({
    product: productId,
    unit_amount: plan.price_cents,
    currency: 'usd',
    recurring: { interval: plan.interval },
    metadata: { plan_id: String(plan.id) },
  });
  // The price it replaces stays on the subscriptions that have it; it is no longer sold.
  if (plan.stripe_account === seller.key && plan.stripe_price_id)
    await stripe.prices.update(plan.stripe_price_id, { active: false }).catch(() => undefined);
  await setPlanStripeIds(ctx, { planId: plan.id, account: seller.key, productId, priceId: price.id });
  return price.id;
}

// ---------------------------------------------------------------------------------------------------
// Coupons

function couponOf(c: Stripe.Coupon, code: string, priceCents: number | null): TCouponInfo {
  let discounted: number | null = null;
  if (priceCents !== null) {
    if (c.percent_off) discounted = Math.round(priceCents * (1 - c.percent_off / 100));
    else if (c.amount_off) discounted = Math.max(0, priceCents - c.amount_off);
    else discounted = priceCents;
  }
  return {
    code,
    name: c.name ?? null,
    percent_off: c.percent_off ?? null,
    amount_off_cents: c.amount_off ?? null,
    duration: c.duration as TCouponInfo['duration'],
    duration_in_months: c.duration_in_months ?? null,
    price_cents: priceCents,
    discounted_cents: discounted,
  };
}

/** A code as a promotion code (what customers type), else as a coupon id; null when neither exists. */
async function findDiscount(stripe: Stripe, code: string) {
  const promos = await stripe.promotionCodes.list({ code, limit: 10 });
  const promo = promos.data.find((p) => p.active);
  if (promo) {
    const ref = promo.promotion.coupon;
    const coupon = typeof ref === 'string' ? await stripe.coupons.retrieve(ref) : ref;
    if (coupon?.valid) return { coupon, discount: { promotion_code: promo.id } };
  }
  // A code that is (or was) a promotion code is only that: switched off, its coupon's id does not stand in.
  if (promos.data.length > 0) return null;
  try {
    const coupon = await stripe.coupons.retrieve(code);
    if (coupon.valid) return { coupon, discount: { coupon: coupon.id } };
  } catch (err) {
    if ((err as { code?: string }).code !== 'resource_missing') throw err;
  }
  return null;
}

async function requireDiscount(stripe: Stripe, code: string) {
  const found = await findDiscount(stripe, code);
  if (!found) throw invalid('code', 'subscriptions.coupon_invalid');
  return found;
}

/** What a code takes off a seller's plan (coupon-info, and the order pages' discounts call). */
export async function couponInfo(
  ctx: Ctx,
  input: { sellerAgencyId: number; buyer: 'agency' | 'business'; code: string; planId?: number },
): Promise<TCouponInfo> {
  const seller = await sellerFor(ctx, {
    buyer: input.buyer,
    agencyId: input.sellerAgencyId,
  });
  if (!seller) throw invalid('code', 'subscriptions.coupon_invalid');
  const stripe = await stripeOf(ctx, seller);
  const { coupon } = await requireDiscount(stripe, input.code);
  let price: number | null = null;
  if (input.planId !== undefined) {
    const plan = await planOfAgency(ctx, { agencyId: seller.agencyId, planId: input.planId });
    if (!plan || plan.type !== input.buyer) throw invalid('plan_id', 'subscriptions.plan_unknown');
    price = plan.price_cents;
  }
  return couponOf(coupon, input.code, price);
}

/** coupon-info for a signed-in account (its own seller). */
export async function couponInfoFor(
  ctx: Ctx,
  account: BillingAccount,
  input: { code: string; planId?: number },
) {
  // couponInfo's seller lookup takes the buyer's agency for a business, any agency for an agency buyer.
  return couponInfo(ctx, {
    sellerAgencyId: account.agencyId,
    buyer: account.kind,
    code: input.code,
    planId: input.planId,
  });
}

// ---------------------------------------------------------------------------------------------------
// Mirroring Stripe into our row

const KNOWN = new Set<string>(SUBSCRIPTION_STATUSES);
function statusOf(s: Stripe.Subscription['status']): TSubscriptionStatus {
  if (s === 'incomplete_expired') return 'canceled';
  if (s === 'paused') return 'past_due';
  return (KNOWN.has(s) ? s : 'past_due') as TSubscriptionStatus;
}

const at = (unix: number | null | undefined) => (unix ? new Date(unix * 1000) : null);

function periodEndOf(sub: Stripe.Subscription): Date | null {
  const ends = sub.items.data.map((i) => i.current_period_end).filter(Boolean);
  return ends.length ? at(Math.max(...ends)) : null;
}

/** The plan a subscription is on: by its price on this seller, else the plan id we wrote in its metadata. */
async function planOfSubscription(ctx: Ctx, seller: Seller, sub: Stripe.Subscription) {
  const priceId = sub.items.data[0]?.price.id;
  const byPrice = priceId ? await planByStripePrice(ctx, { account: seller.key, priceId }) : null;
  if (byPrice) return byPrice;
  const id = Number(sub.metadata?.plan_id);
  return Number.isInteger(id) && id > 0 ? planOfAgency(ctx, { agencyId: seller.agencyId, planId: id }) : null;
}

/**
 * Writes a subscription as Stripe has it now (`sub` names it; it is read again under the row's lock) into the
 * account's row and applies the plan's features when the
 * plan changed or a new period began (`renewed`: caps set again, which ends last period's packages).
 * Ignores a subscription that is not the row's current one (an old, replaced subscription's late event).
 */
export async function mirror(
  ctx: Ctx,
  input: {
    seller: Seller;
    sub: Stripe.Subscription;
    renewed?: boolean;
    lastError?: string | null;
    /** The coupon the caller just applied (a subscription names its discounts by id unless expanded). */
    couponId?: string;
  },
) {
  const { seller } = input;
  const customerId = typeof input.sub.customer === 'string' ? input.sub.customer : input.sub.customer.id;
  const stripe = await stripeOf(ctx, seller);
  await inTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.stripe_account, seller.key), eq(subscriptions.customer_id, customerId)))
      .for('update');
    if (!row) return;
    // Read again under the row's lock: a webhook's read and a call's answer, written in either order,
    // could otherwise leave the older state last.
    const sub = await stripe.subscriptions.retrieve(input.sub.id);
    const plan = await planOfSubscription(tx, seller, sub);
    if (row.subscription_id && row.subscription_id !== sub.id && sub.status === 'canceled') return;
    const status = statusOf(sub.status);
    const paidUp = PAID_UP_STATUSES.includes(status);
    const couponCode = couponOfSubscription(sub, input.couponId, row.coupon_code);
    const next = {
      subscription_id: sub.id,
      plan_id: plan?.id ?? row.plan_id,
      status,
      current_period_end: periodEndOf(sub),
      trial_end: at(sub.trial_end),
      cancel_at_period_end: sub.cancel_at_period_end,
      coupon_code: couponCode,
      last_error: paidUp ? null : (input.lastError ?? row.last_error),
    };
    // A redelivery or a re-read that finds nothing new writes nothing.
    const text = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v ?? ''));
    const same = (Object.keys(next) as (keyof typeof next)[]).every((k) => text(next[k]) === text(row[k]));
    if (!same)
      await tx.db
        .update(subscriptions)
        .set({ ...next, updated_at: new Date() })
        .where(eq(subscriptions.id, row.id));
    const planChanged = plan !== null && plan.id !== row.plan_id;
    const trialChanged = (row.status === 'trialing') !== (status === 'trialing');
    if (plan && paidUp && (planChanged || input.renewed || row.status !== status))
      await applyPlan(tx, row, plan, status === 'trialing');
    else if (trialChanged && row.account_kind === 'business')
      await applyBusinessPlan(tx, {
        businessId: row.account_id,
        planId: null,
        trial: status === 'trialing',
        features: null,
      });
  });
}

/** The coupon of a subscription: none when it has no discount, else the one named or expanded, else as kept. */
function couponOfSubscription(sub: Stripe.Subscription, applied: string | undefined, kept: string | null) {
  const discounts = sub.discounts ?? [];
  if (discounts.length === 0) return null;
  if (applied) return applied;
  const first = discounts[0];
  if (first && typeof first !== 'string') {
    const c = first.source?.coupon;
    return (typeof c === 'string' ? c : c?.id) ?? kept;
  }
  return kept;
}

/** The plan's feature keys on the account (spec §3; ADR 076). */
async function applyPlan(ctx: Ctx, row: Row, plan: PlanForSale, trial: boolean) {
  const f = plan.features;
  if (row.account_kind === 'agency') {
    await applyAgencyPlan(ctx, {
      agencyId: row.account_id,
      features: {
        Installs: f.Installs,
        Zapier: f.Zapier,
        Department: f.Department,
        RemoveBranding: f.RemoveBranding,
      },
    });
    return;
  }
  await applyBusinessPlan(ctx, { businessId: row.account_id, planId: plan.id, trial, features: f });
}

/** Re-reads a subscription from Stripe and mirrors it (webhooks never trust an event's body). */
export async function refreshSubscription(
  ctx: Ctx,
  input: { seller: Seller; subscriptionId: string; renewed?: boolean; lastError?: string | null },
) {
  const stripe = await stripeOf(ctx, input.seller);
  const sub = await stripe.subscriptions.retrieve(input.subscriptionId);
  await mirror(ctx, { seller: input.seller, sub, renewed: input.renewed, lastError: input.lastError });
}

/** Keeps whether the customer has a card (after our card calls, and the payment_method events). */
export async function refreshHasCard(ctx: Ctx, input: { seller: Seller; customerId: string }) {
  const stripe = await stripeOf(ctx, input.seller);
  const list = await stripe.customers.listPaymentMethods(input.customerId, { type: 'card', limit: 1 });
  await ctx.db
    .update(subscriptions)
    .set({ has_payment_method: list.data.length > 0, updated_at: new Date() })
    .where(
      and(
        eq(subscriptions.stripe_account, input.seller.key),
        eq(subscriptions.customer_id, input.customerId),
        ne(subscriptions.has_payment_method, list.data.length > 0),
      ),
    );
}

/** Records Stripe's message for a failed payment on the customer's row. */
export async function recordPaymentError(
  ctx: Ctx,
  input: { seller: Seller; customerId: string; message: string | null },
) {
  await ctx.db
    .update(subscriptions)
    .set({ last_error: input.message, updated_at: new Date() })
    .where(
      and(
        eq(subscriptions.stripe_account, input.seller.key),
        eq(subscriptions.customer_id, input.customerId),
      ),
    );
}

// ---------------------------------------------------------------------------------------------------
// State

/** The account's subscription as the screens show it. */
export async function subscriptionState(ctx: Ctx, account: BillingAccount): Promise<TSubscriptionState> {
  const seller = await sellerFor(ctx, { buyer: account.kind, agencyId: account.agencyId });
  const row = await rowOf(ctx, account);
  const current = row && seller && row.stripe_account === seller.key ? row : null;
  const plan =
    current?.plan_id && seller
      ? await planOfAgency(ctx, { agencyId: seller.agencyId, planId: current.plan_id })
      : null;
  let coupon: TCouponInfo | null = null;
  if (current?.coupon_code && seller) {
    const stripe = await stripeOf(ctx, seller);
    const c = await stripe.coupons.retrieve(current.coupon_code).catch(() => null);
    // The row keeps the coupon's id; a customer typed its promotion code (an agency's codes are one
    // promotion code per coupon, the coupon's id made up by Stripe): say the code they typed.
    const promo = c
      ? (await stripe.promotionCodes.list({ coupon: c.id, limit: 1 }).catch(() => null))?.data[0]
      : undefined;
    if (c) coupon = couponOf(c, promo?.code ?? current.coupon_code, plan?.price_cents ?? null);
  }
  return {
    status: (current?.status ?? 'none') as TSubscriptionStatus,
    plan: plan ? toOffer(plan) : null,
    current_period_end: current?.current_period_end?.toISOString() ?? null,
    trial_end: current?.trial_end?.toISOString() ?? null,
    cancel_at_period_end: current?.cancel_at_period_end ?? false,
    coupon,
    last_error: current?.last_error ?? null,
    can_buy: seller !== null,
    has_payment_method: current?.has_payment_method ?? false,
  };
}

/** What the profile shows of billing (spec §3): stripe_active, subscribed, has_payment_method. */
export async function billingFlags(ctx: Ctx, account: Pick<BillingAccount, 'kind' | 'id'> | null) {
  const row = account ? await rowOf(ctx, account) : null;
  const status = (row?.status ?? 'none') as TSubscriptionStatus;
  return {
    stripe_active: PAID_UP_STATUSES.includes(status),
    subscribed: status !== 'none' && status !== 'canceled',
    has_payment_method: row?.has_payment_method ?? false,
    on_trial: status === 'trialing',
  };
}

// ---------------------------------------------------------------------------------------------------
// Cards

function toCard(pm: Stripe.PaymentMethod, defaultId: string | null): TPaymentMethod {
  return {
    id: pm.id,
    brand: pm.card?.brand ?? 'card',
    last4: pm.card?.last4 ?? '',
    exp_month: pm.card?.exp_month ?? 0,
    exp_year: pm.card?.exp_year ?? 0,
    is_default: pm.id === defaultId,
  };
}

async function customerContext(ctx: Ctx, account: BillingAccount) {
  const seller = await requireSeller(ctx, account);
  const stripe = await stripeOf(ctx, seller);
  const row = await ensureCustomer(ctx, seller, stripe, account);
  return { seller, stripe, row };
}

function defaultCardOf(customer: Stripe.Customer | Stripe.DeletedCustomer): string | null {
  if (customer.deleted) return null;
  const d = customer.invoice_settings?.default_payment_method;
  return typeof d === 'string' ? d : (d?.id ?? null);
}

/** The account's saved cards, the default first. */
export async function paymentMethods(ctx: Ctx, account: BillingAccount): Promise<TPaymentMethod[]> {
  const seller = await sellerFor(ctx, { buyer: account.kind, agencyId: account.agencyId });
  const row = await rowOf(ctx, account);
  if (!seller || !row || row.stripe_account !== seller.key) return [];
  const stripe = await stripeOf(ctx, seller);
  return listCards(stripe, row.customer_id);
}

async function listCards(stripe: Stripe, customerId: string) {
  const [customer, list] = await Promise.all([
    stripe.customers.retrieve(customerId),
    stripe.customers.listPaymentMethods(customerId, { type: 'card', limit: 100 }),
  ]);
  const def = defaultCardOf(customer);
  return list.data.map((pm) => toCard(pm, def)).sort((a, b) => Number(b.is_default) - Number(a.is_default));
}

/**
 * Attaches a card (unless already the customer's) and, with `makeDefault` or when the customer has no default
 * card, makes it the default. Answers whether it did. The customer's default is read at Stripe, not from our
 * row's `has_payment_method`: the card form's setup intent attaches the card itself, and the
 * `payment_method.attached` event may have marked the row before this request reads it.
 */
async function attachCard(stripe: Stripe, customerId: string, paymentMethod: string, makeDefault: boolean) {
  const [pm, customer] = await Promise.all([
    charge(() => stripe.paymentMethods.retrieve(paymentMethod)),
    makeDefault ? null : stripe.customers.retrieve(customerId),
  ]);
  const owner = typeof pm.customer === 'string' ? pm.customer : (pm.customer?.id ?? null);
  if (owner && owner !== customerId) throw invalid('paymentMethod', 'subscriptions.not_found');
  const attached = owner
    ? pm
    : await charge(() => stripe.paymentMethods.attach(pm.id, { customer: customerId }));
  const asDefault = makeDefault || (customer !== null && defaultCardOf(customer) === null);
  if (asDefault)
    await stripe.customers.update(customerId, { invoice_settings: { default_payment_method: attached.id } });
  return asDefault;
}

/** Pays the open invoice of a past-due subscription with the default card (card refusal: the 422). */
async function payOpenInvoice(ctx: Ctx, seller: Seller, stripe: Stripe, row: Row) {
  if (!row.subscription_id || !['past_due', 'unpaid', 'incomplete'].includes(row.status)) return;
  const open = await stripe.invoices.list({ subscription: row.subscription_id, status: 'open', limit: 10 });
  for (const invoice of open.data) {
    if (!invoice.id) continue;
    try {
      await stripe.invoices.pay(invoice.id);
    } catch (err) {
      if (isCardError(err)) {
        await recordPaymentError(ctx, { seller, customerId: row.customer_id, message: err.message });
        throw cardFailed(err);
      }
      throw err;
    }
  }
  await refreshSubscription(ctx, { seller, subscriptionId: row.subscription_id });
}

/** Adds a card; the first one, or `makeDefault`, becomes the default (which pays an open invoice). */
export async function addPaymentMethod(
  ctx: Ctx,
  account: BillingAccount,
  input: { paymentMethod: string; makeDefault?: boolean },
) {
  const { seller, stripe, row } = await customerContext(ctx, account);
  const madeDefault = await attachCard(
    stripe,
    row.customer_id,
    input.paymentMethod,
    Boolean(input.makeDefault),
  );
  await refreshHasCard(ctx, { seller, customerId: row.customer_id });
  if (madeDefault) await payOpenInvoice(ctx, seller, stripe, row);
  return listCards(stripe, row.customer_id);
}

export async function setDefaultPaymentMethod(ctx: Ctx, account: BillingAccount, input: { id: string }) {
  const { seller, stripe, row } = await customerContext(ctx, account);
  const cards = await listCards(stripe, row.customer_id);
  if (!cards.some((c) => c.id === input.id)) throw notFound();
  await stripe.customers.update(row.customer_id, { invoice_settings: { default_payment_method: input.id } });
  await payOpenInvoice(ctx, seller, stripe, row);
  return listCards(stripe, row.customer_id);
}

export async function deletePaymentMethod(ctx: Ctx, account: BillingAccount, input: { id: string }) {
  const { seller, stripe, row } = await customerContext(ctx, account);
  const cards = await listCards(stripe, row.customer_id);
  if (!cards.some((c) => c.id === input.id)) throw notFound();
  const live = ['trialing', 'active', 'past_due', 'unpaid'].includes(row.status) && !row.cancel_at_period_end;
  if (live && cards.length === 1) throw invalid('id', 'subscriptions.card_in_use');
  await stripe.paymentMethods.detach(input.id);
  const rest = await listCards(stripe, row.customer_id);
  // The default went with it: the next card becomes the default.
  const next = rest[0];
  if (next && !rest.some((c) => c.is_default))
    await stripe.customers.update(row.customer_id, { invoice_settings: { default_payment_method: next.id } });
  await refreshHasCard(ctx, { seller, customerId: row.customer_id });
  return listCards(stripe, row.customer_id);
}

/** A setup intent for the account's card form. */
export async function setupSecret(ctx: Ctx, account: BillingAccount): Promise<TSetupSecret> {
  const { seller, stripe, row } = await customerContext(ctx, account);
  const intent = await stripe.setupIntents.create({
    customer: row.customer_id,
    usage: 'off_session',
  });
  return {
    client_secret: intent.client_secret ?? '',
    publishable_key: seller.publishableKey,
    sandbox: seller.sandbox,
  };
}

/** A setup intent for a site's order pages (no customer yet: the card is attached when the account is made). */
export async function setupSecretForSeller(
  ctx: Ctx,
  input: { sellerAgencyId: number; buyer: 'agency' | 'business' },
): Promise<TSetupSecret> {
  const seller = await sellerFor(ctx, { buyer: input.buyer, agencyId: input.sellerAgencyId });
  if (!seller) throw invalid('domain', 'subscriptions.no_card_payments');
  const stripe = await stripeOf(ctx, seller);
  const intent = await stripe.setupIntents.create({ usage: 'off_session' });
  return {
    client_secret: intent.client_secret ?? '',
    publishable_key: seller.publishableKey,
    sandbox: seller.sandbox,
  };
}

// ---------------------------------------------------------------------------------------------------
// Subscribe, change, cancel, resume

const LIVE = new Set(['trialing', 'active', 'past_due', 'unpaid', 'incomplete']);

/**
 * Subscribes the account to a plan, or moves its live subscription to it (prorated, charged at once). A card
 * named here is attached and made the default first. Card refusals are a 422 with Stripe's message, and
 * leave no subscription charged. `trialDays` overrides the plan's (the trial order page); a trial is only
 * given to an account's first subscription.
 */
export async function subscribeAccount(
  ctx: Ctx,
  input: {
    account: BillingAccount;
    planId: number;
    paymentMethod?: string;
    coupon?: string;
    trialDays?: number;
  },
): Promise<TSubscriptionState> {
  const { account } = input;
  const seller = await requireSeller(ctx, account);
  const plan = await planToBuy(ctx, seller, account, input.planId);
  const stripe = await stripeOf(ctx, seller);
  const found = input.coupon ? await requireDiscount(stripe, input.coupon) : null;
  const discount = found?.discount;
  const couponId = found?.coupon.id;
  const row = await ensureCustomer(ctx, seller, stripe, account);
  if (input.paymentMethod) {
    await attachCard(stripe, row.customer_id, input.paymentMethod, true);
    await refreshHasCard(ctx, { seller, customerId: row.customer_id });
  }
  const firstTime = row.subscription_id === null;
  const trialDays = firstTime ? (input.trialDays ?? plan.trial_days) : 0;
  const hasCard = Boolean(input.paymentMethod) || (await rowOf(ctx, account))?.has_payment_method;
  if (!hasCard && plan.price_cents > 0 && trialDays === 0)
    throw invalid('paymentMethod', 'subscriptions.card_required');
  const price = await priceOf(ctx, seller, stripe, plan);
  const metadata = { plan_id: String(plan.id), account_kind: account.kind, account_id: String(account.id) };

  let sub: Stripe.Subscription;
  if (row.subscription_id && LIVE.has(row.status)) {
    const current = await stripe.subscriptions.retrieve(row.subscription_id);
    const item = current.items.data[0];
    sub = await charge(() =>
      stripe.subscriptions.update(current.id, {
        items: item && item.price.id !== price ? [{ id: item.id, price }] : undefined,
        proration_behavior: 'always_invoice',
        payment_behavior: 'error_if_incomplete',
        cancel_at_period_end: false,
        ...(discount ? { discounts: [discount] } : {}),
        metadata,
      }),
    );
    await mirror(ctx, { seller, sub, couponId });
    const fresh = await rowOf(ctx, account);
    if (fresh) await payOpenInvoice(ctx, seller, stripe, fresh);
  } else {
    sub = await charge(() =>
      stripe.subscriptions.create({
        customer: row.customer_id,
        items: [{ price }],
        ...(trialDays > 0 ? { trial_period_days: trialDays } : {}),
        payment_behavior: 'error_if_incomplete',
        ...(discount ? { discounts: [discount] } : {}),
        metadata,
      }),
    );
    await mirror(ctx, { seller, sub, couponId });
  }
  return subscriptionState(ctx, account);
}

/** Subscribes to the seller's unlimited plan of a period (Messages and Calls with no cap). */
export async function subscribeUnlimited(
  ctx: Ctx,
  account: BillingAccount,
  input: { planType: 'month' | 'year' },
) {
  const offers = await offersFor(ctx, account, input.planType);
  const plan = offers.filter((o) => o.unlimited).at(-1);
  if (!plan) throw notFound();
  return subscribeAccount(ctx, { account, planId: plan.id });
}

/** Cancels at the end of the period (Stripe's cancel_at_period_end); resume undoes it. */
export async function setCancelAtPeriodEnd(ctx: Ctx, account: BillingAccount, cancel: boolean) {
  const seller = await requireSeller(ctx, account);
  const row = await rowOf(ctx, account);
  if (!row?.subscription_id || row.stripe_account !== seller.key || !LIVE.has(row.status))
    throw invalid('subscription', 'subscriptions.none_live');
  const stripe = await stripeOf(ctx, seller);
  const sub = await stripe.subscriptions.update(row.subscription_id, { cancel_at_period_end: cancel });
  await mirror(ctx, { seller, sub });
  return subscriptionState(ctx, account);
}

/** Applies a code to the live subscription (from its next invoice). */
export async function applyCoupon(ctx: Ctx, account: BillingAccount, input: { code: string }) {
  const seller = await requireSeller(ctx, account);
  const row = await rowOf(ctx, account);
  if (!row?.subscription_id || row.stripe_account !== seller.key || !LIVE.has(row.status))
    throw invalid('code', 'subscriptions.none_live');
  const stripe = await stripeOf(ctx, seller);
  const { discount, coupon } = await requireDiscount(stripe, input.code);
  const sub = await stripe.subscriptions.update(row.subscription_id, { discounts: [discount] });
  await mirror(ctx, { seller, sub, couponId: coupon.id });
  return subscriptionState(ctx, account);
}

// ---------------------------------------------------------------------------------------------------
// Invoices

export async function invoices(ctx: Ctx, account: BillingAccount): Promise<TInvoice[]> {
  const seller = await sellerFor(ctx, { buyer: account.kind, agencyId: account.agencyId });
  const row = await rowOf(ctx, account);
  if (!seller || !row || row.stripe_account !== seller.key) return [];
  const stripe = await stripeOf(ctx, seller);
  const list = await stripe.invoices.list({ customer: row.customer_id, limit: 24 });
  return list.data
    .filter((i) => i.status !== 'draft')
    .map((i) => ({
      id: i.id ?? '',
      number: i.number ?? null,
      status: i.status ?? 'open',
      amount_due_cents: i.amount_due,
      amount_paid_cents: i.amount_paid,
      currency: i.currency,
      created: new Date(i.created * 1000).toISOString(),
      description: i.lines?.data?.[0]?.description ?? null,
      hosted_invoice_url: i.hosted_invoice_url ?? null,
    }))
    .sort((a, b) => b.created.localeCompare(a.created));
}

// ---------------------------------------------------------------------------------------------------
// Packages

type PurchaseRow = typeof packagePurchases.$inferSelect;
const toPurchase = (p: PurchaseRow): TPackagePurchase => ({
  id: p.id,
  package_id: p.package_id ?? 0,
  name: p.name,
  kind: p.kind,
  quantity: p.quantity,
  price_cents: p.price_cents,
  source: p.source,
  created_at: p.created_at.toISOString(),
});

/**
 * Buys a package once: by card (a payment intent on the default card, off session), or given by the agency
 * (`source` 'agency', no charge). Its credits are added at once (ADR 076). The package is one of the
 * seller's: the business's agency's, or for an agency the main agency's (order bumps).
 */
export async function buyPackage(
  ctx: Ctx,
  input: { account: BillingAccount; packageId: number; source: 'card' | 'agency'; orderBumpOnly?: boolean },
): Promise<TPackagePurchase> {
  const { account } = input;
  const seller = await sellerFor(ctx, { buyer: account.kind, agencyId: account.agencyId });
  const sellerAgencyId = account.kind === 'business' ? account.agencyId : (seller?.agencyId ?? null);
  const pkg =
    sellerAgencyId === null
      ? null
      : await packageOfAgency(ctx, { agencyId: sellerAgencyId, packageId: input.packageId });
  if (!pkg || (input.orderBumpOnly && !pkg.order_bump))
    throw invalid('package_id', 'subscriptions.package_unknown');
  if (account.kind === 'agency' && pkg.kind !== 'installs')
    throw invalid('package_id', 'subscriptions.package_unknown');
  let intentId: string | null = null;
  if (input.source === 'card' && pkg.price_cents > 0) {
    if (!seller) throw invalid('package_id', 'subscriptions.no_card_payments');
    const stripe = await stripeOf(ctx, seller);
    const row = await ensureCustomer(ctx, seller, stripe, account);
    const customer = await stripe.customers.retrieve(row.customer_id);
    const card = defaultCardOf(customer);
    if (!card) throw invalid('paymentMethod', 'subscriptions.card_required');
    const intent = await charge(() =>
      stripe.paymentIntents.create({
        amount: pkg.price_cents,
        currency: 'usd',
        customer: row.customer_id,
        payment_method: card,
        off_session: true,
        confirm: true,
        description: pkg.name,
        metadata: { package_id: String(pkg.id), account_kind: account.kind, account_id: String(account.id) },
      }),
    );
    if (intent.status !== 'succeeded') throw invalid('payment', 'subscriptions.payment_incomplete');
    intentId = intent.id;
  }
  const saved = await inTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .insert(packagePurchases)
      .values({
        agency_id: account.agencyId,
        account_kind: account.kind,
        account_id: account.id,
        package_id: pkg.id,
        name: pkg.name,
        kind: pkg.kind,
        quantity: pkg.quantity,
        price_cents: input.source === 'card' ? pkg.price_cents : 0,
        source: input.source,
        payment_intent_id: intentId,
      })
      .returning();
    if (account.kind === 'business')
      await addBusinessCredits(tx, { businessId: account.id, kind: pkg.kind, quantity: pkg.quantity });
    else await addAgencyInstalls(tx, { agencyId: account.id, quantity: pkg.quantity });
    return row;
  });
  if (!saved) throw new AppError('CONFLICT');
  return toPurchase(saved);
}

export async function purchasesOf(ctx: Ctx, account: Pick<BillingAccount, 'kind' | 'id'>) {
  const rows = await ctx.db
    .select()
    .from(packagePurchases)
    .where(and(eq(packagePurchases.account_kind, account.kind), eq(packagePurchases.account_id, account.id)))
    .orderBy(desc(packagePurchases.id))
    .limit(50);
  return rows.map(toPurchase);
}

// ---------------------------------------------------------------------------------------------------
// An agency's coupons: a Stripe coupon and its promotion code (the code buyers type) on the seller's own
// account. An agency sells to its businesses; the main agency's coupons are the platform's (sold to agencies).

async function sellerOfAgency(ctx: Ctx, agencyId: number): Promise<Seller> {
  const seller = await sellerFor(ctx, { buyer: 'business', agencyId });
  if (!seller) throw invalid('code', 'subscriptions.no_card_payments');
  return seller;
}

function toCoupon(p: Stripe.PromotionCode, c: Stripe.Coupon): TCoupon {
  return {
    code: p.code,
    name: c.name ?? null,
    percent_off: c.percent_off ?? null,
    amount_off_cents: c.amount_off ?? null,
    duration: c.duration as TCoupon['duration'],
    duration_in_months: c.duration_in_months ?? null,
    active: p.active && c.valid,
    times_redeemed: p.times_redeemed,
    created: new Date(p.created * 1000).toISOString(),
  };
}

async function couponOfPromotion(stripe: Stripe, p: Stripe.PromotionCode) {
  const ref = p.promotion.coupon;
  return typeof ref === 'string' ? stripe.coupons.retrieve(ref) : ref;
}

export async function agencyCoupons(ctx: Ctx, input: { agencyId: number }): Promise<TCoupon[]> {
  const seller = await sellerFor(ctx, { buyer: 'business', agencyId: input.agencyId });
  if (!seller) return [];
  const stripe = await stripeOf(ctx, seller);
  const list = await stripe.promotionCodes.list({ limit: 100 });
  const out: TCoupon[] = [];
  for (const p of list.data) {
    const c = await couponOfPromotion(stripe, p);
    if (c) out.push(toCoupon(p, c));
  }
  return out;
}

export async function createAgencyCoupon(ctx: Ctx, input: { agencyId: number; coupon: TCouponRequest }) {
  const seller = await sellerOfAgency(ctx, input.agencyId);
  const stripe = await stripeOf(ctx, seller);
  const c = input.coupon;
  const taken = await stripe.promotionCodes.list({ code: c.code, limit: 1 });
  if (taken.data.length > 0) throw invalid('code', 'subscriptions.coupon_taken');
  const coupon = await stripe.coupons.create({
    ...(c.name ? { name: c.name } : {}),
    ...(c.percent_off !== undefined
      ? { percent_off: c.percent_off }
      : { amount_off: c.amount_off_cents, currency: 'usd' }),
    duration: c.duration,
    ...(c.duration === 'repeating' ? { duration_in_months: c.duration_in_months } : {}),
  });
  const promo = await stripe.promotionCodes.create({
    code: c.code,
    promotion: { type: 'coupon', coupon: coupon.id },
  });
  return toCoupon(promo, coupon);
}

/** Switches a code off (Stripe keeps it, as it keeps every coupon that was used). */
export async function endAgencyCoupon(ctx: Ctx, input: { agencyId: number; code: string }) {
  const seller = await sellerOfAgency(ctx, input.agencyId);
  const stripe = await stripeOf(ctx, seller);
  const [promo] = (await stripe.promotionCodes.list({ code: input.code, limit: 1 })).data;
  if (!promo) throw notFound();
  const ended = await stripe.promotionCodes.update(promo.id, { active: false });
  const coupon = await couponOfPromotion(stripe, ended);
  if (!coupon) throw notFound();
  return toCoupon(ended, coupon);
}

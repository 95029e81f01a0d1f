import Fastify, { type FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/helpers.ts';
import type { WebhookTransport } from '../../carrier/sandbox/webhook-caller.ts';
import { createPayments, type Payments } from '../payments.ts';
import { stripeSandboxBrowserRoutes } from './browser-routes.ts';
import type { StripeSandbox } from './sandbox.ts';

// The Stripe sandbox through the official SDK (real PostgreSQL), the browser card form through its Fastify
// routes, and the signed webhooks through a recording transport.

const DAY = 86_400_000;

type Received = { url: string; headers: Record<string, string>; body: string };

let t: TestApp;
let payments: Payments;
let sandbox: StripeSandbox;
let browser: FastifyInstance;
const received: Received[] = [];
const transport: WebhookTransport = async (url, headers, body) => {
  received.push({ url, headers, body });
  return { status: 200, body: '' };
};

/** A fresh sandbox account (its own clock) with a webhook endpoint for every event. */
async function account() {
  const keys = await sandbox.createAccount();
  const stripe = await payments.client(keys.secretKey);
  const hook = await stripe.webhookEndpoints.create({
    url: `https://hooks.test/${keys.secretKey}`,
    enabled_events: ['*'],
  });
  return { ...keys, stripe, secret: hook.secret as string, url: hook.url };
}
type Account = Awaited<ReturnType<typeof account>>;

/** The events delivered to an account's endpoint (verified with the SDK's constructEvent). */
async function events(a: Account): Promise<Stripe.Event[]> {
  await sandbox.settle();
  return received
    .filter((r) => r.url === a.url)
    .map((r) => a.stripe.webhooks.constructEvent(r.body, r.headers['stripe-signature'] ?? '', a.secret));
}

async function confirmCard(
  a: Account,
  si: { id: string; client_secret: string | null },
  card: Record<string, unknown>,
  key = a.publishableKey,
) {
  return browser.inject({
    method: 'POST',
    url: `/stripe-sandbox/v1/setup_intents/${si.id}/confirm`,
    headers: { authorization: `Bearer ${key}` },
    payload: { client_secret: si.client_secret, card },
  });
}

const card = (number: string, more: Record<string, unknown> = {}) => ({
  number,
  exp_month: 12,
  exp_year: new Date().getUTCFullYear() + 2,
  cvc: '123',
  ...more,
});

/** A customer with a card saved through a setup intent and the browser form, made the default. */
async function customerWithCard(a: Account, number: string) {
  const customer = await a.stripe.customers.create({ email: 'payer@example.com', name: 'Payer' });
  const si = await a.stripe.setupIntents.create({
    customer: customer.id,
    usage: 'off_session',
    allowed_payment_method_types: ['card'],
  });
  const res = await confirmCard(a, si, card(number));
  expect(res.statusCode, res.body).toBe(200);
  const pm = res.json().payment_method as string;
  await a.stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: pm } });
  return { customer, pm };
}

async function monthlyPrice(a: Account, amount = 1000, interval: 'month' | 'year' = 'month') {
  const product = await a.stripe.products.create({ name: `Plan ${amount}` });
  return a.stripe.prices.create({
    product: product.id,
    unit_amount: amount,
    currency: 'usd',
    recurring: { interval },
  });
}

beforeAll(async () => {
  t = await createTestApp();
  payments = createPayments({ db: t.db, sandbox: true, transport });
  sandbox = payments.sandbox as StripeSandbox;
  browser = Fastify();
  await browser.register(stripeSandboxBrowserRoutes, { payments });
  await browser.ready();
});

afterAll(async () => {
  await browser?.close();
  await payments?.close();
  await t?.close();
});

describe('keys and errors', () => {
  it('refuses an unknown key with 401 and makes a well-formed unknown sandbox key an account', async () => {
    const port = await sandbox.port();
    const res = await fetch(`http://127.0.0.1:${port}/v1/customers`, {
      headers: { authorization: 'Bearer sk_test_nope' },
    });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toMatch(/^Invalid API Key provided: /);

    const platform = await payments.client('sk_test_sandbox_platformKey123');
    const c = await platform.customers.create({ email: 'p@example.com' });
    expect(c.id).toMatch(/^cus_[A-Za-z0-9]{24}$/);
    const basic = await fetch(`http://127.0.0.1:${port}/v1/customers/${c.id}`, {
      headers: {
        authorization: `Basic ${Buffer.from('sk_test_sandbox_platformKey123:').toString('base64')}`,
      },
    });
    expect(((await basic.json()) as { email: string }).email).toBe('p@example.com');
  });

  it('answers missing objects with StripeInvalidRequestError resource_missing', async () => {
    const a = await account();
    const err = await a.stripe.customers.retrieve('cus_missing').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect((err as Stripe.errors.StripeError).message).toBe("No such customer: 'cus_missing'");
    expect((err as Stripe.errors.StripeError).code).toBe('resource_missing');
    expect((err as Stripe.errors.StripeError).statusCode).toBe(404);
  });

  it('refuses raw card numbers server-side and accepts the test ids', async () => {
    const a = await account();
    const err = await a.stripe.paymentMethods
      .create({
        type: 'card',
        card: { number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123' },
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    const customer = await a.stripe.customers.create({ email: 'x@example.com' });
    const pm = await a.stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
    expect(pm.id).toMatch(/^pm_/);
    expect(pm.card?.last4).toBe('4242');
    expect(pm.card?.brand).toBe('visa');
    const declined = await a.stripe.paymentMethods
      .attach('pm_card_chargeDeclined', { customer: customer.id })
      .catch((e: unknown) => e);
    expect(declined).toBeInstanceOf(Stripe.errors.StripeCardError);
    const list = await a.stripe.customers.listPaymentMethods(customer.id, { type: 'card' });
    expect(list.data.map((m) => m.id)).toEqual([pm.id]);
    expect(list.object).toBe('list');
  });
});

describe('the browser card form on setup intents', () => {
  it('saves 4242 to the customer (spaces allowed) and emits setup_intent.succeeded', async () => {
    const a = await account();
    const customer = await a.stripe.customers.create({ email: 'c@example.com' });
    const si = await a.stripe.setupIntents.create({
      customer: customer.id,
      usage: 'off_session',
      allowed_payment_method_types: ['card'],
    });
    expect(si.client_secret).toMatch(new RegExp(`^${si.id}_secret_`));
    const res = await confirmCard(a, si, card('4242 4242 4242 4242'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('succeeded');
    const pm = await a.stripe.paymentMethods.retrieve(res.json().payment_method);
    expect(pm.customer).toBe(customer.id);
    expect((await a.stripe.setupIntents.retrieve(si.id)).status).toBe('succeeded');
    const types = (await events(a)).map((e) => e.type);
    expect(types).toContain('setup_intent.succeeded');
    expect(types).toContain('payment_method.attached');
  });

  it.each([
    ['4000000000000002', 'card_declined', 'generic_decline', 'Your card was declined.'],
    ['4000000000009995', 'card_declined', 'insufficient_funds', 'Your card has insufficient funds.'],
  ])('declines %s without attaching anything', async (number, code, decline, message) => {
    const a = await account();
    const customer = await a.stripe.customers.create({ email: 'd@example.com' });
    const si = await a.stripe.setupIntents.create({ customer: customer.id });
    const res = await confirmCard(a, si, card(number));
    expect(res.statusCode).toBe(402);
    expect(res.json().error).toMatchObject({ type: 'card_error', code, decline_code: decline, message });
    expect((await a.stripe.customers.listPaymentMethods(customer.id)).data).toEqual([]);
    expect((await a.stripe.setupIntents.retrieve(si.id)).status).toBe('requires_payment_method');
  });

  it('asks 3155 for authentication, then completes or fails it', async () => {
    const a = await account();
    const customer = await a.stripe.customers.create({ email: 'e@example.com' });
    const si = await a.stripe.setupIntents.create({ customer: customer.id });
    const res = await confirmCard(a, si, card('4000002500003155'));
    expect(res.json()).toMatchObject({ status: 'requires_action', next_action: { type: 'use_stripe_sdk' } });
    expect((await a.stripe.customers.listPaymentMethods(customer.id)).data).toEqual([]);
    const done = await browser.inject({
      method: 'POST',
      url: `/stripe-sandbox/v1/setup_intents/${si.id}/authenticate`,
      headers: { authorization: `Bearer ${a.publishableKey}` },
      payload: { client_secret: si.client_secret, outcome: 'complete' },
    });
    expect(done.json().status).toBe('succeeded');
    const [pm] = (await a.stripe.customers.listPaymentMethods(customer.id)).data;
    expect(pm?.card?.last4).toBe('3155');
    // Once set up, off-session charges go through.
    const pi = await a.stripe.paymentIntents.create({
      amount: 2000,
      currency: 'usd',
      customer: customer.id,
      payment_method: pm?.id,
      off_session: true,
      confirm: true,
    });
    expect(pi.status).toBe('succeeded');

    const si2 = await a.stripe.setupIntents.create({ customer: customer.id });
    await confirmCard(a, si2, card('4000002500003155'));
    const failed = await browser.inject({
      method: 'POST',
      url: `/stripe-sandbox/v1/setup_intents/${si2.id}/authenticate`,
      headers: { authorization: `Bearer ${a.publishableKey}` },
      payload: { client_secret: si2.client_secret, outcome: 'fail' },
    });
    expect(failed.json()).toMatchObject({
      status: 'requires_payment_method',
      last_setup_error: {
        code: 'setup_intent_authentication_failure',
        message:
          'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
      },
    });
    expect((await a.stripe.customers.listPaymentMethods(customer.id)).data).toHaveLength(1);
  });

  it('saves 0341, whose charges then fail', async () => {
    const a = await account();
    const { customer, pm } = await customerWithCard(a, '4000000000000341');
    const err = await a.stripe.paymentIntents
      .create({
        amount: 1500,
        currency: 'usd',
        customer: customer.id,
        payment_method: pm,
        off_session: true,
        confirm: true,
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Stripe.errors.StripeCardError);
    const cardErr = err as Stripe.errors.StripeCardError;
    expect(cardErr.message).toBe('Your card was declined.');
    expect(cardErr.code).toBe('card_declined');
    expect(cardErr.payment_intent?.status).toBe('requires_payment_method');
    const pi = await a.stripe.paymentIntents.retrieve(cardErr.payment_intent?.id as string);
    expect(pi.status).toBe('requires_payment_method');
    const types = (await events(a)).map((e) => e.type);
    expect(types).toContain('payment_intent.payment_failed');
  });

  it.each([
    ['4242424242424241', {}, 'incorrect_number', 'Your card number is incorrect.'],
    ['4242424242424242', { exp_year: 2001 }, 'expired_card', 'Your card has expired.'],
    ['4242424242424242', { cvc: '12' }, 'invalid_cvc', "Your card's security code is invalid."],
  ])('refuses a bad card %s %o', async (number, more, code, message) => {
    const a = await account();
    const si = await a.stripe.setupIntents.create({});
    const res = await confirmCard(a, si, card(number, more));
    expect(res.statusCode).toBe(402);
    expect(res.json().error).toMatchObject({ type: 'card_error', code, message });
  });

  it('answers 404 for a wrong client secret or another account key', async () => {
    const a = await account();
    const b = await account();
    const si = await a.stripe.setupIntents.create({});
    const wrong = await confirmCard(
      a,
      { id: si.id, client_secret: `${si.id}_secret_nope` },
      card('4242424242424242'),
    );
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().error.code).toBe('resource_missing');
    const other = await confirmCard(a, si, card('4242424242424242'), b.publishableKey);
    expect(other.statusCode).toBe(404);
    expect((await a.stripe.setupIntents.retrieve(si.id)).status).toBe('requires_payment_method');
  });
});

describe('subscriptions', () => {
  it('starts a trial: trialing with a paid $0 invoice', async () => {
    const a = await account();
    const { customer } = await customerWithCard(a, '4242424242424242');
    const price = await monthlyPrice(a);
    const sub = await a.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      trial_period_days: 14,
      expand: ['latest_invoice'],
    });
    expect(sub.status).toBe('trialing');
    expect(sub.id).toMatch(/^sub_/);
    const inv = sub.latest_invoice as Stripe.Invoice;
    expect(inv).toMatchObject({ status: 'paid', amount_due: 0, billing_reason: 'subscription_create' });
    expect(inv.parent?.subscription_details?.subscription).toBe(sub.id);
    const item = sub.items.data[0] as Stripe.SubscriptionItem;
    expect(item.current_period_end - item.current_period_start).toBe(14 * 86_400);
    expect(sub.trial_end).toBe(item.current_period_end);

    // The trial ends: the first real invoice is charged.
    await sandbox.advance(a.secretKey, 15 * DAY);
    const after = await a.stripe.subscriptions.retrieve(sub.id, { expand: ['latest_invoice'] });
    expect(after.status).toBe('active');
    expect(after.latest_invoice).toMatchObject({
      status: 'paid',
      amount_paid: 1000,
      billing_reason: 'subscription_cycle',
    });
    const types = (await events(a)).map((e) => e.type);
    expect(types).toContain('customer.subscription.trial_will_end');
  });

  it('charges the first invoice at once: active and paid', async () => {
    const a = await account();
    const { customer, pm } = await customerWithCard(a, '4242424242424242');
    const price = await monthlyPrice(a, 2500);
    const sub = await a.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      payment_behavior: 'error_if_incomplete',
      expand: ['latest_invoice', 'default_payment_method'],
    });
    expect(sub.status).toBe('active');
    const inv = sub.latest_invoice as Stripe.Invoice;
    expect(inv).toMatchObject({
      status: 'paid',
      amount_due: 2500,
      amount_paid: 2500,
      amount_remaining: 0,
      currency: 'usd',
    });
    expect(inv.number).toMatch(/^SBX-\d{4}$/);
    expect(inv.lines.data[0]?.amount).toBe(2500);
    expect(sub.default_payment_method).toBeNull();
    const listed = await a.stripe.invoices.list({ customer: customer.id, status: 'paid' });
    expect(listed.data.map((i) => i.id)).toEqual([inv.id]);
    const c = await a.stripe.customers.retrieve(customer.id, {
      expand: ['invoice_settings.default_payment_method'],
    });
    expect(((c as Stripe.Customer).invoice_settings.default_payment_method as Stripe.PaymentMethod).id).toBe(
      pm,
    );
    const types = (await events(a)).map((e) => e.type);
    for (const type of [
      'customer.subscription.created',
      'invoice.created',
      'invoice.finalized',
      'invoice.paid',
      'invoice.payment_succeeded',
    ])
      expect(types).toContain(type);
  });

  it('refuses a declined card with error_if_incomplete and leaves nothing active or paid', async () => {
    const a = await account();
    const customer = await a.stripe.customers.create({ email: 'decl@example.com' });
    const price = await monthlyPrice(a);
    const err = await a.stripe.subscriptions
      .create({
        customer: customer.id,
        items: [{ price: price.id }],
        default_payment_method: 'pm_card_chargeCustomerFail',
        payment_behavior: 'error_if_incomplete',
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect((err as Error).message).toBe('Your card was declined.');
    expect((await a.stripe.subscriptions.list({ customer: customer.id, status: 'all' })).data).toEqual([]);
    expect(
      (await a.stripe.invoices.list({ customer: customer.id })).data.filter((i) => i.status === 'paid'),
    ).toEqual([]);
  });

  it('leaves a declined first invoice open with allow_incomplete; paying it with a good card activates', async () => {
    const a = await account();
    const customer = await a.stripe.customers.create({ email: 'inc@example.com' });
    const price = await monthlyPrice(a);
    const sub = await a.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      default_payment_method: 'pm_card_chargeCustomerFail',
      expand: ['latest_invoice'],
    });
    expect(sub.status).toBe('incomplete');
    const inv = sub.latest_invoice as Stripe.Invoice;
    expect(inv).toMatchObject({ status: 'open', attempt_count: 1 });
    const again = await a.stripe.invoices.pay(inv.id as string).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect((await a.stripe.invoices.retrieve(inv.id as string)).attempt_count).toBe(2);
    const paid = await a.stripe.invoices.pay(inv.id as string, { payment_method: 'pm_card_visa' });
    expect(paid.status).toBe('paid');
    expect((await a.stripe.subscriptions.retrieve(sub.id)).status).toBe('active');
  });

  it('takes a percent_off coupon off the first invoice only (once)', async () => {
    const a = await account();
    const { customer } = await customerWithCard(a, '4242424242424242');
    const price = await monthlyPrice(a, 2000);
    const coupon = await a.stripe.coupons.create({
      id: 'WELCOME25',
      percent_off: 25,
      duration: 'once',
      name: 'Welcome',
    });
    expect(coupon.id).toBe('WELCOME25');
    const sub = await a.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      discounts: [{ coupon: coupon.id }],
      expand: ['latest_invoice'],
    });
    expect((sub.latest_invoice as Stripe.Invoice).amount_due).toBe(1500);
    await sandbox.advance(a.secretKey, 32 * DAY);
    const renewed = await a.stripe.subscriptions.retrieve(sub.id, { expand: ['latest_invoice'] });
    expect((renewed.latest_invoice as Stripe.Invoice).amount_due).toBe(2000);
  });

  it('finds a promotion code by code and applies it (repeating, amount_off)', async () => {
    const a = await account();
    const { customer } = await customerWithCard(a, '4242424242424242');
    const price = await monthlyPrice(a, 2000);
    const coupon = await a.stripe.coupons.create({
      amount_off: 500,
      currency: 'usd',
      duration: 'repeating',
      duration_in_months: 2,
    });
    const promo = await a.stripe.promotionCodes.create({
      promotion: { type: 'coupon', coupon: coupon.id },
      code: 'SAVE5',
    });
    const found = await a.stripe.promotionCodes.list({ code: 'SAVE5', active: true });
    expect(found.data.map((p) => p.id)).toEqual([promo.id]);
    expect(found.data[0]?.promotion.coupon).toBe(coupon.id);
    const sub = await a.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      discounts: [{ promotion_code: promo.id }],
      expand: ['latest_invoice'],
    });
    expect((sub.latest_invoice as Stripe.Invoice).amount_due).toBe(1500);
    await sandbox.advance(a.secretKey, 31 * DAY);
    expect((await a.stripe.invoices.list({ subscription: sub.id })).data[0]?.amount_due).toBe(1500);
    await sandbox.advance(a.secretKey, 31 * DAY);
    expect((await a.stripe.invoices.list({ subscription: sub.id })).data[0]?.amount_due).toBe(2000);
    expect((await a.stripe.promotionCodes.retrieve(promo.id)).times_redeemed).toBe(1);
  });

  it('prorates a plan change with always_invoice and charges it at once', async () => {
    const a = await account();
    const { customer } = await customerWithCard(a, '4242424242424242');
    const basic = await monthlyPrice(a, 1000);
    const pro = await monthlyPrice(a, 3000);
    const sub = await a.stripe.subscriptions.create({ customer: customer.id, items: [{ price: basic.id }] });
    const item = sub.items.data[0] as Stripe.SubscriptionItem;
    const half = ((item.current_period_end - item.current_period_start) * 1000) / 2;
    await sandbox.advance(a.secretKey, half);
    const changed = await a.stripe.subscriptions.update(sub.id, {
      items: [{ id: item.id, price: pro.id }],
      proration_behavior: 'always_invoice',
      expand: ['latest_invoice'],
    });
    const inv = changed.latest_invoice as Stripe.Invoice;
    expect(inv.billing_reason).toBe('subscription_update');
    expect(inv.status).toBe('paid');
    // Half a month of the difference (2000): about 1000.
    expect(inv.amount_paid).toBeGreaterThan(950);
    expect(inv.amount_paid).toBeLessThan(1050);
    expect(inv.lines.data).toHaveLength(2);
    expect(changed.items.data[0]?.price.id).toBe(pro.id);
    expect(changed.items.data[0]?.current_period_end).toBe(item.current_period_end);

    // create_prorations: pending items on the next renewal invoice.
    await a.stripe.subscriptions.update(sub.id, {
      items: [{ id: item.id, price: basic.id }],
      proration_behavior: 'create_prorations',
    });
    await sandbox.advance(a.secretKey, half + DAY);
    const renewal = (await a.stripe.invoices.list({ subscription: sub.id, limit: 1 }))
      .data[0] as Stripe.Invoice;
    expect(renewal.billing_reason).toBe('subscription_cycle');
    expect(renewal.lines.data.length).toBe(3);
    expect(renewal.total).toBeLessThan(1000);
  });

  it('cancels at period end, and resumes when unset before', async () => {
    const a = await account();
    const { customer } = await customerWithCard(a, '4242424242424242');
    const price = await monthlyPrice(a);
    const sub = await a.stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] });
    const kept = await a.stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] });
    const set = await a.stripe.subscriptions.update(sub.id, { cancel_at_period_end: true });
    expect(set).toMatchObject({ cancel_at_period_end: true, status: 'active' });
    await a.stripe.subscriptions.update(kept.id, { cancel_at_period_end: true });
    await a.stripe.subscriptions.update(kept.id, { cancel_at_period_end: false });
    await sandbox.advance(a.secretKey, 32 * DAY);
    expect((await a.stripe.subscriptions.retrieve(sub.id)).status).toBe('canceled');
    expect((await a.stripe.subscriptions.retrieve(kept.id)).status).toBe('active');
    const deleted = (await events(a)).filter((e) => e.type === 'customer.subscription.deleted');
    expect(deleted.map((e) => (e.data.object as Stripe.Subscription).id)).toEqual([sub.id]);
    expect((await a.stripe.subscriptions.list({ customer: customer.id })).data.map((s) => s.id)).toEqual([
      kept.id,
    ]);
  });

  it('goes past_due when a renewal fails (0341), and active again once the invoice is paid', async () => {
    const a = await account();
    const { customer } = await customerWithCard(a, '4242424242424242');
    const price = await monthlyPrice(a);
    const sub = await a.stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] });
    expect(sub.status).toBe('active');
    const si = await a.stripe.setupIntents.create({ customer: customer.id });
    const bad = await confirmCard(a, si, card('4000000000000341'));
    await a.stripe.subscriptions.update(sub.id, { default_payment_method: bad.json().payment_method });
    await sandbox.advance(a.secretKey, 32 * DAY);
    const due = await a.stripe.subscriptions.retrieve(sub.id, { expand: ['latest_invoice'] });
    expect(due.status).toBe('past_due');
    const inv = due.latest_invoice as Stripe.Invoice;
    expect(inv).toMatchObject({ status: 'open', attempt_count: 1, billing_reason: 'subscription_cycle' });
    const types = (await events(a)).map((e) => e.type);
    expect(types).toContain('invoice.payment_failed');
    const pmGood = (await a.stripe.customers.retrieve(customer.id)) as Stripe.Customer;
    await a.stripe.invoices.pay(inv.id as string, {
      payment_method: pmGood.invoice_settings.default_payment_method as string,
    });
    expect((await a.stripe.subscriptions.retrieve(sub.id)).status).toBe('active');
  });

  it('ends a trial with trial_end now: charged at once, trial_will_end sent', async () => {
    const a = await account();
    const { customer } = await customerWithCard(a, '4242424242424242');
    const price = await monthlyPrice(a, 1200);
    const sub = await a.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      trial_period_days: 30,
      default_payment_method: 'pm_card_visa',
    });
    expect(sub.status).toBe('trialing');
    const ended = await a.stripe.subscriptions.update(sub.id, {
      trial_end: 'now',
      expand: ['latest_invoice'],
    });
    expect(ended.status).toBe('active');
    expect(ended.latest_invoice).toMatchObject({
      status: 'paid',
      amount_paid: 1200,
      billing_reason: 'subscription_update',
    });
    const listed = await a.stripe.subscriptions.list({
      customer: customer.id,
      expand: ['data.default_payment_method'],
    });
    expect((listed.data[0]?.default_payment_method as Stripe.PaymentMethod).card?.last4).toBe('4242');
    const types = (await events(a)).map((e) => e.type);
    expect(types).toContain('customer.subscription.trial_will_end');
  });

  it('cancels at once', async () => {
    const a = await account();
    const { customer } = await customerWithCard(a, '4242424242424242');
    const price = await monthlyPrice(a);
    const sub = await a.stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] });
    const canceled = await a.stripe.subscriptions.cancel(sub.id);
    expect(canceled.status).toBe('canceled');
    expect(canceled.ended_at).not.toBeNull();
  });
});

describe('webhooks, idempotency, concurrency, persistence', () => {
  it('signs deliveries so constructEvent accepts them, and refuses a tampered body', async () => {
    const a = await account();
    const c = await a.stripe.customers.create({ email: 'hook@example.com' });
    await sandbox.settle();
    const delivery = received.find((r) => r.url === a.url && JSON.parse(r.body).type === 'customer.created');
    expect(delivery).toBeDefined();
    const sig = delivery?.headers['stripe-signature'] ?? '';
    expect(sig).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const event = a.stripe.webhooks.constructEvent(delivery?.body ?? '', sig, a.secret);
    expect(event).toMatchObject({ type: 'customer.created', object: 'event', livemode: false });
    expect((event.data.object as Stripe.Customer).id).toBe(c.id);
    expect(event.id).toMatch(/^evt_/);
    expect(() =>
      a.stripe.webhooks.constructEvent((delivery?.body ?? '').replace('hook@', 'evil@'), sig, a.secret),
    ).toThrow();
    expect(sandbox.deliveries.some((d) => d.event_id === event.id && d.status === 200)).toBe(true);
    const before = received.length;
    await sandbox.resend(event.id);
    expect(received.length).toBe(before + 1);
  });

  it('answers the same Idempotency-Key with the same stored answer', async () => {
    const a = await account();
    const one = await a.stripe.customers.create({ email: 'idem@example.com' }, { idempotencyKey: 'k-1' });
    const two = await a.stripe.customers.create({ email: 'idem@example.com' }, { idempotencyKey: 'k-1' });
    expect(two.id).toBe(one.id);
    const other = await a.stripe.customers.create({ email: 'idem@example.com' }, { idempotencyKey: 'k-2' });
    expect(other.id).not.toBe(one.id);
    expect((await a.stripe.customers.list({ email: 'idem@example.com' })).data).toHaveLength(2);
    const misuse = await a.stripe.customers
      .create({ email: 'other@example.com' }, { idempotencyKey: 'k-1' })
      .catch((e: unknown) => e);
    expect(misuse).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it('loses no concurrent update', async () => {
    const a = await account();
    const customer = await a.stripe.customers.create({ email: 'conc@example.com' });
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        a.stripe.customers.update(customer.id, { metadata: { [`k${i}`]: String(i) } }),
      ),
    );
    const c = (await a.stripe.customers.retrieve(customer.id)) as Stripe.Customer;
    expect(Object.keys(c.metadata).sort()).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7']);
    await Promise.all(
      Array.from({ length: 6 }, () =>
        a.stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id }),
      ),
    );
    expect(
      (await a.stripe.customers.listPaymentMethods(customer.id, { type: 'card', limit: 100 })).data,
    ).toHaveLength(6);
  });

  it('charges a payment intent and deletes a customer', async () => {
    const a = await account();
    const customer = await a.stripe.customers.create({
      email: 'pi@example.com',
      payment_method: 'pm_card_visa',
    });
    const [pm] = (await a.stripe.paymentMethods.list({ customer: customer.id, type: 'card' })).data;
    const pi = await a.stripe.paymentIntents.create({
      amount: 4200,
      currency: 'usd',
      customer: customer.id,
      payment_method: pm?.id,
      off_session: true,
      confirm: true,
      description: 'Credits',
      metadata: { order: '7' },
    });
    expect(pi).toMatchObject({ status: 'succeeded', amount_received: 4200, metadata: { order: '7' } });
    expect((await a.stripe.paymentIntents.list({ customer: customer.id })).data.map((p) => p.id)).toEqual([
      pi.id,
    ]);
    const gone = await a.stripe.customers.del(customer.id);
    expect(gone).toMatchObject({ id: customer.id, deleted: true });
    expect(await a.stripe.customers.retrieve(customer.id)).toMatchObject({ deleted: true });
    const types = (await events(a)).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['payment_intent.succeeded', 'customer.deleted']));
  });

  it('pages lists with limit and starting_after', async () => {
    const a = await account();
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await a.stripe.products.create({ name: `P${i}` }));
    const first = await a.stripe.products.list({ limit: 2 });
    expect(first.data.map((p) => p.name)).toEqual(['P4', 'P3']);
    expect(first.has_more).toBe(true);
    const next = await a.stripe.products.list({ limit: 10, starting_after: first.data[1]?.id });
    expect(next.data.map((p) => p.name)).toEqual(['P2', 'P1', 'P0']);
    expect(next.has_more).toBe(false);
  });

  it('keeps its state and clock across a new createPayments on the same database', async () => {
    const a = await account();
    const c = await a.stripe.customers.create({ email: 'persist@example.com' });
    await sandbox.advance(a.secretKey, 10 * DAY);
    const second = createPayments({ db: t.db, sandbox: true, transport });
    try {
      const s = await second.client(a.secretKey);
      expect(((await s.customers.retrieve(c.id)) as Stripe.Customer).email).toBe('persist@example.com');
      const now = await second.sandbox?.now(a.secretKey);
      expect((now?.getTime() ?? 0) - Date.now()).toBeGreaterThan(10 * DAY - 60_000);
    } finally {
      await second.close();
    }
  });

  it('refuses sandbox keys when the sandbox is off, and gives real Stripe for real keys', async () => {
    const off = createPayments({ db: t.db, sandbox: false, transport });
    expect(off.sandbox).toBeNull();
    await expect(off.client('sk_test_sandbox_abc')).rejects.toThrow(
      'The Stripe sandbox is off (STRIPE_SANDBOX)',
    );
    expect(await off.client('sk_test_real123')).toBeInstanceOf(Stripe);
    await off.close();
  });
});

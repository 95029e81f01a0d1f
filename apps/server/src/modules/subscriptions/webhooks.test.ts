import Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import { rows, snapshot, useSuite } from '../../../test/helpers.ts';
import { agencySeller, sandboxStripe, settle } from '../../../test/stripe.ts';
import { platformSystemContext } from '../../platform/tenancy/context.ts';
import { webhookSecret } from './sellers.ts';

// Stripe's webhooks (issue 22, ADR 076): signed by the account's endpoint secret, handled once per event,
// re-read from Stripe so that duplicates and events out of order end in Stripe's state; and the clock: a
// failing renewal holds the account until it pays.

const c = useSuite({ sessions: true });
let planId: number;
let url: string;

const profile = async (token: string) => (await c.call(token, 'GET', '/v1/profile')).json().data.user;
const current = async (token: string) =>
  (await c.call(token, 'GET', '/v1/subscriptions/current')).json().data;

beforeAll(async () => {
  const a = c.seed.a.agency.id;
  await c.call(c.s.superAdmin.token, 'PUT', `/v1/agencies/${a}/stripe-setting`, { sandbox: true });
  const res = await c.call(c.s.a.agencyAdmin.token, 'POST', `/v1/agencies/${a}/subscription/plans`, {
    name: 'Monthly',
    price_cents: 5000,
    features: { Messages: 300, Calls: 30 },
  });
  planId = res.json().data.id;
  url = `/webhooks/stripe/agency/${a}`;
  const sub = await c.call(c.s.a.businessAdmin.token, 'POST', '/v1/subscriptions/subscribe', {
    plan_id: planId,
    paymentMethod: 'pm_card_visa',
  });
  expect(sub.statusCode, sub.body).toBe(200);
  await settle(c.t);
});

async function secret() {
  const s = await webhookSecret(
    platformSystemContext(c.t.app.deps, 'payments', 'test'),
    `agency:${c.seed.a.agency.id}`,
  );
  if (!s) throw new Error('no webhook endpoint registered');
  return s;
}

async function subscriptionId() {
  const [row] = await rows(
    c.t,
    `select subscription_id from subscriptions where account_kind = 'business' and account_id = $1`,
    [c.seed.a.business.id],
  );
  return row?.subscription_id as string;
}

/** An event as Stripe sends it, signed with `key` (the endpoint's secret unless told otherwise). */
function signed(event: object, key: string) {
  const payload = JSON.stringify(event);
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: key });
  return { payload, header };
}

const deliver = (payload: string, header?: string) =>
  c.t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...(header ? { 'stripe-signature': header } : {}) },
    payload,
  });

const event = (id: string, type: string, object: object) => ({
  id,
  object: 'event',
  type,
  created: Math.floor(Date.now() / 1000),
  api_version: '2026-10-28.endive',
  livemode: false,
  data: { object },
});

describe('stripe webhooks', () => {
  it('the sandbox delivered its events, signed, and they were handled once each', async () => {
    const seen = await rows(c.t, 'select type from stripe_events where stripe_account = $1', [
      `agency:${c.seed.a.agency.id}`,
    ]);
    expect(seen.map((r) => r.type)).toEqual(
      expect.arrayContaining(['customer.subscription.created', 'invoice.paid']),
    );
    const delivered = c.t.app.deps.payments.sandbox?.deliveries ?? [];
    expect(delivered.length).toBeGreaterThan(0);
    expect(delivered.every((d) => d.status === 200)).toBe(true);
  });

  it('refuses an unsigned or wrongly signed event and changes nothing', async () => {
    const TABLES = ['stripe_events', 'subscriptions', 'businesses'];
    const before = await snapshot(c.t.pool, TABLES);
    const body = event('evt_forged_1', 'customer.subscription.deleted', { id: await subscriptionId() });
    const unsigned = await deliver(JSON.stringify(body));
    expect(unsigned.statusCode).toBe(403);
    const wrong = signed(body, 'whsec_not_the_secret');
    expect((await deliver(wrong.payload, wrong.header)).statusCode).toBe(403);
    // Signed, then altered: refused too.
    const good = signed(body, await secret());
    expect((await deliver(good.payload.replace('deleted', 'updated'), good.header)).statusCode).toBe(403);
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });

  it('three concurrent deliveries of one event are handled once', async () => {
    const body = event('evt_concurrent_1', 'customer.subscription.updated', { id: await subscriptionId() });
    const { payload, header } = signed(body, await secret());
    const answers = await Promise.all([1, 2, 3].map(() => deliver(payload, header)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    const handled = await rows(c.t, 'select event_id from stripe_events where event_id = $1', [
      'evt_concurrent_1',
    ]);
    expect(handled).toHaveLength(1);
    expect((await current(c.s.a.businessAdmin.token)).status).toBe('active');
  });

  it("events out of order end in Stripe's state (each re-reads the subscription)", async () => {
    const stripe = await sandboxStripe(c.t, await agencySeller(c.t, c.seed.a.agency.id));
    const id = await subscriptionId();
    // Stripe: cancel at period end. Its 'updated' event is delivered after an older 'updated' that still
    // says it renews: the older one, handled last, must not undo the cancellation.
    const older = event('evt_old_state', 'customer.subscription.updated', {
      id,
      cancel_at_period_end: false,
    });
    await stripe.subscriptions.update(id, { cancel_at_period_end: true });
    const newer = event('evt_new_state', 'customer.subscription.updated', { id, cancel_at_period_end: true });
    const key = await secret();
    for (const e of [newer, older]) {
      const { payload, header } = signed(e, key);
      expect((await deliver(payload, header)).statusCode).toBe(200);
    }
    expect((await current(c.s.a.businessAdmin.token)).cancel_at_period_end).toBe(true);
    await stripe.subscriptions.update(id, { cancel_at_period_end: false });
    await settle(c.t);
    expect((await current(c.s.a.businessAdmin.token)).cancel_at_period_end).toBe(false);
  });
});

describe('the clock', () => {
  it('a failing renewal holds the account; paying releases it', async () => {
    const biz = c.s.a.businessAdmin.token;
    const seller = await agencySeller(c.t, c.seed.a.agency.id);
    // The card on file starts failing (Stripe's 4000 0000 0000 0341 attaches, then every charge fails).
    const failing = await c.call(biz, 'POST', '/v1/subscriptions/payment-methods', {
      paymentMethod: 'pm_card_chargeCustomerFail',
    });
    expect(failing.statusCode, failing.body).toBe(200);
    const bad = failing.json().data.find((p: { last4: string }) => p.last4 === '0341');
    expect((await c.call(biz, 'POST', `/v1/subscriptions/payment-methods/${bad.id}`)).statusCode).toBe(200);

    await c.t.app.deps.payments.sandbox?.advance(seller.secretKey, 32 * 24 * 3600 * 1000);
    await settle(c.t);
    const held = await current(biz);
    expect(held.status).toBe('past_due');
    expect(held.last_error).toBe('Your card was declined.');
    expect((await profile(biz)).stripe_active).toBe(false);

    // Paying: a good card made the default pays the open invoice.
    const good = await c.call(biz, 'POST', '/v1/subscriptions/payment-methods', {
      paymentMethod: 'pm_card_visa',
    });
    const card = good
      .json()
      .data.find((p: { last4: string; is_default: boolean }) => p.last4 === '4242' && !p.is_default);
    const paid = await c.call(biz, 'POST', `/v1/subscriptions/payment-methods/${card.id}`);
    expect(paid.statusCode, paid.body).toBe(200);
    await settle(c.t);
    const released = await current(biz);
    expect(released).toMatchObject({ status: 'active', last_error: null });
    expect((await profile(biz)).stripe_active).toBe(true);
    const invoices = (await c.call(biz, 'GET', '/v1/subscriptions/invoices')).json().data;
    expect(invoices.filter((i: { status: string }) => i.status === 'open')).toEqual([]);
  });
});

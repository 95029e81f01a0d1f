import {
  ZPaymentMethodsResponse,
  ZSetupSecretResponse,
  ZSubscriptionStateResponse,
} from '@stn/contracts/subscriptions';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addBusinessUser,
  expect403,
  expect422,
  expectRefused,
  fixtureCtx,
  login,
  rows,
  useSuite,
} from '../../../test/helpers.ts';
import { agencySeller, confirmCard, sandboxStripe, settle } from '../../../test/stripe.ts';
import { businesses } from '../businesses/tables.ts';

// Every call of the Subscriptions group (spec 001 §7), the business packages and the agency's gift of a
// package (issue 22, ADR 076), over the Stripe sandbox through the official SDK.

const c = useSuite({ sessions: true });
const TABLES = ['subscriptions', 'package_purchases', 'businesses', 'agencies'];
let plans: Record<string, number>;
let agencyPlan: number;
let pkg: number;
let bump: number;

async function plan(token: string, agencyId: number, body: object) {
  const res = await c.call(token, 'POST', `/v1/agencies/${agencyId}/subscription/plans`, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as number;
}

const state = async (token: string) => {
  const res = await c.call(token, 'GET', '/v1/subscriptions/current');
  expect(res.statusCode, res.body).toBe(200);
  return ZSubscriptionStateResponse.parse(res.json()).data;
};
const profile = async (token: string) => (await c.call(token, 'GET', '/v1/profile')).json().data.user;

beforeAll(async () => {
  const a = c.seed.a.agency.id;
  // Agency A takes cards on a Stripe sandbox account of its own.
  const set = await c.call(c.s.superAdmin.token, 'PUT', `/v1/agencies/${a}/stripe-setting`, {
    sandbox: true,
  });
  expect(set.statusCode, set.body).toBe(200);
  const admin = c.s.a.agencyAdmin.token;
  plans = {
    starter: await plan(admin, a, {
      name: 'Starter',
      price_cents: 2900,
      features: { Messages: 500, Calls: 50, Users: 2 },
    }),
    pro: await plan(admin, a, {
      name: 'Pro',
      price_cents: 9900,
      features: { Messages: 2000, Calls: 200, Users: 5 },
    }),
    yearly: await plan(admin, a, { name: 'Yearly', interval: 'year', price_cents: 29000 }),
    unlimited: await plan(admin, a, {
      name: 'Unlimited',
      price_cents: 19900,
      features: { Messages: 0, Calls: 0 },
    }),
    hidden: await plan(admin, a, { name: 'Secret', price_cents: 100, features: { Visible: false } }),
    trial: await plan(admin, a, { name: 'Trial Plan', price_cents: 4900, trial_days: 14 }),
  };
  // The platform sells the main agency's plans of type 'agency' to agencies.
  agencyPlan = await plan(c.s.superAdmin.token, c.seed.main.id, {
    name: 'Agency Growth',
    type: 'agency',
    price_cents: 29700,
    features: { Installs: 25, Zapier: true },
  });
  const p = await c.call(admin, 'POST', '/v1/packages', {
    name: '1000 texts',
    kind: 'messages',
    quantity: 1000,
    price_cents: 1000,
  });
  expect(p.statusCode, p.body).toBe(200);
  pkg = p.json().data.id;
  // An order bump the platform sells agencies: 10 more installs.
  const mainAdmin = await mainAgencyAdmin();
  const b = await c.call(mainAdmin, 'POST', '/v1/packages', {
    name: '10 installs',
    kind: 'installs',
    quantity: 10,
    price_cents: 4900,
    order_bump: true,
  });
  expect(b.statusCode, b.body).toBe(200);
  bump = b.json().data.id;
});

async function mainAgencyAdmin() {
  const { createUser } = await import('../users/service.ts');
  await createUser(fixtureCtx(c.t.db), {
    email: 'owner@main.test',
    password: 'correct-horse-1',
    role: 'AgencyAdmin',
    agencyId: c.seed.main.id,
    firstName: 'Owner',
  });
  return login(c.t.app, 'owner@main.test');
}

describe('plans for sale', () => {
  it("lists the seller's visible plans, cheapest first, by period and by name", async () => {
    const biz = c.s.a.businessAdmin.token;
    const all = (await c.call(biz, 'GET', '/v1/subscriptions/plans')).json().data as {
      name: string;
      unlimited: boolean;
    }[];
    expect(all.map((p) => p.name)).toEqual(['Starter', 'Trial Plan', 'Pro', 'Unlimited', 'Yearly']);
    expect(all.find((p) => p.name === 'Unlimited')?.unlimited).toBe(true);
    const yearly = (await c.call(biz, 'GET', '/v1/subscriptions/type/year/plans')).json().data;
    expect(yearly.map((p: { name: string }) => p.name)).toEqual(['Yearly']);
    const one = await c.call(biz, 'GET', '/v1/subscriptions/plans/pro?restrict=1');
    expect(one.json().data).toMatchObject({ id: plans.pro, price_cents: 9900, interval: 'month' });
    expect((await c.call(biz, 'GET', '/v1/subscriptions/plans/Secret?restrict=1')).statusCode).toBe(404);
    expect((await c.call(biz, 'GET', '/v1/subscriptions/type/week/plans')).statusCode).toBe(422);
    // An agency sees what the platform sells it.
    const forAgency = (await c.call(c.s.a.agencyAdmin.token, 'GET', '/v1/subscriptions/plans')).json().data;
    expect(forAgency.map((p: { name: string }) => p.name)).toEqual(['Agency Growth']);
  });

  it('an agency without card payments sells nothing: no plans, and subscribing says why', async () => {
    const biz = c.s.b.businessAdmin.token;
    expect((await c.call(biz, 'GET', '/v1/subscriptions/plans')).json().data).toEqual([]);
    expect((await state(biz)).can_buy).toBe(false);
    const res = await expectRefused(
      c.t,
      TABLES,
      biz,
      'POST',
      '/v1/subscriptions/subscribe',
      { plan_id: plans.starter },
      422,
    );
    expect(res.errors.plan_id[0]).toBe(
      'Plans cannot be bought online here: the seller has no card payments set up.',
    );
  });

  it('refuses those who may not manage subscriptions, and a plan of another seller', async () => {
    await expect403(c.t, TABLES, c.s.a.businessUser.token, 'GET', '/v1/subscriptions/plans');
    await expect403(c.t, TABLES, c.s.a.marketingManager.token, 'POST', '/v1/subscriptions/subscribe', {
      plan_id: plans.pro,
    });
    await expect403(c.t, TABLES, c.s.a.businessUser.token, 'GET', '/v1/subscriptions/payment-methods');
    const res = await expectRefused(
      c.t,
      TABLES,
      c.s.a.businessAdmin.token,
      'POST',
      '/v1/subscriptions/subscribe',
      { plan_id: agencyPlan, paymentMethod: 'pm_card_visa' },
      422,
    );
    expect(res.errors.plan_id[0]).toBe('This plan is not available.');
  });
});

describe('cards', () => {
  it('a card goes through a setup intent and the sandbox card form, then is saved as the default', async () => {
    const biz = c.s.a.businessAdmin.token;
    const secret = ZSetupSecretResponse.parse(
      (await c.call(biz, 'GET', '/v1/subscriptions/secret')).json(),
    ).data;
    expect(secret.sandbox).toBe(true);
    expect(secret.publishable_key).toMatch(/^pk_test_sandbox_/);
    const pm = await confirmCard(c.t.app, secret, '4242 4242 4242 4242');
    expect(pm.status).toBe(200);
    // The card form attached the card: Stripe's `payment_method.attached` reaches us, often before the
    // form's save does. Waited for, so that the save comes after it: still the first card, the default.
    await expect.poll(async () => (await profile(biz)).has_payment_method, { timeout: 15_000 }).toBe(true);
    const saved = await c.call(biz, 'POST', '/v1/subscriptions/payment-methods', {
      paymentMethod: pm.paymentMethod,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const list = ZPaymentMethodsResponse.parse(saved.json()).data;
    expect(list).toEqual([expect.objectContaining({ brand: 'visa', last4: '4242', is_default: true })]);
    expect((await profile(biz)).has_payment_method).toBe(true);
  });

  it('a declined card is refused by the card form with Stripe’s message and saves nothing', async () => {
    const biz = c.s.a.businessAdmin.token;
    const secret = (await c.call(biz, 'GET', '/v1/subscriptions/secret')).json().data;
    const res = await confirmCard(c.t.app, secret, '4000 0000 0000 0002');
    expect(res.status).toBe(402);
    expect(res.message).toBe('Your card was declined.');
    const list = (await c.call(biz, 'GET', '/v1/subscriptions/payment-methods')).json().data;
    expect(list).toHaveLength(1);
  });

  it('adds a second card, makes it the default, removes the other; the only card of a live plan stays', async () => {
    const biz = c.s.a.businessAdmin.token;
    const added = (
      await c.call(biz, 'POST', '/v1/subscriptions/payment-methods', { paymentMethod: 'pm_card_visa' })
    ).json().data;
    expect(added).toHaveLength(2);
    const second = added.find((p: { is_default: boolean }) => !p.is_default);
    const made = await c.call(biz, 'POST', `/v1/subscriptions/payment-methods/${second.id}`);
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().data[0]).toMatchObject({ id: second.id, is_default: true });
    const first = made.json().data[1];
    const removed = await c.call(biz, 'DELETE', `/v1/subscriptions/payment-methods/${first.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().data.map((p: { id: string }) => p.id)).toEqual([second.id]);
    expect((await c.call(biz, 'DELETE', '/v1/subscriptions/payment-methods/pm_nope')).statusCode).toBe(404);
    expect422(
      await c.call(biz, 'POST', '/v1/subscriptions/payment-methods', {}),
      'paymentMethod',
      'The card field is required',
    );
  });
});

describe('subscribing', () => {
  it('a declined card changes nothing and nothing is charged', async () => {
    const biz = c.s.a.businessAdmin.token;
    const before = await state(biz);
    const res = await c.call(biz, 'POST', '/v1/subscriptions/subscribe', {
      plan_id: plans.starter,
      paymentMethod: 'pm_card_chargeDeclined',
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toBe('Your card was declined.');
    expect(await state(biz)).toEqual(before);
    const invoices = (await c.call(biz, 'GET', '/v1/subscriptions/invoices')).json().data;
    expect(invoices.filter((i: { amount_paid_cents: number }) => i.amount_paid_cents > 0)).toEqual([]);
  });

  it('subscribes: active, the plan’s limits applied, an invoice paid, the profile lets it in', async () => {
    const biz = c.s.a.businessAdmin.token;
    expect((await profile(biz)).stripe_active).toBe(false);
    const res = await c.call(biz, 'POST', '/v1/subscriptions/subscribe', { plan_id: plans.starter });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Your plan is active.',
      data: { status: 'active', plan: { id: plans.starter }, cancel_at_period_end: false },
      user: { id: c.s.a.businessAdmin.id, stripe_active: true, subscribed: true },
    });
    const [b] = await rows(
      c.t,
      'select messages, calls, number_of_users, subscription_plan_id from businesses where id = $1',
      [c.seed.a.business.id],
    );
    expect(b).toEqual({ messages: 500, calls: 50, number_of_users: 2, subscription_plan_id: plans.starter });
    const invoices = (await c.call(biz, 'GET', '/v1/subscriptions/invoices')).json().data;
    expect(invoices[0]).toMatchObject({ status: 'paid', amount_paid_cents: 2900 });
  });

  it('a coupon: its discounted price, an unknown code refused, applied to the live plan', async () => {
    const biz = c.s.a.businessAdmin.token;
    const stripe = await sandboxStripe(c.t, await agencySeller(c.t, c.seed.a.agency.id));
    await stripe.coupons.create({ id: 'SAVE20', percent_off: 20, duration: 'forever', name: '20% off' });
    await stripe.promotionCodes.create({ code: 'SPRING', promotion: { type: 'coupon', coupon: 'SAVE20' } });
    const info = await c.call(biz, 'POST', '/v1/subscriptions/coupon-info', {
      code: 'SPRING',
      plan_id: plans.pro,
    });
    expect(info.statusCode, info.body).toBe(200);
    expect(info.json().data).toMatchObject({
      code: 'SPRING',
      percent_off: 20,
      price_cents: 9900,
      discounted_cents: 7920,
    });
    expect422(
      await c.call(biz, 'POST', '/v1/subscriptions/coupon-info', { code: 'NOPE' }),
      'code',
      'This coupon code is not valid.',
    );
    const applied = await c.call(biz, 'POST', '/v1/subscriptions/coupon/apply', { code: 'SPRING' });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json().data.coupon).toMatchObject({ percent_off: 20 });
  });

  it('changes plan with proration, then cancels at period end and resumes', async () => {
    const biz = c.s.a.businessAdmin.token;
    const res = await c.call(biz, 'POST', `/v1/subscriptions/${plans.pro}/subscribe`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'active', plan: { id: plans.pro } });
    const [b] = await rows(c.t, 'select messages, calls from businesses where id = $1', [
      c.seed.a.business.id,
    ]);
    expect(b).toEqual({ messages: 2000, calls: 200 });
    const invoices = (await c.call(biz, 'GET', '/v1/subscriptions/invoices')).json().data;
    expect(invoices.length).toBeGreaterThanOrEqual(2);

    const me = c.s.a.businessAdmin.id;
    const cancel = await c.call(biz, 'POST', `/v1/subscriptions/${me}/cancel`);
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().data).toMatchObject({ status: 'active', cancel_at_period_end: true });
    // Another account's user: 404, nothing changed.
    await expectRefused(
      c.t,
      TABLES,
      biz,
      'POST',
      `/v1/subscriptions/${c.seed.b.businessAdmin.id}/cancel`,
      undefined,
      404,
    );
    const resume = await c.call(biz, 'POST', `/v1/subscriptions/${me}/resume`);
    expect(resume.json().data).toMatchObject({ status: 'active', cancel_at_period_end: false });
    // Its agency may cancel it too; another agency may not.
    await expectRefused(
      c.t,
      TABLES,
      c.s.b.agencyAdmin.token,
      'POST',
      `/v1/subscriptions/${me}/cancel`,
      undefined,
      404,
    );
    const byAgency = await c.call(c.s.a.agencyAdmin.token, 'POST', `/v1/subscriptions/${me}/cancel`);
    expect(byAgency.json().data.cancel_at_period_end).toBe(true);
    await c.call(biz, 'POST', `/v1/subscriptions/${me}/resume`);
  });

  it('moves to the unlimited plan', async () => {
    const biz = c.s.a.businessAdmin.token;
    const res = await c.call(biz, 'POST', '/v1/subscriptions/unlimited-plan', { planType: 'month' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.plan).toMatchObject({ id: plans.unlimited, unlimited: true });
    const [b] = await rows(c.t, 'select messages, calls from businesses where id = $1', [
      c.seed.a.business.id,
    ]);
    expect(b).toEqual({ messages: 0, calls: 0 });
    expect(
      (await c.call(biz, 'POST', '/v1/subscriptions/unlimited-plan', { planType: 'year' })).statusCode,
    ).toBe(404);
  });

  it('the only card of a live subscription cannot be removed', async () => {
    const biz = c.s.a.businessAdmin.token;
    const [card] = (await c.call(biz, 'GET', '/v1/subscriptions/payment-methods')).json().data;
    const res = await expectRefused(
      c.t,
      TABLES,
      biz,
      'DELETE',
      `/v1/subscriptions/payment-methods/${card.id}`,
      undefined,
      422,
    );
    expect(res.message).toBe(
      'This is the only card of your subscription: add another card before removing it.',
    );
  });

  it('a first subscription with a trial needs no card: trialing, the Trial tag', async () => {
    const [b2] = await c.t.db
      .insert(businesses)
      .values({ agency_id: c.seed.a.agency.id, name: 'Trial Co' })
      .returning();
    const owner = await addBusinessUser(c.t, b2?.id ?? 0, 'trial@a.test', '1');
    await c.t.pool.query(`update users set role = 'BusinessAdmin', user_type = null where id = $1`, [
      owner.id,
    ]);
    const token = await login(c.t.app, 'trial@a.test');
    const res = await c.call(token, 'POST', '/v1/subscriptions/subscribe', { plan_id: plans.trial });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.status).toBe('trialing');
    expect(res.json().data.trial_end).not.toBeNull();
    expect(res.json().user).toMatchObject({ stripe_active: true, business: { is_on_trial: true } });
    // A paid plan without a trial and without a card: add a card first.
    const other = await c.call(token, 'POST', `/v1/subscriptions/${plans.pro}/subscribe`, {});
    expect(other.statusCode).toBe(422);
    expect(other.json().message).toBe('Add a card first.');
  });

  it('an agency subscribes to the platform: its installs and Zapier follow the plan', async () => {
    const admin = c.s.a.agencyAdmin.token;
    const res = await c.call(admin, 'POST', '/v1/subscriptions/subscribe', {
      plan_id: agencyPlan,
      paymentMethod: 'pm_card_visa',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ data: { status: 'active' }, user: { stripe_active: true } });
    const [a] = await rows(
      c.t,
      `select properties->>'installs' as installs, zapier_enabled from agencies where id = $1`,
      [c.seed.a.agency.id],
    );
    expect(a).toEqual({ installs: '25', zapier_enabled: true });
    // An order bump the platform offers agencies: its installs are added.
    const bought = await c.call(admin, 'POST', '/v1/subscriptions/order-bump', { package_id: bump });
    expect(bought.statusCode, bought.body).toBe(200);
    const [after] = await rows(
      c.t,
      `select properties->>'installs' as installs from agencies where id = $1`,
      [c.seed.a.agency.id],
    );
    expect(after?.installs).toBe('35');
    // A package that is not an order bump is not sold that way.
    const notBump = await c.call(admin, 'POST', '/v1/subscriptions/order-bump', { package_id: pkg });
    expect(notBump.statusCode).toBe(422);
  });
});

describe('packages', () => {
  it('a business buys a package once: its credits join the monthly cap at once', async () => {
    const biz = c.s.a.businessAdmin.token;
    // Back on a capped plan, so that the credits show on a cap.
    await c.call(biz, 'POST', `/v1/subscriptions/${plans.pro}/subscribe`, {});
    const list = (await c.call(biz, 'GET', '/v1/businesses/packages')).json().data;
    expect(list.packages.map((p: { id: number }) => p.id)).toContain(pkg);
    const res = await c.call(biz, 'POST', '/v1/businesses/purchase-package', { package_id: pkg });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      data: { source: 'card', quantity: 1000, price_cents: 1000 },
      user: { business: { messages: 3000 } },
    });
    const after = (await c.call(biz, 'GET', '/v1/businesses/packages')).json().data;
    expect(after.purchases[0]).toMatchObject({ package_id: pkg, source: 'card' });
    expect422(
      await c.call(biz, 'POST', '/v1/businesses/purchase-package', { package_id: 999999 }),
      'package_id',
      'This package is not available.',
    );
  });

  it('the agency gives a package to its business, without a charge; another agency cannot', async () => {
    const url = `/v1/business/${c.seed.a.business.id}/add-package`;
    await expectRefused(c.t, TABLES, c.s.b.agencyAdmin.token, 'POST', url, { package_id: pkg }, 404);
    const res = await c.call(c.s.a.agencyAdmin.token, 'POST', url, { package_id: pkg });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ source: 'agency', price_cents: 0 });
    const [b] = await rows(c.t, 'select messages from businesses where id = $1', [c.seed.a.business.id]);
    expect(b?.messages).toBe(4000);
  });
});

describe('order pages', () => {
  it('a setup intent for a site: the platform on the main domain, the agency on its own', async () => {
    const main = await c.api.post(null, `/api/v1/subscriptions/secret/${c.t.config.mainDomain}`);
    expect(main.statusCode, main.body).toBe(200);
    expect(main.json().data.publishable_key).toBe('pk_test_sandbox_platform');
    const a = await c.api.post(null, '/api/v1/subscriptions/secret/calls-a.example.com');
    expect(a.json().data.publishable_key).toMatch(/^pk_test_sandbox_/);
    expect(a.json().data.publishable_key).not.toBe('pk_test_sandbox_platform');
    expect((await c.api.post(null, '/api/v1/subscriptions/secret/nowhere.example.org')).statusCode).toBe(404);
    // Agency B takes no cards: its order pages cannot take one.
    expect((await c.api.post(null, '/api/v1/subscriptions/secret/calls-b.example.com')).statusCode).toBe(422);
    const info = await c.api.post(null, '/api/v1/subscriptions/coupon-info', {
      code: 'SPRING',
      plan_id: plans.pro,
      domain: 'calls-a.example.com',
    });
    expect(info.json().data.discounted_cents).toBe(7920);
    await settle(c.t);
  });
});

describe("an agency's coupons", () => {
  it('makes a code on its own Stripe account, refuses a taken or malformed one, switches it off', async () => {
    const a = c.seed.a.agency.id;
    const url = `/v1/agencies/${a}/subscription/coupons`;
    const admin = c.s.a.agencyAdmin.token;
    const made = await c.call(admin, 'POST', url, {
      code: 'WELCOME10',
      percent_off: 10,
      duration: 'repeating',
      duration_in_months: 3,
    });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json()).toMatchObject({
      message: 'Coupon created.',
      data: {
        code: 'WELCOME10',
        percent_off: 10,
        duration: 'repeating',
        duration_in_months: 3,
        active: true,
      },
    });
    expect422(
      await c.call(admin, 'POST', url, { code: 'WELCOME10', percent_off: 5 }),
      'code',
      'This code is taken.',
    );
    expect422(
      await c.call(admin, 'POST', url, { code: 'BOTH', percent_off: 5, amount_off_cents: 500 }),
      'percent_off',
      'Give a percent off or an amount off (one of them).',
    );
    expect422(
      await c.call(admin, 'POST', url, { code: 'no spaces', percent_off: 5 }),
      'code',
      'The code is 3 to 40 letters, digits, - or _.',
    );
    const fixed = await c.call(admin, 'POST', url, {
      code: 'TENOFF',
      amount_off_cents: 1000,
      duration: 'once',
    });
    expect(fixed.json().data).toMatchObject({ amount_off_cents: 1000, percent_off: null });
    const list = (await c.call(c.s.a.financeManager.token, 'GET', url)).json().data;
    expect(list.map((x: { code: string }) => x.code)).toEqual(
      expect.arrayContaining(['WELCOME10', 'TENOFF']),
    );
    // Its businesses can use it.
    const info = await c.call(c.s.a.businessAdmin.token, 'POST', '/v1/subscriptions/coupon-info', {
      code: 'TENOFF',
      plan_id: plans.pro,
    });
    expect(info.json().data.discounted_cents).toBe(8900);
    const off = await c.call(admin, 'DELETE', `${url}/TENOFF`);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().data.active).toBe(false);
    expect422(
      await c.call(c.s.a.businessAdmin.token, 'POST', '/v1/subscriptions/coupon-info', { code: 'TENOFF' }),
      'code',
      'This coupon code is not valid.',
    );
    // A coupon whose id is its code (made in Stripe's dashboard): switched off, the id does not stand in.
    const stripe = await sandboxStripe(c.t, await agencySeller(c.t, a));
    await stripe.coupons.create({ id: 'LEGACY5', percent_off: 5, duration: 'forever' });
    await stripe.promotionCodes.create({ code: 'LEGACY5', promotion: { type: 'coupon', coupon: 'LEGACY5' } });
    expect((await c.call(admin, 'DELETE', `${url}/LEGACY5`)).statusCode).toBe(200);
    expect422(
      await c.call(c.s.a.businessAdmin.token, 'POST', '/v1/subscriptions/coupon-info', { code: 'LEGACY5' }),
      'code',
      'This coupon code is not valid.',
    );
    // Another agency's coupons are not there; one without card payments has none; a business may not.
    await expectRefused(c.t, TABLES, c.s.b.agencyAdmin.token, 'GET', url, undefined, 404);
    expect(
      (
        await c.call(
          c.s.b.agencyAdmin.token,
          'GET',
          `/v1/agencies/${c.seed.b.agency.id}/subscription/coupons`,
        )
      ).json().data,
    ).toEqual([]);
    await expect403(c.t, TABLES, c.s.a.businessAdmin.token, 'POST', url, { code: 'NOPE1', percent_off: 5 });
  });
});

// The order pages' API (issue 22): agency and business sign-ups (success, every 422, a declined card that
// leaves nothing behind, the wrong site), order page and product data, discounts, order bumps, and the
// agency popup's visitors and their charge. Against the Stripe sandbox with its test payment methods.
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, expect422, PASSWORD, rows, snapshot, useSuite } from '../../../test/helpers.ts';
import {
  ACCOUNT_TABLES,
  agencyForm,
  businessForm,
  expectDecline,
  HOST_A,
  HOST_B,
  MAIN,
  onHost,
  type Plans,
  seedOrders,
} from './test-fixtures.ts';
import { enableCardPayments } from './test-stripe.ts';

const c = useSuite({ env: { MAIN_DOMAIN: MAIN } });
let plans: Plans;
let h: ReturnType<typeof onHost>;

beforeAll(async () => {
  plans = await seedOrders(c);
  h = onHost(c.t);
  await enableCardPayments(c, c.seed.a.agency.id);
});

const REGISTER = '/api/v1/register/agency';
const BUSINESS = '/api/v1/business/order';

describe('POST /v1/register/agency', () => {
  it('makes the agency and its AgencyAdmin, subscribes it with a trial, and signs the owner in', async () => {
    const form = agencyForm(plans.agencyPlan, { trial: true });
    const res = await h.post(MAIN, REGISTER, form);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, role_group: 'Agency', token_type: 'Bearer' });
    expect(body.data).toMatchObject({ status: 'trialing' });
    expect(body.data.plan.id).toBe(plans.agencyPlan);
    // The plan has no trial days of its own: /trial gives 14.
    const trialDays = (Date.parse(body.data.trial_end) - Date.now()) / 86_400_000;
    expect(trialDays).toBeGreaterThan(13.9);
    expect(trialDays).toBeLessThan(14.1);

    const [agency] = await rows(c.t, 'select * from agencies where subdomain = $1', [form.subdomain]);
    expect(agency).toMatchObject({ name: form.company_name, free_fee: false, email: form.email });
    expect(agency.settings.signup).toMatchObject({
      industry: 3,
      businesses_count: 12,
      goals: 'Sell to 50 dentists',
      people_count: 4,
      contacts_count: 2000,
      departments: 'Sales, Support',
    });
    const [user] = await rows(c.t, 'select * from users where email = $1', [form.email]);
    expect(user).toMatchObject({
      role: 'AgencyAdmin',
      agency_id: agency.id,
      first_name: 'Olivia',
      last_name: 'Owner',
    });

    // Signed in: the token is a session of the new owner; the agency has no telephony yet (Setup).
    const profile = await c.t.app.inject({
      method: 'GET',
      url: '/api/v1/profile',
      headers: bearer(body.access_token),
    });
    expect(profile.statusCode, profile.body).toBe(200);
    expect(profile.json().data.user ?? profile.json().data).toMatchObject({ email: form.email });
    // The new owner can sign in with the chosen password.
    const login = await h.post(MAIN, '/api/v1/login', { email: form.email, password: form.password });
    expect(login.statusCode).toBe(200);
  });

  it("keeps the plan's own trial days on /trial, and none without trial", async () => {
    const res = await h.post(MAIN, REGISTER, agencyForm(plans.agencyTrialPlan, { trial: true }));
    expect(res.statusCode, res.body).toBe(200);
    const days = (Date.parse(res.json().data.trial_end) - Date.now()) / 86_400_000;
    expect(Math.round(days)).toBe(7);
    const paid = await h.post(MAIN, REGISTER, agencyForm(plans.agencyPlan));
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().data.status).toBe('active');
  });

  it('claims a custom domain beside the subdomain', async () => {
    const form = agencyForm(plans.agencyPlan, { domain: 'Calls.NewAgency.com' });
    const res = await h.post(MAIN, REGISTER, form);
    expect(res.statusCode, res.body).toBe(200);
    const [agency] = await rows(c.t, 'select domain, subdomain from agencies where subdomain = $1', [
      form.subdomain,
    ]);
    expect(agency).toEqual({ domain: 'calls.newagency.com', subdomain: form.subdomain });
  });

  it('answers 422 for each field of the form, writing nothing', async () => {
    const before = await snapshot(c.t.pool, ACCOUNT_TABLES);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ email: '' }, 'email', 'The email field is required'],
      [{ email: 'not-an-email' }, 'email', 'The email must be a valid email address.'],
      [{ email: c.seed.a.agencyAdmin.email }, 'email', 'The email has already been taken.'],
      [
        { password_confirmation: 'other-horse-2' },
        'password_confirmation',
        'Password confirmation does not match',
      ],
      [{ full_name: '' }, 'full_name', 'The full name field is required'],
      [{ company_name: '' }, 'company_name', 'The company name field is required'],
      [{ phone: '12' }, 'phone', 'Wrong phone number format!!'],
      [{ subdomain: 'Bad_Sub' }, 'subdomain', 'SubDomain format is invalid.'],
      [{ subdomain: 'agency-a' }, 'subdomain', 'The domain has already been taken.'],
      [{ domain: 'http://x.com' }, 'domain', 'Custom URL format is invalid.'],
      [{ domain: 'calls-a.example.com' }, 'domain', 'The domain has already been taken.'],
      [{ plan_id: plans.businessPlanA }, 'plan_id', 'The selected plan id is invalid.'],
      [{ plan_id: plans.hiddenAgencyPlan }, 'plan_id', 'The selected plan id is invalid.'],
      [{ paymentMethod: '' }, 'paymentMethod', ''],
    ];
    for (const [over, field, message] of cases) {
      const res = await h.post(MAIN, REGISTER, agencyForm(plans.agencyPlan, over));
      if (message) expect422(res, field, message);
      else {
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json().errors[field], res.body).toBeDefined();
      }
    }
    for (const industry of [0, 8]) {
      const res = await h.post(MAIN, REGISTER, agencyForm(plans.agencyPlan, { industry }));
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors.industry).toBeDefined();
    }
    expect(await snapshot(c.t.pool, ACCOUNT_TABLES)).toEqual(before);
  });

  it("a declined card answers Stripe's message and leaves no agency, user or session behind", async () => {
    const before = await snapshot(c.t.pool, ACCOUNT_TABLES);
    const form = agencyForm(plans.agencyPlan, { paymentMethod: 'pm_card_chargeDeclined' });
    expectDecline(await h.post(MAIN, REGISTER, form));
    expect(await snapshot(c.t.pool, ACCOUNT_TABLES)).toEqual(before);
    // The same e-mail and subdomain are free for the next try.
    const again = await h.post(MAIN, REGISTER, { ...form, paymentMethod: 'pm_card_visa' });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('is only on the main domain: 404 on an agency site or an unknown host', async () => {
    for (const host of [HOST_A, 'calls-b.example.com', 'nobody.example.org']) {
      const res = await h.post(host, REGISTER, agencyForm(plans.agencyPlan));
      expect(res.statusCode, `${host}: ${res.body}`).toBe(404);
    }
  });
});

describe('POST /v1/business/order', () => {
  it("makes the business and its BusinessAdmin on the agency's site, subscribed, signed in", async () => {
    const form = businessForm(plans.businessPlanA);
    const res = await h.post(HOST_A, BUSINESS, form);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, role_group: 'Business' });
    expect(res.json().data.plan.id).toBe(plans.businessPlanA);
    const [user] = await rows(c.t, 'select * from users where email = $1', [form.email]);
    expect(user.role).toBe('BusinessAdmin');
    const [biz] = await rows(c.t, 'select * from businesses where id = $1', [user.business_id]);
    expect(biz).toMatchObject({
      agency_id: c.seed.a.agency.id,
      name: form.business_name,
      owner_id: user.id,
      subscription_plan_id: plans.businessPlanA,
    });
    const profile = await c.t.app.inject({
      method: 'GET',
      url: '/api/v1/profile',
      headers: bearer(res.json().access_token),
    });
    expect(profile.statusCode).toBe(200);
  });

  it("answers 422 for the form, another agency's plan and a taken e-mail, writing nothing", async () => {
    const before = await snapshot(c.t.pool, ACCOUNT_TABLES);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ email: '' }, 'email', 'The email field is required'],
      [{ email: c.seed.b.businessAdmin.email }, 'email', 'The email has already been taken.'],
      [{ password: 'short' }, 'password', ''],
      [
        { password_confirmation: 'nope-nope-1' },
        'password_confirmation',
        'Password confirmation does not match',
      ],
      [{ full_name: ' ' }, 'full_name', 'The full name field is required'],
      [{ business_name: '' }, 'business_name', 'The business name field is required'],
      [{ phone: 'abc' }, 'phone', 'Wrong phone number format!!'],
      [{ plan_id: plans.businessPlanB }, 'plan_id', 'The selected plan id is invalid.'],
      [{ plan_id: plans.agencyPlan }, 'plan_id', 'The selected plan id is invalid.'],
    ];
    for (const [over, field, message] of cases) {
      const res = await h.post(HOST_A, BUSINESS, businessForm(plans.businessPlanA, over));
      if (message) expect422(res, field, message);
      else {
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json().errors[field], res.body).toBeDefined();
      }
    }
    expect(await snapshot(c.t.pool, ACCOUNT_TABLES)).toEqual(before);
  });

  it('a declined card leaves no business or user behind', async () => {
    const before = await snapshot(c.t.pool, ACCOUNT_TABLES);
    expectDecline(
      await h.post(
        HOST_A,
        BUSINESS,
        businessForm(plans.businessPlanA, { paymentMethod: 'pm_card_chargeDeclined' }),
      ),
    );
    expect(await snapshot(c.t.pool, ACCOUNT_TABLES)).toEqual(before);
  });

  it('an agency without card payments does not sell online: 422', async () => {
    const before = await snapshot(c.t.pool, ACCOUNT_TABLES);
    const res = await h.post(HOST_B, BUSINESS, businessForm(plans.businessPlanB));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toBe('This agency does not sell online. Please contact it to sign up.');
    expect(await snapshot(c.t.pool, ACCOUNT_TABLES)).toEqual(before);
  });

  it('an unknown site: 404', async () => {
    const res = await h.post('nobody.example.org', BUSINESS, businessForm(plans.businessPlanA));
    expect(res.statusCode).toBe(404);
  });
});

describe('order page data, products and discounts', () => {
  it('GET /v1/order-page/plans: the seller of the host, its visible plans and order bumps', async () => {
    const main = await h.get(MAIN, '/api/v1/order-page/plans');
    expect(main.statusCode, main.body).toBe(200);
    const d = main.json().data;
    expect(d.buyer).toBe('agency');
    expect(d.plans.map((p: { id: number }) => p.id).sort()).toEqual(
      [plans.agencyPlan, plans.agencyTrialPlan].sort(),
    );
    expect(d.order_bumps.map((b: { id: number }) => b.id)).toEqual([plans.bumpMain]);
    expect(d.site.title).toBe('Main Site');
    const a = (await h.get(MAIN, `/api/v1/order-page/plans?domain=${HOST_A}`)).json().data;
    expect(a).toMatchObject({ buyer: 'business', seller_name: 'Agency A' });
    expect(a.plans.map((p: { id: number }) => p.id)).toEqual([plans.businessPlanA]);
    expect(a.order_bumps.map((b: { id: number }) => b.id)).toEqual([plans.bumpA]);
    expect(a.site).toMatchObject({ title: 'Agency A Calls', headerLogo: 'https://cdn.example.com/a.png' });
  });

  it("GET /v1/order-page/{id}: one offered plan; another seller's or a hidden plan is 404", async () => {
    const res = await h.get(HOST_A, `/api/v1/order-page/${plans.businessPlanA}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ plan: { id: plans.businessPlanA, name: 'Growth Plan' } });
    expect((await h.get(HOST_A, `/api/v1/order-page/${plans.businessPlanB}`)).statusCode).toBe(404);
    expect((await h.get(MAIN, `/api/v1/order-page/${plans.hiddenAgencyPlan}`)).statusCode).toBe(404);
    expect((await h.get('nobody.example.org', `/api/v1/order-page/${plans.agencyPlan}`)).statusCode).toBe(
      404,
    );
  });

  it('GET /v1/settings/product-data/{slug}: a plan by the slug of its name', async () => {
    const res = await h.get(HOST_A, '/api/v1/settings/product-data/growth-plan');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      slug: 'growth-plan',
      buyer: 'business',
      seller_name: 'Agency A',
      plan: { id: plans.businessPlanA },
    });
    const agencyProduct = (await h.get(MAIN, '/api/v1/settings/product-data/agency-pro')).json().data;
    expect(agencyProduct).toMatchObject({ buyer: 'agency', plan: { id: plans.agencyPlan } });
    const direct = (await h.get(MAIN, '/api/v1/settings/product-data/direct-business')).json().data;
    expect(direct).toMatchObject({ buyer: 'business', plan: { id: plans.mainBusinessPlan } });
    for (const [host, slug] of [
      [HOST_A, 'no-such-plan'],
      [HOST_A, 'b-basic'],
      [MAIN, 'agency-secret'],
    ] as const)
      expect((await h.get(host, `/api/v1/settings/product-data/${slug}`)).statusCode).toBe(404);
  });

  it('POST /v1/register/from-product: buys the product as the buyer its plan is for', async () => {
    const biz = businessForm(0);
    const res = await h.post(HOST_A, '/api/v1/register/from-product', { slug: 'growth-plan', ...biz });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ role_group: 'Business', data: { plan: { id: plans.businessPlanA } } });
    const ag = agencyForm(0);
    const res2 = await h.post(MAIN, '/api/v1/register/from-product', { slug: 'agency-pro', ...ag });
    expect(res2.statusCode, res2.body).toBe(200);
    expect(res2.json().role_group).toBe('Agency');
    // The product's form is checked like its page's.
    expect422(
      await h.post(HOST_A, '/api/v1/register/from-product', {
        slug: 'growth-plan',
        ...businessForm(0),
        email: '',
      }),
      'email',
      'The email field is required',
    );
    expect((await h.post(HOST_A, '/api/v1/register/from-product', { slug: 'nope', ...biz })).statusCode).toBe(
      404,
    );
    const before = await snapshot(c.t.pool, ACCOUNT_TABLES);
    expectDecline(
      await h.post(HOST_A, '/api/v1/register/from-product', {
        slug: 'growth-plan',
        ...businessForm(0, { paymentMethod: 'pm_card_chargeDeclined' }),
      }),
    );
    expect(await snapshot(c.t.pool, ACCOUNT_TABLES)).toEqual(before);
  });

  it('GET /v1/discounts/{code}: an unknown code is a 422; an unknown site a 404', async () => {
    const res = await h.get(MAIN, `/api/v1/discounts/NOPE-123?domain=${MAIN}&plan_id=${plans.agencyPlan}`);
    expect(res.statusCode, res.body).toBe(422);
    expect((await h.get(MAIN, '/api/v1/discounts/NOPE?domain=nobody.example.org')).statusCode).toBe(404);
  });
});

describe('POST /v1/register/order-bump', () => {
  it("the new account buys its seller's order bump with its card; another package is refused", async () => {
    const reg = await h.post(HOST_A, BUSINESS, businessForm(plans.businessPlanA));
    const token = reg.json().access_token;
    const res = await h.post(HOST_A, '/api/v1/register/order-bump', { package_id: plans.bumpA }, token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ package_id: plans.bumpA, source: 'card', quantity: 1000 });
    for (const id of [plans.plainPackageA, plans.bumpMain]) {
      const refused = await h.post(HOST_A, '/api/v1/register/order-bump', { package_id: id }, token);
      expect422(refused, 'package_id', 'The selected package is invalid.');
    }
    const anonymous = await h.post(HOST_A, '/api/v1/register/order-bump', { package_id: plans.bumpA });
    expect(anonymous.statusCode).toBe(401);
  });

  it("an agency that just registered buys the platform's order bump", async () => {
    const reg = await h.post(MAIN, REGISTER, agencyForm(plans.agencyPlan));
    const res = await h.post(
      MAIN,
      '/api/v1/register/order-bump',
      { package_id: plans.bumpMain },
      reg.json().access_token,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.package_id).toBe(plans.bumpMain);
  });
});

describe('the agency popup: modal users and their charge', () => {
  const visitor = (over: Record<string, unknown> = {}) => ({
    email: `visitor${Math.random().toString(36).slice(2, 8)}@shop.test`,
    full_name: 'Vera Visitor',
    business_name: 'Vera Bakery',
    phone: '+1 415 555 0199',
    domain: HOST_A,
    ...over,
  });

  beforeAll(async () => {
    const admin = await c.token(c.seed.a.agencyAdmin.email);
    const res = await c.api.put(admin, `/api/v1/agencies/${c.seed.a.agency.id}/popup-payment`, {
      enabled: true,
      title: 'Start today',
      plan_id: plans.businessPlanA,
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('records a visitor (public), lists them for the agency only, and charges them', async () => {
    const v = visitor();
    const created = await c.api.post(null, '/api/v1/agencies/modal-users', v);
    expect(created.statusCode, created.body).toBe(200);
    const mu = created.json().data;
    expect(mu).toMatchObject({ email: v.email, status: 'new', plan_id: plans.businessPlanA });

    const list = await c.api.get(await c.token(c.seed.a.agencyAdmin.email), '/api/v1/agencies/modal-users');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().meta.total).toBeGreaterThanOrEqual(1);
    expect(list.json().data.map((r: { id: number }) => r.id)).toContain(mu.id);
    const listB = await c.api.get(await c.token(c.seed.b.agencyAdmin.email), '/api/v1/agencies/modal-users');
    expect(listB.json().meta.total).toBe(0);
    const denied = await c.api.get(
      await c.token(c.seed.a.businessAdmin.email),
      '/api/v1/agencies/modal-users',
    );
    expect(denied.statusCode).toBe(403);

    const paid = await c.api.post(null, '/api/v1/agencies/modal-users/charge', {
      modal_user_id: mu.id,
      paymentMethod: 'pm_card_visa',
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().data).toMatchObject({ status: 'paid', last_error: null });
    const [biz] = await rows(c.t, 'select * from businesses where id = $1', [paid.json().data.business_id]);
    expect(biz).toMatchObject({ agency_id: c.seed.a.agency.id, name: 'Vera Bakery' });
    const again = await c.api.post(null, '/api/v1/agencies/modal-users/charge', {
      modal_user_id: mu.id,
      paymentMethod: 'pm_card_visa',
    });
    expect(again.statusCode).toBe(422);
  });

  it('a declined card marks the visitor failed with the message and leaves nothing else', async () => {
    const mu = (await c.api.post(null, '/api/v1/agencies/modal-users', visitor())).json().data;
    const before = await snapshot(c.t.pool, ACCOUNT_TABLES);
    expectDecline(
      await c.api.post(null, '/api/v1/agencies/modal-users/charge', {
        modal_user_id: mu.id,
        paymentMethod: 'pm_card_chargeDeclined',
      }),
    );
    expect(await snapshot(c.t.pool, ACCOUNT_TABLES)).toEqual(before);
    const [row] = await rows(c.t, 'select status, last_error, business_id from modal_users where id = $1', [
      mu.id,
    ]);
    expect(row).toEqual({ status: 'failed', last_error: 'Your card was declined.', business_id: null });
  });

  it('answers 422 for the visitor form and 404 for an unknown site or visitor', async () => {
    expect422(
      await c.api.post(null, '/api/v1/agencies/modal-users', visitor({ email: '' })),
      'email',
      'The email field is required',
    );
    expect422(
      await c.api.post(null, '/api/v1/agencies/modal-users', visitor({ phone: 'x' })),
      'phone',
      'Wrong phone number format!!',
    );
    expect422(
      await c.api.post(null, '/api/v1/agencies/modal-users', visitor({ plan_id: plans.businessPlanB })),
      'plan_id',
      'The selected plan id is invalid.',
    );
    expect(
      (await c.api.post(null, '/api/v1/agencies/modal-users', visitor({ domain: 'nobody.example.org' })))
        .statusCode,
    ).toBe(404);
    const res = await c.api.post(null, '/api/v1/agencies/modal-users/charge', {
      modal_user_id: 999_999,
      paymentMethod: 'pm_card_visa',
    });
    expect(res.statusCode).toBe(404);
  });

  it('the stored password of the seeded owners still works (no session was touched)', async () => {
    const res = await h.post(MAIN, '/api/v1/login', {
      email: c.seed.a.agencyAdmin.email,
      password: PASSWORD,
    });
    expect(res.statusCode).toBe(200);
  });
});

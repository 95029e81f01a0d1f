import { ZPackageResponse, ZPlanResponse } from '@stn/contracts/businesses';
import { PLAN_DEFAULTS } from '@stn/contracts/constants';
import { beforeAll, describe, expect, it } from 'vitest';
import { expect403, expectCrossTenant404, row, snapshot, useSuite } from '../../../test/helpers.ts';

const c = useSuite({ sessions: true });
const TABLES = ['plans', 'packages', 'businesses'];
let A: string;
let B: string;

beforeAll(async () => {
  A = `/v1/agencies/${c.seed.a.agency.id}/subscription/plans`;
  B = `/v1/agencies/${c.seed.b.agency.id}/subscription/plans`;
});

let n = 0;
async function addPlan(extra: object = {}, base = A, token = c.s.a.agencyAdmin.token) {
  n += 1;
  const res = await c.call(token, 'POST', base, { name: `Plan ${n}`, price_cents: 1000 * n, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; name: string };
}

describe('subscription plans', () => {
  it('adds a plan with the plan defaults of spec 001 §9', async () => {
    const res = await c.call(c.s.a.agencyAdmin.token, 'POST', A, { name: 'Starter', price_cents: 2900 });
    expect(res.statusCode, res.body).toBe(200);
    const body = ZPlanResponse.parse(res.json());
    expect(body.message).toBe('Plan created successfully.');
    const stored = await row(c.t, 'plans', body.data.id);
    expect(stored).toMatchObject({
      agency_id: c.seed.a.agency.id,
      name: 'Starter',
      interval: 'month',
      price_cents: 2900,
      trial_days: 0,
    });
    expect(stored.features).toEqual({
      Default: false,
      Visible: true,
      RemoveBranding: false,
      Zapier: false,
      Department: false,
      AiIntegration: false,
      ...PLAN_DEFAULTS,
      Description: '',
    });
  });

  it('keeps one Default plan per agency, and says which is', async () => {
    expect((await c.call(c.s.a.agencyAdmin.token, 'GET', `${A}/has-default`)).json().data).toEqual({
      has_default: false,
      plan_id: null,
    });
    const def = await addPlan({ interval: 'year', features: { Default: true, Users: 5 } });
    expect((await c.call(c.s.a.financeManager.token, 'GET', `${A}/has-default`)).json().data).toEqual({
      has_default: true,
      plan_id: def.id,
    });
    const before = await snapshot(c.t.pool, TABLES);
    const second = await c.call(c.s.a.agencyAdmin.token, 'POST', A, {
      name: 'Second default',
      price_cents: 100,
      features: { Default: true },
    });
    expect(second.statusCode).toBe(422);
    expect(second.json().errors['features.Default']).toEqual(['This agency already has a default plan.']);
    // The default plan itself may be saved again as default.
    const again = await c.call(c.s.a.agencyAdmin.token, 'PUT', `${A}/${def.id}`, {
      name: 'Yearly default',
      price_cents: 29900,
      interval: 'year',
      features: { Default: true },
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(await row(c.t, 'plans', def.id)).toMatchObject({ name: 'Yearly default', price_cents: 29900 });
    expect(await snapshot(c.t.pool, ['packages', 'businesses'])).toEqual({
      packages: before.packages,
      businesses: before.businesses,
    });
    // Agency B is not affected by A's default.
    expect((await c.call(c.s.admin.token, 'GET', `${B}/has-default`)).json().data.has_default).toBe(false);
  });

  it('answers 422 with the message on bad input and saves nothing', async () => {
    const before = await snapshot(c.t.pool, TABLES);
    const cases: [object, string, string][] = [
      [{ name: '', price_cents: 1 }, 'name', 'The name field is required'],
      [{ name: 'X', price_cents: 9.99 }, 'price_cents', 'The price cents must be an integer.'],
      [{ name: 'X', price_cents: 100, interval: 'week' }, 'interval', 'The selected interval is invalid.'],
      [{ name: 'X', price_cents: 100, features: { Users: 0 } }, 'features.Users', 'The users is invalid.'],
    ];
    for (const [payload, field, message] of cases) {
      const res = await c.call(c.s.a.agencyAdmin.token, 'POST', A, payload);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors[field], res.body).toEqual([message]);
    }
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });

  it('lists (paged, keyword), lists all, shows, edits and deletes', async () => {
    const p = await addPlan({ name: 'Gold Unique' });
    const list = (await c.call(c.s.a.accountManager.token, 'GET', A)).json();
    const { rows } = await c.t.pool.query('select id from plans where agency_id = $1', [c.seed.a.agency.id]);
    expect(list.meta).toEqual({ total: rows.length, page: 1, perPage: 10 });
    expect(
      (await c.call(c.s.a.agencyAdmin.token, 'GET', `${A}?keyword=gold`))
        .json()
        .data.map((x: { id: number }) => x.id),
    ).toEqual([p.id]);
    expect((await c.call(c.s.a.agencyAdmin.token, 'GET', `${A}/all`)).json().data).toHaveLength(rows.length);
    expect((await c.call(c.s.a.agencyAdmin.token, 'GET', `${A}/${p.id}`)).json().data).toMatchObject({
      id: p.id,
      name: 'Gold Unique',
    });

    const put = await c.call(c.s.a.financeManager.token, 'PUT', `${A}/${p.id}`, {
      name: 'Gold',
      price_cents: 4900,
      trial_days: 14,
      features: { Zapier: true, Messages: 5000 },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().message).toBe('Plan updated successfully.');
    const stored = await row(c.t, 'plans', p.id);
    expect(stored).toMatchObject({ name: 'Gold', price_cents: 4900, trial_days: 14 });
    expect(stored.features).toMatchObject({ Zapier: true, Messages: 5000, Calls: PLAN_DEFAULTS.Calls });

    const del = await c.call(c.s.a.agencyAdmin.token, 'DELETE', `${A}/${p.id}`);
    expect(del.json()).toEqual({ success: true, message: 'Plan deleted successfully.' });
    expect(await row(c.t, 'plans', p.id)).toBeUndefined();
  });

  it('keeps every field a PUT leaves out: a Default plan without features stays the default', async () => {
    const p = await addPlan({
      name: 'Keep Me',
      interval: 'year',
      trial_days: 7,
      active: false,
      features: { Zapier: true, Users: 4, Messages: 900, Description: 'Kept' },
    });
    // Only the name and price: every other field, and every feature, stays as it was.
    const put = await c.call(c.s.a.agencyAdmin.token, 'PUT', `${A}/${p.id}`, {
      name: 'Kept',
      price_cents: 1234,
    });
    expect(put.statusCode, put.body).toBe(200);
    const stored = await row(c.t, 'plans', p.id);
    expect(stored).toMatchObject({ name: 'Kept', price_cents: 1234, interval: 'year', trial_days: 7 });
    expect(stored.active).toBe(false);
    expect(stored.features).toMatchObject({ Zapier: true, Users: 4, Messages: 900, Description: 'Kept' });
    // A features object names only the features it changes.
    const one = await c.call(c.s.a.agencyAdmin.token, 'PUT', `${A}/${p.id}`, { features: { Calls: 77 } });
    expect(one.statusCode, one.body).toBe(200);
    expect((await row(c.t, 'plans', p.id)).features).toMatchObject({
      Zapier: true,
      Users: 4,
      Messages: 900,
      Calls: 77,
      Description: 'Kept',
    });

    // The agency's Default plan stays the default after a PUT without features.
    await c.t.pool.query(
      `update plans set features = features || '{"Default": false}' where agency_id = $1`,
      [c.seed.a.agency.id],
    );
    const def = await addPlan({ features: { Default: true } });
    const renamed = await c.call(c.s.a.agencyAdmin.token, 'PUT', `${A}/${def.id}`, {
      name: 'Still default',
      price_cents: 500,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data.features.Default).toBe(true);
    expect((await c.call(c.s.a.agencyAdmin.token, 'GET', `${A}/has-default`)).json().data).toEqual({
      has_default: true,
      plan_id: def.id,
    });
  });

  it('does not delete a plan a business is on (409)', async () => {
    const p = await addPlan();
    await c.t.pool.query('update businesses set subscription_plan_id = $1 where id = $2', [
      p.id,
      c.seed.a.business.id,
    ]);
    const res = await c.call(c.s.a.agencyAdmin.token, 'DELETE', `${A}/${p.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('This plan cannot be deleted: 1 business is on it.');
    expect(await row(c.t, 'plans', p.id)).toBeDefined();
    await c.t.pool.query('update businesses set subscription_plan_id = null where id = $1', [
      c.seed.a.business.id,
    ]);
  });

  it('lets a platform admin manage any agency plans', async () => {
    const p = await addPlan({}, B, c.s.admin.token);
    expect((await row(c.t, 'plans', p.id)).agency_id).toBe(c.seed.b.agency.id);
    expect((await c.call(c.s.superAdmin.token, 'GET', `${B}/${p.id}`)).statusCode).toBe(200);
    expect((await c.call(c.s.admin.token, 'GET', '/v1/agencies/999999/subscription/plans')).statusCode).toBe(
      404,
    );
  });

  it('is refused to a MarketingManager and to business users', async () => {
    const p = await addPlan();
    const calls = [
      ['GET', A],
      ['GET', `${A}/all`],
      ['GET', `${A}/has-default`],
      ['POST', A, { name: 'Nope', price_cents: 1 }],
      ['GET', `${A}/${p.id}`],
      ['PUT', `${A}/${p.id}`, { name: 'Nope', price_cents: 1 }],
      ['DELETE', `${A}/${p.id}`],
    ] as const;
    for (const who of [c.s.a.marketingManager, c.s.a.businessAdmin, c.s.a.businessUser]) {
      for (const [method, url, payload] of calls)
        await expect403(c.t, TABLES, who.token, method, url, payload);
    }
  });

  it("answers 404 to agency A for agency B's plans, by agency id or by plan id", async () => {
    const bPlan = await addPlan({}, B, c.s.b.agencyAdmin.token);
    const calls = [
      ['GET', B],
      ['GET', `${B}/all`],
      ['GET', `${B}/has-default`],
      ['POST', B, { name: 'Planted', price_cents: 1 }],
      ['GET', `${B}/${bPlan.id}`],
      ['PUT', `${B}/${bPlan.id}`, { name: 'Stolen', price_cents: 1 }],
      ['DELETE', `${B}/${bPlan.id}`],
      // Own agency id, the other agency's plan.
      ['GET', `${A}/${bPlan.id}`],
      ['PUT', `${A}/${bPlan.id}`, { name: 'Stolen', price_cents: 1 }],
      ['DELETE', `${A}/${bPlan.id}`],
    ] as const;
    for (const [method, url, payload] of calls) {
      await expectCrossTenant404(c.t, {
        token: c.s.a.accountManager.token,
        method,
        url: `/api${url}`,
        payload,
        // The caller's own agency's plans answer.
        control: { url: `/api${A}`, method: 'GET' },
        tables: TABLES,
      });
    }
  });
});

describe('packages', () => {
  let pkgId: number;

  it('adds, lists, shows, edits, toggles and deletes a package', async () => {
    const res = await c.call(c.s.a.agencyAdmin.token, 'POST', '/v1/packages', {
      name: '1000 texts',
      kind: 'messages',
      quantity: 1000,
      price_cents: 1999,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = ZPackageResponse.parse(res.json());
    expect(body.message).toBe('Package created successfully.');
    pkgId = body.data.id;
    expect(await row(c.t, 'packages', pkgId)).toMatchObject({
      agency_id: c.seed.a.agency.id,
      kind: 'messages',
      quantity: 1000,
      price_cents: 1999,
      active: true,
    });
    await c.call(c.s.a.agencyAdmin.token, 'POST', '/v1/packages', {
      name: '100 calls',
      kind: 'calls',
      quantity: 100,
      price_cents: 999,
    });

    const list = (await c.call(c.s.a.agencyAdmin.token, 'GET', '/v1/packages')).json();
    expect(list.meta).toEqual({ total: 2, page: 1, perPage: 10 });
    expect(
      (await c.call(c.s.a.agencyAdmin.token, 'GET', '/v1/packages?kind=calls'))
        .json()
        .data.map((p: { name: string }) => p.name),
    ).toEqual(['100 calls']);
    expect(
      (await c.call(c.s.a.agencyAdmin.token, 'GET', '/v1/packages?keyword=texts')).json().meta.total,
    ).toBe(1);
    expect((await c.call(c.s.a.agencyAdmin.token, 'GET', '/v1/packages/all')).json().data).toHaveLength(2);
    expect((await c.call(c.s.a.agencyAdmin.token, 'GET', `/v1/packages/${pkgId}`)).json().data.name).toBe(
      '1000 texts',
    );

    const put = await c.call(c.s.a.agencyAdmin.token, 'PUT', `/v1/packages/${pkgId}`, {
      name: '2000 texts',
      kind: 'messages',
      quantity: 2000,
      price_cents: 2999,
    });
    expect(put.json().message).toBe('Package updated successfully.');
    expect(await row(c.t, 'packages', pkgId)).toMatchObject({
      name: '2000 texts',
      quantity: 2000,
      price_cents: 2999,
    });

    const off = await c.call(c.s.a.agencyAdmin.token, 'PUT', `/v1/packages/${pkgId}/toggleActive`, {
      active: false,
    });
    expect(off.json()).toMatchObject({
      message: 'Package deactivated successfully.',
      data: { active: false },
    });
    expect((await row(c.t, 'packages', pkgId)).active).toBe(false);
    expect(
      (await c.call(c.s.a.agencyAdmin.token, 'GET', '/v1/packages?active=false'))
        .json()
        .data.map((p: { id: number }) => p.id),
    ).toEqual([pkgId]);
    const on = await c.call(c.s.a.agencyAdmin.token, 'PUT', `/v1/packages/${pkgId}/toggleActive`, {
      active: true,
    });
    expect(on.json().message).toBe('Package activated successfully.');

    const extra = (await c.call(c.s.a.agencyAdmin.token, 'GET', '/v1/packages?kind=calls')).json().data[0].id;
    const del = await c.call(c.s.a.agencyAdmin.token, 'DELETE', `/v1/packages/${extra}`);
    expect(del.json()).toEqual({ success: true, message: 'Package deleted successfully.' });
    expect(await row(c.t, 'packages', extra)).toBeUndefined();
  });

  it('answers 422 with the message on bad input and saves nothing', async () => {
    const before = await snapshot(c.t.pool, TABLES);
    const cases: [string, string, object, string, string][] = [
      [
        'POST',
        '/v1/packages',
        { name: 'X', kind: 'minutes', quantity: 1, price_cents: 1 },
        'kind',
        'The selected kind is invalid.',
      ],
      [
        'POST',
        '/v1/packages',
        { name: 'X', kind: 'calls', quantity: 0, price_cents: 1 },
        'quantity',
        'The quantity is invalid.',
      ],
      [
        'POST',
        '/v1/packages',
        { kind: 'calls', quantity: 1, price_cents: 1 },
        'name',
        'The name field is required',
      ],
      [
        'PUT',
        `/v1/packages/${pkgId}`,
        { name: 'X', kind: 'calls', quantity: 1, price_cents: 'free' },
        'price_cents',
        'The price cents must be an integer.',
      ],
      ['PUT', `/v1/packages/${pkgId}/toggleActive`, {}, 'active', 'The active field is required'],
    ];
    for (const [method, url, payload, field, message] of cases) {
      const res = await c.call(c.s.a.agencyAdmin.token, method as 'POST', url, payload);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors[field], res.body).toEqual([message]);
    }
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });

  it('is for the AgencyAdmin only', async () => {
    const calls = [
      ['GET', '/v1/packages'],
      ['GET', '/v1/packages/all'],
      ['GET', `/v1/packages/${pkgId}`],
      ['POST', '/v1/packages', { name: 'X', kind: 'calls', quantity: 1, price_cents: 1 }],
      ['PUT', `/v1/packages/${pkgId}`, { name: 'X', kind: 'calls', quantity: 1, price_cents: 1 }],
      ['PUT', `/v1/packages/${pkgId}/toggleActive`, { active: false }],
      ['DELETE', `/v1/packages/${pkgId}`],
    ] as const;
    for (const who of [c.s.a.accountManager, c.s.a.businessAdmin]) {
      for (const [method, url, payload] of calls)
        await expect403(c.t, TABLES, who.token, method, url, payload);
    }
  });

  it("answers 404 to agency B for agency A's package, changing nothing", async () => {
    const calls = [
      ['GET', `/v1/packages/${pkgId}`],
      ['PUT', `/v1/packages/${pkgId}`, { name: 'Stolen', kind: 'calls', quantity: 1, price_cents: 1 }],
      ['PUT', `/v1/packages/${pkgId}/toggleActive`, { active: false }],
      ['DELETE', `/v1/packages/${pkgId}`],
    ] as const;
    for (const [method, url, payload] of calls) {
      await expectCrossTenant404(c.t, {
        token: c.s.b.agencyAdmin.token,
        method,
        url: `/api${url}`,
        payload,
        // Agency B's own packages answer (it has none, so the control cannot be an item of its own).
        control: { url: '/api/v1/packages', method: 'GET' },
        tables: TABLES,
      });
    }
    expect((await c.call(c.s.b.agencyAdmin.token, 'GET', '/v1/packages')).json().meta.total).toBe(0);
  });
});

describe('API document', () => {
  it("describes this module's calls", async () => {
    const res = await c.t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const p of [
      '/api/v1/business/{id}/archive',
      '/api/v1/businesses/report',
      '/api/v1/agency/users/{id}/change-password',
      '/api/v1/agencies/{agency_id}/subscription/plans/has-default',
      '/api/v1/packages/{id}/toggleActive',
    ]) {
      expect(paths).toContain(p);
    }
  });
});

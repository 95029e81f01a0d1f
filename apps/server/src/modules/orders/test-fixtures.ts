// Fixtures of the orders tests: plans and order bumps of the main agency and of an agency, a registration
// form, calls on a host.
import { expect } from 'vitest';
import type { Suite, TestApp } from '../../../test/helpers.ts';

export const MAIN = 'platform.test';
export const HOST_A = `agency-a.${MAIN}`;
export const HOST_B = `agency-b.${MAIN}`;

export type Plans = {
  agencyPlan: number;
  agencyTrialPlan: number;
  hiddenAgencyPlan: number;
  businessPlanA: number;
  businessPlanB: number;
  mainBusinessPlan: number;
  bumpMain: number;
  bumpA: number;
  plainPackageA: number;
};

async function plan(
  t: TestApp,
  agencyId: number,
  name: string,
  over: { type?: 'agency' | 'business'; price?: number; trial?: number; visible?: boolean } = {},
) {
  const { rows } = await t.pool.query(
    `insert into plans (agency_id, name, interval, price_cents, trial_days, features, type)
     values ($1, $2, 'month', $3, $4, $5, $6) returning id`,
    [
      agencyId,
      name,
      over.price ?? 4900,
      over.trial ?? 0,
      JSON.stringify({ Visible: over.visible ?? true, Users: 2, Installs: 2, Messages: 500, Calls: 50 }),
      over.type ?? 'business',
    ],
  );
  return rows[0].id as number;
}

async function pack(t: TestApp, agencyId: number, name: string, orderBump: boolean, kind = 'messages') {
  const { rows } = await t.pool.query(
    `insert into packages (agency_id, name, kind, quantity, price_cents, order_bump)
     values ($1, $2, $4, 1000, 1500, $3) returning id`,
    [agencyId, name, orderBump, kind],
  );
  return rows[0].id as number;
}

/** The main agency's agency plans and bump, agency A's and B's business plans, A's bump; installs for A and B. */
export async function seedOrders(c: Suite): Promise<Plans> {
  const { t, seed } = c;
  await t.pool.query(`update agencies set properties = '{"installs": 20}'::jsonb where id = any($1)`, [
    [seed.a.agency.id, seed.b.agency.id, seed.main.id],
  ]);
  return {
    agencyPlan: await plan(t, seed.main.id, 'Agency Pro', { type: 'agency', price: 9900 }),
    agencyTrialPlan: await plan(t, seed.main.id, 'Agency Starter', { type: 'agency', price: 4900, trial: 7 }),
    hiddenAgencyPlan: await plan(t, seed.main.id, 'Agency Secret', { type: 'agency', visible: false }),
    mainBusinessPlan: await plan(t, seed.main.id, 'Direct Business', { type: 'business' }),
    businessPlanA: await plan(t, seed.a.agency.id, 'Growth Plan', { price: 2900 }),
    businessPlanB: await plan(t, seed.b.agency.id, 'B Basic'),
    // What the platform sells an agency once: installs (agencies have no message or call caps).
    bumpMain: await pack(t, seed.main.id, 'Fast start', true, 'installs'),
    bumpA: await pack(t, seed.a.agency.id, '1000 texts', true),
    plainPackageA: await pack(t, seed.a.agency.id, 'Plain texts', false),
  };
}

/** Calls on a host (the order pages' site), optionally signed in. */
export function onHost(t: TestApp) {
  const send = (
    method: 'GET' | 'POST' | 'PUT',
    host: string,
    url: string,
    payload?: object,
    token?: string,
  ) =>
    t.app.inject({
      method,
      url,
      headers: { host, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(payload ? { payload } : {}),
    });
  return {
    get: (host: string, url: string, token?: string) => send('GET', host, url, undefined, token),
    post: (host: string, url: string, payload: object, token?: string) =>
      send('POST', host, url, payload, token),
  };
}

let n = 0;
/** A complete agency order form (a new e-mail and subdomain each time). */
export function agencyForm(planId: number, over: Record<string, unknown> = {}) {
  n += 1;
  return {
    email: `owner${n}@newagency.test`,
    password: 'correct-horse-1',
    password_confirmation: 'correct-horse-1',
    full_name: 'Olivia Owner',
    company_name: `New Agency ${n}`,
    phone: '+1 415 555 0100',
    domain: '',
    subdomain: `new-agency-${n}`,
    industry: 3,
    businesses_count: 12,
    goals: 'Sell to 50 dentists',
    people_count: 4,
    contacts_count: 2000,
    departments: 'Sales, Support',
    plan_id: planId,
    paymentMethod: 'pm_card_visa',
    trial: false,
    ...over,
  };
}

export function businessForm(planId: number, over: Record<string, unknown> = {}) {
  n += 1;
  return {
    email: `biz${n}@newbusiness.test`,
    password: 'correct-horse-1',
    password_confirmation: 'correct-horse-1',
    full_name: 'Bob Builder',
    business_name: `Bob's Plumbing ${n}`,
    phone: '+1 415 555 0111',
    plan_id: planId,
    paymentMethod: 'pm_card_visa',
    ...over,
  };
}

export const ACCOUNT_TABLES = [
  'agencies',
  'users',
  'businesses',
  'subscriptions',
  'whitelabels',
  'auth_tokens',
];

export function expectDecline(res: { statusCode: number; body: string; json: () => unknown }) {
  expect(res.statusCode, res.body).toBe(422);
  const body = res.json() as { message: string; errors: Record<string, string[]> };
  expect(body.errors.payment?.[0]).toBe('Your card was declined.');
  expect(body.message).toBe('Your card was declined.');
}

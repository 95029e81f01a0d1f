import { expect } from 'vitest';
import {
  bearer,
  fixtureCtx,
  login,
  type seedTenants,
  snapshot,
  type TestApp,
} from '../../../test/helpers.ts';
import { createUser } from '../users/service.ts';

// Fixtures shared by this module's tests (the common helpers are not to be edited).

export type Seed = Awaited<ReturnType<typeof seedTenants>>;
export type Session = { id: number; email: string; token: string };

/** Signs in every seeded user, and adds agency A's FinanaceManager (2) and MarketingManager (3). */
export async function sessions(t: TestApp, seed: Seed) {
  const sign = async (u: { id: number; email: string }): Promise<Session> => ({
    ...u,
    token: await login(t.app, u.email),
  });
  const extra = async (email: string, userType: '2' | '3') => ({
    id: await createUser(fixtureCtx(t.db), {
      email,
      password: 'correct-horse-1',
      role: 'AgencyUser',
      userType,
      agencyId: seed.a.agency.id,
      firstName: email.split('@')[0],
    }),
    email,
  });
  return {
    superAdmin: await sign(seed.superAdmin),
    admin: await sign(seed.admin),
    a: {
      agencyAdmin: await sign(seed.a.agencyAdmin),
      accountManager: await sign(seed.a.agencyUser),
      financeManager: await sign(await extra('finance@a.test', '2')),
      marketingManager: await sign(await extra('marketing@a.test', '3')),
      businessAdmin: await sign(seed.a.businessAdmin),
      businessUser: await sign(seed.a.businessUser),
    },
    b: {
      agencyAdmin: await sign(seed.b.agencyAdmin),
      accountManager: await sign(seed.b.agencyUser),
      businessAdmin: await sign(seed.b.businessAdmin),
    },
  };
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Calls the API as `token`. */
export function caller(t: TestApp) {
  return (token: string, method: Method, url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api${url}`,
      headers: bearer(token),
      ...(payload !== undefined ? { payload } : {}),
    });
}

/** Expects a 403 and that none of `tables` changed. */
export async function expect403(
  t: TestApp,
  tables: string[],
  token: string,
  method: Method,
  url: string,
  payload?: object,
) {
  // auth_tokens.last_used_at moves on a session's first use, whatever the answer.
  const watched = tables.filter((name) => name !== 'auth_tokens');
  const before = await snapshot(t.pool, watched);
  const res = await caller(t)(token, method, url, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
  expect(res.json()).toMatchObject({ success: false, message: 'This action is unauthorized.' });
  expect(await snapshot(t.pool, watched)).toEqual(before);
}

export const row = async (t: TestApp, table: string, id: number) =>
  (await t.pool.query(`select * from ${table} where id = $1`, [id])).rows[0];

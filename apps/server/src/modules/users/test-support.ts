import type { InjectOptions } from 'fastify';
import { expect } from 'vitest';
import {
  bearer,
  createTestApp,
  fixtureCtx,
  login,
  seedTenants,
  type TestApp,
} from '../../../test/helpers.ts';
import { createUser } from '../users/service.ts';

// Shared set-up of this module's test files: the two seeded tenants, one session per user, and
// short helpers for calls and for "422 with this message and nothing changed".

export type Seed = Awaited<ReturnType<typeof seedTenants>>;
export type Ctx = { t: TestApp; seed: Seed; token: (email: string) => Promise<string> };

export async function setup(): Promise<Ctx> {
  const t = await createTestApp();
  const seed = await seedTenants(t.db);
  const cache = new Map<string, string>();
  const token = async (email: string) => {
    let tok = cache.get(email);
    if (!tok) {
      tok = await login(t.app, email);
      cache.set(email, tok);
    }
    return tok;
  };
  return { t, seed, token };
}

export function call(t: TestApp) {
  const send = (method: InjectOptions['method'], token: string | null, url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: token ? bearer(token) : {},
      ...(payload !== undefined ? { payload } : {}),
    });
  return {
    get: (token: string | null, url: string) => send('GET', token, url),
    post: (token: string | null, url: string, payload: object = {}) => send('POST', token, url, payload),
    put: (token: string | null, url: string, payload: object = {}) => send('PUT', token, url, payload),
    del: (token: string | null, url: string) => send('DELETE', token, url),
  };
}

export const rows = async (t: TestApp, sql: string, params: unknown[] = []) =>
  (await t.pool.query(sql, params)).rows;

/** A business user of another type, with its e-mail, for access tests. */
export async function addBusinessUser(
  t: TestApp,
  businessId: number,
  email: string,
  userType: '1' | '2' | '3' | '4',
  pages: string[] = [],
) {
  const id = await createUser(fixtureCtx(t.db), {
    email,
    password: 'correct-horse-1',
    role: 'BusinessUser',
    userType,
    businessId,
    firstName: email.split('@')[0],
    settings: userType === '4' ? { custom_type_pages: pages as never } : {},
  });
  return { id, email };
}

/** Asserts a 422 whose first error on `field` is `message`. */
export function expect422(
  res: { statusCode: number; body: string; json: () => unknown },
  field: string,
  message: string,
) {
  expect(res.statusCode, res.body).toBe(422);
  const body = res.json() as { success: boolean; message: string; errors: Record<string, string[]> };
  expect(body.success).toBe(false);
  expect(body.errors?.[field]?.[0], res.body).toBe(message);
}

/** A session already used once, so that its first-use stamp does not show up in a snapshot. */
export async function touched(c: Ctx, email: string): Promise<string> {
  const token = await c.token(email);
  const res = await c.t.app.inject({ url: '/api/v1/profile', headers: bearer(token) });
  expect(res.statusCode).toBe(200);
  return token;
}

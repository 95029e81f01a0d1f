// The server half of the rules table's parity: every API route that declares a capability, called by each
// of the 13 roles, answers 403 exactly where the table says no (packages/contracts/src/capabilities.ts).
import { CAPABILITY_NAMES, can, ROLE_KEYS, subjectOf, type TRoleKey } from '@stn/contracts/capabilities';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteInfo } from '../src/platform/http/catalogue.ts';
import { bearer, type TestApp } from './helpers.ts';
import { concrete, routeWalk } from './route-walk.ts';

let t: TestApp;
let tokens: Record<TRoleKey, string>;
let routes: RouteInfo[];

beforeAll(async () => {
  ({ t, tokens, routes } = await routeWalk());
});
afterAll(async () => t?.close());

describe('the capability table on the API', () => {
  it('every API route is public or declares who may call it, and uses only known capabilities', () => {
    expect(routes.length).toBeGreaterThan(80);
    for (const r of routes) {
      if (r.capability) expect(CAPABILITY_NAMES).toContain(r.capability);
    }
    // Routes without a capability are open to any signed-in user; they are listed here so that a new
    // route cannot silently join them.
    const open = routes.filter((r) => !r.public && !r.capability).map((r) => `${r.method} ${r.url}`);
    expect(open.sort()).toEqual(
      [
        'DELETE /api/v1/impersonate',
        'GET /api/v1/auth/check',
        // Zapier's consent (ADR 089): any signed-in user may ask; the service answers who may not, and why.
        'GET /api/v1/oauth-login',
        'POST /api/v1/oauth-login',
        'GET /api/v1/profile',
        'POST /api/v1/logout',
        'PUT /api/v1/countries',
        'PUT /api/v1/profile',
        'PUT /api/v1/setting',
      ].sort(),
    );
  });

  it('answers 403 exactly where the table says no, for each of the 13 roles', async () => {
    const guarded = routes.filter((r) => r.capability);
    expect(guarded.length).toBeGreaterThan(70);
    const mismatches: string[] = [];
    for (const r of guarded) {
      const capability = r.capability;
      if (!capability) continue;
      for (const role of ROLE_KEYS) {
        const res = await t.app.inject({
          method: r.method as 'GET',
          url: concrete(r.url),
          headers: bearer(tokens[role]),
          ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { payload: {} }),
        });
        const allowed = can(subjectOf(role), capability);
        if (allowed ? res.statusCode === 403 : res.statusCode !== 403)
          mismatches.push(`${role} ${r.method} ${r.url} (${capability}): ${res.statusCode}`);
      }
    }
    expect(mismatches).toEqual([]);
    // About a thousand requests: minutes on a loaded two-core machine, seconds on a quiet one.
  }, 300_000);
});

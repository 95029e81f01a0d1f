import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectCrossTenant404, login, seedTenants, type TestApp } from './helpers.ts';

// The tenant-isolation helper every route test relies on must itself be able to fail.
let t: TestApp;
let seed: Awaited<ReturnType<typeof seedTenants>>;
let tokenA: string;

beforeAll(async () => {
  t = await createTestApp();
  seed = await seedTenants(t.db);
  tokenA = await login(t.app, seed.a.agencyAdmin.email);
});
afterAll(() => t.close());

describe('expectCrossTenant404', () => {
  it("passes when tenant A asks for tenant B's row and nothing changes", async () => {
    await expectCrossTenant404(t, {
      token: tokenA,
      method: 'POST',
      url: `/api/v1/impersonate/${seed.b.businessUser.id}`,
      control: { url: `/api/v1/impersonate/${seed.a.businessUser.id}` },
      tables: ['auth_tokens', 'audit_logs'],
    });
  });

  it('fails when the answer is not a 404', async () => {
    await expect(
      expectCrossTenant404(t, {
        token: tokenA,
        method: 'GET',
        url: '/api/v1/profile',
        control: { url: '/api/v1/profile' },
        tables: ['users'],
      }),
    ).rejects.toThrow(/answered 200/);
  });

  it('fails when the route does not exist at all, whatever the control request says', async () => {
    await expect(
      expectCrossTenant404(t, {
        token: tokenA,
        method: 'POST',
        url: `/api/v1/impersonat/${seed.b.businessUser.id}`,
        control: { url: `/api/v1/impersonate/${seed.a.businessUser.id}` },
        tables: ['auth_tokens'],
      }),
    ).rejects.toThrow(/is not a route/);
  });

  it('fails when the control request answers 404', async () => {
    await expect(
      expectCrossTenant404(t, {
        token: tokenA,
        method: 'POST',
        url: `/api/v1/impersonate/${seed.b.businessUser.id}`,
        control: { url: '/api/v1/impersonate/999999' },
        tables: ['auth_tokens'],
      }),
    ).rejects.toThrow(/control/);
  });

  it('fails when the request changed a row', async () => {
    // Logging out answers 200 and revokes the token: both a wrong status and a change.
    await expect(
      expectCrossTenant404(t, {
        token: await login(t.app, seed.a.agencyUser.email),
        method: 'POST',
        url: '/api/v1/logout',
        control: { url: '/api/v1/auth/check', method: 'GET' },
        tables: ['auth_tokens'],
      }),
    ).rejects.toThrow();
  });
});

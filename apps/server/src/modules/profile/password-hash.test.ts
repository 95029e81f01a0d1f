// Review of issue 17: the profile's password change hashed the new password (argon2, slow on purpose)
// inside the profile's transaction, holding a pooled connection and an open transaction for the length of
// the hash. The hash now comes first. The hash function is wrapped (the real one runs) to look, while it
// runs, at the database: no transaction of ours may be open then.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, createTestApp, login, PASSWORD, seedTenants, type TestApp } from '../../../test/helpers.ts';

const seen = vi.hoisted(() => ({
  watch: null as null | (() => Promise<number>),
  openDuringHash: [] as number[],
}));

vi.mock('../../platform/auth/passwords.ts', async (original) => {
  const real = await original<typeof import('../../platform/auth/passwords.ts')>();
  return {
    ...real,
    hashPassword: async (password: string) => {
      if (seen.watch) seen.openDuringHash.push(await seen.watch());
      return real.hashPassword(password);
    },
  };
});

describe('a password change from the profile', () => {
  let t: TestApp;
  let seed: Awaited<ReturnType<typeof seedTenants>>;
  beforeAll(async () => {
    t = await createTestApp();
    seed = await seedTenants(t.db);
  });
  afterAll(() => t?.close());

  it('hashes the new password before any transaction is opened', async () => {
    const user = seed.a.businessUser;
    const token = await login(t.app, user.email);
    // Transactions open (idle in transaction: waiting for the app) on this test's database.
    seen.watch = async () => {
      const res = await t.pool.query(
        `select count(*)::int as n from pg_stat_activity
          where datname = current_database() and state like 'idle in transaction%'`,
      );
      return res.rows[0].n as number;
    };
    try {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/profile',
        headers: bearer(token),
        payload: {
          first_name: 'user',
          last_name: 'A',
          email: user.email,
          current_password: PASSWORD,
          password: 'a-new-pass-33',
          password_confirmation: 'a-new-pass-33',
        },
      });
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      seen.watch = null;
    }
    expect(seen.openDuringHash).toEqual([0]);
    // The new password is the one that signs in.
    expect(await login(t.app, user.email, 'a-new-pass-33')).toBeTruthy();
  });
});

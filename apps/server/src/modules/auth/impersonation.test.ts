import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectCrossTenant404, fixtureCtx, login, useSuite } from '../../../test/helpers.ts';
import { hashToken } from '../../platform/auth/tokens.ts';
import { createUser } from '../users/service.ts';

const c = useSuite({ env: { IMPERSONATION_TTL_MINUTES: '1' } });
/** One main session per seeded user, for tests that do not end it. */
const tokens: Record<string, string> = {};

beforeAll(async () => {
  // A one-minute impersonation lifetime, so that the cap is visible in expires_at.
  const emails = [
    c.seed.superAdmin.email,
    c.seed.admin.email,
    ...(['a', 'b'] as const).flatMap((k) => [
      c.seed[k].agencyAdmin.email,
      c.seed[k].agencyUser.email,
      c.seed[k].businessAdmin.email,
      c.seed[k].businessUser.email,
    ]),
  ];
  for (const email of emails) tokens[email] = await login(c.t.app, email);
});

const tok = (u: { email: string }) => {
  const token = tokens[u.email];
  if (!token) throw new Error(`no session for ${u.email}`);
  return token;
};
const impersonate = (token: string, id: number | string) =>
  c.t.app.inject({ method: 'POST', url: `/api/v1/impersonate/${id}`, headers: bearer(token) });
const stop = (token: string) =>
  c.t.app.inject({ method: 'DELETE', url: '/api/v1/impersonate', headers: bearer(token) });
const profile = (token: string) =>
  c.t.app.inject({ method: 'GET', url: '/api/v1/profile', headers: bearer(token) });
const tokenRow = async (token: string) =>
  (await c.t.pool.query('select * from auth_tokens where token_hash = $1', [hashToken(token)])).rows[0];
const counts = async () =>
  (
    await c.t.pool.query(
      `select (select count(*) from auth_tokens where kind = 'impersonation')::int as tokens,
              (select count(*) from audit_logs)::int as audits`,
    )
  ).rows[0];

/** Starts an impersonation and returns its token, checking the answer. */
async function start(token: string, targetId: number) {
  const res = await impersonate(token, targetId);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().access_token as string;
}

/** A refused impersonation: the status, the message, and no token or audit row made. */
async function refused(token: string, targetId: number | string, status: number, message?: string) {
  const before = await counts();
  const res = await impersonate(token, targetId);
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(body.success).toBe(false);
  expect(body).not.toHaveProperty('access_token');
  if (message) expect(body.message).toBe(message);
  expect(await counts()).toEqual(before);
}

describe('POST /v1/impersonate/{id}: who may impersonate whom', () => {
  it('lets a SuperAdmin impersonate agency and business users of any agency', async () => {
    const cases = [
      [c.seed.a.agencyAdmin, 'Agency'],
      [c.seed.a.agencyUser, 'Agency'],
      [c.seed.a.businessAdmin, 'Business'],
      [c.seed.b.businessUser, 'Business'],
    ] as const;
    for (const [target, roleGroup] of cases) {
      const res = await impersonate(tok(c.seed.superAdmin), target.id);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({
        success: true,
        token_type: 'Bearer',
        role_group: roleGroup,
        is_template: false,
      });
      expect(body.access_token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      const row = await tokenRow(body.access_token);
      expect(row).toMatchObject({
        kind: 'impersonation',
        user_id: target.id,
        impersonator_id: c.seed.superAdmin.id,
      });
      expect(Number(row.parent_token_id)).toBe(Number((await tokenRow(tok(c.seed.superAdmin))).id));
    }
  });

  it('answers with the target named in the message', async () => {
    const res = await impersonate(tok(c.seed.admin), c.seed.a.businessUser.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('You are now signed in as bizuser A.');
  });

  it('with the token, the profile is the target and names the impersonator', async () => {
    const imp = await start(tok(c.seed.admin), c.seed.b.agencyAdmin.id);
    const res = await profile(imp);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.user).toMatchObject({
      id: c.seed.b.agencyAdmin.id,
      email: c.seed.b.agencyAdmin.email,
      role: 'AgencyAdmin',
      role_group: 'Agency',
    });
    expect(data.user.agency.id).toBe(c.seed.b.agency.id);
    expect(data.impersonating).toBe(true);
    expect(data.impersonator).toEqual({
      id: c.seed.admin.id,
      name: 'Plain',
      email: c.seed.admin.email,
      role_group: 'Admin',
    });

    const check = await c.t.app.inject({ method: 'GET', url: '/api/v1/auth/check', headers: bearer(imp) });
    expect(check.json().data.impersonating).toBe(true);
    // The admin's own session is untouched and still says who they are.
    const own = (await profile(tok(c.seed.admin))).json().data;
    expect(own).toMatchObject({ impersonating: false, impersonator: null });
    expect(own.user.id).toBe(c.seed.admin.id);
  });

  it('reports is_template from the target agency', async () => {
    await c.t.pool.query('update agencies set is_template = true where id = $1', [c.seed.b.agency.id]);
    try {
      const b = await impersonate(tok(c.seed.superAdmin), c.seed.b.businessAdmin.id);
      expect(b.json()).toMatchObject({ role_group: 'Business', is_template: true });
      const a = await impersonate(tok(c.seed.superAdmin), c.seed.a.businessAdmin.id);
      expect(a.json()).toMatchObject({ role_group: 'Business', is_template: false });
    } finally {
      await c.t.pool.query('update agencies set is_template = false where id = $1', [c.seed.b.agency.id]);
    }
  });

  it("lets an AgencyAdmin and an AgencyUser impersonate their own agency's business users", async () => {
    for (const actor of [c.seed.a.agencyAdmin, c.seed.a.agencyUser]) {
      for (const target of [c.seed.a.businessAdmin, c.seed.a.businessUser]) {
        const imp = await start(tok(actor), target.id);
        const data = (await profile(imp)).json().data;
        expect(data.user.id).toBe(target.id);
        expect(data.user.business.id).toBe(c.seed.a.business.id);
        expect(data.impersonator.id).toBe(actor.id);
        expect(data.impersonator.role_group).toBe('Agency');
      }
    }
  });

  it("does not find another agency's business user (404, nothing written)", async () => {
    for (const [actor, target] of [
      [c.seed.a.agencyAdmin, c.seed.b.businessUser],
      [c.seed.a.agencyAdmin, c.seed.b.businessAdmin],
      [c.seed.a.agencyUser, c.seed.b.businessUser],
      [c.seed.b.agencyAdmin, c.seed.a.businessUser],
    ] as const) {
      // Touch the token first: its first use records last_used_at, which is not what is being checked.
      expect((await profile(tok(actor))).statusCode).toBe(200);
      await expectCrossTenant404(c.t, {
        token: tok(actor),
        method: 'POST',
        url: `/api/v1/impersonate/${target.id}`,
        // Impersonating a business user of the actor's own agency works.
        control: {
          url: `/api/v1/impersonate/${(actor === c.seed.b.agencyAdmin ? c.seed.b : c.seed.a).businessUser.id}`,
        },
        tables: ['auth_tokens', 'audit_logs'],
      });
    }
  });

  it("refuses an agency impersonating its own agency's agency users (403)", async () => {
    await refused(
      tok(c.seed.a.agencyAdmin),
      c.seed.a.agencyUser.id,
      403,
      'You cannot impersonate this user.',
    );
    await refused(
      tok(c.seed.a.agencyUser),
      c.seed.a.agencyAdmin.id,
      403,
      'You cannot impersonate this user.',
    );
  });

  it('lets nobody impersonate an Admin or a SuperAdmin', async () => {
    await refused(tok(c.seed.admin), c.seed.superAdmin.id, 403, 'You cannot impersonate this user.');
    await refused(tok(c.seed.superAdmin), c.seed.admin.id, 403, 'You cannot impersonate this user.');
    // Platform admins are outside an agency's tenant: not found.
    await refused(tok(c.seed.a.agencyAdmin), c.seed.admin.id, 404, 'Not found.');
    await refused(tok(c.seed.a.agencyAdmin), c.seed.superAdmin.id, 404, 'Not found.');
    await refused(tok(c.seed.a.agencyUser), c.seed.superAdmin.id, 404, 'Not found.');
  });

  it('refuses business users (403)', async () => {
    await refused(tok(c.seed.a.businessAdmin), c.seed.a.businessUser.id, 403);
    await refused(tok(c.seed.a.businessUser), c.seed.a.businessAdmin.id, 403);
  });

  it('refuses impersonating yourself (403)', async () => {
    await refused(tok(c.seed.superAdmin), c.seed.superAdmin.id, 403, 'You cannot impersonate this user.');
    await refused(
      tok(c.seed.a.agencyAdmin),
      c.seed.a.agencyAdmin.id,
      403,
      'You cannot impersonate this user.',
    );
  });

  it('refuses a disabled user (403)', async () => {
    const id = await createUser(fixtureCtx(c.t.db), {
      email: 'disabled@a.test',
      password: 'correct-horse-1',
      role: 'BusinessUser',
      userType: '3',
      businessId: c.seed.a.business.id,
    });
    await c.t.pool.query('update users set active = false where id = $1', [id]);
    await refused(tok(c.seed.superAdmin), id, 403, 'You cannot impersonate this user.');
    await refused(tok(c.seed.a.agencyAdmin), id, 403, 'You cannot impersonate this user.');
  });

  it('answers 404 for an unknown id, 422 for a malformed one, 401 without a token', async () => {
    await refused(tok(c.seed.superAdmin), 999_999, 404, 'Not found.');
    await refused(tok(c.seed.superAdmin), 'abc', 422);
    const res = await c.t.app.inject({
      method: 'POST',
      url: `/api/v1/impersonate/${c.seed.a.businessUser.id}`,
    });
    expect(res.statusCode).toBe(401);
  });

  it('does not chain: an impersonation cannot start another one', async () => {
    // Impersonating an agency user, who could otherwise impersonate its business users.
    const imp = await start(tok(c.seed.superAdmin), c.seed.a.agencyAdmin.id);
    await refused(imp, c.seed.a.businessUser.id, 403, 'Stop the current impersonation first.');
    // Impersonating a business user: refused as well.
    const impBiz = await start(tok(c.seed.admin), c.seed.a.businessAdmin.id);
    await refused(impBiz, c.seed.a.businessUser.id, 403);
  });
});

describe('the impersonation token', () => {
  it('dies with the session it was started from (logout of the main token)', async () => {
    const main = await login(c.t.app, c.seed.admin.email);
    const imp = await start(main, c.seed.a.businessUser.id);
    expect((await profile(imp)).statusCode).toBe(200);
    const out = await c.t.app.inject({ method: 'POST', url: '/api/v1/logout', headers: bearer(main) });
    expect(out.statusCode, out.body).toBe(200);
    const res = await profile(imp);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, code: 'UNAUTHENTICATED', message: 'Unauthenticated.' });
    expect((await profile(main)).statusCode).toBe(401);
  });

  it('logging out with the impersonation token ends the main session too', async () => {
    const main = await login(c.t.app, c.seed.admin.email);
    const imp = await start(main, c.seed.a.businessUser.id);
    const out = await c.t.app.inject({ method: 'POST', url: '/api/v1/logout', headers: bearer(imp) });
    expect(out.statusCode, out.body).toBe(200);
    expect((await profile(imp)).statusCode).toBe(401);
    expect((await profile(main)).statusCode).toBe(401);
  });

  it('dies when the impersonator is disabled', async () => {
    const id = await createUser(fixtureCtx(c.t.db), {
      email: 'temp-admin@main.test',
      password: 'correct-horse-1',
      role: 'Admin',
    });
    const main = await login(c.t.app, 'temp-admin@main.test');
    const imp = await start(main, c.seed.a.businessUser.id);
    expect((await profile(imp)).statusCode).toBe(200);
    await c.t.pool.query('update users set active = false where id = $1', [id]);
    expect((await profile(main)).statusCode).toBe(401);
    expect((await profile(imp)).statusCode).toBe(401);
  });

  it('expires after IMPERSONATION_TTL_MINUTES, and an expired one is refused', async () => {
    const main = await login(c.t.app, c.seed.admin.email);
    const before = Date.now();
    const res = await impersonate(main, c.seed.a.businessUser.id);
    expect(res.statusCode, res.body).toBe(200);
    const { access_token: imp, expires_at } = res.json();
    const ahead = new Date(expires_at).getTime() - before;
    expect(ahead).toBeGreaterThan(55_000);
    expect(ahead).toBeLessThan(65_000);
    expect(new Date((await tokenRow(imp)).expires_at).toISOString()).toBe(expires_at);

    expect((await profile(imp)).statusCode).toBe(200);
    await c.t.pool.query(
      `update auth_tokens set expires_at = now() - interval '1 second' where token_hash = $1`,
      [hashToken(imp)],
    );
    expect((await profile(imp)).statusCode).toBe(401);
    expect((await stop(imp)).statusCode).toBe(401);
    // The main session is not affected.
    expect((await profile(main)).statusCode).toBe(200);
  });

  it('never outlives the session it was started from', async () => {
    const main = await login(c.t.app, c.seed.admin.email);
    await c.t.pool.query(
      `update auth_tokens set expires_at = now() + interval '20 seconds' where token_hash = $1`,
      [hashToken(main)],
    );
    const res = await impersonate(main, c.seed.a.businessUser.id);
    expect(res.statusCode, res.body).toBe(200);
    const ahead = new Date(res.json().expires_at).getTime() - Date.now();
    expect(ahead).toBeLessThanOrEqual(20_000);
    expect(ahead).toBeGreaterThan(10_000);

    // When the main session expires, the impersonation is refused even before its own end.
    const imp = res.json().access_token;
    expect((await profile(imp)).statusCode).toBe(200);
    await c.t.pool.query(
      `update auth_tokens set expires_at = now() - interval '1 second' where token_hash = $1`,
      [hashToken(main)],
    );
    expect((await profile(imp)).statusCode).toBe(401);
  });
});

describe('DELETE /v1/impersonate', () => {
  it('stops the impersonation and answers the role group of the impersonator', async () => {
    const main = await login(c.t.app, c.seed.admin.email);
    const imp = await start(main, c.seed.a.agencyUser.id);
    const res = await stop(imp);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Impersonation stopped.', role_group: 'Admin' });
    expect((await profile(imp)).statusCode).toBe(401);
    expect((await tokenRow(imp)).revoked_at).not.toBeNull();
    const own = await profile(main);
    expect(own.statusCode).toBe(200);
    expect(own.json().data).toMatchObject({
      impersonating: false,
      impersonator: null,
      user: { id: c.seed.admin.id },
    });
  });

  it('answers the Agency role group to an agency impersonator', async () => {
    const imp = await start(tok(c.seed.b.agencyUser), c.seed.b.businessUser.id);
    const res = await stop(imp);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().role_group).toBe('Agency');
    expect((await profile(tok(c.seed.b.agencyUser))).statusCode).toBe(200);
  });

  it('answers 400 with a normal token and 401 without one', async () => {
    const res = await stop(tok(c.seed.superAdmin));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      code: 'BAD_REQUEST',
      message: 'You are not impersonating anyone.',
    });
    expect((await profile(tok(c.seed.superAdmin))).statusCode).toBe(200);
    expect((await c.t.app.inject({ method: 'DELETE', url: '/api/v1/impersonate' })).statusCode).toBe(401);
  });
});

describe('the audit trail', () => {
  let startId: number;
  let stopId: number;

  beforeAll(async () => {
    const main = await login(c.t.app, c.seed.admin.email);
    const imp = await start(main, c.seed.a.businessUser.id);
    expect((await stop(imp)).statusCode).toBe(200);
    const tokenId = Number((await tokenRow(imp)).id);
    const { rows } = await c.t.pool.query(
      `select * from audit_logs where (data->>'token_id')::bigint = $1 order by id`,
      [tokenId],
    );
    expect(rows.map((r) => r.action)).toEqual(['impersonation.start', 'impersonation.stop']);
    for (const r of rows) {
      expect(r).toMatchObject({
        actor_id: c.seed.admin.id,
        target_user_id: c.seed.a.businessUser.id,
        agency_id: c.seed.a.agency.id,
        business_id: c.seed.a.business.id,
      });
    }
    expect(rows[0].data).toMatchObject({ impersonator_role: 'Admin', target_role: 'BusinessUser' });
    startId = Number(rows[0].id);
    stopId = Number(rows[1].id);
  });

  const list = async (token: string) => {
    const res = await c.t.app.inject({
      method: 'GET',
      url: '/api/v1/audit-logs?perPage=100&keyword=impersonation',
      headers: bearer(token),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      data: { id: number; agency_id: number | null; actor_id: number }[];
      meta: { total: number };
    };
  };

  it('records every start and stop', async () => {
    const { rows } = await c.t.pool.query(
      `select action, count(*)::int as n from audit_logs group by action order by action`,
    );
    const starts = (
      await c.t.pool.query(`select count(*)::int as n from auth_tokens where kind = 'impersonation'`)
    ).rows[0].n;
    expect(rows.find((r) => r.action === 'impersonation.start')?.n).toBe(starts);
    expect(rows.find((r) => r.action === 'impersonation.stop')?.n).toBeGreaterThanOrEqual(3);
  });

  it('shows them to the SuperAdmin and the Admin', async () => {
    const total = (await c.t.pool.query('select count(*)::int as n from audit_logs')).rows[0].n;
    for (const who of [c.seed.superAdmin, c.seed.admin]) {
      const body = await list(tok(who));
      expect(body.meta.total).toBe(total);
      const mine = body.data.filter((r) => r.id === startId || r.id === stopId);
      expect(mine).toHaveLength(2);
      expect(mine.every((r) => r.actor_id === c.seed.admin.id)).toBe(true);
    }
  });

  it("shows an AgencyAdmin its own agency's rows only", async () => {
    const a = await list(tok(c.seed.a.agencyAdmin));
    expect(a.data.map((r) => r.id)).toEqual(expect.arrayContaining([startId, stopId]));
    expect(a.data.every((r) => r.agency_id === c.seed.a.agency.id)).toBe(true);

    const b = await list(tok(c.seed.b.agencyAdmin));
    const bTotal = (
      await c.t.pool.query('select count(*)::int as n from audit_logs where agency_id = $1', [
        c.seed.b.agency.id,
      ])
    ).rows[0].n;
    expect(bTotal).toBeGreaterThan(0);
    expect(b.meta.total).toBe(bTotal);
    expect(b.data.every((r) => r.agency_id === c.seed.b.agency.id)).toBe(true);
    expect(b.data.map((r) => r.id)).not.toContain(startId);
    expect(b.data.map((r) => r.id)).not.toContain(stopId);
  });

  it('is closed to agency users and business users (403) and to impersonations of them', async () => {
    for (const who of [c.seed.a.agencyUser, c.seed.a.businessAdmin, c.seed.a.businessUser]) {
      const res = await c.t.app.inject({
        method: 'GET',
        url: '/api/v1/audit-logs',
        headers: bearer(tok(who)),
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        success: false,
        code: 'FORBIDDEN',
        message: 'This action is unauthorized.',
      });
    }
    const imp = await start(tok(c.seed.superAdmin), c.seed.a.businessUser.id);
    const res = await c.t.app.inject({ method: 'GET', url: '/api/v1/audit-logs', headers: bearer(imp) });
    expect(res.statusCode).toBe(403);
  });
});

describe('GET /v1/impersonate/users (the drawer list)', () => {
  const list = async (token: string, query = '') => {
    const res = await c.t.app.inject({
      method: 'GET',
      url: `/api/v1/impersonate/users${query}`,
      headers: bearer(token),
    });
    return res;
  };

  it('lists agency and business users of every agency for an admin, never admins', async () => {
    const res = await list(tok(c.seed.superAdmin), '?perPage=100');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const emails = body.data.map((u: { email: string }) => u.email).sort();
    expect(emails).toEqual(
      (['a', 'b'] as const)
        .flatMap((k) => [
          c.seed[k].agencyAdmin.email,
          c.seed[k].agencyUser.email,
          c.seed[k].businessAdmin.email,
          c.seed[k].businessUser.email,
        ])
        .sort(),
    );
    expect(body.meta.total).toBe(8);
    const bizA = body.data.find((u: { email: string }) => u.email === c.seed.a.businessAdmin.email);
    expect(bizA).toMatchObject({
      id: c.seed.a.businessAdmin.id,
      role_group: 'Business',
      subdomain_url: 'agency-a.localhost',
      domain: 'calls-a.example.com',
      business: 'Business A',
    });
  });

  it('lists only its own businesses users for an agency, and searches', async () => {
    const body = (await list(tok(c.seed.a.agencyAdmin), '?perPage=100')).json();
    expect(body.data.map((u: { email: string }) => u.email).sort()).toEqual(
      [c.seed.a.businessAdmin.email, c.seed.a.businessUser.email].sort(),
    );
    const found = (await list(tok(c.seed.superAdmin), `?keyword=${encodeURIComponent('bizuser@b')}`)).json();
    expect(found.data.map((u: { id: number }) => u.id)).toEqual([c.seed.b.businessUser.id]);
    expect(found.meta.total).toBe(1);
    // The user's business name and agency name match too.
    const ids = async (kw: string) =>
      (await list(tok(c.seed.superAdmin), `?perPage=100&keyword=${encodeURIComponent(kw)}`))
        .json()
        .data.map((u: { id: number }) => u.id)
        .sort();
    expect(await ids('Business B')).toEqual([c.seed.b.businessAdmin.id, c.seed.b.businessUser.id].sort());
    const ofAgencyB = await ids('Agency B');
    expect(ofAgencyB).toEqual(
      expect.arrayContaining([c.seed.b.agencyAdmin.id, c.seed.b.businessAdmin.id, c.seed.b.businessUser.id]),
    );
    expect(ofAgencyB).not.toContain(c.seed.a.businessAdmin.id);
    // The keyword's own % and _ are literal characters, not wildcards.
    for (const wild of ['%', '_']) {
      const none = (await list(tok(c.seed.superAdmin), `?keyword=${encodeURIComponent(wild)}`)).json();
      expect(none.meta.total).toBe(0);
    }
  });

  it('is refused to business users', async () => {
    expect((await list(tok(c.seed.a.businessAdmin))).statusCode).toBe(403);
  });
});

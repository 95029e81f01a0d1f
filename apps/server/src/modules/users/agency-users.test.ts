import { ZAgencyUserResponse } from '@stn/contracts/businesses';
import { describe, expect, it } from 'vitest';
import {
  bearer,
  confirmEmailChange,
  expect403,
  expectCrossTenant404,
  login,
  PASSWORD,
  row,
  snapshot,
  useSuite,
} from '../../../test/helpers.ts';

const c = useSuite({ sessions: true });
const TABLES = ['users', 'audit_logs', 'mail_outbox'];

let n = 0;
async function addUser(userType: '1' | '2' | '3' = '1') {
  n += 1;
  const res = await c.call(c.s.a.agencyAdmin.token, 'POST', '/v1/agency/users', {
    email: `staff${n}@a.test`,
    first_name: 'Stan',
    last_name: `Staff${n}`,
    user_type: userType,
    password: PASSWORD,
    password_confirmation: PASSWORD,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; email: string };
}
const audits = async (action: string, target: number) =>
  (
    await c.t.pool.query('select * from audit_logs where action = $1 and target_user_id = $2', [
      action,
      target,
    ])
  ).rows;

describe('POST /v1/agency/users', () => {
  it('adds an AgencyUser of the chosen type to the caller agency', async () => {
    const res = await c.call(c.s.a.agencyAdmin.token, 'POST', '/v1/agency/users', {
      email: 'Fiona@A.test',
      first_name: 'Fiona',
      last_name: 'Finance',
      user_type: '2',
      password: PASSWORD,
      password_confirmation: PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = ZAgencyUserResponse.parse(res.json());
    expect(body.message).toBe('User created successfully.');
    expect(await row(c.t, 'users', body.data.id)).toMatchObject({
      email: 'fiona@a.test',
      role: 'AgencyUser',
      role_group: 'Agency',
      user_type: '2',
      agency_id: c.seed.a.agency.id,
      business_id: null,
    });
    await login(c.t.app, 'fiona@a.test');
  });

  it('answers 422 with the field message and adds nobody', async () => {
    const before = await snapshot(c.t.pool, TABLES);
    const base = {
      email: 'new@a.test',
      first_name: 'N',
      user_type: '1',
      password: PASSWORD,
      password_confirmation: PASSWORD,
    };
    const cases: [object, string, string][] = [
      [{ ...base, user_type: '4' }, 'user_type', 'The selected user type is invalid.'],
      [{ ...base, email: c.seed.b.agencyAdmin.email }, 'email', 'The email has already been taken.'],
      [
        { ...base, password_confirmation: 'different-1' },
        'password_confirmation',
        'Password confirmation does not match',
      ],
      [{ ...base, first_name: '' }, 'first_name', 'The first name field is required'],
      [
        { ...base, password: 'short', password_confirmation: 'short' },
        'password',
        'The password must be at least 8 characters.',
      ],
    ];
    for (const [payload, field, message] of cases) {
      const res = await c.call(c.s.a.agencyAdmin.token, 'POST', '/v1/agency/users', payload);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors[field], res.body).toEqual([message]);
    }
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });
});

describe('GET /v1/agency/users, /all and /{id}', () => {
  it("lists the agency's users (not the AgencyAdmin, not another agency's) with keyword and type filter", async () => {
    await addUser('3');
    const res = await c.call(c.s.a.agencyAdmin.token, 'GET', '/v1/agency/users');
    expect(res.statusCode, res.body).toBe(200);
    const { rows } = await c.t.pool.query(
      `select id from users where agency_id = $1 and role = 'AgencyUser' order by id desc`,
      [c.seed.a.agency.id],
    );
    const body = res.json();
    expect(body.meta).toEqual({ total: rows.length, page: 1, perPage: 10 });
    expect(body.data.map((u: { id: number }) => u.id)).toEqual(rows.map((r) => r.id).slice(0, 10));
    const marketing = (await c.call(c.s.a.agencyAdmin.token, 'GET', '/v1/agency/users?user_type=3')).json();
    expect(marketing.data.length).toBeGreaterThan(0);
    expect(marketing.data.every((u: { user_type: string }) => u.user_type === '3')).toBe(true);
    const kw = (await c.call(c.s.a.agencyAdmin.token, 'GET', '/v1/agency/users?keyword=fiona')).json();
    expect(kw.data.map((u: { email: string }) => u.email)).toEqual(['fiona@a.test']);

    const all = (await c.call(c.s.a.agencyAdmin.token, 'GET', '/v1/agency/users/all')).json();
    expect(all.data.length).toBe(rows.length);

    const one = await c.call(c.s.a.agencyAdmin.token, 'GET', `/v1/agency/users/${c.seed.a.agencyUser.id}`);
    expect(one.json().data).toMatchObject({
      id: c.seed.a.agencyUser.id,
      email: c.seed.a.agencyUser.email,
      user_type: '1',
    });
    // The AgencyAdmin is not an "agency user".
    expect(
      (await c.call(c.s.a.agencyAdmin.token, 'GET', `/v1/agency/users/${c.seed.a.agencyAdmin.id}`))
        .statusCode,
    ).toBe(404);
  });
});

describe('PUT /v1/agency/users/{id}', () => {
  it('changes name, e-mail and type; disabling ends their sessions', async () => {
    const u = await addUser('1');
    const token = await login(c.t.app, u.email);
    const res = await c.call(c.s.a.agencyAdmin.token, 'PUT', `/v1/agency/users/${u.id}`, {
      email: 'renamed@a.test',
      first_name: 'Rita',
      last_name: 'Renamed',
      user_type: '3',
      active: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('User updated successfully.');
    // The new address is the user's once its link is followed (ADR 050).
    await confirmEmailChange(c.t, 'renamed@a.test');
    expect(await row(c.t, 'users', u.id)).toMatchObject({
      email: 'renamed@a.test',
      first_name: 'Rita',
      user_type: '3',
      active: false,
    });
    expect(
      (await c.t.app.inject({ method: 'GET', url: '/api/v1/auth/check', headers: bearer(token) })).statusCode,
    ).toBe(401);
    expect(await audits('agency_user.deactivate', u.id)).toHaveLength(1);
  });

  it('refuses a taken e-mail or a bad type, changing nothing', async () => {
    const u = await addUser();
    const before = await snapshot(c.t.pool, TABLES);
    const taken = await c.call(c.s.a.agencyAdmin.token, 'PUT', `/v1/agency/users/${u.id}`, {
      email: c.seed.a.businessAdmin.email,
      first_name: 'X',
      user_type: '1',
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.email).toEqual(['The email has already been taken.']);
    const type = await c.call(c.s.a.agencyAdmin.token, 'PUT', `/v1/agency/users/${u.id}`, {
      email: u.email,
      first_name: 'X',
      user_type: 'boss',
    });
    expect(type.json().errors.user_type).toEqual(['The selected user type is invalid.']);
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });
});

describe('DELETE, change-password and reset-password', () => {
  it('removes an agency user, with an audit entry', async () => {
    const u = await addUser();
    const res = await c.call(c.s.a.agencyAdmin.token, 'DELETE', `/v1/agency/users/${u.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('User deleted successfully.');
    expect(await row(c.t, 'users', u.id)).toBeUndefined();
    expect(await audits('agency_user.delete', u.id)).toHaveLength(1);
  });

  it("sets a password and ends the user's sessions", async () => {
    const u = await addUser();
    const token = await login(c.t.app, u.email);
    const res = await c.call(c.s.a.agencyAdmin.token, 'PUT', `/v1/agency/users/${u.id}/change-password`, {
      password: 'another-pass-1',
      password_confirmation: 'another-pass-1',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Password changed successfully.');
    expect(
      (await c.t.app.inject({ method: 'GET', url: '/api/v1/auth/check', headers: bearer(token) })).statusCode,
    ).toBe(401);
    await login(c.t.app, u.email, 'another-pass-1');
    expect(await audits('agency_user.password_change', u.id)).toHaveLength(1);

    const before = await snapshot(c.t.pool, TABLES);
    const bad = await c.call(c.s.a.agencyAdmin.token, 'PUT', `/v1/agency/users/${u.id}/change-password`, {
      password: 'another-pass-2',
      password_confirmation: 'nope-nope-nope',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.password_confirmation).toEqual(['Password confirmation does not match']);
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });

  it('e-mails a password reset link', async () => {
    const u = await addUser();
    const res = await c.call(c.s.a.agencyAdmin.token, 'POST', `/v1/agency/users/${u.id}/reset-password`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('A password reset link has been sent to the user.');
    const mails = (await c.t.pool.query(`select * from mail_outbox where "to" = $1`, [u.email])).rows;
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain('/password/reset?token=');
    expect(await audits('agency_user.password_reset', u.id)).toHaveLength(1);
  });
});

describe('who may manage agency users', () => {
  it('refuses every call to agency users of any type, business users and platform admins', async () => {
    const id = c.seed.a.agencyUser.id;
    const calls = [
      ['GET', '/v1/agency/users'],
      ['GET', '/v1/agency/users/all'],
      ['GET', `/v1/agency/users/${id}`],
      [
        'POST',
        '/v1/agency/users',
        {
          email: 'z@a.test',
          first_name: 'Z',
          user_type: '1',
          password: PASSWORD,
          password_confirmation: PASSWORD,
        },
      ],
      ['PUT', `/v1/agency/users/${id}`, { email: 'z@a.test', first_name: 'Z', user_type: '1' }],
      ['DELETE', `/v1/agency/users/${id}`],
      [
        'PUT',
        `/v1/agency/users/${id}/change-password`,
        { password: 'pwned-pass-1', password_confirmation: 'pwned-pass-1' },
      ],
      ['POST', `/v1/agency/users/${id}/reset-password`],
    ] as const;
    for (const who of [
      c.s.a.accountManager,
      c.s.a.financeManager,
      c.s.a.marketingManager,
      c.s.a.businessAdmin,
      c.s.admin,
    ]) {
      for (const [method, url, payload] of calls) {
        await expect403(c.t, TABLES, who.token, method, url, payload);
      }
    }
  });

  it("answers 404 to agency A's admin for agency B's users, changing nothing", async () => {
    const id = c.seed.b.agencyUser.id;
    const calls = [
      ['GET', `/v1/agency/users/${id}`],
      ['PUT', `/v1/agency/users/${id}`, { email: 'stolen@b.test', first_name: 'Z', user_type: '1' }],
      ['DELETE', `/v1/agency/users/${id}`],
      [
        'PUT',
        `/v1/agency/users/${id}/change-password`,
        { password: 'pwned-pass-1', password_confirmation: 'pwned-pass-1' },
      ],
      ['POST', `/v1/agency/users/${id}/reset-password`],
    ] as const;
    for (const [method, url, payload] of calls) {
      await expectCrossTenant404(c.t, {
        token: c.s.a.agencyAdmin.token,
        method,
        url: `/api${url}`,
        payload,
        control: { url: `/api/v1/agency/users/${c.seed.a.agencyUser.id}`, method: 'GET' },
        tables: TABLES,
      });
    }
    const list = (await c.call(c.s.a.agencyAdmin.token, 'GET', '/v1/agency/users?perPage=100')).json();
    expect(list.data.map((u: { id: number }) => u.id)).not.toContain(id);
  });
});

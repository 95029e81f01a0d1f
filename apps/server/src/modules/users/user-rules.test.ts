import { beforeAll, describe, expect, it } from 'vitest';
import {
  addBusinessUser,
  bearer,
  type call,
  confirmEmailChange,
  login,
  PASSWORD,
  rows,
  useSuite,
} from '../../../test/helpers.ts';

// The users module's rules, each written once in users/service.ts and reached from every path that
// changes a user: a changed e-mail is unconfirmed; a disabled user loses its sessions, and getting
// enabled again does not bring them back; a suspended tenant's users come back exactly.

const c = useSuite();

beforeAll(async () => {
  await rows(c.t, 'update businesses set owner_id = $1 where id = $2', [
    c.seed.b.businessAdmin.id,
    c.seed.b.business.id,
  ]);
  // Room for the users re-enabled and the businesses restored here.
  await rows(c.t, 'update businesses set number_of_users = 50');
  await rows(c.t, `update agencies set properties = properties || '{"installs": 100}'::jsonb`);
});

const authCheck = async (token: string) =>
  (await c.t.app.inject({ url: '/api/v1/auth/check', headers: bearer(token) })).statusCode;

const stateOf = async (id: number) =>
  (
    await rows(c.t, 'select active, suspended_by, email, email_verified_at from users where id = $1', [id])
  )[0] as {
    active: boolean;
    suspended_by: string | null;
    email: string;
    email_verified_at: Date | null;
  };

const verify = (id: number) => rows(c.t, 'update users set email_verified_at = now() where id = $1', [id]);

describe('a re-enabled user', () => {
  it('cannot use the session it had before being disabled, but signs in again (business user)', async () => {
    const admin = await login(c.t.app, c.seed.a.businessAdmin.email);
    const u = await addBusinessUser(c.t, c.seed.a.business.id, 'reenable@a.test', '3');
    const old = await login(c.t.app, u.email);
    const body = {
      first_name: 'Re',
      last_name: 'Enable',
      email: u.email,
      role: 'BusinessUser',
      user_type: '3',
    };
    expect(
      (await c.api.put(admin, `/api/v1/businesses/users/${u.id}`, { ...body, active: false })).statusCode,
    ).toBe(200);
    expect(await authCheck(old)).toBe(401);
    expect(
      (await c.api.put(admin, `/api/v1/businesses/users/${u.id}`, { ...body, active: true })).statusCode,
    ).toBe(200);
    expect(await authCheck(old)).toBe(401);
    expect(await authCheck(await login(c.t.app, u.email))).toBe(200);
  });

  it('cannot use its old session either when it is an agency user or a platform user', async () => {
    const agencyAdmin = await login(c.t.app, c.seed.a.agencyAdmin.email);
    const old = await login(c.t.app, c.seed.a.agencyUser.email);
    const body = { email: c.seed.a.agencyUser.email, first_name: 'Agency', user_type: '1' };
    const url = `/api/v1/agency/users/${c.seed.a.agencyUser.id}`;
    expect((await c.api.put(agencyAdmin, url, { ...body, active: false })).statusCode).toBe(200);
    expect((await c.api.put(agencyAdmin, url, { ...body, active: true })).statusCode).toBe(200);
    expect(await authCheck(old)).toBe(401);
    expect(await authCheck(await login(c.t.app, c.seed.a.agencyUser.email))).toBe(200);

    const superAdmin = await login(c.t.app, c.seed.superAdmin.email);
    const oldAdmin = await login(c.t.app, c.seed.admin.email);
    const admin = { first_name: 'Plain', last_name: '', email: c.seed.admin.email, role: 'Admin' };
    const adminUrl = `/api/v1/users/${c.seed.admin.id}`;
    expect((await c.api.put(superAdmin, adminUrl, { ...admin, active: false })).statusCode).toBe(200);
    expect((await c.api.put(superAdmin, adminUrl, { ...admin, active: true })).statusCode).toBe(200);
    expect(await authCheck(oldAdmin)).toBe(401);
    expect(await authCheck(await login(c.t.app, c.seed.admin.email))).toBe(200);
  });
});

describe('a suspended tenant', () => {
  it("an archived then restored agency: its users' old sessions stay ended, they sign in again, and a user disabled on its own stays disabled", async () => {
    const superAdmin = await login(c.t.app, c.seed.superAdmin.email);
    const agencyAdmin = await login(c.t.app, c.seed.b.agencyAdmin.email);
    const bizAdmin = await login(c.t.app, c.seed.b.businessAdmin.email);
    // Disabled on its own, before the archive.
    const bizB = await login(c.t.app, c.seed.b.businessAdmin.email);
    const loner = await addBusinessUser(c.t, c.seed.b.business.id, 'loner@b.test', '3');
    const lonerBody = {
      first_name: 'Lo',
      last_name: 'Ner',
      email: loner.email,
      role: 'BusinessUser',
      user_type: '3',
    };
    expect(
      (await c.api.put(bizB, `/api/v1/businesses/users/${loner.id}`, { ...lonerBody, active: false }))
        .statusCode,
    ).toBe(200);

    expect((await c.api.del(superAdmin, `/api/v1/agencies/${c.seed.b.agency.id}`)).statusCode).toBe(200);
    expect(await authCheck(agencyAdmin)).toBe(401);
    expect(await authCheck(bizAdmin)).toBe(401);
    expect(await stateOf(c.seed.b.agencyAdmin.id)).toMatchObject({
      active: false,
      suspended_by: `agency:${c.seed.b.agency.id}`,
    });
    expect(await stateOf(loner.id)).toMatchObject({ active: false, suspended_by: null });

    const restore = await c.api.post(superAdmin, `/api/v1/agencies/${c.seed.b.agency.id}/restore`);
    expect(restore.statusCode, restore.body).toBe(200);
    expect(await authCheck(agencyAdmin)).toBe(401);
    expect(await authCheck(bizAdmin)).toBe(401);
    expect(await stateOf(c.seed.b.agencyAdmin.id)).toMatchObject({ active: true, suspended_by: null });
    expect(await stateOf(c.seed.b.businessUser.id)).toMatchObject({ active: true, suspended_by: null });
    expect(await stateOf(loner.id)).toMatchObject({ active: false, suspended_by: null });
    expect(await authCheck(await login(c.t.app, c.seed.b.agencyAdmin.email))).toBe(200);
    expect(await authCheck(await login(c.t.app, c.seed.b.businessAdmin.email))).toBe(200);
    const refused = await c.t.app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { email: loner.email, password: PASSWORD },
    });
    expect(refused.statusCode).toBe(422);
  });

  it("a deleted then restored business: its users' old sessions stay ended, they sign in again, and a user disabled on its own stays disabled", async () => {
    const agencyAdmin = await login(c.t.app, c.seed.a.agencyAdmin.email);
    const bizAdmin = await login(c.t.app, c.seed.a.businessAdmin.email);
    const loner = await addBusinessUser(c.t, c.seed.a.business.id, 'loner@a.test', '3');
    const lonerBody = {
      first_name: 'Lo',
      last_name: 'Ner',
      email: loner.email,
      role: 'BusinessUser',
      user_type: '3',
    };
    expect(
      (await c.api.put(bizAdmin, `/api/v1/businesses/users/${loner.id}`, { ...lonerBody, active: false }))
        .statusCode,
    ).toBe(200);
    const bizUser = await login(c.t.app, c.seed.a.businessUser.email);

    expect((await c.api.del(agencyAdmin, `/api/v1/business/${c.seed.a.business.id}`)).statusCode).toBe(200);
    expect(await authCheck(bizAdmin)).toBe(401);
    expect(await authCheck(bizUser)).toBe(401);
    expect(await stateOf(c.seed.a.businessUser.id)).toMatchObject({
      active: false,
      suspended_by: `business:${c.seed.a.business.id}`,
    });

    const restore = await c.api.put(agencyAdmin, `/api/v1/business/${c.seed.a.business.id}/restore`);
    expect(restore.statusCode, restore.body).toBe(200);
    expect(await authCheck(bizAdmin)).toBe(401);
    expect(await authCheck(bizUser)).toBe(401);
    expect(await stateOf(c.seed.a.businessUser.id)).toMatchObject({ active: true, suspended_by: null });
    expect(await stateOf(loner.id)).toMatchObject({ active: false, suspended_by: null });
    expect(await authCheck(await login(c.t.app, c.seed.a.businessAdmin.email))).toBe(200);
    expect(await authCheck(await login(c.t.app, c.seed.a.businessUser.email))).toBe(200);
  });

  it("a business deleted before its agency's archive stays deleted, with its users, when the agency comes back", async () => {
    const superAdmin = await login(c.t.app, c.seed.superAdmin.email);
    const agencyAdmin = await login(c.t.app, c.seed.a.agencyAdmin.email);
    expect((await c.api.del(agencyAdmin, `/api/v1/business/${c.seed.a.business.id}`)).statusCode).toBe(200);
    expect((await c.api.del(superAdmin, `/api/v1/agencies/${c.seed.a.agency.id}`)).statusCode).toBe(200);
    expect((await c.api.post(superAdmin, `/api/v1/agencies/${c.seed.a.agency.id}/restore`)).statusCode).toBe(
      200,
    );
    expect(await stateOf(c.seed.a.agencyUser.id)).toMatchObject({ active: true, suspended_by: null });
    expect(await stateOf(c.seed.a.businessUser.id)).toMatchObject({
      active: false,
      suspended_by: `business:${c.seed.a.business.id}`,
    });
    const again = await login(c.t.app, c.seed.a.agencyAdmin.email);
    expect((await c.api.put(again, `/api/v1/business/${c.seed.a.business.id}/restore`)).statusCode).toBe(200);
    expect(await stateOf(c.seed.a.businessUser.id)).toMatchObject({ active: true, suspended_by: null });
  });
});

describe('a changed e-mail waits for its confirmation, on every path that changes it', () => {
  // Each path changes one user's address; the same call with the same address keeps it confirmed.
  const paths: {
    name: string;
    who: () => { id: number; email: string };
    as: () => string;
    send: (token: string, email: string) => ReturnType<ReturnType<typeof call>['put']>;
  }[] = [
    {
      name: 'the profile',
      who: () => c.seed.b.agencyUser,
      as: () => c.seed.b.agencyUser.email,
      send: (token, email) =>
        c.api.put(token, '/api/v1/profile', {
          first_name: 'Me',
          last_name: '',
          email,
          current_password: PASSWORD,
        }),
    },
    {
      name: 'a business user edit',
      who: () => c.seed.b.businessUser,
      as: () => c.seed.b.businessAdmin.email,
      send: (token, email) =>
        c.api.put(token, `/api/v1/businesses/users/${c.seed.b.businessUser.id}`, {
          first_name: 'Biz',
          last_name: 'User',
          email,
          role: 'BusinessUser',
          user_type: '3',
        }),
    },
    {
      name: 'an agency user edit',
      who: () => c.seed.b.agencyUser,
      as: () => c.seed.b.agencyAdmin.email,
      send: (token, email) =>
        c.api.put(token, `/api/v1/agency/users/${c.seed.b.agencyUser.id}`, {
          email,
          first_name: 'Ag',
          user_type: '1',
        }),
    },
    {
      name: 'a global user edit',
      who: () => c.seed.admin,
      as: () => c.seed.superAdmin.email,
      send: (token, email) =>
        c.api.put(token, `/api/v1/users/${c.seed.admin.id}`, {
          first_name: 'Plain',
          last_name: '',
          email,
          role: 'Admin',
        }),
    },
    {
      name: "a business's owner edit",
      who: () => c.seed.b.businessAdmin,
      as: () => c.seed.b.agencyAdmin.email,
      send: (token, email) =>
        c.api.put(token, `/api/v1/business/${c.seed.b.business.id}`, { owner: { email } }),
    },
    {
      name: "an agency's admin edit",
      who: () => c.seed.b.agencyAdmin,
      as: () => c.seed.superAdmin.email,
      send: (token, email) => c.api.put(token, `/api/v1/agencies/${c.seed.b.agency.id}`, { user: { email } }),
    },
  ];

  for (const path of paths) {
    it(path.name, async () => {
      const user = path.who();
      const token = await login(c.t.app, path.as());
      const current = (await stateOf(user.id)).email;
      await verify(user.id);
      const same = await path.send(token, current);
      expect(same.statusCode, same.body).toBe(200);
      expect((await stateOf(user.id)).email_verified_at).not.toBeNull();

      // A new address waits for the link sent to it (ADR 050): the current one stays, confirmed.
      const changed = `changed.${user.id}@rules.test`;
      const res = await path.send(token, changed);
      expect(res.statusCode, res.body).toBe(200);
      expect(await stateOf(user.id)).toMatchObject({ email: current });
      expect((await stateOf(user.id)).email_verified_at).not.toBeNull();
      await confirmEmailChange(c.t, changed);
      expect(await stateOf(user.id)).toMatchObject({ email: changed });
      expect((await stateOf(user.id)).email_verified_at).not.toBeNull();
      // Put the address back, so that the other paths still find their users.
      expect((await path.send(token, current)).statusCode).toBe(200);
      await confirmEmailChange(c.t, current);
      expect(await stateOf(user.id)).toMatchObject({ email: current });
    });
  }
});

import { describe, expect, it } from 'vitest';
import {
  bearer,
  confirmEmailChange,
  expect422,
  login,
  rows,
  snapshot,
  useSuite,
} from '../../../test/helpers.ts';

const c = useSuite();
const base = '/api/v1/users';

const sa = () => c.token(c.seed.superAdmin.email);
const newAdmin = (over: Record<string, unknown> = {}) => ({
  first_name: 'Ada',
  last_name: 'Admin',
  email: 'ada@main.test',
  role: 'Admin',
  password: 'ada-password-1',
  password_confirmation: 'ada-password-1',
  ...over,
});

describe('global users: SuperAdmin only', () => {
  it('refuses an Admin, agencies and businesses (403) on every call, nothing changes', async () => {
    const id = c.seed.admin.id;
    const before = await snapshot(c.t.pool, ['users']);
    for (const email of [c.seed.admin.email, c.seed.a.agencyAdmin.email, c.seed.a.businessAdmin.email]) {
      const token = await c.token(email);
      for (const res of [
        await c.api.get(token, base),
        await c.api.get(token, `${base}/${id}`),
        await c.api.post(token, base, newAdmin()),
        await c.api.put(token, `${base}/${id}`, { first_name: 'x', email: 'x@main.test', role: 'Admin' }),
        await c.api.del(token, `${base}/${id}`),
        await c.api.put(token, `${base}/${id}/change-password`, {
          password: 'whatever-123',
          password_confirmation: 'whatever-123',
        }),
      ]) {
        expect(res.statusCode, `${email}: ${res.body}`).toBe(403);
      }
    }
    expect(await snapshot(c.t.pool, ['users'])).toEqual(before);
  });

  it('lists platform users only, with keyword and role', async () => {
    const res = await c.api.get(await sa(), base);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().meta).toEqual({ total: 2, page: 1, perPage: 10 });
    expect(
      res
        .json()
        .data.map((u: { email: string }) => u.email)
        .sort(),
    ).toEqual([c.seed.admin.email, c.seed.superAdmin.email]);
    const supers = (await c.api.get(await sa(), `${base}?role=SuperAdmin`)).json();
    expect(supers.data.map((u: { id: number }) => u.id)).toEqual([c.seed.superAdmin.id]);
    const kw = (await c.api.get(await sa(), `${base}?keyword=plain`)).json();
    expect(kw.data.map((u: { id: number }) => u.id)).toEqual([c.seed.admin.id]);
  });

  it('does not find agency or business users by id (404)', async () => {
    for (const id of [c.seed.a.agencyAdmin.id, c.seed.b.businessUser.id]) {
      const before = await snapshot(c.t.pool, ['users']);
      for (const res of [
        await c.api.get(await sa(), `${base}/${id}`),
        await c.api.put(await sa(), `${base}/${id}`, { first_name: 'x', email: 'x@x.test', role: 'Admin' }),
        await c.api.del(await sa(), `${base}/${id}`),
        await c.api.put(await sa(), `${base}/${id}/change-password`, {
          password: 'whatever-123',
          password_confirmation: 'whatever-123',
        }),
      ]) {
        expect(res.statusCode, res.body).toBe(404);
      }
      expect(await snapshot(c.t.pool, ['users'])).toEqual(before);
    }
  });

  it('creates an Admin who can sign in', async () => {
    const res = await c.api.post(await sa(), base, newAdmin());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'User created successfully.',
      data: { email: 'ada@main.test', role: 'Admin', active: true },
    });
    const [row] = await rows(c.t, 'select * from users where email = $1', ['ada@main.test']);
    expect(row).toMatchObject({ role_group: 'Admin', role: 'Admin', agency_id: null, business_id: null });
    await login(c.t.app, 'ada@main.test', 'ada-password-1');
  });

  it('refuses bad input (422, nothing saved)', async () => {
    const before = await snapshot(c.t.pool, ['users']);
    expect422(await c.api.post(await sa(), base, newAdmin()), 'email', 'The email has already been taken.');
    expect422(
      await c.api.post(await sa(), base, newAdmin({ email: 'z@main.test', role: 'AgencyAdmin' })),
      'role',
      'The selected role is invalid.',
    );
    expect422(
      await c.api.post(
        await sa(),
        base,
        newAdmin({ email: 'z@main.test', password_confirmation: 'nope-nope-1' }),
      ),
      'password_confirmation',
      'Password confirmation does not match',
    );
    expect(await snapshot(c.t.pool, ['users'])).toEqual(before);
  });

  it('updates a user; nobody changes their own role or deletes themselves', async () => {
    const id = (await rows(c.t, "select id from users where email = 'ada@main.test'"))[0].id;
    const res = await c.api.put(await sa(), `${base}/${id}`, {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada.l@main.test',
      role: 'SuperAdmin',
    });
    expect(res.statusCode, res.body).toBe(200);
    // The new address is the user's once its link is followed (ADR 050).
    await confirmEmailChange(c.t, 'ada.l@main.test');
    const [row] = await rows(c.t, 'select last_name, email, role from users where id = $1', [id]);
    expect(row).toEqual({ last_name: 'Lovelace', email: 'ada.l@main.test', role: 'SuperAdmin' });

    const before = await snapshot(c.t.pool, ['users', 'audit_logs']);
    const demote = await c.api.put(await sa(), `${base}/${c.seed.superAdmin.id}`, {
      first_name: 'Super',
      email: c.seed.superAdmin.email,
      role: 'Admin',
    });
    expect(demote.statusCode).toBe(403);
    const self = await c.api.del(await sa(), `${base}/${c.seed.superAdmin.id}`);
    expect(self.statusCode).toBe(403);
    expect(self.json().message).toBe('You cannot delete your own account.');
    expect(await snapshot(c.t.pool, ['users', 'audit_logs'])).toEqual(before);
  });

  it("changes another user's password (sessions end, audited)", async () => {
    const id = (await rows(c.t, "select id from users where email = 'ada.l@main.test'"))[0].id;
    const theirs = await login(c.t.app, 'ada.l@main.test', 'ada-password-1');
    const res = await c.api.put(await sa(), `${base}/${id}/change-password`, {
      password: 'new-ada-pass-1',
      password_confirmation: 'new-ada-pass-1',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await c.t.app.inject({ url: '/api/v1/profile', headers: bearer(theirs) })).statusCode).toBe(401);
    await login(c.t.app, 'ada.l@main.test', 'new-ada-pass-1');
    expect(await rows(c.t, "select * from audit_logs where action = 'user.password_change'")).toHaveLength(1);
    expect422(
      await c.api.put(await sa(), `${base}/${id}/change-password`, {
        password: 'short',
        password_confirmation: 'short',
      }),
      'password',
      'The password must be at least 8 characters.',
    );
  });

  it('a changed e-mail waits for its confirmation; an unchanged one stays verified', async () => {
    const created = await c.api.post(await sa(), base, newAdmin({ email: 'grace@main.test' }));
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().data.id;
    const verifiedAt = async () =>
      (await rows(c.t, 'select email_verified_at from users where id = $1', [id]))[0].email_verified_at;
    expect(await verifiedAt()).not.toBeNull();
    const same = await c.api.put(await sa(), `${base}/${id}`, {
      first_name: 'Grace',
      email: 'Grace@main.test',
      role: 'Admin',
    });
    expect(same.statusCode, same.body).toBe(200);
    expect(await verifiedAt()).not.toBeNull();
    const changed = await c.api.put(await sa(), `${base}/${id}`, {
      first_name: 'Grace',
      email: 'grace.h@main.test',
      role: 'Admin',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const emailOf = async () => (await rows(c.t, 'select email from users where id = $1', [id]))[0].email;
    expect(await emailOf()).toBe('grace@main.test');
    expect(await verifiedAt()).not.toBeNull();
    await confirmEmailChange(c.t, 'grace.h@main.test');
    expect(await emailOf()).toBe('grace.h@main.test');
    expect(await verifiedAt()).not.toBeNull();
  });

  it('deletes another platform user with an audit entry', async () => {
    const id = (await rows(c.t, "select id from users where email = 'ada.l@main.test'"))[0].id;
    const res = await c.api.del(await sa(), `${base}/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(await rows(c.t, 'select id from users where id = $1', [id])).toEqual([]);
    const [entry] = await rows(c.t, "select * from audit_logs where action = 'user.delete'");
    expect(entry).toMatchObject({ actor_id: c.seed.superAdmin.id, target_user_id: id });
  });
});

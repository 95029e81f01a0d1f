import { CUSTOM_TYPE_PAGES } from '@stn/contracts/roles';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  addBusinessUser,
  bearer,
  confirmEmailChange,
  expect422,
  expectCrossTenant404,
  login,
  rows,
  snapshot,
  touched,
  useSuite,
} from '../../../test/helpers.ts';

const c = useSuite();
const base = '/api/v1/businesses/users';
const TABLES = ['users', 'audit_logs', 'auth_tokens', 'mail_outbox'];

const seats = (businessId: number, n: number) =>
  c.t.pool.query('update businesses set number_of_users = $2 where id = $1', [businessId, n]);
const newUser = (over: Record<string, unknown> = {}) => ({
  first_name: 'Sally',
  last_name: 'Sales',
  email: `user${Math.random().toString(36).slice(2, 8)}@a.test`,
  password: 'a-good-password',
  password_confirmation: 'a-good-password',
  role: 'BusinessUser',
  user_type: '3',
  agent_type: 'smsAgent',
  ...over,
});
const admin = () => c.token(c.seed.a.businessAdmin.email);

describe('POST /v1/businesses/users', () => {
  beforeEach(() => seats(c.seed.a.business.id, 20));

  it('creates a BusinessUser with its type and agent type in the caller business', async () => {
    const body = newUser({ email: 'sally@a.test' });
    const res = await c.api.post(await admin(), base, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      message: 'User created successfully.',
      data: {
        email: 'sally@a.test',
        role: 'BusinessUser',
        user_type: '3',
        agent_type: 'smsAgent',
        active: true,
      },
    });
    const [row] = await rows(c.t, 'select * from users where email = $1', ['sally@a.test']);
    expect(row).toMatchObject({
      business_id: c.seed.a.business.id,
      agency_id: c.seed.a.agency.id,
      role_group: 'Business',
      role: 'BusinessUser',
      user_type: '3',
      agent_type: 'smsAgent',
      first_name: 'Sally',
    });
    expect(row.password_hash).toMatch(/^\$argon2/);
    // The password set by the admin works.
    await login(c.t.app, 'sally@a.test', 'a-good-password');
  });

  it('creates a custom-type user with its page list, and a BusinessAdmin without a type', async () => {
    const custom = await c.api.post(
      await admin(),
      base,
      newUser({
        email: 'custom@a.test',
        user_type: '4',
        agent_type: null,
        settings: { custom_type_pages: ['inbox_page', 'users_page'] },
      }),
    );
    expect(custom.statusCode, custom.body).toBe(200);
    expect(custom.json().data.settings.custom_type_pages).toEqual(['inbox_page', 'users_page']);
    const [row] = await rows(c.t, 'select settings, user_type from users where email = $1', [
      'custom@a.test',
    ]);
    expect(row).toEqual({ user_type: '4', settings: { custom_type_pages: ['inbox_page', 'users_page'] } });

    const ba = await c.api.post(
      await admin(),
      base,
      newUser({ email: 'boss@a.test', role: 'BusinessAdmin', user_type: '2' }),
    );
    expect(ba.statusCode, ba.body).toBe(200);
    expect(ba.json().data).toMatchObject({ role: 'BusinessAdmin', user_type: null });
  });

  it('refuses bad input with the spec messages and creates nothing', async () => {
    const token = await admin();
    const before = await snapshot(c.t.pool, ['users']);
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { password_confirmation: 'other-password' },
        'password_confirmation',
        'Password confirmation does not match',
      ],
      [{ email: 'not-an-email' }, 'email', 'The email must be a valid email address.'],
      [{ email: c.seed.b.businessUser.email }, 'email', 'The email has already been taken.'],
      [{ user_type: undefined }, 'user_type', 'The user type field is required'],
      [{ user_type: '4' }, 'settings.custom_type_pages', 'The custom type pages field is required'],
      [
        { user_type: '4', settings: { custom_type_pages: [] } },
        'settings.custom_type_pages',
        'The custom type pages field is required',
      ],
      [{ agent_type: 'robot' }, 'agent_type', 'The selected agent type is invalid.'],
      [{ first_name: '' }, 'first_name', 'The first name field is required'],
      [
        { password: 'short', password_confirmation: 'short' },
        'password',
        'The password must be at least 8 characters.',
      ],
    ];
    for (const [over, field, message] of cases) {
      expect422(await c.api.post(token, base, newUser(over)), field, message);
    }
    // An unknown page is refused too (the message names the item by its index: the shared label rule).
    const page = await c.api.post(
      token,
      base,
      newUser({ user_type: '4', settings: { custom_type_pages: ['nope_page'] } }),
    );
    expect(page.statusCode).toBe(422);
    expect(Object.keys(page.json().errors)).toEqual(['settings.custom_type_pages.0']);
    expect(await snapshot(c.t.pool, ['users'])).toEqual(before);
  });

  it('enforces the number_of_users limit of active users (422, nothing created)', async () => {
    const [{ n }] = await rows(
      c.t,
      'select count(*)::int as n from users where business_id = $1 and active',
      [c.seed.a.business.id],
    );
    await seats(c.seed.a.business.id, n);
    const before = await snapshot(c.t.pool, ['users']);
    const res = await c.api.post(await admin(), base, newUser());
    expect422(
      res,
      'users',
      `This business has reached its limit of ${n} active users. Upgrade the plan or deactivate a user first.`,
    );
    expect(await snapshot(c.t.pool, ['users'])).toEqual(before);
    await seats(c.seed.a.business.id, n + 1);
    expect((await c.api.post(await admin(), base, newUser())).statusCode).toBe(200);
  });
});

describe('who may manage business users', () => {
  beforeAll(() => seats(c.seed.a.business.id, 100));

  it('refuses a SalesUser, agencies and admins (403) on every managing call', async () => {
    const id = c.seed.a.businessAdmin.id;
    for (const email of [c.seed.a.businessUser.email, c.seed.a.agencyAdmin.email, c.seed.admin.email]) {
      const token = await c.token(email);
      const before = await snapshot(c.t.pool, ['users']);
      for (const res of [
        await c.api.get(token, base),
        await c.api.get(token, `${base}/${id}`),
        await c.api.post(token, base, newUser()),
        await c.api.put(token, `${base}/${id}`, {
          first_name: 'X',
          email: 'x@a.test',
          role: 'BusinessAdmin',
        }),
        await c.api.del(token, `${base}/${id}`),
        await c.api.put(token, `${base}/${id}/change-password`, {
          password: 'xxxxxxxx1',
          password_confirmation: 'xxxxxxxx1',
        }),
        await c.api.post(token, `${base}/${id}/reset-password`),
      ]) {
        expect(res.statusCode, `${email}: ${res.body}`).toBe(403);
        expect(res.json()).toMatchObject({ success: false, message: 'This action is unauthorized.' });
      }
      expect(await snapshot(c.t.pool, ['users'])).toEqual(before);
    }
  });

  it('lets AdminSupport and MarketingUser manage users, a custom type only with users_page', async () => {
    const biz = c.seed.a.business.id;
    const support = await addBusinessUser(c.t, biz, 'support@a.test', '1');
    const marketing = await addBusinessUser(c.t, biz, 'marketing@a.test', '2');
    const withPage = await addBusinessUser(c.t, biz, 'custom-users@a.test', '4', ['users_page']);
    const without = await addBusinessUser(c.t, biz, 'custom-inbox@a.test', '4', ['inbox_page']);
    for (const u of [support, marketing, withPage]) {
      const res = await c.api.get(await c.token(u.email), base);
      expect(res.statusCode, res.body).toBe(200);
    }
    const res = await c.api.get(await c.token(without.email), base);
    expect(res.statusCode).toBe(403);
  });

  it('lets only a BusinessAdmin create, edit or delete a BusinessAdmin', async () => {
    const token = await c.token('support@a.test');
    const before = await snapshot(c.t.pool, ['users']);
    const create = await c.api.post(token, base, newUser({ role: 'BusinessAdmin' }));
    expect(create.statusCode).toBe(403);
    expect(create.json().message).toBe('Only a business admin can manage business admins.');
    const del = await c.api.del(token, `${base}/${c.seed.a.businessAdmin.id}`);
    expect(del.statusCode).toBe(403);
    const pw = await c.api.put(token, `${base}/${c.seed.a.businessAdmin.id}/change-password`, {
      password: 'another-pass-1',
      password_confirmation: 'another-pass-1',
    });
    expect(pw.statusCode).toBe(403);
    // Nor can they make a user an admin.
    const promote = await c.api.put(token, `${base}/${c.seed.a.businessUser.id}`, {
      first_name: 'bizuser',
      email: c.seed.a.businessUser.email,
      role: 'BusinessAdmin',
    });
    expect(promote.statusCode).toBe(403);
    expect(await snapshot(c.t.pool, ['users'])).toEqual(before);
  });
});

describe('rights a manager may give (ADR 009)', () => {
  const BEYOND = 'You cannot give a user more rights than you may grant, or manage a user who has them.';
  const ALL_PAGES = [...CUSTOM_TYPE_PAGES];
  const biz = () => c.seed.a.business.id;
  const idOf = async (email: string) =>
    (await rows(c.t, 'select id from users where email = $1', [email]))[0].id;
  const expectBeyond = (res: { statusCode: number; body: string; json: () => unknown }) => {
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({ success: false, message: BEYOND });
  };
  const TOUCHED = ['users', 'auth_tokens', 'audit_logs', 'mail_outbox', 'user_tokens'];
  beforeAll(() => seats(c.seed.a.business.id, 100));

  it('a custom user with users_page gives SalesUsers and custom users with its own pages only', async () => {
    const token = await c.token('custom-users@a.test');
    const before = await snapshot(c.t.pool, ['users']);
    for (const over of [
      { user_type: '1' },
      { user_type: '2' },
      { user_type: '4', settings: { custom_type_pages: ALL_PAGES } },
      { user_type: '4', settings: { custom_type_pages: ['users_page', 'contacts_page'] } },
    ]) {
      expectBeyond(await c.api.post(token, base, newUser({ ...over, agent_type: null })));
    }
    expect(await snapshot(c.t.pool, ['users'])).toEqual(before);
    const sales = await c.api.post(token, base, newUser());
    expect(sales.statusCode, sales.body).toBe(200);
    const own = await c.api.post(
      token,
      base,
      newUser({ user_type: '4', settings: { custom_type_pages: ['users_page'] } }),
    );
    expect(own.statusCode, own.body).toBe(200);
  });

  it('AdminSupport and MarketingUser give SalesUsers and custom users with any pages, not types 1 and 2', async () => {
    for (const email of ['support@a.test', 'marketing@a.test']) {
      const token = await c.token(email);
      const before = await snapshot(c.t.pool, ['users']);
      for (const user_type of ['1', '2']) expectBeyond(await c.api.post(token, base, newUser({ user_type })));
      expect(await snapshot(c.t.pool, ['users'])).toEqual(before);
      for (const over of [
        { user_type: '3' },
        { user_type: '4', settings: { custom_type_pages: ALL_PAGES } },
      ]) {
        const res = await c.api.post(token, base, newUser(over));
        expect(res.statusCode, `${email}: ${res.body}`).toBe(200);
      }
    }
    // A BusinessAdmin gives every type.
    for (const user_type of ['1', '2']) {
      const res = await c.api.post(await admin(), base, newUser({ user_type }));
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('applies the same rule when an edit changes the type or pages', async () => {
    const sales = await addBusinessUser(c.t, biz(), 'raise-me@a.test', '3');
    const narrow = await addBusinessUser(c.t, biz(), 'narrow@a.test', '4', ['users_page']);
    const body = (email: string, over: Record<string, unknown>) => ({
      first_name: 'R',
      email,
      role: 'BusinessUser',
      ...over,
    });
    const support = await c.token('support@a.test');
    const custom = await c.token('custom-users@a.test');
    const before = await snapshot(c.t.pool, ['users']);
    for (const user_type of ['1', '2'])
      expectBeyond(await c.api.put(support, `${base}/${sales.id}`, body(sales.email, { user_type })));
    expectBeyond(
      await c.api.put(
        custom,
        `${base}/${sales.id}`,
        body(sales.email, {
          user_type: '4',
          settings: { custom_type_pages: ['users_page', 'contacts_page'] },
        }),
      ),
    );
    expectBeyond(
      await c.api.put(
        custom,
        `${base}/${narrow.id}`,
        body(narrow.email, { user_type: '4', settings: { custom_type_pages: ALL_PAGES } }),
      ),
    );
    expectBeyond(await c.api.put(custom, `${base}/${narrow.id}`, body(narrow.email, { user_type: '1' })));
    expect(await snapshot(c.t.pool, ['users'])).toEqual(before);

    const within = await c.api.put(
      custom,
      `${base}/${sales.id}`,
      body(sales.email, { user_type: '4', settings: { custom_type_pages: ['users_page'] } }),
    );
    expect(within.statusCode, within.body).toBe(200);
    const wider = await c.api.put(
      support,
      `${base}/${narrow.id}`,
      body(narrow.email, { user_type: '4', settings: { custom_type_pages: ALL_PAGES } }),
    );
    expect(wider.statusCode, wider.body).toBe(200);
  });

  it('refuses editing, deleting or setting the password of a user with rights one may not grant', async () => {
    const wide = await addBusinessUser(c.t, biz(), 'wide@a.test', '4', ALL_PAGES);
    const support2 = await addBusinessUser(c.t, biz(), 'support-two@a.test', '1');
    const support = { id: await idOf('support@a.test'), email: 'support@a.test' };
    const marketing = { id: await idOf('marketing@a.test'), email: 'marketing@a.test' };
    const cases: [string, { id: number; email: string }, string | null][] = [
      ['custom-users@a.test', wide, '4'],
      ['custom-users@a.test', support, '1'],
      ['support@a.test', marketing, '2'],
      ['support@a.test', support2, '1'],
      ['marketing@a.test', support, '1'],
    ];
    for (const [caller, target, user_type] of cases) {
      const token = await touched(c, caller);
      const before = await snapshot(c.t.pool, TOUCHED);
      const [row] = await rows(c.t, 'select settings from users where id = $1', [target.id]);
      for (const res of [
        await c.api.put(token, `${base}/${target.id}`, {
          first_name: 'Renamed',
          email: target.email,
          role: 'BusinessUser',
          user_type,
          settings: row.settings,
        }),
        await c.api.del(token, `${base}/${target.id}`),
        await c.api.put(token, `${base}/${target.id}/change-password`, {
          password: 'taken-over-1',
          password_confirmation: 'taken-over-1',
        }),
        await c.api.post(token, `${base}/${target.id}/reset-password`),
      ]) {
        expectBeyond(res);
      }
      expect(await snapshot(c.t.pool, TOUCHED)).toEqual(before);
    }
    // One's own name is still one's own to edit.
    const self = await c.api.put(await c.token('support@a.test'), `${base}/${support.id}`, {
      first_name: 'support',
      last_name: 'Desk',
      email: support.email,
      role: 'BusinessUser',
      user_type: '1',
    });
    expect(self.statusCode, self.body).toBe(200);
  });
});

describe('listing and reading', () => {
  it('lists only the business users, 10 per page, with keyword, status and role', async () => {
    const token = await admin();
    const res = await c.api.get(token, base);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const [{ n }] = await rows(c.t, 'select count(*)::int as n from users where business_id = $1', [
      c.seed.a.business.id,
    ]);
    expect(body.meta).toEqual({ total: n, page: 1, perPage: 10 });
    expect(body.data.length).toBe(Math.min(n, 10));
    const emails = body.data.map((u: { email: string }) => u.email);
    expect(emails).not.toContain(c.seed.b.businessAdmin.email);
    expect(emails).not.toContain(c.seed.a.agencyAdmin.email);

    const kw = await c.api.get(token, `${base}?keyword=marketing`);
    expect(kw.json().data.map((u: { email: string }) => u.email)).toEqual(['marketing@a.test']);
    const admins = await c.api.get(token, `${base}?role=BusinessAdmin&perPage=50`);
    expect(admins.json().data.every((u: { role: string }) => u.role === 'BusinessAdmin')).toBe(true);
    expect(admins.json().data.length).toBeGreaterThan(0);
    // A keyword's LIKE wildcards are literal.
    expect((await c.api.get(token, `${base}?keyword=%25`)).json().meta.total).toBe(0);
  });

  it('reads one user; another business answers 404 on every by-id call, nothing changes', async () => {
    const res = await c.api.get(await admin(), `${base}/${c.seed.a.businessUser.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: c.seed.a.businessUser.id, user_type: '3', is_owner: false });

    const token = await touched(c, c.seed.b.businessAdmin.email);
    const id = c.seed.a.businessUser.id;
    // Each control is the same call on tenant B's own rows, made harmless: an empty body (422), deleting
    // oneself (403), or a reset link to B's own user.
    const own = c.seed.b.businessUser.id;
    const self = c.seed.b.businessAdmin.id;
    for (const [method, url, payload, control] of [
      ['GET', `${base}/${id}`, undefined, { url: `${base}/${own}` }],
      [
        'PUT',
        `${base}/${id}`,
        { first_name: 'Hacked', email: 'hacked@b.test', role: 'BusinessUser', user_type: '3' },
        { url: `${base}/${own}`, payload: {} },
      ],
      ['DELETE', `${base}/${id}`, undefined, { url: `${base}/${self}` }],
      [
        'PUT',
        `${base}/${id}/change-password`,
        { password: 'hacked-pass-1', password_confirmation: 'hacked-pass-1' },
        { url: `${base}/${own}/change-password`, payload: {} },
      ],
      ['POST', `${base}/${id}/reset-password`, undefined, { url: `${base}/${own}/reset-password` }],
    ] as const) {
      await expectCrossTenant404(c.t, { token, method, url, payload, control, tables: TABLES });
    }
  });

  it('answers /all and /agents to any business user of the business, agents by channel', async () => {
    const biz = c.seed.a.business.id;
    await c.t.pool.query(
      `update users set agent_type = case email when 'support@a.test' then 'voiceAgent'
         when 'marketing@a.test' then 'agent' else agent_type end where business_id = $1`,
      [biz],
    );
    const sales = await c.token(c.seed.a.businessUser.email);
    const all = await c.api.get(sales, `${base}/all`);
    expect(all.statusCode, all.body).toBe(200);
    const expected = await rows(c.t, 'select email from users where business_id = $1 and active', [biz]);
    expect(
      all
        .json()
        .data.map((u: { email: string }) => u.email)
        .sort(),
    ).toEqual(expected.map((r) => r.email).sort());

    const agents = (q: string) =>
      c.api
        .get(sales, `${base}/agents${q}`)
        .then((r) => r.json().data.map((u: { email: string }) => u.email));
    const voice = await agents('?channel=voice');
    expect(voice).toContain('support@a.test');
    expect(voice).toContain('marketing@a.test');
    expect(voice).not.toContain('sally@a.test');
    const sms = await agents('?channel=sms');
    expect(sms).toContain('sally@a.test');
    expect(sms).not.toContain('support@a.test');
    const any = await agents('');
    expect(any).toEqual(expect.arrayContaining(['support@a.test', 'marketing@a.test', 'sally@a.test']));
    expect(any).not.toContain(c.seed.a.businessAdmin.email);

    const other = await c.api.get(await c.token(c.seed.b.businessAdmin.email), `${base}/agents`);
    expect(other.json().data).toEqual([]);
    expect((await c.api.get(await c.token(c.seed.a.agencyAdmin.email), `${base}/all`)).statusCode).toBe(403);
  });
});

describe('PUT /v1/businesses/users/{id}', () => {
  it('edits name, e-mail, type, pages and agent type', async () => {
    const u = await addBusinessUser(c.t, c.seed.a.business.id, 'edit-me@a.test', '3');
    const res = await c.api.put(await admin(), `${base}/${u.id}`, {
      first_name: 'Eddie',
      last_name: 'Edited',
      email: 'edited@a.test',
      role: 'BusinessUser',
      user_type: '4',
      agent_type: 'voiceAgent',
      settings: { custom_type_pages: ['calls_page'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('User updated successfully.');
    // The new address is the user's once its link is followed (ADR 050).
    await confirmEmailChange(c.t, 'edited@a.test');
    const [row] = await rows(c.t, 'select * from users where id = $1', [u.id]);
    expect(row).toMatchObject({
      first_name: 'Eddie',
      last_name: 'Edited',
      email: 'edited@a.test',
      user_type: '4',
      agent_type: 'voiceAgent',
      settings: { custom_type_pages: ['calls_page'] },
    });
  });

  it('a changed e-mail waits for its confirmation; an unchanged one stays verified', async () => {
    const u = await addBusinessUser(c.t, c.seed.a.business.id, 'verify-me@a.test', '3');
    await c.t.pool.query('update users set email_verified_at = now() where id = $1', [u.id]);
    const verifiedAt = async () =>
      (await rows(c.t, 'select email_verified_at from users where id = $1', [u.id]))[0].email_verified_at;
    const body = { first_name: 'V', role: 'BusinessUser', user_type: '3' };
    const same = await c.api.put(await admin(), `${base}/${u.id}`, { ...body, email: 'Verify-Me@a.test' });
    expect(same.statusCode, same.body).toBe(200);
    expect(await verifiedAt()).not.toBeNull();
    const changed = await c.api.put(await admin(), `${base}/${u.id}`, {
      ...body,
      email: 'verify-new@a.test',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await verifiedAt()).not.toBeNull();
    expect((await rows(c.t, 'select email from users where id = $1', [u.id]))[0].email).toBe(
      'verify-me@a.test',
    );
    await confirmEmailChange(c.t, 'verify-new@a.test');
    expect((await rows(c.t, 'select email from users where id = $1', [u.id]))[0].email).toBe(
      'verify-new@a.test',
    );
  });

  it("refuses a taken e-mail, changing one's own rights, and demoting the owner", async () => {
    const token = await admin();
    const before = await snapshot(c.t.pool, ['users']);
    const target = c.seed.a.businessUser;
    expect422(
      await c.api.put(token, `${base}/${target.id}`, {
        first_name: 'x',
        email: c.seed.a.businessAdmin.email,
        role: 'BusinessUser',
        user_type: '3',
      }),
      'email',
      'The email has already been taken.',
    );
    const self = await c.api.put(token, `${base}/${c.seed.a.businessAdmin.id}`, {
      first_name: 'me',
      email: c.seed.a.businessAdmin.email,
      role: 'BusinessUser',
      user_type: '1',
    });
    expect(self.statusCode).toBe(403);
    expect(self.json().message).toBe('You cannot change your own role or disable your own account.');

    const custom = await c.token('custom-users@a.test');
    const escalate = await c.api.put(
      custom,
      `${base}/${(await rows(c.t, "select id from users where email = 'custom-users@a.test'"))[0].id}`,
      {
        first_name: 'me',
        email: 'custom-users@a.test',
        role: 'BusinessUser',
        user_type: '4',
        settings: { custom_type_pages: ['users_page', 'contacts_page'] },
      },
    );
    expect(escalate.statusCode).toBe(403);

    const owner = await addBusinessUser(c.t, c.seed.a.business.id, 'owner-a@a.test', '1');
    await c.t.pool.query("update users set role = 'BusinessAdmin', user_type = null where id = $1", [
      owner.id,
    ]);
    await c.t.pool.query('update businesses set owner_id = $2 where id = $1', [
      c.seed.a.business.id,
      owner.id,
    ]);
    const snap = await snapshot(c.t.pool, ['users']);
    expect422(
      await c.api.put(token, `${base}/${owner.id}`, {
        first_name: 'o',
        email: 'owner-a@a.test',
        role: 'BusinessUser',
        user_type: '1',
      }),
      'role',
      'The business owner must stay an active business admin.',
    );
    expect(await snapshot(c.t.pool, ['users'])).toEqual(snap);
    expect(before.users?.length).toBe((snap.users?.length ?? 0) - 1);
  });

  it('disabling a user ends their sessions; enabling again respects the user limit', async () => {
    const u = await addBusinessUser(c.t, c.seed.a.business.id, 'toggle@a.test', '3');
    const theirToken = await login(c.t.app, u.email);
    const body = { first_name: 'T', email: u.email, role: 'BusinessUser', user_type: '3' };
    const off = await c.api.put(await admin(), `${base}/${u.id}`, { ...body, active: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().data.active).toBe(false);
    expect((await c.api.get(theirToken, '/api/v1/profile')).statusCode).toBe(401);

    const [{ n }] = await rows(
      c.t,
      'select count(*)::int as n from users where business_id = $1 and active',
      [c.seed.a.business.id],
    );
    await seats(c.seed.a.business.id, n);
    const before = await snapshot(c.t.pool, ['users']);
    expect422(
      await c.api.put(await admin(), `${base}/${u.id}`, { ...body, active: true }),
      'users',
      `This business has reached its limit of ${n} active users. Upgrade the plan or deactivate a user first.`,
    );
    expect(await snapshot(c.t.pool, ['users'])).toEqual(before);
    await seats(c.seed.a.business.id, 100);
  });
});

describe('DELETE /v1/businesses/users/{id}', () => {
  it('deletes a user with an audit entry', async () => {
    const u = await addBusinessUser(c.t, c.seed.a.business.id, 'delete-me@a.test', '3');
    const res = await c.api.del(await admin(), `${base}/${u.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'User deleted successfully.' });
    expect(await rows(c.t, 'select id from users where id = $1', [u.id])).toEqual([]);
    const [entry] = await rows(
      c.t,
      "select * from audit_logs where action = 'user.delete' and target_user_id = $1",
      [u.id],
    );
    expect(entry).toMatchObject({ actor_id: c.seed.a.businessAdmin.id, business_id: c.seed.a.business.id });
  });

  it('refuses deleting oneself and the business owner (403, nothing changes)', async () => {
    const token = await admin();
    const before = await snapshot(c.t.pool, ['users', 'audit_logs']);
    const self = await c.api.del(token, `${base}/${c.seed.a.businessAdmin.id}`);
    expect(self.statusCode).toBe(403);
    expect(self.json().message).toBe('You cannot delete your own account.');
    const [{ owner_id }] = await rows(c.t, 'select owner_id from businesses where id = $1', [
      c.seed.a.business.id,
    ]);
    const owner = await c.api.del(token, `${base}/${owner_id}`);
    expect(owner.statusCode).toBe(403);
    expect(owner.json().message).toBe('The business owner cannot be deleted.');
    expect(await snapshot(c.t.pool, ['users', 'audit_logs'])).toEqual(before);
  });
});

describe('passwords', () => {
  it("changes another user's password, ends their sessions and audits it", async () => {
    const u = await addBusinessUser(c.t, c.seed.a.business.id, 'pw@a.test', '3');
    const theirToken = await login(c.t.app, u.email);
    const res = await c.api.put(await admin(), `${base}/${u.id}/change-password`, {
      password: 'brand-new-pass',
      password_confirmation: 'brand-new-pass',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Password changed successfully.');
    expect((await c.t.app.inject({ url: '/api/v1/profile', headers: bearer(theirToken) })).statusCode).toBe(
      401,
    );
    await login(c.t.app, u.email, 'brand-new-pass');
    const audits = await rows(
      c.t,
      "select * from audit_logs where action = 'user.password_change' and target_user_id = $1",
      [u.id],
    );
    expect(audits).toHaveLength(1);
  });

  it("refuses a mismatched confirmation and one's own password (nothing changes)", async () => {
    const token = await admin();
    const before = await snapshot(c.t.pool, ['users', 'auth_tokens', 'audit_logs']);
    expect422(
      await c.api.put(token, `${base}/${c.seed.a.businessUser.id}/change-password`, {
        password: 'brand-new-pass',
        password_confirmation: 'other-pass-123',
      }),
      'password_confirmation',
      'Password confirmation does not match',
    );
    const self = await c.api.put(token, `${base}/${c.seed.a.businessAdmin.id}/change-password`, {
      password: 'brand-new-pass',
      password_confirmation: 'brand-new-pass',
    });
    expect(self.statusCode).toBe(403);
    expect(self.json().message).toBe('Change your own password from your profile.');
    expect(await snapshot(c.t.pool, ['users', 'auth_tokens', 'audit_logs'])).toEqual(before);
  });

  it('e-mails a reset link to the user and audits it', async () => {
    const u = c.seed.a.businessUser;
    const res = await c.api.post(await admin(), `${base}/${u.id}/reset-password`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(`A password reset link was sent to ${u.email}.`);
    const mails = await rows(c.t, 'select * from mail_outbox where "to" = $1', [u.email]);
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain('/password/reset?token=');
    const tokens = await rows(
      c.t,
      "select * from user_tokens where user_id = $1 and purpose = 'password_reset'",
      [u.id],
    );
    expect(tokens).toHaveLength(1);
    expect(
      await rows(
        c.t,
        "select * from audit_logs where action = 'user.password_reset' and target_user_id = $1",
        [u.id],
      ),
    ).toHaveLength(1);
  });
});

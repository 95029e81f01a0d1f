import { ZBusinessResponse } from '@stn/contracts/businesses';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  expect403,
  expectCrossTenant404,
  login,
  PASSWORD,
  row,
  type Session,
  snapshot,
  useSuite,
} from '../../../test/helpers.ts';

const c = useSuite({ sessions: true });
const TABLES = ['businesses', 'users', 'auth_tokens', 'audit_logs'];

beforeAll(async () => {
  // Agency A may hand out 100 installs, agency B 5; each seeded business holds 1.
  await c.t.pool.query(`update agencies set properties = '{"installs": 100}' where id = $1`, [
    c.seed.a.agency.id,
  ]);
  await c.t.pool.query(`update agencies set properties = '{"installs": 5}' where id = $1`, [
    c.seed.b.agency.id,
  ]);
});

let n = 0;
/** Adds a business to agency A (as its AgencyAdmin) and returns its data. */
async function addBusiness(extra: object = {}, token = c.s.a.agencyAdmin.token) {
  n += 1;
  const res = await c.call(token, 'POST', '/v1/business', {
    name: `Shop ${n}`,
    owner: { email: `owner${n}@shop.test`, first_name: 'Olive', last_name: `Owner${n}`, password: PASSWORD },
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; owner_id: number; name: string; owner: { email: string } };
}
const audits = async (action: string, businessId: number) =>
  (
    await c.t.pool.query('select * from audit_logs where action = $1 and business_id = $2', [
      action,
      businessId,
    ])
  ).rows;

describe('POST /v1/business', () => {
  it('adds a business with the create defaults and its BusinessAdmin owner in one go', async () => {
    const res = await c.call(c.s.a.agencyAdmin.token, 'POST', '/v1/business', {
      name: 'Corner Bakery',
      owner: { email: 'Baker@Bakery.test', first_name: 'Bea', last_name: 'Baker', password: PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = ZBusinessResponse.parse(res.json());
    expect(body.message).toBe('Business Corner Bakery created successfully.');
    const stored = await row(c.t, 'businesses', body.data.id);
    expect(stored).toMatchObject({
      agency_id: c.seed.a.agency.id,
      name: 'Corner Bakery',
      status: 'active',
      number_of_users: 1,
      number_of_installs: 1,
      calls: 200,
      messages: 2000,
      number_of_automations: 2,
      widget_type: 3,
    });
    const owner = await row(c.t, 'users', stored.owner_id);
    expect(owner).toMatchObject({
      email: 'baker@bakery.test',
      role: 'BusinessAdmin',
      role_group: 'Business',
      business_id: body.data.id,
      agency_id: c.seed.a.agency.id,
      first_name: 'Bea',
    });
    expect(body.data.owner).toMatchObject({ id: owner.id, email: 'baker@bakery.test' });
    // The owner can sign in with the password given.
    await login(c.t.app, 'baker@bakery.test');
  });

  it('e-mails the owner a link to choose a password when none is given', async () => {
    const res = await c.call(c.s.a.agencyAdmin.token, 'POST', '/v1/business', {
      name: 'No Password Shop',
      owner: { email: 'nopass@shop.test', first_name: 'Nora' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const mails = (await c.t.pool.query(`select * from mail_outbox where "to" = 'nopass@shop.test'`)).rows;
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain('/password/reset?token=');
  });

  it('lets an AccountManager add one, and a platform admin add one to a named agency', async () => {
    const biz = await addBusiness({}, c.s.a.accountManager.token);
    expect((await row(c.t, 'businesses', biz.id)).agency_id).toBe(c.seed.a.agency.id);

    const res = await c.call(c.s.admin.token, 'POST', '/v1/business', {
      name: 'Admin Made',
      agency_id: c.seed.b.agency.id,
      owner: { email: 'adminmade@shop.test', first_name: 'Ada', password: PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await row(c.t, 'businesses', res.json().data.id)).agency_id).toBe(c.seed.b.agency.id);
  });

  it('ignores agency_id from an agency user: the business is always theirs', async () => {
    const biz = await addBusiness({ agency_id: c.seed.b.agency.id });
    expect((await row(c.t, 'businesses', biz.id)).agency_id).toBe(c.seed.a.agency.id);
  });

  it("refuses a business past the agency's installs with 'No Installs Available', and saves nothing", async () => {
    const before = await snapshot(c.t.pool, TABLES);
    const stats = (await c.call(c.s.a.agencyAdmin.token, 'GET', '/v1/businesses/install-stats')).json().data;
    const res = await c.call(c.s.a.agencyAdmin.token, 'POST', '/v1/business', {
      name: 'Too Big',
      number_of_installs: stats.available_installs + 1,
      owner: { email: 'toobig@shop.test', first_name: 'Tom', password: PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(422);
    const msg = 'No Installs Available. Please delete an install or upgrade to add more, or contact support.';
    expect(res.json()).toMatchObject({ success: false, message: msg, errors: { number_of_installs: [msg] } });
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });

  it('answers 422 with the field messages and saves nothing on bad input', async () => {
    const before = await snapshot(c.t.pool, TABLES);
    const cases: [object, string, string][] = [
      [{ name: '', owner: { email: 'x@shop.test', first_name: 'X' } }, 'name', 'The name field is required'],
      [
        { name: 'X', owner: { email: 'not-an-email', first_name: 'X' } },
        'owner.email',
        'The email must be a valid email address.',
      ],
      [
        { name: 'X', owner: { email: c.seed.a.businessUser.email, first_name: 'X' } },
        'owner.email',
        'The email has already been taken.',
      ],
      [
        { name: 'X', widget_type: 4, owner: { email: 'x@shop.test', first_name: 'X' } },
        'widget_type',
        'The selected widget type is invalid.',
      ],
      [
        { name: 'X', calls: -1, owner: { email: 'x@shop.test', first_name: 'X' } },
        'calls',
        'The calls is invalid.',
      ],
      [
        { name: 'X', subscription_plan_id: 999999, owner: { email: 'x@shop.test', first_name: 'X' } },
        'subscription_plan_id',
        'The selected subscription plan id is invalid.',
      ],
      [
        { name: 'X', owner: { email: 'x@shop.test', first_name: 'X', password: 'short' } },
        'owner.password',
        'The password must be at least 8 characters.',
      ],
    ];
    for (const [payload, field, message] of cases) {
      const res = await c.call(c.s.a.agencyAdmin.token, 'POST', '/v1/business', payload);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors[field], res.body).toEqual([message]);
    }
    // A platform admin must say which agency.
    const res = await c.call(c.s.admin.token, 'POST', '/v1/business', {
      name: 'X',
      owner: { email: 'x@shop.test', first_name: 'X' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.agency_id).toEqual(['The agency id field is required']);
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });

  it('is refused to FinanaceManagers, MarketingManagers and business users', async () => {
    const payload = { name: 'Nope', owner: { email: 'nope@shop.test', first_name: 'N' } };
    for (const who of [
      c.s.a.financeManager,
      c.s.a.marketingManager,
      c.s.a.businessAdmin,
      c.s.a.businessUser,
    ]) {
      await expect403(c.t, TABLES, who.token, 'POST', '/v1/business', payload);
    }
  });
});

describe('GET /v1/business and GET /v1/business/{id}', () => {
  it('lists the agency businesses by status tab with keyword search, 10 per page', async () => {
    const archived = await addBusiness({ name: 'Zebra Archive' });
    await c.call(c.s.a.agencyAdmin.token, 'PUT', `/v1/business/${archived.id}/archive`);

    const res = await c.call(c.s.a.marketingManager.token, 'GET', '/v1/business');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const { rows } = await c.t.pool.query(
      `select id from businesses where agency_id = $1 and status = 'active'`,
      [c.seed.a.agency.id],
    );
    expect(body.meta).toEqual({ total: rows.length, page: 1, perPage: 10 });
    expect(
      body.data.every(
        (b: { agency_id: number; status: string }) =>
          b.agency_id === c.seed.a.agency.id && b.status === 'active',
      ),
    ).toBe(true);
    expect(body.data.map((b: { id: number }) => b.id)).not.toContain(c.seed.b.business.id);

    const tab = (await c.call(c.s.a.agencyAdmin.token, 'GET', '/v1/business?status=archived')).json();
    expect(tab.data.map((b: { id: number }) => b.id)).toContain(archived.id);
    expect(tab.data.every((b: { status: string }) => b.status === 'archived')).toBe(true);

    const kw = (await c.call(c.s.a.agencyAdmin.token, 'GET', '/v1/business?keyword=bakery')).json();
    expect(kw.data.map((b: { name: string }) => b.name)).toEqual(['Corner Bakery']);
    // Searching by the owner's e-mail too.
    const byOwner = (
      await c.call(c.s.a.agencyAdmin.token, 'GET', '/v1/business?keyword=baker@bakery')
    ).json();
    expect(byOwner.meta.total).toBe(1);

    const paged = (await c.call(c.s.a.agencyAdmin.token, 'GET', '/v1/business?perPage=2&page=2')).json();
    expect(paged.meta).toMatchObject({ page: 2, perPage: 2, total: rows.length });
    expect(paged.data.length).toBe(Math.min(2, Math.max(0, rows.length - 2)));

    expect((await c.call(c.s.a.agencyAdmin.token, 'GET', '/v1/business?status=gone')).statusCode).toBe(422);
  });

  it('lets a platform admin see every agency, or one', async () => {
    const all = (await c.call(c.s.admin.token, 'GET', '/v1/business?perPage=100')).json();
    const agencies = new Set(all.data.map((b: { agency_id: number }) => b.agency_id));
    expect(agencies.has(c.seed.a.agency.id) && agencies.has(c.seed.b.agency.id)).toBe(true);
    const one = (
      await c.call(c.s.admin.token, 'GET', `/v1/business?perPage=100&agency_id=${c.seed.b.agency.id}`)
    ).json();
    expect(one.data.every((b: { agency_id: number }) => b.agency_id === c.seed.b.agency.id)).toBe(true);
  });

  it("names each business's agency, and lets a platform admin show and edit any agency's business", async () => {
    const all = (await c.call(c.s.admin.token, 'GET', '/v1/business?perPage=100')).json();
    const [agencyB] = (await c.t.pool.query('select name from agencies where id = $1', [c.seed.b.agency.id]))
      .rows;
    const b = all.data.find((x: { id: number }) => x.id === c.seed.b.business.id);
    expect(b.agency_name).toBe(agencyB.name);
    const shown = await c.call(c.s.admin.token, 'GET', `/v1/business/${c.seed.b.business.id}`);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json().data).toMatchObject({ agency_id: c.seed.b.agency.id, agency_name: b.agency_name });
    const own = await c.call(c.s.a.agencyAdmin.token, 'GET', `/v1/business/${c.seed.a.business.id}`);
    expect(own.json().data.agency_name).toBeTruthy();

    const made = await c.call(c.s.admin.token, 'POST', '/v1/business', {
      name: 'Admin Edits',
      agency_id: c.seed.b.agency.id,
      owner: { email: 'adminedits@shop.test', first_name: 'Eve', password: PASSWORD },
    });
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().data.id;
    const put = await c.call(c.s.admin.token, 'PUT', `/v1/business/${id}`, {
      name: 'Admin Edited',
      calls: 321,
      owner: { last_name: 'Edited' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(await row(c.t, 'businesses', id)).toMatchObject({
      name: 'Admin Edited',
      calls: 321,
      agency_id: c.seed.b.agency.id,
    });
    // Agency A still cannot see it.
    expect((await c.call(c.s.a.agencyAdmin.token, 'GET', `/v1/business/${id}`)).statusCode).toBe(404);
  });

  it('shows one business with its owner', async () => {
    const res = await c.call(c.s.a.financeManager.token, 'GET', `/v1/business/${c.seed.a.business.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: c.seed.a.business.id, name: 'Business A', status: 'active' });
  });

  it('is refused to business users', async () => {
    await expect403(c.t, TABLES, c.s.a.businessAdmin.token, 'GET', '/v1/business');
    await expect403(c.t, TABLES, c.s.a.businessAdmin.token, 'GET', `/v1/business/${c.seed.a.business.id}`);
  });
});

describe('PUT /v1/business/{id}', () => {
  it("changes limits, switches and the owner's name", async () => {
    const biz = await addBusiness();
    const res = await c.call(c.s.a.agencyAdmin.token, 'PUT', `/v1/business/${biz.id}`, {
      name: 'Renamed Shop',
      calls: 500,
      widget_type: 2,
      dep_enabled: true,
      owner: { first_name: 'Oscar' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Business Renamed Shop updated successfully.');
    expect(await row(c.t, 'businesses', biz.id)).toMatchObject({
      name: 'Renamed Shop',
      calls: 500,
      widget_type: 2,
      dep_enabled: true,
      messages: 2000,
    });
    expect((await row(c.t, 'users', biz.owner_id)).first_name).toBe('Oscar');
  });

  it('refuses more installs than the agency has left, a taken owner e-mail, bad values; nothing changes', async () => {
    const biz = await addBusiness();
    const before = await snapshot(c.t.pool, TABLES);
    const stats = (await c.call(c.s.a.agencyAdmin.token, 'GET', '/v1/businesses/install-stats')).json().data;
    const over = await c.call(c.s.a.agencyAdmin.token, 'PUT', `/v1/business/${biz.id}`, {
      number_of_installs: 1 + stats.available_installs + 1,
    });
    expect(over.statusCode).toBe(422);
    expect(over.json().message).toMatch(/^No Installs Available/);
    const taken = await c.call(c.s.a.agencyAdmin.token, 'PUT', `/v1/business/${biz.id}`, {
      owner: { email: c.seed.b.businessAdmin.email },
    });
    expect(taken.json().errors['owner.email']).toEqual(['The email has already been taken.']);
    const bad = await c.call(c.s.a.agencyAdmin.token, 'PUT', `/v1/business/${biz.id}`, { name: '' });
    expect(bad.json().errors.name).toEqual(['The name field is required']);
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });

  it('lets a business grow into installs that are free', async () => {
    const biz = await addBusiness();
    const stats = (await c.call(c.s.a.agencyAdmin.token, 'GET', '/v1/businesses/install-stats')).json().data;
    const res = await c.call(c.s.a.agencyAdmin.token, 'PUT', `/v1/business/${biz.id}`, {
      number_of_installs: 1 + stats.available_installs,
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = (await c.call(c.s.a.agencyAdmin.token, 'GET', '/v1/businesses/install-stats')).json().data;
    expect(after.available_installs).toBe(0);
    // Give them back for the other tests.
    await c.call(c.s.a.agencyAdmin.token, 'DELETE', `/v1/business/${biz.id}`);
  });

  it('is refused to a MarketingManager', async () => {
    await expect403(
      c.t,
      TABLES,
      c.s.a.marketingManager.token,
      'PUT',
      `/v1/business/${c.seed.a.business.id}`,
      {
        name: 'Hacked',
      },
    );
  });
});

describe('archive, restore and delete', () => {
  it('archives an active business, and restores it', async () => {
    const biz = await addBusiness();
    const res = await c.call(c.s.a.agencyAdmin.token, 'PUT', `/v1/business/${biz.id}/archive`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Business archived successfully.' });
    expect((await row(c.t, 'businesses', biz.id)).status).toBe('archived');
    expect(await audits('business.archive', biz.id)).toHaveLength(1);

    const again = await c.call(c.s.a.agencyAdmin.token, 'PUT', `/v1/business/${biz.id}/archive`);
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe('This business cannot be changed that way in its current state.');

    const restored = await c.call(c.s.a.accountManager.token, 'PUT', `/v1/business/${biz.id}/restore`);
    expect(restored.json()).toEqual({ success: true, message: 'Business restored successfully.' });
    expect((await row(c.t, 'businesses', biz.id)).status).toBe('active');
    expect(await audits('business.restore', biz.id)).toHaveLength(1);
  });

  it('soft-deletes: status deleted, its users disabled and signed out; restore brings back exactly them', async () => {
    const biz = await addBusiness();
    const ownerToken = await login(c.t.app, biz.owner.email);
    // A user the agency had disabled before: restore must not re-enable it.
    const {
      rows: [off],
    } = await c.t.pool.query(
      `insert into users (email, password_hash, role_group, role, user_type, agency_id, business_id, active)
       values ('off@shop.test', 'x', 'Business', 'BusinessUser', '1', $1, $2, false) returning id`,
      [c.seed.a.agency.id, biz.id],
    );

    const res = await c.call(c.s.a.agencyAdmin.token, 'DELETE', `/v1/business/${biz.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Business deleted successfully.');
    const stored = await row(c.t, 'businesses', biz.id);
    expect(stored.status).toBe('deleted');
    expect(stored.deleted_at).toBeInstanceOf(Date);
    expect((await row(c.t, 'users', biz.owner_id)).active).toBe(false);
    expect(
      (await c.t.app.inject({ method: 'GET', url: '/api/v1/auth/check', headers: bearer(ownerToken) }))
        .statusCode,
    ).toBe(401);
    const signIn = await c.t.app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { email: biz.owner.email, password: PASSWORD },
    });
    expect(signIn.statusCode).toBe(422);
    const [entry] = await audits('business.delete', biz.id);
    expect(entry.data).toMatchObject({ from: 'active', users: [biz.owner_id] });
    // A deleted business holds no installs.
    const deletedTab = (await c.call(c.s.a.agencyAdmin.token, 'GET', '/v1/business?status=deleted')).json();
    expect(deletedTab.data.map((b: { id: number }) => b.id)).toContain(biz.id);

    const back = await c.call(c.s.a.agencyAdmin.token, 'PUT', `/v1/business/${biz.id}/restore`);
    expect(back.statusCode, back.body).toBe(200);
    expect(await row(c.t, 'businesses', biz.id)).toMatchObject({ status: 'active', deleted_at: null });
    expect((await row(c.t, 'users', biz.owner_id)).active).toBe(true);
    expect((await row(c.t, 'users', off.id)).active).toBe(false);
    await login(c.t.app, biz.owner.email);
  });

  it('does not restore a deleted business the installs no longer cover', async () => {
    const biz = await addBusiness();
    await c.call(c.s.a.agencyAdmin.token, 'DELETE', `/v1/business/${biz.id}`);
    const stats = (await c.call(c.s.a.agencyAdmin.token, 'GET', '/v1/businesses/install-stats')).json().data;
    const filler = await addBusiness({ number_of_installs: stats.available_installs });
    const before = await snapshot(c.t.pool, TABLES);
    const res = await c.call(c.s.a.agencyAdmin.token, 'PUT', `/v1/business/${biz.id}/restore`);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/^No Installs Available/);
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
    await c.call(c.s.a.agencyAdmin.token, 'DELETE', `/v1/business/${filler.id}`);
  });

  it('is refused to a FinanaceManager', async () => {
    for (const [method, url] of [
      ['PUT', `/v1/business/${c.seed.a.business.id}/archive`],
      ['PUT', `/v1/business/${c.seed.a.business.id}/restore`],
      ['DELETE', `/v1/business/${c.seed.a.business.id}`],
    ] as const) {
      await expect403(c.t, TABLES, c.s.a.financeManager.token, method, url);
    }
  });
});

describe('POST /v1/business/{id}/reset-password', () => {
  it('e-mails the business admin a reset link', async () => {
    const biz = await addBusiness();
    const res = await c.call(c.s.a.agencyAdmin.token, 'POST', `/v1/business/${biz.id}/reset-password`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('A password reset link has been sent to the business admin.');
    const mails = (await c.t.pool.query(`select * from mail_outbox where "to" = $1`, [biz.owner.email])).rows;
    expect(mails).toHaveLength(1);
    expect(await audits('business.password_reset_link', biz.id)).toHaveLength(1);
  });

  it("sets a given password and ends the admin's sessions", async () => {
    const biz = await addBusiness();
    const old = await login(c.t.app, biz.owner.email);
    const res = await c.call(c.s.a.agencyAdmin.token, 'POST', `/v1/business/${biz.id}/reset-password`, {
      password: 'brand-new-pass-1',
      password_confirmation: 'brand-new-pass-1',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe("The business admin's password has been changed.");
    expect(
      (await c.t.app.inject({ method: 'GET', url: '/api/v1/auth/check', headers: bearer(old) })).statusCode,
    ).toBe(401);
    await login(c.t.app, biz.owner.email, 'brand-new-pass-1');
    const [entry] = await audits('business.password_set', biz.id);
    expect(entry).toMatchObject({ actor_id: c.s.a.agencyAdmin.id, target_user_id: biz.owner_id });
  });

  it('refuses a confirmation that does not match, changing nothing', async () => {
    const before = await snapshot(c.t.pool, TABLES);
    const res = await c.call(
      c.s.a.agencyAdmin.token,
      'POST',
      `/v1/business/${c.seed.a.business.id}/reset-password`,
      {
        password: 'brand-new-pass-1',
        password_confirmation: 'other-pass-123',
      },
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.password_confirmation).toEqual(['Password confirmation does not match']);
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });

  it('is refused to a MarketingManager', async () => {
    await expect403(
      c.t,
      TABLES,
      c.s.a.marketingManager.token,
      'POST',
      `/v1/business/${c.seed.a.business.id}/reset-password`,
      {},
    );
  });
});

describe('POST /v1/business/{id}/send-verification and /verify-email', () => {
  it('e-mails the business admin a confirmation link, or marks the address confirmed', async () => {
    const id = c.seed.a.business.id;
    await c.t.pool.query('update users set email_verified_at = null where id = $1', [
      c.seed.a.businessAdmin.id,
    ]);
    const sent = await c.call(c.s.a.agencyAdmin.token, 'POST', `/v1/business/${id}/send-verification`);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().message).toBe('A confirmation link has been sent to the business admin.');
    const mail = (
      await c.t.pool.query('select * from mail_outbox where "to" = $1 order by id desc limit 1', [
        c.seed.a.businessAdmin.email,
      ])
    ).rows[0];
    expect(mail.text).toMatch(/\/email-verify\?token=[\w-]{40,}/);
    expect((await row(c.t, 'users', c.seed.a.businessAdmin.id)).email_verified_at).toBeNull();

    const marked = await c.call(c.s.a.agencyAdmin.token, 'POST', `/v1/business/${id}/verify-email`);
    expect(marked.statusCode, marked.body).toBe(200);
    expect((await row(c.t, 'users', c.seed.a.businessAdmin.id)).email_verified_at).not.toBeNull();
  });

  it("is refused to business users and answers 404 for another agency's business", async () => {
    await expect403(
      c.t,
      TABLES,
      c.s.a.businessAdmin.token,
      'POST',
      `/v1/business/${c.seed.a.business.id}/verify-email`,
    );
    for (const path of ['send-verification', 'verify-email']) {
      await expectCrossTenant404(c.t, {
        token: c.s.a.agencyAdmin.token,
        method: 'POST',
        url: `/api/v1/business/${c.seed.b.business.id}/${path}`,
        control: { url: `/api/v1/business/${c.seed.a.business.id}/${path}` },
        tables: [...TABLES, 'mail_outbox'],
      });
    }
  });
});

describe('PUT /v1/businesses/{id}/reset-usage and /active', () => {
  it('sets calls and messages used back to 0, with an audit entry', async () => {
    const biz = await addBusiness();
    await c.t.pool.query(
      'update businesses set number_of_calls = 42, number_of_messages = 99 where id = $1',
      [biz.id],
    );
    const res = await c.call(c.s.a.agencyAdmin.token, 'PUT', `/v1/businesses/${biz.id}/reset-usage`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Usage reset successfully.');
    expect(await row(c.t, 'businesses', biz.id)).toMatchObject({ number_of_calls: 0, number_of_messages: 0 });
    const [entry] = await audits('business.reset_usage', biz.id);
    expect(entry.data).toEqual({ number_of_calls: 42, number_of_messages: 99 });
  });

  it('switches a business off and on', async () => {
    const biz = await addBusiness();
    const off = await c.call(c.s.a.accountManager.token, 'PUT', `/v1/businesses/${biz.id}/active`, {
      active: false,
    });
    expect(off.json()).toEqual({ success: true, message: 'Business deactivated successfully.' });
    expect((await row(c.t, 'businesses', biz.id)).active).toBe(false);
    const on = await c.call(c.s.a.accountManager.token, 'PUT', `/v1/businesses/${biz.id}/active`, {
      active: true,
    });
    expect(on.json().message).toBe('Business activated successfully.');
    expect((await row(c.t, 'businesses', biz.id)).active).toBe(true);
    const bad = await c.call(c.s.a.accountManager.token, 'PUT', `/v1/businesses/${biz.id}/active`, {
      active: 'yes',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.active).toEqual(['The active field must be true or false.']);
  });

  it("a switched-off business's users are locked out and signed out until it is switched on again", async () => {
    const id = c.seed.a.business.id;
    const check = () => c.call(c.s.a.businessAdmin.token, 'GET', '/v1/auth/check');
    const signIn = () =>
      c.t.app.inject({
        method: 'POST',
        url: '/api/v1/login',
        payload: { email: c.seed.a.businessAdmin.email, password: PASSWORD },
      });
    expect((await check()).statusCode).toBe(200);
    await c.call(c.s.a.agencyAdmin.token, 'PUT', `/v1/businesses/${id}/active`, { active: false });
    expect((await check()).statusCode).toBe(401);
    const refused = await signIn();
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.email).toEqual(['This account is disabled. Please contact support.']);
    await c.call(c.s.a.agencyAdmin.token, 'PUT', `/v1/businesses/${id}/active`, { active: true });
    // Switching off ended the sessions (ADR 050): the old one stays ended, a new sign-in works.
    expect((await check()).statusCode).toBe(401);
    const back = await signIn();
    expect(back.statusCode).toBe(200);
    c.s.a.businessAdmin.token = back.json().access_token;
    expect((await check()).statusCode).toBe(200);
  });

  it('is refused to a FinanaceManager and to business users', async () => {
    const url = `/v1/businesses/${c.seed.a.business.id}`;
    await expect403(c.t, TABLES, c.s.a.financeManager.token, 'PUT', `${url}/reset-usage`);
    await expect403(c.t, TABLES, c.s.a.businessAdmin.token, 'PUT', `${url}/reset-usage`);
    await expect403(c.t, TABLES, c.s.a.financeManager.token, 'PUT', `${url}/active`, { active: false });
  });
});

describe('GET /v1/agency/business/all and GET /v1/businesses/install-stats', () => {
  it("lists id and name of the agency's active businesses only", async () => {
    const archived = await addBusiness();
    await c.call(c.s.a.agencyAdmin.token, 'PUT', `/v1/business/${archived.id}/archive`);
    const res = await c.call(c.s.a.marketingManager.token, 'GET', '/v1/agency/business/all');
    expect(res.statusCode, res.body).toBe(200);
    const { rows } = await c.t.pool.query(
      `select id, name from businesses where agency_id = $1 and status = 'active' order by name, id`,
      [c.seed.a.agency.id],
    );
    expect(res.json().data).toEqual(rows);
    await expect403(c.t, TABLES, c.s.a.businessAdmin.token, 'GET', '/v1/agency/business/all');
  });

  it("answers the caller agency's installs: total, used by non-deleted businesses, available", async () => {
    const res = await c.call(c.s.a.financeManager.token, 'GET', '/v1/businesses/install-stats');
    expect(res.statusCode, res.body).toBe(200);
    const {
      rows: [{ used }],
    } = await c.t.pool.query(
      `select coalesce(sum(number_of_installs), 0)::int as used from businesses where agency_id = $1 and status <> 'deleted'`,
      [c.seed.a.agency.id],
    );
    expect(res.json().data).toEqual({ total_installs: 100, used, available_installs: 100 - used });

    const b = (
      await c.call(c.s.admin.token, 'GET', `/v1/businesses/install-stats?agency_id=${c.seed.b.agency.id}`)
    ).json();
    expect(b.data.total_installs).toBe(5);
    const noAgency = await c.call(c.s.admin.token, 'GET', '/v1/businesses/install-stats');
    expect(noAgency.statusCode).toBe(422);
    await expect403(c.t, TABLES, c.s.a.businessAdmin.token, 'GET', '/v1/businesses/install-stats');
  });
});

describe('tenant isolation', () => {
  it("answers 404 to agency A for every call on agency B's business, changing nothing", async () => {
    const id = c.seed.b.business.id;
    const calls: [Session, 'GET' | 'PUT' | 'POST' | 'DELETE', string, object?][] = [
      [c.s.a.agencyAdmin, 'GET', `/v1/business/${id}`],
      [c.s.a.agencyAdmin, 'PUT', `/v1/business/${id}`, { name: 'Stolen' }],
      [c.s.a.agencyAdmin, 'PUT', `/v1/business/${id}/archive`],
      [c.s.a.agencyAdmin, 'PUT', `/v1/business/${id}/restore`],
      [c.s.a.agencyAdmin, 'DELETE', `/v1/business/${id}`],
      [c.s.a.agencyAdmin, 'POST', `/v1/business/${id}/reset-password`, {}],
      [
        c.s.a.agencyAdmin,
        'POST',
        `/v1/business/${id}/reset-password`,
        { password: 'pwned-pass-1', password_confirmation: 'pwned-pass-1' },
      ],
      [c.s.a.accountManager, 'PUT', `/v1/businesses/${id}/reset-usage`],
      [c.s.a.accountManager, 'PUT', `/v1/businesses/${id}/active`, { active: false }],
    ];
    for (const [who, method, url, payload] of calls) {
      await expectCrossTenant404(c.t, {
        token: who.token,
        method,
        url: `/api${url}`,
        payload,
        control: { url: `/api/v1/business/${c.seed.a.business.id}`, method: 'GET' },
        tables: [...TABLES, 'mail_outbox'],
      });
    }
    // And agency B's list does not show agency A's businesses.
    const list = (await c.call(c.s.b.agencyAdmin.token, 'GET', '/v1/business?perPage=100')).json();
    expect(list.data.every((b: { agency_id: number }) => b.agency_id === c.seed.b.agency.id)).toBe(true);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, expect422, fixtureCtx, PASSWORD, snapshot, useSuite } from '../../../test/helpers.ts';
import { createUser } from '../users/service.ts';

// The support chat of spec 000 §2 Layout (issue 11): the platform admin picks an install of a business
// under the main agency for agencies and another for businesses under the main agency; the profile carries
// the key to load (agency users: the agency one; users of a business under the main agency: the business
// one; everyone else: none). Refused picks answer 422 on their field and change nothing.

const c = useSuite();
const TABLES = ['support_widget_settings', 'audit_logs'];
const q = async (sql: string, params: unknown[] = []) => (await c.t.pool.query(sql, params)).rows;

type Inst = { id: number; key: string };
const inst: Record<string, Inst> = {};
let mainBusiness = 0;
let mainBizEmail = '';

async function addBusiness(agencyId: number, name: string, status = 'active') {
  const [row] = await q('insert into businesses (agency_id, name, status) values ($1, $2, $3) returning id', [
    agencyId,
    name,
    status,
  ]);
  return row.id as number;
}

async function addInstall(agencyId: number, businessId: number, name: string, status = 'active') {
  const key = `key-${name.toLowerCase().replace(/\W+/g, '-')}`;
  const [row] = await q(
    `insert into installs (agency_id, business_id, key, name, website, status)
     values ($1, $2, $3, $4, $5, $6) returning id, key`,
    [
      agencyId,
      businessId,
      key,
      name,
      `https://${name.toLowerCase().replace(/\W+/g, '')}.example.com`,
      status,
    ],
  );
  return row as Inst;
}

const as = (email: string) => c.token(email);
const get = async (email: string, url: string) =>
  c.t.app.inject({ method: 'GET', url: `/api${url}`, headers: bearer(await as(email)) });
const put = async (email: string, body: object) =>
  c.t.app.inject({
    method: 'PUT',
    url: '/api/v1/settings/support-widget',
    headers: bearer(await as(email)),
    payload: body,
  });
const keyOf = async (email: string) => {
  const res = await get(email, '/v1/profile');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.user.support_widget_key as string | null;
};

beforeAll(async () => {
  const main = c.seed.main.id;
  mainBusiness = await addBusiness(main, 'Helpdesk Inc');
  const archivedBusiness = await addBusiness(main, 'Old Shop', 'archived');
  inst.agencyChat = await addInstall(main, mainBusiness, 'Agency Help');
  inst.businessChat = await addInstall(main, mainBusiness, 'Business Help');
  inst.archived = await addInstall(main, mainBusiness, 'Archived Help', 'archived');
  inst.deleted = await addInstall(main, mainBusiness, 'Deleted Help', 'deleted');
  inst.ofArchivedBusiness = await addInstall(main, archivedBusiness, 'Shop Widget');
  inst.otherAgency = await addInstall(c.seed.a.agency.id, c.seed.a.business.id, 'Agency A Widget');
  mainBizEmail = 'owner@helpdesk.test';
  await createUser(fixtureCtx(c.t.db), {
    email: mainBizEmail,
    password: PASSWORD,
    emailVerified: true,
    role: 'BusinessAdmin',
    businessId: mainBusiness,
    firstName: 'Hal',
  });
});

describe('the support chat settings (Admin only)', () => {
  it('start with no install picked', async () => {
    const res = await get(c.seed.admin.email, '/v1/settings/support-widget');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      support_widget_agency_install_id: null,
      support_widget_business_install_id: null,
      agency_install: null,
      business_install: null,
    });
  });

  it('offer the active installs of live businesses under the main agency, searchable', async () => {
    const res = await get(c.seed.superAdmin.email, '/v1/settings/support-widget/installs');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((i: { name: string }) => i.name)).toEqual(['Agency Help', 'Business Help']);
    expect(res.json().meta.total).toBe(2);
    expect(res.json().data[0]).toEqual({
      id: inst.agencyChat?.id,
      name: 'Agency Help',
      website: 'https://agencyhelp.example.com',
      business_id: mainBusiness,
      business_name: 'Helpdesk Inc',
      status: 'active',
      active: true,
    });
    const byBusiness = await get(c.seed.admin.email, '/v1/settings/support-widget/installs?keyword=helpdesk');
    expect(byBusiness.json().meta.total).toBe(2);
    const byName = await get(c.seed.admin.email, '/v1/settings/support-widget/installs?keyword=business%20h');
    expect(byName.json().data.map((i: { id: number }) => i.id)).toEqual([inst.businessChat?.id]);
    const none = await get(c.seed.admin.email, '/v1/settings/support-widget/installs?keyword=agency%20a');
    expect(none.json().data).toEqual([]);
  });

  it('save both picks, answer them with their installs, and keep an audit entry', async () => {
    const res = await put(c.seed.admin.email, {
      support_widget_agency_install_id: inst.agencyChat?.id,
      support_widget_business_install_id: inst.businessChat?.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Support chat saved.');
    expect(res.json().data).toMatchObject({
      support_widget_agency_install_id: inst.agencyChat?.id,
      support_widget_business_install_id: inst.businessChat?.id,
      agency_install: { id: inst.agencyChat?.id, name: 'Agency Help', business_name: 'Helpdesk Inc' },
      business_install: { id: inst.businessChat?.id, name: 'Business Help' },
    });
    const again = await get(c.seed.superAdmin.email, '/v1/settings/support-widget');
    expect(again.json().data).toEqual(res.json().data);
    const [entry] = await q(
      "select actor_id, data from audit_logs where action = 'support_widget.update' order by id desc limit 1",
    );
    expect(entry.actor_id).toBe(c.seed.admin.id);
    expect(entry.data.after).toEqual({
      support_widget_agency_install_id: inst.agencyChat?.id,
      support_widget_business_install_id: inst.businessChat?.id,
    });
  });

  it.each([
    ['otherAgency', 'Pick an install of a business under the main agency.'],
    ['archived', 'This install, or its business, is archived, deleted or switched off: pick an active one.'],
    ['deleted', 'This install, or its business, is archived, deleted or switched off: pick an active one.'],
    [
      'ofArchivedBusiness',
      'This install, or its business, is archived, deleted or switched off: pick an active one.',
    ],
  ])('refuse an install that is %s, on its field, changing nothing', async (which, message) => {
    const before = await snapshot(c.t.pool, TABLES);
    const res = await put(c.seed.admin.email, {
      support_widget_agency_install_id: inst.agencyChat?.id,
      support_widget_business_install_id: inst[which]?.id,
    });
    expect422(res, 'support_widget_business_install_id', message);
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });

  it('refuse an unknown id and a missing field, changing nothing', async () => {
    const before = await snapshot(c.t.pool, TABLES);
    const unknown = await put(c.seed.admin.email, {
      support_widget_agency_install_id: 999999,
      support_widget_business_install_id: null,
    });
    expect422(unknown, 'support_widget_agency_install_id', 'There is no install with this id.');
    const missing = await put(c.seed.admin.email, { support_widget_agency_install_id: null });
    expect422(missing, 'support_widget_business_install_id', 'The install for businesses field is required');
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });

  it.each([
    ['AgencyAdmin', () => c.seed.a.agencyAdmin.email],
    ['AccountManager', () => c.seed.a.agencyUser.email],
    ['BusinessAdmin', () => c.seed.a.businessAdmin.email],
    ['BusinessAdmin under the main agency', () => mainBizEmail],
  ])('are not for a %s (403, nothing changed)', async (_role, email) => {
    const before = await snapshot(c.t.pool, TABLES);
    expect((await get(email(), '/v1/settings/support-widget')).statusCode).toBe(403);
    expect((await get(email(), '/v1/settings/support-widget/installs')).statusCode).toBe(403);
    const res = await put(email(), {
      support_widget_agency_install_id: null,
      support_widget_business_install_id: null,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('This action is unauthorized.');
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });

  it('are not for anyone signed out (401)', async () => {
    const res = await c.t.app.inject({ method: 'GET', url: '/api/v1/settings/support-widget' });
    expect(res.statusCode).toBe(401);
  });
});

describe('the profile carries the support chat to load', () => {
  it('agency users get the agency install, businesses under the main agency the business one', async () => {
    expect(await keyOf(c.seed.a.agencyAdmin.email)).toBe(inst.agencyChat?.key);
    expect(await keyOf(c.seed.b.agencyUser.email)).toBe(inst.agencyChat?.key);
    expect(await keyOf(mainBizEmail)).toBe(inst.businessChat?.key);
  });

  it('businesses under another agency and platform admins get none', async () => {
    expect(await keyOf(c.seed.a.businessAdmin.email)).toBeNull();
    expect(await keyOf(c.seed.b.businessUser.email)).toBeNull();
    expect(await keyOf(c.seed.admin.email)).toBeNull();
  });

  it('a picked install that stops answering widget requests gives none', async () => {
    await q('update installs set active = false where id = $1', [inst.businessChat?.id]);
    expect(await keyOf(mainBizEmail)).toBeNull();
    await q('update installs set active = true where id = $1', [inst.businessChat?.id]);
    await q("update installs set status = 'archived' where id = $1", [inst.agencyChat?.id]);
    expect(await keyOf(c.seed.a.agencyAdmin.email)).toBeNull();
    // The settings screen still shows what is picked, and in which list it is now.
    const res = await get(c.seed.admin.email, '/v1/settings/support-widget');
    expect(res.json().data.agency_install).toMatchObject({ id: inst.agencyChat?.id, status: 'archived' });
    await q("update installs set status = 'active' where id = $1", [inst.agencyChat?.id]);
    expect(await keyOf(c.seed.a.agencyAdmin.email)).toBe(inst.agencyChat?.key);
  });

  it('none once the admin clears the picks', async () => {
    const res = await put(c.seed.superAdmin.email, {
      support_widget_agency_install_id: null,
      support_widget_business_install_id: inst.businessChat?.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.agency_install).toBeNull();
    expect(await keyOf(c.seed.a.agencyAdmin.email)).toBeNull();
    expect(await keyOf(mainBizEmail)).toBe(inst.businessChat?.key);
  });
});

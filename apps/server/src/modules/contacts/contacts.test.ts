import { beforeAll, describe, expect, it } from 'vitest';
import {
  addBusinessUser,
  expect403,
  expect422,
  expectCrossTenant404,
  rows,
  snapshot,
  useSuite,
} from '../../../test/helpers.ts';

const c = useSuite();
const TABLES = [
  'contacts',
  'contact_tags',
  'contact_fields',
  'tags',
  'contact_automations',
  'contact_imports',
];
const admin = () => c.token(c.seed.a.businessAdmin.email);
const adminB = () => c.token(c.seed.b.businessAdmin.email);

type Contact = { id: number; phone: string; tags: { id: number; name: string }[]; [k: string]: unknown };

async function make(phone: string, extra: object = {}, token?: string): Promise<Contact> {
  const res = await c.api.post(token ?? (await admin()), '/api/v1/contacts', { phone, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}
async function tag(name: string, token?: string): Promise<number> {
  const res = await c.api.post(token ?? (await admin()), '/api/v1/tags', { name });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id;
}

let mine: Contact;
let theirs: Contact;
let theirTag: number;
let theirField: number;

beforeAll(async () => {
  mine = await make('(500) 555-0100', { first_name: 'Ann', last_name: 'Lee' });
  theirs = await make('+15005550100', { first_name: 'Bob' }, await adminB());
  theirTag = await tag('B only', await adminB());
  const f = await c.api.post(await adminB(), '/api/v1/contacts/fields', { label: 'Colour' });
  expect(f.statusCode, f.body).toBe(200);
  theirField = f.json().data.id;
});

describe('contacts', () => {
  it('creates, reads, lists with filters, edits and deletes a contact', async () => {
    const token = await admin();
    expect(mine).toMatchObject({ phone: '+15005550100', name: 'Ann Lee', opted_out: false, blocked: false });
    const vip = await tag('VIP');
    const f = await c.api.post(token, '/api/v1/contacts/fields', { label: 'Favourite colour', type: 'text' });
    expect(f.json().data.key).toBe('favourite_colour');
    const made = await make('+15005550101', {
      first_name: 'Cara',
      email: 'CARA@Example.com',
      birthday: '1990-04-01',
      fields: { favourite_colour: 'green' },
      tag_ids: [vip],
    });
    expect(made).toMatchObject({
      email: 'cara@example.com',
      birthday: '1990-04-01',
      fields: { favourite_colour: 'green' },
      tags: [{ id: vip, name: 'VIP' }],
      source: 'cms',
    });
    const got = await c.api.get(token, `/api/v1/contacts/${made.id}`);
    expect(got.json().data.id).toBe(made.id);

    const byTag = await c.api.get(token, `/api/v1/contacts?tag_id=${vip}`);
    expect(byTag.json().data.map((x: Contact) => x.id)).toEqual([made.id]);
    const byKeyword = await c.api.get(token, '/api/v1/contacts?keyword=cara');
    expect(byKeyword.json().meta.total).toBe(1);
    const byDigits = await c.api.get(token, '/api/v1/contacts?keyword=555-0101');
    expect(byDigits.json().data.map((x: Contact) => x.id)).toEqual([made.id]);
    const list = await c.api.get(token, '/api/v1/contacts');
    expect(list.json().meta).toMatchObject({ page: 1, perPage: 10 });
    expect(list.json().data.every((x: Contact) => x.phone !== theirs.phone || x.id !== theirs.id)).toBe(true);

    const edited = await c.api.put(token, `/api/v1/contacts/${made.id}`, {
      last_name: 'Diaz',
      fields: { favourite_colour: '' },
      tag_ids: [],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({ name: 'Cara Diaz', fields: {}, tags: [] });

    const del = await c.api.del(token, `/api/v1/contacts/${made.id}`);
    expect(del.json()).toMatchObject({ success: true, message: 'Contact deleted successfully.' });
    expect((await c.api.get(token, `/api/v1/contacts/${made.id}`)).statusCode).toBe(404);
    // The phone is free again.
    const again = await make('+15005550101');
    expect(again.id).not.toBe(made.id);
  });

  it('refuses bad input with a 422 and changes nothing', async () => {
    const token = await admin();
    const before = await snapshot(c.t.pool, TABLES);
    expect422(
      await c.api.post(token, '/api/v1/contacts', { phone: 'abc' }),
      'phone',
      'Wrong phone number format!!',
    );
    expect422(
      await c.api.post(token, '/api/v1/contacts', { phone: '+15005550100' }),
      'phone',
      'A contact with this phone number already exists.',
    );
    expect422(
      await c.api.post(token, '/api/v1/contacts', { phone: '+15005550199', email: 'nope' }),
      'email',
      'The email must be a valid email address.',
    );
    expect422(
      await c.api.post(token, '/api/v1/contacts', { phone: '+15005550199', birthday: '1990-02-30' }),
      'birthday',
      'The birthday must be a date (YYYY-MM-DD).',
    );
    expect422(
      await c.api.post(token, '/api/v1/contacts', { phone: '+15005550199', fields: { nosuch: 'x' } }),
      'fields.nosuch',
      'The nosuch is not a custom field of this business.',
    );
    expect422(
      await c.api.post(token, '/api/v1/contacts', { phone: '+15005550199', tag_ids: [theirTag] }),
      'tag_ids',
      'Each tag must be a tag of this business.',
    );
    expect422(
      await c.api.post(token, '/api/v1/contacts/bulk-block', { ids: [mine.id, theirs.id] }),
      'ids',
      'Each contact must be a contact of this business.',
    );
    expect422(
      await c.api.post(token, '/api/v1/contacts/tag', { ids: [mine.id], tag_ids: [theirTag] }),
      'tag_ids',
      'Each tag must be a tag of this business.',
    );
    expect422(
      await c.api.post(token, `/api/v1/contacts/${mine.id}/agent/${c.seed.b.businessAdmin.id}`),
      'agent_id',
      'The agent must be a user of this business.',
    );
    expect422(await c.api.post(token, '/api/v1/tags', { name: '' }), 'name', 'The name field is required');
    expect422(
      await c.api.post(token, '/api/v1/contacts/fields', { label: 'X', key: 'Bad Key' }),
      'key',
      'The key may contain only lower-case letters, digits and _, and must start with a letter.',
    );
    expect422(
      await c.api.post(token, '/api/v1/contacts/fields', { label: 'Phone' }),
      'label',
      'This key is used by every contact already; choose another.',
    );
    expect422(
      await c.api.post(token, '/api/v1/contacts/import', { csv: 'name,email\nx,y@z.com' }),
      'csv',
      'The file must have a phone column.',
    );
    expect422(
      await c.api.post(token, '/api/v1/contacts/import', { csv: 'phone\n' }),
      'csv',
      'The file has no contacts to import.',
    );
    expect422(
      await c.api.post(token, '/api/v1/contacts/import', {
        csv: `phone\n${'+15005550100\n'.repeat(10_001)}`,
      }),
      'csv',
      'The file may not have more than 10000 rows.',
    );
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });

  it('bulk block, opt-out, tag and delete; single opt-out, on top and agent', async () => {
    const token = await admin();
    const x = await make('+15005550111');
    const y = await make('+15005550112');
    const ids = [x.id, y.id];
    const t1 = await tag('Bulk one');
    const tagged = await c.api.post(token, '/api/v1/contacts/tag', { ids, tag_ids: [t1] });
    expect(tagged.json()).toMatchObject({ success: true, data: { count: 2 } });
    expect((await c.api.get(token, `/api/v1/contacts?tag_id=${t1}`)).json().meta.total).toBe(2);

    const one = await c.api.post(token, `/api/v1/contacts/${x.id}/tag`, { tag_ids: [t1], mode: 'remove' });
    expect(one.json().data.tags).toEqual([]);

    const blocked = await c.api.post(token, '/api/v1/contacts/bulk-block', { ids });
    expect(blocked.json().message).toBe('2 contacts blocked.');
    const opted = await c.api.post(token, '/api/v1/contacts/bulk-optout', { ids });
    expect(opted.statusCode).toBe(200);
    const [row] = await rows(c.t, 'select * from contacts where id = $1', [x.id]);
    expect(row.blocked_at).not.toBeNull();
    expect(row.opted_out_at).not.toBeNull();
    expect((await c.api.get(token, '/api/v1/contacts?blocked=1&opted_out=1')).json().meta.total).toBe(2);

    const optIn = await c.api.post(token, `/api/v1/contacts/${x.id}/opt-out`, { opted_out: false });
    expect(optIn.json().data.opted_out).toBe(false);
    const optOut = await c.api.post(token, `/api/v1/contacts/${x.id}/opt-out`, {});
    expect(optOut.json()).toMatchObject({ data: { opted_out: true } });

    const top = await c.api.post(token, `/api/v1/contacts/${y.id}/set-on-top`, {});
    expect(top.json().data.on_top).toBe(true);
    const first = (await c.api.get(token, '/api/v1/contacts')).json().data[0];
    expect(first.id).toBe(y.id);

    const agent = await c.api.post(token, `/api/v1/contacts/${x.id}/agent/${c.seed.a.businessUser.id}`);
    expect(agent.json().data.agent_user_id).toBe(c.seed.a.businessUser.id);
    const noAgent = await c.api.del(token, `/api/v1/contacts/${x.id}/delete-agent`);
    expect(noAgent.json().data.agent_user_id).toBeNull();

    const deleted = await c.api.post(token, '/api/v1/contacts/bulk-delete', { ids });
    expect(deleted.json().data.count).toBe(2);
    expect((await c.api.get(token, `/api/v1/contacts/${x.id}`)).statusCode).toBe(404);
  });

  it('answers 404 to the three automation calls for an automation that does not exist, changing nothing', async () => {
    const token = await admin();
    const x = await make('+15005550113');
    const y = await make('+15005550114');
    const before = await snapshot(c.t.pool, TABLES);
    const calls = [
      c.api.post(token, `/api/v1/contacts/${x.id}/automation/7`),
      c.api.post(token, '/api/v1/contacts/bulk-automation/8', { ids: [x.id, y.id] }),
      c.api.del(token, `/api/v1/contacts/${x.id}/automation/7`),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toMatchObject({
        success: false,
        code: 'NOT_FOUND',
        message: 'This automation does not exist.',
      });
    }
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });

  it('custom fields: list, active, edit (PUT and POST on an id), delete', async () => {
    const token = await admin();
    const made = await c.api.post(token, '/api/v1/contacts/fields', { label: 'Plan', key: 'plan' });
    expect(made.json()).toMatchObject({
      message: 'Custom field created successfully.',
      data: { key: 'plan' },
    });
    const id = made.json().data.id;
    expect422(
      await c.api.post(token, '/api/v1/contacts/fields', { label: 'Plan again', key: 'plan' }),
      'key',
      'A custom field with this key already exists.',
    );
    const off = await c.api.put(token, `/api/v1/contacts/fields/${id}`, { active: false });
    expect(off.json().data.active).toBe(false);
    const active = await c.api.get(token, '/api/v1/contacts/fields/active');
    expect(active.json().data.map((f: { key: string }) => f.key)).not.toContain('plan');
    const all = await c.api.get(token, '/api/v1/contacts/fields');
    expect(all.json().data.map((f: { key: string }) => f.key)).toContain('plan');
    const relabel = await c.api.post(token, `/api/v1/contacts/fields/${id}`, { label: 'Tier', active: true });
    expect(relabel.json().data).toMatchObject({ label: 'Tier', key: 'plan', active: true });
    const del = await c.api.del(token, `/api/v1/contacts/fields/${id}`);
    expect(del.statusCode).toBe(200);
    expect(
      (await c.api.get(token, '/api/v1/contacts/fields')).json().data.map((f: { id: number }) => f.id),
    ).not.toContain(id);
  });

  it('tags: all, list with usage, rename, delete and bulk delete', async () => {
    const token = await admin();
    const a = await tag('Alpha');
    const b = await tag('Beta');
    expect422(
      await c.api.post(token, '/api/v1/tags', { name: 'alpha' }),
      'name',
      'A tag with this name already exists.',
    );
    await c.api.post(token, `/api/v1/contacts/${mine.id}/tag`, { tag_ids: [a], mode: 'add' });
    const list = await c.api.get(token, '/api/v1/tags?keyword=alp');
    expect(list.json().data).toEqual([expect.objectContaining({ id: a, name: 'Alpha', contacts: 1 })]);
    const all = await c.api.get(token, '/api/v1/tags/all');
    expect(all.json().data.map((x: { name: string }) => x.name)).toContain('Beta');
    const renamed = await c.api.put(token, `/api/v1/tags/${a}`, { name: 'Alpha 2' });
    expect(renamed.json().data).toMatchObject({ name: 'Alpha 2', contacts: 1 });
    const before = await snapshot(c.t.pool, TABLES);
    expect422(
      await c.t.app.inject({
        method: 'DELETE',
        url: '/api/v1/tags/bulk',
        headers: { authorization: `Bearer ${token}` },
        payload: { ids: [a, theirTag] },
      }),
      'ids',
      'Each tag must be a tag of this business.',
    );
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
    const bulk = await c.t.app.inject({
      method: 'DELETE',
      url: '/api/v1/tags/bulk',
      headers: { authorization: `Bearer ${token}` },
      payload: { ids: [a, b] },
    });
    expect(bulk.json()).toMatchObject({ success: true, data: { count: 2 } });
    expect((await c.api.get(token, `/api/v1/contacts/${mine.id}`)).json().data.tags).toEqual([]);
    const c1 = await tag('Gamma');
    expect((await c.api.del(token, `/api/v1/tags/${c1}`)).json().message).toBe('Tag deleted successfully.');
  });
});

describe('who may call', () => {
  it('refuses roles without contacts.use or tags.use, and the custom type without the page', async () => {
    const noPage = await addBusinessUser(c.t, c.seed.a.business.id, 'custom-none@a.test', '4', [
      'inbox_page',
    ]);
    const withPages = await addBusinessUser(c.t, c.seed.a.business.id, 'custom-cp@a.test', '4', [
      'contacts_page',
      'tags_page',
    ]);
    const none = await c.token(noPage.email);
    const agency = await c.token(c.seed.a.agencyAdmin.email);
    for (const token of [none, agency]) {
      await expect403(c.t, TABLES, token, 'GET', '/v1/contacts');
      await expect403(c.t, TABLES, token, 'POST', '/v1/contacts/bulk-delete', { ids: [mine.id] });
      await expect403(c.t, TABLES, token, 'DELETE', `/v1/tags/${theirTag}`);
      await expect403(c.t, TABLES, token, 'POST', '/v1/contacts/import', { csv: 'phone\n+15005550150' });
    }
    const ok = await c.token(withPages.email);
    expect((await c.api.get(ok, '/api/v1/contacts')).statusCode).toBe(200);
    expect((await c.api.get(ok, '/api/v1/tags')).statusCode).toBe(200);
  });

  it('the tags picker serves the contacts screens: a custom type with the contacts page reads it, not the tags list', async () => {
    const contactsOnly = await addBusinessUser(c.t, c.seed.a.business.id, 'custom-co@a.test', '4', [
      'contacts_page',
    ]);
    const token = await c.token(contactsOnly.email);
    const all = await c.api.get(token, '/api/v1/tags/all');
    expect(all.statusCode, all.body).toBe(200);
    expect((all.json().data as { id: number }[]).length).toBeGreaterThan(0);
    await expect403(c.t, TABLES, token, 'GET', '/v1/tags');
    await expect403(c.t, TABLES, token, 'POST', '/v1/tags', { name: 'Not mine to make here' });
    // Neither page: no picker either.
    const inboxOnly = await c.token(
      (await addBusinessUser(c.t, c.seed.a.business.id, 'custom-io@a.test', '4', ['inbox_page'])).email,
    );
    await expect403(c.t, TABLES, inboxOnly, 'GET', '/v1/tags/all');
  });

  it('hides contacts and tags from sales users unless the business has the sales-user extension', async () => {
    const sales = await c.token(c.seed.a.businessUser.email);
    await c.t.pool.query('update businesses set has_sales_user_extension = false where id = $1', [
      c.seed.a.business.id,
    ]);
    await expect403(c.t, TABLES, sales, 'GET', '/v1/contacts');
    await expect403(c.t, TABLES, sales, 'POST', '/v1/tags', { name: 'Sales tag' });
    await c.t.pool.query('update businesses set has_sales_user_extension = true where id = $1', [
      c.seed.a.business.id,
    ]);
    expect((await c.api.get(sales, '/api/v1/contacts')).statusCode).toBe(200);
    expect((await c.api.get(sales, '/api/v1/tags/all')).statusCode).toBe(200);
  });

  it("answers 404 for another business's contact, tag, field and import, and changes nothing", async () => {
    const token = await admin();
    const myTag = await tag('Mine for 404');
    const f = await c.api.post(token, '/api/v1/contacts/fields', { label: 'Mine404' });
    const myField = f.json().data.id;
    const other = theirs.id;
    const cases: [
      method: 'GET' | 'POST' | 'PUT' | 'DELETE',
      path: (id: number) => string,
      payload?: object,
    ][] = [
      ['GET', (id) => `/api/v1/contacts/${id}`],
      ['PUT', (id) => `/api/v1/contacts/${id}`, { first_name: 'X' }],
      ['POST', (id) => `/api/v1/contacts/${id}/tag`, { tag_ids: [] }],
      ['POST', (id) => `/api/v1/contacts/${id}/set-on-top`, {}],
      ['POST', (id) => `/api/v1/contacts/${id}/opt-out`, {}],
      ['POST', (id) => `/api/v1/contacts/${id}/agent/${c.seed.a.businessUser.id}`],
      ['DELETE', (id) => `/api/v1/contacts/${id}/delete-agent`],
      // Last: its control deletes the caller's own contact.
      ['DELETE', (id) => `/api/v1/contacts/${id}`],
    ];
    for (const [method, path, payload] of cases) {
      await expectCrossTenant404(c.t, {
        token,
        method,
        url: path(other),
        control: { url: path(mine.id), method, ...(payload ? { payload } : {}) },
        ...(payload ? { payload } : {}),
        tables: TABLES,
      });
    }
    await expectCrossTenant404(c.t, {
      token,
      method: 'PUT',
      url: `/api/v1/tags/${theirTag}`,
      payload: { name: 'Stolen' },
      control: { url: `/api/v1/tags/${myTag}`, payload: { name: 'Mine for 404' } },
      tables: TABLES,
    });
    await expectCrossTenant404(c.t, {
      token,
      method: 'DELETE',
      url: `/api/v1/tags/${theirTag}`,
      control: { url: `/api/v1/tags/${myTag}`, method: 'PUT', payload: { name: 'Mine for 404' } },
      tables: TABLES,
    });
    for (const method of ['PUT', 'POST', 'DELETE'] as const) {
      await expectCrossTenant404(c.t, {
        token,
        method,
        url: `/api/v1/contacts/fields/${theirField}`,
        ...(method === 'DELETE' ? {} : { payload: { label: 'Stolen' } }),
        control: { url: `/api/v1/contacts/fields/${myField}`, method: 'PUT', payload: { label: 'Mine404' } },
        tables: TABLES,
      });
    }
    const started = await c.api.post(await adminB(), '/api/v1/contacts/import', {
      csv: 'phone\n+15005550160',
    });
    const theirImport = started.json().import_id;
    const mineStarted = await c.api.post(token, '/api/v1/contacts/import', { csv: 'phone\n+15005550161' });
    await expectCrossTenant404(c.t, {
      token,
      method: 'GET',
      url: `/api/v1/contacts/import/${theirImport}`,
      control: { url: `/api/v1/contacts/import/${mineStarted.json().import_id}` },
      tables: TABLES,
    });
    const [inst] = await rows(
      c.t,
      "insert into installs (agency_id, business_id, name, website, key) values ($1, $2, 'B site', 'https://b.test', 'kb-404') returning id",
      [c.seed.b.agency.id, c.seed.b.business.id],
    );
    const [myInst] = await rows(
      c.t,
      "insert into installs (agency_id, business_id, name, website, key) values ($1, $2, 'A site', 'https://a.test', 'ka-404') returning id",
      [c.seed.a.agency.id, c.seed.a.business.id],
    );
    await expectCrossTenant404(c.t, {
      token,
      method: 'GET',
      url: `/api/v1/chats/installs/${inst.id}/contacts/export`,
      control: { url: `/api/v1/chats/installs/${myInst.id}/contacts/export` },
      tables: TABLES,
    });
  });
});

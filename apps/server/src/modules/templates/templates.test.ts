import fs from 'node:fs';
import path from 'node:path';
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
import { tenantContext } from '../../platform/tenancy/context.ts';
import { addMedia } from './service.ts';

const c = useSuite();
const base = '/api/v1/templates';
const TABLES = ['templates'];
let sales: { id: number; email: string };
let custom: { id: number; email: string };
let other: { id: number; email: string };

beforeAll(async () => {
  sales = await addBusinessUser(c.t, c.seed.a.business.id, 'sales@a.test', '3');
  custom = await addBusinessUser(c.t, c.seed.a.business.id, 'custom@a.test', '4', ['message_template_page']);
  other = await addBusinessUser(c.t, c.seed.a.business.id, 'other@a.test', '4', ['tasks_page']);
});

const admin = () => c.token(c.seed.a.businessAdmin.email);
async function create(token: string, body: object) {
  const res = await c.api.post(token, base, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; active: boolean };
}

// A 1x1 PNG.
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('templates', () => {
  it('creates, edits, toggles and deletes a template', async () => {
    const token = await admin();
    const res = await c.api.post(token, base, { name: 'Welcome', body: 'Hi {first_name}!', provider: 'sms' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Template created successfully.');
    const t = res.json().data;
    expect(t).toMatchObject({ name: 'Welcome', body: 'Hi {first_name}!', provider: 'sms', active: true });
    const [row] = await rows(c.t, 'select * from templates where id = $1', [t.id]);
    expect(row).toMatchObject({ business_id: c.seed.a.business.id, agency_id: c.seed.a.agency.id });

    const put = await c.api.put(token, `${base}/${t.id}`, {
      name: 'Welcome 2',
      body: 'Hello',
      provider: 'email',
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toMatchObject({ name: 'Welcome 2', provider: 'email' });

    const off = await c.api.put(token, `${base}/${t.id}/toggle-active`, { active: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().message).toBe('Template deactivated.');
    expect((await rows(c.t, 'select active from templates where id = $1', [t.id]))[0].active).toBe(false);

    const one = await c.api.get(token, `${base}/${t.id}`);
    expect(one.json().data.active).toBe(false);

    const del = await c.api.del(token, `${base}/${t.id}`);
    expect(del.statusCode).toBe(200);
    expect(await rows(c.t, 'select id from templates where id = $1', [t.id])).toEqual([]);
  });

  it('all?provider= lists the active templates of that provider; the list filters and pages', async () => {
    const token = await admin();
    const sms = await create(token, { name: 'S1', body: 'sms body', provider: 'sms' });
    const mail = await create(token, { name: 'E1', body: 'mail body', provider: 'email' });
    const inactive = await create(token, { name: 'S2', body: 'old', provider: 'sms', active: false });
    const all = await c.api.get(token, `${base}/all?provider=sms`);
    expect(all.statusCode, all.body).toBe(200);
    const ids = all.json().data.map((t: { id: number }) => t.id);
    expect(ids).toContain(sms.id);
    expect(ids).not.toContain(mail.id);
    expect(ids).not.toContain(inactive.id);
    const list = await c.api.get(token, `${base}?provider=sms&status=inactive`);
    expect(list.json().data.map((t: { id: number }) => t.id)).toEqual([inactive.id]);
    const search = await c.api.get(token, `${base}?search=mail`);
    expect(search.json().data.map((t: { id: number }) => t.id)).toEqual([mail.id]);
    expect((await c.api.get(token, `${base}/all?provider=fax`)).statusCode).toBe(422);
  });

  it('refuses bad input with 422 and saves nothing', async () => {
    const token = await admin();
    await create(token, { name: 'Taken', body: 'b' });
    const before = await snapshot(c.t.pool, TABLES);
    expect422(await c.api.post(token, base, { name: '', body: 'b' }), 'name', 'The name field is required');
    expect422(await c.api.post(token, base, { name: 'N', body: '  ' }), 'body', 'The body field is required');
    expect422(
      await c.api.post(token, base, { name: 'taken', body: 'b' }),
      'name',
      'A template with this name already exists.',
    );
    expect((await c.api.post(token, base, { name: 'N', body: 'b', provider: 'fax' })).statusCode).toBe(422);
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });

  it('roles: SalesUser and a custom user with message_template_page may; others 403', async () => {
    const t = await create(await c.token(sales.email), { name: 'By sales', body: 'b' });
    expect((await c.api.get(await c.token(custom.email), `${base}/${t.id}`)).statusCode).toBe(200);
    for (const email of [other.email, c.seed.a.agencyAdmin.email]) {
      const token = await c.token(email);
      await expect403(c.t, TABLES, token, 'GET', '/v1/templates');
      await expect403(c.t, TABLES, token, 'POST', '/v1/templates', { name: 'x', body: 'y' });
      await expect403(c.t, TABLES, token, 'PUT', `/v1/templates/${t.id}/toggle-active`, { active: false });
      await expect403(c.t, TABLES, token, 'DELETE', `/v1/templates/${t.id}`);
    }
  });

  it('an agent with the inbox only reads the active templates (all), not the templates screen', async () => {
    const inboxOnly = await addBusinessUser(c.t, c.seed.a.business.id, 'inbox@a.test', '4', ['inbox_page']);
    const token = await c.token(inboxOnly.email);
    const t = await create(await admin(), { name: 'For agents', body: 'b' });
    const all = await c.api.get(token, `${base}/all`);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().data.map((x: { id: number }) => x.id)).toContain(t.id);
    await expect403(c.t, TABLES, token, 'GET', '/v1/templates');
    await expect403(c.t, TABLES, token, 'POST', '/v1/templates', { name: 'x', body: 'y' });
    await expect403(c.t, TABLES, token, 'GET', `/v1/templates/${t.id}`);
  });

  it("another business's template is 404", async () => {
    const token = await admin();
    const mine = await create(token, { name: 'Mine', body: 'b' });
    const theirs = await create(await c.token(c.seed.b.businessAdmin.email), { name: 'Theirs', body: 'b' });
    for (const [method, suffix, payload] of [
      ['GET', '', undefined],
      ['PUT', '', { name: 'x', body: 'y' }],
      ['PUT', '/toggle-active', { active: false }],
      ['DELETE', '', undefined],
    ] as const) {
      await expectCrossTenant404(c.t, {
        token,
        method,
        url: `${base}/${theirs.id}${suffix}`,
        payload,
        control: {
          url: `${base}/${mine.id}${suffix}`,
          method: method === 'DELETE' ? 'GET' : method,
          payload,
        },
        tables: TABLES,
      });
    }
  });
});

describe('media library', () => {
  it('uploads an image, lists it newest first with paging, and removes it', async () => {
    const token = await admin();
    const up = await c.api.post(token, '/api/v1/medias', { data: PNG, name: 'dot.png' });
    expect(up.statusCode, up.body).toBe(200);
    const m = up.json().data;
    expect(m).toMatchObject({ name: 'dot.png', mime: 'image/png', source: 'upload' });
    const file = path.join(c.t.config.dataDir, m.url.replace(/^\//, ''));
    expect(fs.existsSync(file)).toBe(true);
    const served = await c.t.app.inject({ url: m.url });
    expect(served.statusCode).toBe(200);
    // A path that tries to climb out of the uploads folder (encoded, so it reaches the file store) is
    // refused, never served.
    const folder = m.url.replace(/[^/]+$/, '');
    for (const url of [`${folder}..%2F..%2F..%2Fpackage.json`, '/uploads/..%2F.env']) {
      const res = await c.t.app.inject({ url });
      expect([403, 404], url).toContain(res.statusCode);
      expect(res.body).not.toContain('"workspaces"');
    }
    for (let i = 0; i < 11; i++) await c.api.post(token, '/api/v1/medias', { data: PNG });
    const p1 = await c.api.get(token, '/api/v1/medias?page=1');
    expect(p1.json().meta.total).toBe(12);
    expect(p1.json().data).toHaveLength(10);
    const p2 = await c.api.get(token, '/api/v1/medias?page=2');
    expect(p2.json().data.map((x: { id: number }) => x.id)).toContain(m.id);
    expect((await c.api.del(token, `/api/v1/medias/${m.id}`)).statusCode).toBe(200);
    expect(await rows(c.t, 'select id from medias where id = $1', [m.id])).toEqual([]);
  });

  it("addMedia records a message's media for its contact: the library and the contact's files list it", async () => {
    const [contact] = await rows(
      c.t,
      "insert into contacts (agency_id, business_id, phone) values ($1, $2, '+15550003333') returning id",
      [c.seed.a.agency.id, c.seed.a.business.id],
    );
    const ctx = tenantContext(
      c.t.app.deps,
      { level: 'business', agencyId: c.seed.a.agency.id, businessId: c.seed.a.business.id },
      { kind: 'system', source: 'carrier', name: 'inbound mms' },
    );
    const m = await addMedia(ctx, {
      url: '/uploads/messages/x.jpg',
      mime: 'image/jpeg',
      size: 10,
      contactId: contact.id,
      messageId: 77,
    });
    expect(m).toMatchObject({ source: 'message', contact_id: contact.id });
    const token = await admin();
    const files = await c.api.get(token, `/api/v1/medias?contact_id=${contact.id}`);
    expect(files.json().data.map((x: { id: number }) => x.id)).toEqual([m.id]);
    const b = await c.token(c.seed.b.businessAdmin.email);
    expect((await c.api.get(b, `/api/v1/medias?contact_id=${contact.id}`)).json().data).toEqual([]);
  });

  it('refuses a non-image (422, nothing saved); another business cannot see or delete it', async () => {
    const token = await admin();
    const before = await snapshot(c.t.pool, ['medias']);
    expect422(
      await c.api.post(token, '/api/v1/medias', {
        data: `data:image/png;base64,${Buffer.from('<html>').toString('base64')}`,
      }),
      'data',
      'The file must be a PNG, JPG, GIF or WEBP image.',
    );
    expect(await snapshot(c.t.pool, ['medias'])).toEqual(before);
    const mine = (await c.api.post(token, '/api/v1/medias', { data: PNG })).json().data;
    const b = await c.token(c.seed.b.businessAdmin.email);
    const theirs = (await c.api.post(b, '/api/v1/medias', { data: PNG })).json().data;
    const list = await c.api.get(b, '/api/v1/medias');
    expect(list.json().data.map((x: { id: number }) => x.id)).not.toContain(mine.id);
    await expectCrossTenant404(c.t, {
      token,
      method: 'DELETE',
      url: `/api/v1/medias/${theirs.id}`,
      control: { url: '/api/v1/medias', method: 'GET' },
      tables: ['medias'],
    });
    await expect403(c.t, ['medias'], await c.token(c.seed.a.agencyAdmin.email), 'GET', '/v1/medias');
  });
});

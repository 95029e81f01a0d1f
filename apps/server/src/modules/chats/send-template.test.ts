// Sending with a template and with media library images (ADR 039), end to end with the sandbox carrier:
// the server fills the template's merge fields for the contact; another business's template is a 404, an
// inactive or e-mail one a 422 with a clear message; a library image goes as the MMS's media and the phone
// receives it; another business's image is a 422. A refused send stores and sends nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, snapshot } from '../../../test/helpers.ts';
import { INSTALL_NUMBER, type Telephony, telephonyApp } from '../telephony/testing.ts';

let h: Telephony;
let installA: number;
let ann: number;
let bob: number;
const ANN = '+14155550601';
const BOB = '+14155550602';
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const TABLES = ['messages', 'contacts', 'medias'];

const admin = () => h.seed.a.businessAdmin.email;
async function call(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, email = admin()) {
  return h.t.app.inject({
    method,
    url: `/api${url}`,
    headers: bearer(await h.token(email)),
    ...(payload ? { payload } : {}),
  });
}
async function template(body: object, email = admin()): Promise<number> {
  const res = await call('POST', '/v1/templates', body, email);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id;
}
const received = (phone: string) => h.sandbox.phones.get(phone).texts.filter((t) => t.direction === 'in');

beforeAll(async () => {
  h = await telephonyApp();
  installA = (await h.install()).id;
  const field = await call('POST', '/v1/contacts/fields', { label: 'Favourite colour', type: 'text' });
  expect(field.statusCode, field.body).toBe(200);
  const a = await call('POST', '/v1/contacts', {
    phone: ANN,
    first_name: 'Ann',
    last_name: 'Lee',
    email: 'ann@example.com',
    install_id: installA,
    fields: { favourite_colour: 'green' },
  });
  expect(a.statusCode, a.body).toBe(200);
  ann = a.json().data.id;
  const b = await call('POST', '/v1/contacts', { phone: BOB, install_id: installA });
  expect(b.statusCode, b.body).toBe(200);
  bob = b.json().data.id;
});
afterAll(async () => {
  await h?.run(60_000);
  await h?.t.app.close();
  await h?.close();
});

describe('sending with a template', () => {
  it('fills the merge fields for the contact when the body is empty, and the phone gets that text', async () => {
    const id = await template({
      name: 'Welcome',
      body: 'Hi {first_name} {last_name} ({name}), we have {phone} and {Email}; you like {favourite_colour}. {unknown} stays.',
    });
    const res = await call('POST', `/v1/chats/contacts/${ann}/messages`, { template_id: id });
    expect(res.statusCode, res.body).toBe(200);
    const text = `Hi Ann Lee (Ann Lee), we have ${ANN} and ann@example.com; you like green. {unknown} stays.`;
    expect(res.json().data.body).toBe(text);
    await h.run(30_000);
    expect(received(ANN).map((t) => t.body)).toContain(text);
    expect(received(ANN).at(-1)?.other).toBe(INSTALL_NUMBER);
  });

  it('uses a fallback for an empty value and fills the body the agent edited', async () => {
    const id = await template({
      name: 'Fallback',
      body: 'Hello {first_name|there}, {favourite_colour|any} it is',
    });
    const empty = await call('POST', `/v1/chats/contacts/${bob}/messages`, { template_id: id });
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json().data.body).toBe('Hello there, any it is');
    const edited = await call('POST', `/v1/chats/contacts/${ann}/messages`, {
      template_id: id,
      body: 'Dear {first_name}, see you soon',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data.body).toBe('Dear Ann, see you soon');
    // Without a template the body is sent as written.
    const plain = await call('POST', `/v1/chats/contacts/${ann}/messages`, { body: 'Literal {first_name}' });
    expect(plain.json().data.body).toBe('Literal {first_name}');
  });

  it("answers 404 for another business's template and 422 for an inactive or e-mail one, sending nothing", async () => {
    const theirs = await template({ name: 'Theirs', body: 'Hi {first_name}' }, h.seed.b.businessAdmin.email);
    const inactive = await template({ name: 'Old one', body: 'Old offer', active: false });
    const email = await template({ name: 'Mail', body: 'An e-mail', provider: 'email' });
    await h.run(30_000);
    const before = await snapshot(h.t.pool, TABLES);
    const phoneBefore = received(ANN).length;

    const other = await call('POST', `/v1/chats/contacts/${ann}/messages`, { template_id: theirs });
    expect(other.statusCode, other.body).toBe(404);
    const missing = await call('POST', `/v1/chats/contacts/${ann}/messages`, { template_id: 999_999 });
    expect(missing.statusCode).toBe(404);

    const off = await call('POST', `/v1/chats/contacts/${ann}/messages`, {
      template_id: inactive,
      body: 'x',
    });
    expect(off.statusCode, off.body).toBe(422);
    expect(off.json()).toMatchObject({
      success: false,
      message: 'This template is inactive. Activate it in Templates or pick another one.',
      errors: { template_id: ['This template is inactive. Activate it in Templates or pick another one.'] },
    });
    const mail = await call('POST', `/v1/chats/contacts/${ann}/messages`, { template_id: email });
    expect(mail.statusCode).toBe(422);
    expect(mail.json().message).toBe('Only an SMS template can be sent as a text message.');

    const es = await h.t.app.inject({
      method: 'POST',
      url: `/api/v1/chats/contacts/${ann}/messages`,
      headers: { ...bearer(await h.token(admin())), 'accept-language': 'es' },
      payload: { template_id: inactive },
    });
    expect(es.json().message).toBe('Esta plantilla está inactiva. Actívela en Plantillas o elija otra.');

    await h.run(30_000);
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
    expect(received(ANN).length).toBe(phoneBefore);
  });
});

describe('sending media library images', () => {
  it('sends a library image as the MMS media; the phone receives it and the file is served', async () => {
    const up = await call('POST', '/v1/medias', { data: PNG, name: 'map.png' });
    expect(up.statusCode, up.body).toBe(200);
    const media = up.json().data;
    const res = await call('POST', `/v1/chats/contacts/${ann}/messages`, {
      body: 'How to find us',
      media_ids: [media.id],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.media).toEqual([
      { url: media.url, content_type: 'image/png', size: media.size, name: 'map.png' },
    ]);
    expect(res.json().data.segments).toBe(3);
    // An image alone is an MMS too.
    const alone = await call('POST', `/v1/chats/contacts/${ann}/messages`, { media_ids: [media.id] });
    expect(alone.statusCode, alone.body).toBe(200);
    await h.run(30_000);
    const got = received(ANN).filter((t) => t.media?.length);
    expect(got.map((t) => t.body)).toEqual(expect.arrayContaining(['How to find us', '']));
    const url = got[0]?.media?.[0] ?? '';
    expect(url.endsWith(media.url)).toBe(true);
    const file = await h.t.app.inject({ method: 'GET', url: new URL(url).pathname });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    const row = await h.t.pool.query('select status from messages where id = $1', [res.json().data.id]);
    expect(row.rows[0].status).toBe('delivered');
  });

  it("refuses another business's image or an unknown id with a 422, and more than five images", async () => {
    const theirs = await call('POST', '/v1/medias', { data: PNG }, h.seed.b.businessAdmin.email);
    expect(theirs.statusCode).toBe(200);
    const mine = (await call('POST', '/v1/medias', { data: PNG })).json().data.id;
    await h.run(30_000);
    const before = await snapshot(h.t.pool, TABLES);
    for (const payload of [
      { body: 'x', media_ids: [theirs.json().data.id] },
      { body: 'x', media_ids: [mine, 999_999] },
      { body: 'x', media_ids: [mine, mine, mine], media: [PNG, PNG, PNG] },
    ]) {
      const res = await call('POST', `/v1/chats/contacts/${ann}/messages`, payload);
      expect(res.statusCode, res.body).toBe(422);
    }
    const other = await call('POST', `/v1/chats/contacts/${ann}/messages`, {
      body: 'x',
      media_ids: [theirs.json().data.id],
    });
    expect(other.json().errors.media_ids).toEqual(['The image is not in your media library.']);
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
  });
});

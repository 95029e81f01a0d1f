import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  addBusinessUser,
  bearer,
  drainJobs,
  expect403,
  expect422,
  expectCrossTenant404,
  snapshot,
} from '../../../test/helpers.ts';
import { agencyCarrierAccount } from '../agencies/service.ts';
import { carrierWebhook, type Telephony, telephonyApp, VISITOR } from '../telephony/testing.ts';

// The broadcasts API (ADR 062): every /v1/broadcasts and /v1/broadcasters call of spec 001, bad input (422,
// nothing changed), another business's rows (404), roles without broadcasts.use (403). Sending itself is
// the engine's (ADR 061, its own tests); the report's rows here are written as the engine writes them.

let h: Telephony;
const PUBLIC = 'http://localhost:3000';
const base = '/api/v1/broadcasts';
const TABLES = ['broadcasts', 'broadcasters', 'broadcast_recipients', 'contacts', 'contact_tags', 'messages'];
const q = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;

let admin: string;
let adminB: string;
let installId: number;
let installNumber: string;
let numberId: number;
let number2Id: number;
let numberB: number;
let vip: number;
let news: number;
let tagB: number;
let installB: number;
let contactB: number;
let mediaId: number;
let mediaB: number;
let templateId: number;
let templateB: number;
const people: { id: number; phone: string }[] = [];
const TAG_INVALID = 'Each tag must be a tag of this business.';

const api = (token: string) => ({
  get: (url: string) => h.t.app.inject({ method: 'GET', url, headers: bearer(token) }),
  post: (url: string, payload: object = {}) =>
    h.t.app.inject({ method: 'POST', url, headers: bearer(token), payload }),
  put: (url: string, payload: object = {}) =>
    h.t.app.inject({ method: 'PUT', url, headers: bearer(token), payload }),
  del: (url: string) => h.t.app.inject({ method: 'DELETE', url, headers: bearer(token) }),
});

async function contact(business: 'a' | 'b', phone: string, first: string, tagIds: number[] = []) {
  const s = h.seed[business];
  const [row] = await q(
    'insert into contacts (agency_id, business_id, phone, first_name, last_name, install_id) values ($1, $2, $3, $4, $5, $6) returning id',
    [s.agency.id, s.business.id, phone, first, 'Tester', business === 'a' ? installId : null],
  );
  for (const t of tagIds)
    await q('insert into contact_tags (contact_id, tag_id) values ($1, $2)', [row.id, t]);
  return row.id as number;
}

async function tag(business: 'a' | 'b', name: string) {
  const [row] = await q('insert into tags (business_id, name) values ($1, $2) returning id', [
    h.seed[business].business.id,
    name,
  ]);
  return row.id as number;
}

async function media(business: 'a' | 'b') {
  const s = h.seed[business];
  const [row] = await q(
    "insert into medias (agency_id, business_id, url, name, mime, size) values ($1, $2, $3, 'sale.png', 'image/png', 100) returning id",
    [s.agency.id, s.business.id, `/uploads/media/${s.business.id}/sale-${crypto.randomUUID()}.png`],
  );
  return row.id as number;
}

const draft = (over: Record<string, unknown> = {}) => ({
  name: 'Spring sale',
  body: 'Hi {first_name|there}, 20% off this week!',
  audience: { tag_ids: [vip] },
  ...over,
});

async function create(over: Record<string, unknown> = {}) {
  const res = await api(admin).post(base, draft(over));
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; status: string; body: string };
}

/** A recipient row as the engine writes it (the report's, tag's and bulk-optout's input). */
async function recipient(
  broadcastId: number,
  p: { contactId: number | null; phone: string; state: string; extra?: Record<string, unknown> },
) {
  const cols = {
    broadcast_id: broadcastId,
    business_id: h.seed.a.business.id,
    contact_id: p.contactId,
    phone: p.phone,
    name: 'Ann Tester',
    state: p.state,
    due_at: new Date(),
    ...(p.extra ?? {}),
  };
  const keys = Object.keys(cols);
  const [row] = await q(
    `insert into broadcast_recipients (${keys.join(', ')}) values (${keys.map((_, i) => `$${i + 1}`).join(', ')}) returning id`,
    Object.values(cols),
  );
  return Number(row.id);
}

beforeAll(async () => {
  h = await telephonyApp();
  await drainJobs(h.t);
  admin = await h.token(h.seed.a.businessAdmin.email);
  adminB = await h.token(h.seed.b.businessAdmin.email);
  const install = await h.install();
  installId = install.id;
  [{ id: numberId, phone_number: installNumber }] = await q(
    'select id, phone_number from numbers where install_id = $1',
    [installId],
  );
  const account = await agencyCarrierAccount(h.t.app.deps, h.seed.a.agency.id);
  if (!account) throw new Error('no account');
  h.sandbox.restoreIncomingNumber(account.accountSid, {
    sid: `PN${crypto.randomBytes(16).toString('hex')}`,
    phoneNumber: installNumber,
    voiceUrl: `${PUBLIC}/webhooks/twilio/voice`,
    smsUrl: `${PUBLIC}/webhooks/twilio/sms-in`,
  });
  const second = await h.install();
  [{ id: number2Id }] = await q('select id from numbers where install_id = $1', [second.id]);
  installB = (await h.install({}, { tenant: 'b' })).id;
  [{ id: numberB }] = await q('select id from numbers where install_id = $1', [installB]);
  vip = await tag('a', 'VIP');
  news = await tag('a', 'Newsletter');
  tagB = await tag('b', 'Other VIP');
  for (let i = 0; i < 4; i++) {
    const phone = `+1415555${String(2000 + i)}`;
    people.push({ id: await contact('a', phone, ['Ann', 'Ben', 'Cy', 'Dee'][i] ?? 'X', [vip]), phone });
  }
  contactB = await contact('b', '+14155553000', 'Zed', [tagB]);
  mediaId = await media('a');
  mediaB = await media('b');
  const [tpl] = await q(
    "insert into templates (agency_id, business_id, name, body, provider) values ($1, $2, 'Promo', 'Hello {first_name|friend}, see you soon', 'sms') returning id",
    [h.seed.a.agency.id, h.seed.a.business.id],
  );
  templateId = tpl.id;
  const [tplB] = await q(
    "insert into templates (agency_id, business_id, name, body, provider) values ($1, $2, 'Promo B', 'B text', 'sms') returning id",
    [h.seed.b.agency.id, h.seed.b.business.id],
  );
  templateB = tplB.id;
});
afterAll(() => h?.close());

describe('broadcasters (/v1/broadcasters)', () => {
  it('adds a number of the business once, with its kind or own rate; edits, lists and removes it', async () => {
    const res = await api(admin).post('/api/v1/broadcasters', { number_id: numberId });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Broadcast number added successfully.');
    const b = res.json().data;
    expect(b).toMatchObject({
      number_id: numberId,
      phone_number: installNumber,
      kind: 'long_code',
      rate: 1,
      custom_rate: null,
      active: true,
    });
    const before = await snapshot(h.t.pool, TABLES);
    expect422(
      await api(admin).post('/api/v1/broadcasters', { number_id: numberId }),
      'number_id',
      'This number is already a broadcast number.',
    );
    expect422(
      await api(admin).post('/api/v1/broadcasters', { number_id: numberB }),
      'number_id',
      'Choose a number of this business that can send text messages.',
    );
    const rate = await api(admin).post('/api/v1/broadcasters', { number_id: number2Id, custom_rate: 500 });
    expect(rate.statusCode, rate.body).toBe(422);
    expect(Object.keys(rate.json().errors)).toEqual(['custom_rate']);
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);

    const upd = await api(admin).put(`/api/v1/broadcasters/${b.id}`, { kind: 'toll_free' });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(upd.json().data).toMatchObject({ kind: 'toll_free', rate: 3 });
    const own = await api(admin).put(`/api/v1/broadcasters/${b.id}`, { custom_rate: 5 });
    expect(own.json().data).toMatchObject({ kind: 'toll_free', rate: 5, custom_rate: 5 });
    await api(admin).put(`/api/v1/broadcasters/${b.id}`, { custom_rate: null, kind: 'long_code' });

    const second = await api(admin).post('/api/v1/broadcasters', {
      number_id: number2Id,
      kind: '10dlc_mid',
      active: false,
    });
    expect(second.json().data).toMatchObject({ rate: 10, active: false });
    const list = await api(admin).get('/api/v1/broadcasters?perPage=1');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().meta.total).toBe(2);
    expect(list.json().data).toHaveLength(1);
    const all = await api(admin).get('/api/v1/broadcasters/all');
    expect(all.json().data.map((x: { id: number }) => x.id)).toEqual([b.id, second.json().data.id]);
    const del = await api(admin).del(`/api/v1/broadcasters/${second.json().data.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect((await api(admin).get('/api/v1/broadcasters/all')).json().data).toHaveLength(1);
  });

  it("answers 404 for another business's broadcaster", async () => {
    const mine = (await api(adminB).post('/api/v1/broadcasters', { number_id: numberB })).json().data;
    const [ours] = (await api(admin).get('/api/v1/broadcasters/all')).json().data;
    for (const method of ['PUT', 'DELETE'] as const)
      await expectCrossTenant404(h.t, {
        token: admin,
        method,
        url: `/api/v1/broadcasters/${mine.id}`,
        ...(method === 'PUT' ? { payload: { active: false } } : {}),
        control: { url: `/api/v1/broadcasters/${ours.id}`, method: 'PUT', payload: { active: true } },
        tables: TABLES,
      });
  });
});

describe('broadcasts: create, read, edit, delete', () => {
  it('saves a draft, reads and lists it (search, status), edits it', async () => {
    const res = await api(admin).post(base, draft({ broadcaster_ids: [] }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Broadcast saved as a draft.');
    const b = res.json().data;
    expect(b).toMatchObject({
      name: 'Spring sale',
      status: 'draft',
      body: 'Hi {first_name|there}, 20% off this week!',
      media: [],
      audience: { tag_ids: [vip], exclude_tag_ids: [], install_ids: [], contact_ids: [] },
      broadcaster_ids: [],
      send_at: null,
      time_zone: 'UTC',
      counts: { total: 0, sent: 0 },
      created_by: h.seed.a.businessAdmin.id,
    });
    const one = await api(admin).get(`${base}/${b.id}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().data.id).toBe(b.id);
    await create({ name: 'Autumn news', audience: { tag_ids: [news] } });
    const found = await api(admin).get(`${base}?search=spring&status=draft`);
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().data.map((x: { id: number }) => x.id)).toContain(b.id);
    expect(found.json().data.every((x: { name: string }) => /spring/i.test(x.name))).toBe(true);
    expect((await api(admin).get(`${base}?status=completed`)).json().meta.total).toBe(0);

    const [bc] = (await api(admin).get('/api/v1/broadcasters/all')).json().data;
    const sendAt = new Date(Date.now() + 86_400_000).toISOString();
    const edit = await api(admin).put(`${base}/${b.id}`, {
      ...draft({ name: 'Spring sale 2' }),
      media_ids: [mediaId],
      broadcaster_ids: [bc.id],
      audience: {
        tag_ids: [vip],
        exclude_tag_ids: [news],
        contact_ids: [people[0]?.id],
        install_ids: [installId],
      },
      send_at: sendAt,
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().message).toBe('Broadcast updated successfully.');
    expect(edit.json().data).toMatchObject({
      name: 'Spring sale 2',
      status: 'draft',
      broadcaster_ids: [bc.id],
      send_at: sendAt,
      media: [{ content_type: 'image/png', name: 'sale.png' }],
      audience: { exclude_tag_ids: [news], install_ids: [installId] },
    });
  });

  it("takes a template's text as the message when none is written", async () => {
    const b = await create({ body: '', template_id: templateId });
    expect(b.body).toBe('Hello {first_name|friend}, see you soon');
  });

  it('refuses bad input field by field with 422, and changes nothing', async () => {
    const [bc] = (await api(adminB).get('/api/v1/broadcasters/all')).json().data;
    const before = await snapshot(h.t.pool, TABLES);
    const noName = await api(admin).post(base, draft({ name: '' }));
    expect(noName.statusCode, noName.body).toBe(422);
    expect(Object.keys(noName.json().errors)).toEqual(['name']);
    expect422(
      await api(admin).post(base, draft({ body: '  ' })),
      'body',
      'Write a message, pick a template or add an image.',
    );
    expect422(
      await api(admin).post(base, draft({ audience: { exclude_tag_ids: [vip] } })),
      'audience',
      "Choose who receives the broadcast: tags, a website's contacts or contacts.",
    );
    expect422(
      await api(admin).post(base, draft({ audience: { tag_ids: [tagB] } })),
      'audience.tag_ids',
      'Choose tags of this business.',
    );
    expect422(
      await api(admin).post(base, draft({ audience: { tag_ids: [vip], exclude_tag_ids: [tagB] } })),
      'audience.exclude_tag_ids',
      'Choose tags of this business.',
    );
    expect422(
      await api(admin).post(base, draft({ audience: { install_ids: [installB] } })),
      'audience.install_ids',
      'Choose websites of this business.',
    );
    expect422(
      await api(admin).post(base, draft({ audience: { contact_ids: [contactB] } })),
      'audience.contact_ids',
      'Choose contacts of this business.',
    );
    expect422(
      await api(admin).post(base, draft({ broadcaster_ids: [bc.id] })),
      'broadcaster_ids',
      'Choose active broadcast numbers of this business.',
    );
    expect422(
      await api(admin).post(base, draft({ media_ids: [mediaB] })),
      'media_ids',
      'The image is not in your media library.',
    );
    expect422(
      await api(admin).post(base, draft({ body: '', template_id: templateB })),
      'template_id',
      'Choose an active text template of this business.',
    );
    for (const at of [new Date(Date.now() - 60_000), new Date(Date.now() + 400 * 86_400_000)])
      expect422(
        await api(admin).post(base, draft({ start: true, send_at: at.toISOString() })),
        'send_at',
        'Choose a time in the future, within the next year.',
      );
    // Every wrong field at once.
    const all = await api(admin).post(
      base,
      draft({ body: '', audience: { tag_ids: [tagB], contact_ids: [contactB] } }),
    );
    expect(all.statusCode).toBe(422);
    expect(Object.keys(all.json().errors).sort()).toEqual([
      'audience.contact_ids',
      'audience.tag_ids',
      'body',
    ]);
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
  });

  it('edits only drafts and scheduled ones, deletes (softly) all but a sending one', async () => {
    const done = await create({ name: 'Done one' });
    await q("update broadcasts set status = 'completed' where id = $1", [done.id]);
    const sending = await create({ name: 'Busy one' });
    await q("update broadcasts set status = 'sending' where id = $1", [sending.id]);
    const before = await snapshot(h.t.pool, TABLES);
    const edit = await api(admin).put(`${base}/${done.id}`, draft());
    expect(edit.statusCode, edit.body).toBe(422);
    expect(edit.json().message).toBe(
      'Only a draft or a scheduled broadcast can be edited. Duplicate it to send it again.',
    );
    const del = await api(admin).del(`${base}/${sending.id}`);
    expect(del.statusCode, del.body).toBe(422);
    expect(del.json().message).toBe('This broadcast is sending. Stop it before deleting it.');
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);

    const ok = await api(admin).del(`${base}/${done.id}`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().message).toBe('Broadcast deleted successfully.');
    expect((await api(admin).get(`${base}/${done.id}`)).statusCode).toBe(404);
    const [row] = await q('select deleted_at from broadcasts where id = $1', [done.id]);
    expect(row.deleted_at).not.toBeNull();
    expect((await api(admin).get(`${base}?search=Done one`)).json().meta.total).toBe(0);
  });

  it('refuses stop, rerun and refresh in the wrong state with a message', async () => {
    const b = await create();
    const before = await snapshot(h.t.pool, TABLES);
    for (const [path, message] of [
      ['stop', 'Only a scheduled or sending broadcast can be stopped.'],
      ['rerun', 'Only a stopped, completed or failed broadcast can be re-run.'],
      ['refresh', 'This broadcast has no sent messages to refresh yet.'],
    ] as const) {
      const res = await api(admin).post(`${base}/${b.id}/${path}`, {});
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toBe(message);
    }
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
  });
});

describe('message credit and the test text', () => {
  it('counts segments and images against the monthly messages left', async () => {
    await q('update businesses set messages = 100, number_of_messages = 95 where id = $1', [
      h.seed.a.business.id,
    ]);
    const res = await api(admin).post(`${base}/message-credit`, {
      body: 'x'.repeat(170),
      audience: { tag_ids: [vip] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json().data;
    expect(d).toMatchObject({ per_message: 2, segments: 2, remaining: 5 });
    expect(d.credits).toBe(d.recipients * 2);
    expect(d.fits).toBe(d.credits <= 5);
    const img = await api(admin).post(`${base}/message-credit`, {
      body: 'hi',
      media_ids: [mediaId],
      audience: { contact_ids: [people[0]?.id] },
    });
    expect(img.json().data).toMatchObject({ per_message: 3, segments: 1, remaining: 5 });
    await q('update businesses set messages = 0, number_of_messages = 0 where id = $1', [
      h.seed.a.business.id,
    ]);
    const free = await api(admin).post(`${base}/message-credit`, {
      body: 'hi',
      audience: { tag_ids: [vip] },
    });
    expect(free.json().data).toMatchObject({ remaining: null, fits: true });
    expect422(
      await api(admin).post(`${base}/message-credit`, { body: 'hi', audience: { tag_ids: [tagB] } }),
      'audience.tag_ids',
      'Choose tags of this business.',
    );
  });

  it('sends the filled message to one phone from the broadcaster, and counts it', async () => {
    const [bc] = (await api(admin).get('/api/v1/broadcasters/all')).json().data;
    const sent = () => [...h.sandbox.messages.values()].filter((m) => m.direction === 'outbound-api');
    const n0 = sent().length;
    const [{ number_of_messages: used0 }] = await q(
      'select number_of_messages from businesses where id = $1',
      [h.seed.a.business.id],
    );
    const res = await api(admin).post(`${base}/test`, {
      phone: VISITOR,
      body: 'Hi {first_name|there}!',
      broadcaster_id: bc.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Test message sent successfully.');
    const [{ number_of_messages: used1 }] = await q(
      'select number_of_messages from businesses where id = $1',
      [h.seed.a.business.id],
    );
    expect(used1).toBe(used0 + 1);
    const mine = await api(admin).post(`${base}/test`, {
      phone: people[1]?.phone ?? '',
      body: 'Hi {first_name|there}!',
    });
    expect(mine.statusCode, mine.body).toBe(200);
    const out = sent().slice(n0);
    expect(out.map((m) => [m.to, m.from, m.body])).toEqual([
      [VISITOR, bc.phone_number, 'Hi Alex!'],
      [people[1]?.phone, bc.phone_number, 'Hi Ben!'],
    ]);
  });

  it('refuses an opted-out, blocked or blacklisted phone and restricted content, sending nothing', async () => {
    const optedOut = await contact('a', '+14155554001', 'Opal');
    await q('update contacts set opted_out_at = now() where id = $1', [optedOut]);
    const blocked = await contact('a', '+14155554002', 'Bo');
    await q('update contacts set blocked_at = now() where id = $1', [blocked]);
    await q(
      "insert into phone_lists (list, agency_id, business_id, phone) values ('blacklist', $1, $2, '+14155554003')",
      [h.seed.a.agency.id, h.seed.a.business.id],
    );
    const n0 = h.sandbox.messages.size;
    const before = await snapshot(h.t.pool, ['businesses', ...TABLES]);
    for (const [phone, body, message] of [
      ['+14155554001', 'hi', 'This contact has opted out of text messages'],
      ['+14155554002', 'hi', 'This contact is blocked'],
      ['+14155554003', 'hi', 'This phone number is on the blacklist'],
      ['+14155554004', 'Buy cheap cigarettes now', 'Restricted Message Content'],
    ]) {
      const res = await api(admin).post(`${base}/test`, { phone, body });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toContain(message);
    }
    expect422(
      await api(admin).post(`${base}/test`, { phone: VISITOR, body: '' }),
      'body',
      'Write a message, pick a template or add an image.',
    );
    expect(h.sandbox.messages.size).toBe(n0);
    expect(await snapshot(h.t.pool, ['businesses', ...TABLES])).toEqual(before);
  });
});

describe('replies, the report, tag and bulk-optout', () => {
  let b: { id: number };
  let ids: number[];
  const inbound = (from: string, body: string) =>
    carrierWebhook(h, '/webhooks/twilio/sms-in', {
      MessageSid: `SM${crypto.randomBytes(16).toString('hex')}`,
      From: from,
      To: installNumber,
      Body: body,
      NumMedia: '0',
    });

  beforeAll(async () => {
    b = await create({ name: 'Report one' });
    await q(
      "update broadcasts set status = 'completed', started_at = now(), completed_at = now() where id = $1",
      [b.id],
    );
    const [p0, p1, p2, p3] = people as [
      (typeof people)[0],
      (typeof people)[0],
      (typeof people)[0],
      (typeof people)[0],
    ];
    const at = new Date(Date.now() - 3_600_000);
    ids = [
      await recipient(b.id, {
        contactId: p0.id,
        phone: p0.phone,
        state: 'delivered',
        extra: { sent_at: at, delivered_at: at, from_number: installNumber },
      }),
      await recipient(b.id, {
        contactId: p1.id,
        phone: p1.phone,
        state: 'sent',
        extra: { sent_at: at, from_number: installNumber },
      }),
      await recipient(b.id, {
        contactId: p2.id,
        phone: p2.phone,
        state: 'failed',
        extra: { sent_at: at, error_code: 30007, error_message: 'Carrier filtered' },
      }),
      await recipient(b.id, {
        contactId: p3.id,
        phone: p3.phone,
        state: 'skipped',
        extra: { skip_reason: 'opted_out' },
      }),
    ];
  });

  it("marks a recipient's text in as a reply to the broadcast, and a STOP as its opt-out", async () => {
    expect((await inbound(people[0]?.phone ?? '', 'Please remove me from this list')).statusCode).toBe(200);
    expect((await inbound(people[1]?.phone ?? '', 'STOP')).statusCode).toBe(200);
    // The webhook answers once the text is stored; its listeners run after: wait for their work.
    const rows = await vi.waitFor(async () => {
      const list = await q(
        'select id, replied_at, opted_out_at from broadcast_recipients where id = any($1) order by id',
        [ids],
      );
      if (!list[0]?.replied_at || !list[1]?.opted_out_at) throw new Error('not yet');
      return list;
    });
    expect(rows[0].replied_at).not.toBeNull();
    expect(rows[1]).toMatchObject({ replied_at: null });
    expect(rows[1].opted_out_at).not.toBeNull();
    const marked = await vi.waitFor(async () => {
      const list = await q(
        "select contact_id, broadcast_id from messages where direction = 'in' and contact_id = any($1)",
        [[people[0]?.id, people[1]?.id]],
      );
      if (list.length < 2 || list.some((m) => m.broadcast_id === null)) throw new Error('not yet');
      return list;
    });
    expect(marked.map((m) => m.broadcast_id)).toEqual([b.id, b.id]);
    // A text from someone with no broadcast this week is an ordinary message.
    expect((await inbound('+14155559999', 'hello')).statusCode).toBe(200);
    const [plain] = await q(
      "select broadcast_id from messages where direction = 'in' order by id desc limit 1",
    );
    expect(plain.broadcast_id).toBeNull();
  });

  it('reports counts by reason, the timeline and the recipients (filters), and downloads the CSV', async () => {
    const res = await api(admin).get(`${base}/${b.id}/report?perPage=2`);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json().data;
    expect(r.broadcast.id).toBe(b.id);
    expect(r.failed_by_reason).toEqual([{ reason: '30007', count: 1 }]);
    expect(r.skipped_by_reason).toEqual([{ reason: 'opted_out', count: 1 }]);
    expect(r.timeline.reduce((n: number, x: { sent: number }) => n + x.sent, 0)).toBe(3);
    expect(r.timeline.reduce((n: number, x: { delivered: number }) => n + x.delivered, 0)).toBe(1);
    expect(r.meta).toEqual({ total: 4, page: 1, perPage: 2 });
    expect(r.recipients[0]).toMatchObject({
      id: ids[0],
      state: 'delivered',
      reply: 'Please remove me from this list',
      asks_to_stop: true,
    });
    const byPhone = await api(admin).get(`${base}/${b.id}/report?keyword=${people[2]?.phone.slice(-4)}`);
    expect(byPhone.json().data.recipients.map((x: { id: number }) => x.id)).toEqual([ids[2]]);
    const replied = await api(admin).get(`${base}/${b.id}/report?replied=true`);
    expect(replied.json().data.recipients.map((x: { id: number }) => x.id)).toEqual([ids[0]]);
    const notReplied = await api(admin).get(`${base}/${b.id}/report?replied=false&state=failed`);
    expect(notReplied.json().data.recipients.map((x: { id: number }) => x.id)).toEqual([ids[2]]);

    const csv = await api(admin).get(`${base}/report/download?id=${b.id}`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain(`broadcast-${b.id}-Report-one.csv`);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'name,phone,state,skip_reason,error_code,error_message,from_number,due_at,sent_at,delivered_at,replied_at,opted_out_at,reply,asks_to_stop',
    );
    expect(lines).toHaveLength(5);
    // A leading + is neutralised by the one CSV writer (a spreadsheet would read a formula).
    expect(lines[1]).toContain(`Ann Tester,'${people[0]?.phone},delivered`);
    expect(lines[1]).toContain('Please remove me from this list,yes');
    expect(lines[3]).toContain('30007,Carrier filtered');
  });

  it('tags the recipients sent the message, or those who replied', async () => {
    const before = await snapshot(h.t.pool, TABLES);
    expect422(await api(admin).post(`${base}/${b.id}/tag`, { tag_ids: [tagB] }), 'tag_ids', TAG_INVALID);
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
    const fresh = await create({ name: 'Not sent yet' });
    const nobody = await api(admin).post(`${base}/${fresh.id}/tag`, { tag_ids: [news] });
    expect(nobody.statusCode, nobody.body).toBe(422);
    expect(nobody.json().message).toBe('No recipient to tag.');
    const res = await api(admin).post(`${base}/${b.id}/tag`, { tag_ids: [news], who: 'replied' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: '1 recipient tagged.', data: { count: 1 } });
    const all = await api(admin).post(`${base}/${b.id}/tag`, { tag_ids: [news] });
    expect(all.json().data.count).toBe(2);
    const tagged = await q('select contact_id from contact_tags where tag_id = $1 order by contact_id', [
      news,
    ]);
    expect(tagged.map((x) => x.contact_id)).toEqual([people[0]?.id, people[1]?.id]);
  });

  it('opts out those who asked to stop in words, or the recipients given', async () => {
    const res = await api(admin).post(`${base}/${b.id}/bulk-optout`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: '1 recipient opted out.', data: { count: 1 } });
    const [c0] = await q('select opted_out_at from contacts where id = $1', [people[0]?.id]);
    expect(c0.opted_out_at).not.toBeNull();
    const [r0] = await q('select opted_out_at from broadcast_recipients where id = $1', [ids[0]]);
    expect(r0.opted_out_at).not.toBeNull();
    const before = await snapshot(h.t.pool, TABLES);
    expect422(
      await api(admin).post(`${base}/${b.id}/bulk-optout`, { recipient_ids: [ids[2], 999_999] }),
      'recipient_ids',
      'Choose recipients of this broadcast.',
    );
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
    const given = await api(admin).post(`${base}/${b.id}/bulk-optout`, { recipient_ids: [ids[2]] });
    expect(given.json().data.count).toBe(1);
    const [c2] = await q('select opted_out_at from contacts where id = $1', [people[2]?.id]);
    expect(c2.opted_out_at).not.toBeNull();
  });
});

describe('access', () => {
  it("answers 404 for another business's broadcast, on every call that names one", async () => {
    const theirs = (
      await api(adminB).post(base, { name: 'B news', body: 'hi', audience: { tag_ids: [tagB] } })
    ).json().data;
    const ours = await create({ name: 'Ours' });
    const calls: { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string; payload?: object }[] = [
      { method: 'GET', path: `${base}/:id` },
      { method: 'PUT', path: `${base}/:id`, payload: draft() },
      { method: 'DELETE', path: `${base}/:id` },
      { method: 'GET', path: `${base}/:id/report` },
      { method: 'GET', path: `${base}/report/download?id=:id` },
      { method: 'POST', path: `${base}/:id/stop`, payload: {} },
      { method: 'POST', path: `${base}/:id/rerun`, payload: {} },
      { method: 'POST', path: `${base}/:id/refresh`, payload: {} },
      { method: 'POST', path: `${base}/:id/tag`, payload: { tag_ids: [vip] } },
      { method: 'POST', path: `${base}/:id/bulk-optout`, payload: {} },
      {
        method: 'POST',
        path: `${base}/message-credit`,
        payload: { body: 'hi', audience: { tag_ids: [vip] }, broadcast_id: ':id' },
      },
    ];
    for (const c of calls) {
      const fill = (id: number) => c.path.replace(':id', String(id));
      const payload = (id: number) =>
        c.payload && 'broadcast_id' in c.payload ? { ...c.payload, broadcast_id: id } : c.payload;
      await expectCrossTenant404(h.t, {
        token: admin,
        method: c.method,
        url: fill(theirs.id),
        ...(c.payload ? { payload: payload(theirs.id) } : {}),
        control: {
          url: fill(ours.id),
          method: c.method === 'DELETE' ? 'GET' : c.method,
          ...(c.payload ? { payload: payload(ours.id) } : {}),
        },
        tables: TABLES,
      });
    }
  });

  it('refuses users without broadcasts.use (403), changing nothing', async () => {
    const sales = await addBusinessUser(h.t, h.seed.a.business.id, 'sales-bc@a.test', '3');
    const noPage = await addBusinessUser(h.t, h.seed.a.business.id, 'custom-bc@a.test', '4', [
      'contacts_page',
    ]);
    const withPage = await addBusinessUser(h.t, h.seed.a.business.id, 'custom-bc2@a.test', '4', [
      'broadcast_page',
    ]);
    const b = await create({ name: 'Guarded' });
    for (const u of [sales, noPage, h.seed.a.businessUser]) {
      const token = await h.token(u.email);
      await expect403(h.t, TABLES, token, 'GET', '/v1/broadcasts');
      await expect403(h.t, TABLES, token, 'POST', '/v1/broadcasts', draft());
      await expect403(h.t, TABLES, token, 'DELETE', `/v1/broadcasts/${b.id}`);
      await expect403(h.t, TABLES, token, 'POST', '/v1/broadcasters', { number_id: number2Id });
    }
    const ok = await api(await h.token(withPage.email)).get(`${base}/${b.id}`);
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

// The inbox API's reads: conversations of an install with filters, search, paging and per-user unread
// counts; opening a conversation; files, history with calls, messages; who sees what (inbox.all, SMS
// agents, the assigned agent, custom users by inbox_page); cross-tenant 404s; bad input 422.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBusinessUser, bearer, expectCrossTenant404 } from '../../../test/helpers.ts';
import { type Telephony, telephonyApp } from '../telephony/testing.ts';

let h: Telephony;
let installA: number;
let installA2: number;
let installB: number;
const ids: Record<string, number> = {};
const msg: Record<string, number> = {};
let custom: { id: number; email: string };
let customNoPage: { id: number; email: string };
let support: { id: number; email: string };

const q = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;
const as = async (email: string) => bearer(await h.token(email));
const get = async (email: string, url: string) => h.t.app.inject({ url, headers: await as(email) });
const names = (res: { json: () => { data: { first_name: string }[] } }) =>
  res.json().data.map((c) => c.first_name);
const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);

async function contact(
  tenant: 'a' | 'b',
  install: number,
  key: string,
  phone: string,
  source: 'sms' | 'voice' | 'cms',
  extra: { on_top?: boolean } = {},
) {
  const s = h.seed[tenant];
  const [row] = await q(
    `insert into contacts (agency_id, business_id, install_id, phone, first_name, last_name, source, on_top)
     values ($1, $2, $3, $4, $5, 'Test', $6, $7) returning id`,
    [s.agency.id, s.business.id, install, phone, key, source, extra.on_top ?? false],
  );
  ids[key] = row.id;
}

async function message(
  key: string,
  name: string,
  direction: 'in' | 'out',
  minutesAgo: number,
  media: unknown[] = [],
) {
  const [c] = await q('select * from contacts where id = $1', [ids[key]]);
  const [row] = await q(
    `insert into messages (agency_id, business_id, contact_id, install_id, direction, body, media, status,
       from_number, to_number, sent_at, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) returning id`,
    [
      c.agency_id,
      c.business_id,
      c.id,
      c.install_id,
      direction,
      `${name} body`,
      JSON.stringify(media),
      direction === 'in' ? 'received' : 'delivered',
      direction === 'in' ? c.phone : '+15005550006',
      direction === 'in' ? '+15005550006' : c.phone,
      at(minutesAgo),
    ],
  );
  msg[name] = row.id;
  await q('update contacts set last_message_at = $2 where id = $1 and coalesce(last_message_at, $2) <= $2', [
    c.id,
    at(minutesAgo),
  ]);
}

beforeAll(async () => {
  h = await telephonyApp();
  installA = (await h.install()).id;
  installA2 = (await h.install()).id;
  installB = (await h.install({}, { tenant: 'b' })).id;
  const biz = h.seed.a.business.id;
  custom = await addBusinessUser(h.t, biz, 'custom-inbox@a.test', '4', ['inbox_page']);
  customNoPage = await addBusinessUser(h.t, biz, 'custom-noinbox@a.test', '4', ['calls_page']);
  support = await addBusinessUser(h.t, biz, 'support-inbox@a.test', '1');
  await contact('a', installA, 'Ann', '+14155550201', 'sms');
  await contact('a', installA, 'Bob', '+14155550202', 'voice');
  await contact('a', installA, 'Cara', '+14155550203', 'cms', { on_top: true });
  await contact('a', installA, 'Dan', '+14155550204', 'sms');
  await contact('a', installA2, 'Eve', '+14155550205', 'sms');
  await contact('b', installB, 'Zed', '+14155550299', 'sms');
  await message('Ann', 'ann1', 'in', 30);
  await message('Ann', 'ann2', 'out', 20);
  await message('Ann', 'ann3', 'in', 10);
  await message('Bob', 'bob1', 'in', 40, [
    { url: '/uploads/media/x.png', content_type: 'image/png', size: 10, name: 'x.png' },
  ]);
  await message('Cara', 'cara1', 'out', 50);
  await message('Eve', 'eve1', 'in', 5);
  await message('Zed', 'zed1', 'in', 5);
  // A call with Bob, before his message.
  const a = h.seed.a;
  await q(
    `insert into calls (agency_id, business_id, install_id, kind, outcome, visitor_phone, requested_at, duration)
     values ($1, $2, $3, 'callback', 'completed', '+14155550202', $4, 42)`,
    [a.agency.id, a.business.id, installA, at(45)],
  );
});
afterAll(async () => {
  await h?.t.app.close();
  await h?.close();
});

describe('inbox lists', () => {
  it('lists conversations on top first, then by the last message, with unread counts', async () => {
    const admin = h.seed.a.businessAdmin.email;
    const res = await get(admin, `/api/v1/chats/installs/${installA}/inbox`);
    expect(res.statusCode, res.body).toBe(200);
    expect(names(res)).toEqual(['Cara', 'Ann', 'Bob']);
    expect(res.json().meta).toEqual({ total: 3, page: 1, perPage: 10 });
    const ann = res.json().data[1];
    expect(ann).toMatchObject({
      id: ids.Ann,
      unread: 2,
      last_message: { body: 'ann3 body', direction: 'in', has_media: false },
      name: 'Ann Test',
      on_top: false,
    });
    expect(res.json().data[2]).toMatchObject({ unread: 1, last_message: { has_media: true } });
    expect(res.json().data[0]).toMatchObject({ on_top: true, unread: 0 });
    // /contacts also has the contact without messages; /inbox-new only those with unread messages.
    expect(names(await get(admin, `/api/v1/chats/installs/${installA}/contacts`))).toEqual([
      'Cara',
      'Ann',
      'Bob',
      'Dan',
    ]);
    expect(names(await get(admin, `/api/v1/chats/installs/${installA}/inbox-new`))).toEqual(['Ann', 'Bob']);
    // Another install's conversations are its own.
    expect(names(await get(admin, `/api/v1/chats/installs/${installA2}/inbox`))).toEqual(['Eve']);
  });

  it('filters by type, searches by name and phone, and pages 10 by default', async () => {
    const admin = h.seed.a.businessAdmin.email;
    const base = `/api/v1/chats/installs/${installA}`;
    expect(names(await get(admin, `${base}/contacts?type=voice`))).toEqual(['Bob']);
    expect(names(await get(admin, `${base}/contacts?type=cms`))).toEqual(['Cara']);
    expect(names(await get(admin, `${base}/contacts?type=sms`))).toEqual(['Ann', 'Dan']);
    expect(names(await get(admin, `${base}/contacts?type=all&keyword=ann`))).toEqual(['Ann']);
    expect(names(await get(admin, `${base}/contacts?keyword=555-0204`))).toEqual(['Dan']);
    expect(names(await get(admin, `${base}/contacts?keyword=%2B14155550202`))).toEqual(['Bob']);
    expect(names(await get(admin, `${base}/contacts?keyword=nobody`))).toEqual([]);
    const page2 = await get(admin, `${base}/contacts?perPage=3&page=2`);
    expect(names(page2)).toEqual(['Dan']);
    expect(page2.json().meta).toEqual({ total: 4, page: 2, perPage: 3 });
  });

  it('refuses bad filters with a 422', async () => {
    const admin = h.seed.a.businessAdmin.email;
    for (const qs of ['type=email', 'page=0', 'perPage=1000']) {
      const res = await get(admin, `/api/v1/chats/installs/${installA}/inbox?${qs}`);
      expect(res.statusCode, qs).toBe(422);
      expect(res.json().success).toBe(false);
    }
    expect((await get(admin, '/api/v1/chats/installs/abc/inbox')).statusCode).toBe(422);
  });
});

describe('a conversation', () => {
  it('opening it marks it read for that user only', async () => {
    const admin = h.seed.a.businessAdmin.email;
    const open = await get(admin, `/api/v1/chats/contacts/${ids.Ann}`);
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json().data).toMatchObject({ id: ids.Ann, phone: '+14155550201', unread: 0, fields: {} });
    const list = await get(admin, `/api/v1/chats/installs/${installA}/inbox`);
    expect(list.json().data.find((c: { id: number }) => c.id === ids.Ann).unread).toBe(0);
    expect(names(await get(admin, `/api/v1/chats/installs/${installA}/inbox-new`))).toEqual(['Bob']);
    // The custom user has not seen it.
    const theirs = await get(custom.email, `/api/v1/chats/installs/${installA}/inbox-new`);
    expect(theirs.statusCode, theirs.body).toBe(200);
    // (The custom type lacks inbox.all: it sees nothing until an install makes it an SMS agent.)
    expect(names(theirs)).toEqual([]);
    // A new message after the read is unread again.
    await message('Ann', 'ann4', 'in', 0);
    const again = await get(admin, `/api/v1/chats/installs/${installA}/inbox-new`);
    expect(names(again)).toEqual(['Ann', 'Bob']);
    expect(again.json().data[0].unread).toBe(1);
  });

  it('shows files, messages (paged, newest first), one message, and the history with calls', async () => {
    const admin = h.seed.a.businessAdmin.email;
    const files = await get(admin, `/api/v1/chats/contacts/${ids.Bob}/files`);
    expect(files.statusCode, files.body).toBe(200);
    expect(files.json().data).toEqual([
      expect.objectContaining({
        url: '/uploads/media/x.png',
        message_id: msg.bob1,
        content_type: 'image/png',
      }),
    ]);
    expect((await get(admin, `/api/v1/chats/contacts/${ids.Ann}/files`)).json().data).toEqual([]);

    const page = await get(admin, `/api/v1/chats/contacts/${ids.Ann}/messages?perPage=2`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().data.map((m: { id: number }) => m.id)).toEqual([msg.ann4, msg.ann3]);
    expect(page.json().meta.total).toBe(4);

    const one = await get(admin, `/api/v1/chats/contacts/${ids.Ann}/conversation/${msg.ann2}`);
    expect(one.json().data).toMatchObject({ id: msg.ann2, direction: 'out', status: 'delivered' });
    // A message of another conversation is not found through this one.
    expect((await get(admin, `/api/v1/chats/contacts/${ids.Ann}/conversation/${msg.bob1}`)).statusCode).toBe(
      404,
    );

    const history = await get(admin, `/api/v1/chats/contacts/${ids.Bob}/conversations`);
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json().data.map((i: { kind: string }) => i.kind)).toEqual(['call', 'message']);
    expect(history.json().data[0].call).toMatchObject({ outcome: 'completed', duration: 42 });
    expect(history.json().data[1].message.id).toBe(msg.bob1);
  });
});

describe('who sees what', () => {
  it('keeps the inbox from users without inbox.use', async () => {
    for (const email of [support.email, customNoPage.email, h.seed.a.agencyAdmin.email]) {
      const res = await get(email, `/api/v1/chats/installs/${installA}/inbox`);
      expect(res.statusCode, email).toBe(403);
      expect((await get(email, `/api/v1/chats/contacts/${ids.Ann}`)).statusCode, email).toBe(403);
    }
    expect((await h.t.app.inject({ url: `/api/v1/chats/installs/${installA}/inbox` })).statusCode).toBe(401);
  });

  it('shows a sales user the conversations assigned to it, or all of an install whose SMS agent it is', async () => {
    const sales = h.seed.a.businessUser;
    const base = `/api/v1/chats/installs/${installA}/inbox`;
    expect(names(await get(sales.email, base))).toEqual([]);
    expect((await get(sales.email, `/api/v1/chats/contacts/${ids.Ann}`)).statusCode).toBe(404);
    await q('update contacts set agent_user_id = $1 where id = $2', [sales.id, ids.Bob]);
    expect(names(await get(sales.email, base))).toEqual(['Bob']);
    expect((await get(sales.email, `/api/v1/chats/contacts/${ids.Bob}`)).statusCode).toBe(200);
    expect((await get(sales.email, `/api/v1/chats/contacts/${ids.Ann}/messages`)).statusCode).toBe(404);
    // Made an SMS agent of the install (by the business admin), it sees the install's conversations.
    const put = await h.t.app.inject({
      method: 'PUT',
      url: `/api/v1/installs/${installA}`,
      headers: await as(h.seed.a.businessAdmin.email),
      payload: { settings: { smsAgents: [sales.id, custom.id] } },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(names(await get(sales.email, base))).toEqual(['Cara', 'Ann', 'Bob']);
    expect((await get(sales.email, `/api/v1/chats/contacts/${ids.Ann}/files`)).statusCode).toBe(200);
    // Not of the other install.
    expect(names(await get(sales.email, `/api/v1/chats/installs/${installA2}/inbox`))).toEqual([]);
    // The custom user with inbox_page, now an SMS agent too, has its own unread counts.
    const theirs = await get(custom.email, `/api/v1/chats/installs/${installA}/inbox-new`);
    expect(names(theirs)).toEqual(['Ann', 'Bob']);
    expect(theirs.json().data[0].unread).toBe(3);
  });

  it("answers 404 for another tenant's install, conversation and message", async () => {
    const token = await h.token(h.seed.a.businessAdmin.email);
    const [zed] = await q('select id from contacts where phone = $1', ['+14155550299']);
    const tables = ['contacts', 'messages', 'conversation_reads'];
    for (const list of ['contacts', 'inbox', 'inbox-new'])
      await expectCrossTenant404(h.t, {
        token,
        method: 'GET',
        url: `/api/v1/chats/installs/${installB}/${list}`,
        control: { url: `/api/v1/chats/installs/${installA}/${list}` },
        tables,
      });
    for (const tail of ['', '/files', '/conversations', '/messages', `/conversation/${msg.zed1}`])
      await expectCrossTenant404(h.t, {
        token,
        method: 'GET',
        url: `/api/v1/chats/contacts/${zed.id}${tail}`,
        control: {
          url: `/api/v1/chats/contacts/${ids.Ann}${tail.startsWith('/conversation/') ? `/conversation/${msg.ann1}` : tail}`,
        },
        tables,
      });
  });
});

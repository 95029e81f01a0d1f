// Issue 17, the inbox's first job (ADR 052): a business starts a conversation with any contact it has
// (created, imported, or a caller), the inbox search finds every contact, a callback, a scheduled call or
// a missed call is part of the caller's conversation (the list, the Voice filter, the history), and a
// restricted text is refused with the filtered preview and where its restricted words are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, drainJobs } from '../../../test/helpers.ts';
import { type Telephony, telephonyApp } from '../telephony/testing.ts';

let h: Telephony;
let installA: number;
let installA2: number;
let keyA: string;

const q = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;
/** The business admin's call of `/api{url}`. */
async function send(method: 'GET' | 'POST', url: string, payload?: object) {
  const token = await h.token(h.seed.a.businessAdmin.email);
  const api = call(h.t);
  return method === 'GET' ? api.get(token, `/api${url}`) : api.post(token, `/api${url}`, payload);
}
type Row = { id: number; phone: string; name: string; last_call?: { outcome: string } | null };
const listOf = async (installId: number, query: string) => {
  const res = await send('GET', `/v1/chats/installs/${installId}/inbox?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Row[];
};

beforeAll(async () => {
  h = await telephonyApp();
  const a = await h.install({ timeout: 20 });
  installA = a.id;
  keyA = a.key;
  installA2 = (await h.install()).id;
});
afterAll(async () => {
  await h?.run(60_000);
  await h?.t.app.close();
  await h?.close();
});

describe('starting a conversation with a contact the business already has', () => {
  it("'New conversation' with an existing contact's phone opens that contact (no 'already exists')", async () => {
    const created = await send('POST', '/v1/contacts', { phone: '+14155550601', first_name: 'Ada' });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().data.id as number;
    const before = await q('select count(*)::int as n from contacts');
    const res = await send('POST', `/v1/chats/installs/${installA}/contacts`, { phone: '(415) 555-0601' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id, phone: '+14155550601', install_id: installA });
    expect(await q('select count(*)::int as n from contacts')).toEqual(before);
    // It can be texted at once from the install's number.
    const sent = await send('POST', `/v1/chats/contacts/${id}/messages`, { body: 'Hello Ada' });
    expect(sent.statusCode, sent.body).toBe(200);
  });

  it("keeps a contact on its own install's number and says which (the inbox switches to it)", async () => {
    const res = await send('POST', `/v1/chats/installs/${installA2}/contacts`, { phone: '+14155550602' });
    expect(res.statusCode, res.body).toBe(200);
    const again = await send('POST', `/v1/chats/installs/${installA}/contacts`, { phone: '+14155550602' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data).toMatchObject({ id: res.json().data.id, install_id: installA2 });
  });

  it('the inbox search finds imported contacts that never texted, and opening one works', async () => {
    const imp = await send('POST', '/v1/contacts/import', {
      csv: 'phone,first_name,last_name\n+14155550611,Imogen,Porter\n',
    });
    expect(imp.statusCode, imp.body).toBe(200);
    await drainJobs(h.t);
    // Not in the plain inbox (no texts, no calls), found by name and by phone digits.
    expect((await listOf(installA, '')).some((r) => r.phone === '+14155550611')).toBe(false);
    const byName = await listOf(installA, 'keyword=imogen');
    expect(byName.map((r) => r.phone)).toEqual(['+14155550611']);
    const byDigits = await listOf(installA, 'keyword=555-0611');
    expect(byDigits.map((r) => r.phone)).toEqual(['+14155550611']);
    const open = await send('GET', `/v1/chats/contacts/${byName[0]?.id}`);
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json().data.name).toBe('Imogen Porter');
  });
});

describe('calls in the conversation', () => {
  it("a missed callback creates the caller's conversation: the list, the Voice filter and the history show it", async () => {
    const visitor = '+14155550621';
    const res = await h.callback(keyA, { phone: visitor, name: 'Max Payne' });
    expect(res.statusCode, res.body).toBe(200);
    const callId = res.json().data.call_id as number;
    await h.run(1000);
    await h.run(25_000);
    expect((await q('select outcome from calls where id = $1', [callId]))[0]?.outcome).toBe('missed');
    // The contact, found or created by the caller's phone for the install's business.
    await expect
      .poll(async () => (await q('select * from contacts where phone = $1', [visitor]))[0], {
        timeout: 10_000,
      })
      .toMatchObject({ first_name: 'Max', last_name: 'Payne', install_id: installA, source: 'voice' });
    const row = (await listOf(installA, '')).find((r) => r.phone === visitor);
    expect(row).toMatchObject({ name: 'Max Payne', last_call: { outcome: 'missed' } });
    expect((await listOf(installA, 'type=voice')).map((r) => r.phone)).toContain(visitor);
    expect((await listOf(installA, 'type=sms')).map((r) => r.phone)).not.toContain(visitor);
    const history = await send('GET', `/v1/chats/contacts/${row?.id}/conversations`);
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json().data).toContainEqual(
      expect.objectContaining({
        kind: 'call',
        call: expect.objectContaining({ id: callId, outcome: 'missed' }),
      }),
    );
    // Text back: the conversation runs on the install's number.
    const back = await send('POST', `/v1/chats/contacts/${row?.id}/messages`, {
      body: 'Sorry we missed your call. How can we help?',
    });
    expect(back.statusCode, back.body).toBe(200);
    await h.run(10_000);
    expect(h.sandbox.phones.get(visitor).texts.map((t) => t.body)).toContain(
      'Sorry we missed your call. How can we help?',
    );
  });

  it('a scheduled call joins the conversation of a contact who texted before, and moves it up', async () => {
    const phone = '+14155550631';
    const start = await send('POST', `/v1/chats/installs/${installA}/contacts`, { phone, name: 'Sam Hill' });
    const id = start.json().data.id as number;
    const at = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const res = await send('POST', '/v1/scheduled-calls', {
      install_id: installA,
      phone,
      scheduled_at: at,
    });
    expect(res.statusCode, res.body).toBe(200);
    await expect
      .poll(async () => (await listOf(installA, 'type=voice')).find((r) => r.id === id)?.last_call, {
        timeout: 10_000,
      })
      .toMatchObject({ outcome: 'scheduled' });
    // The name it had stays; no second contact.
    expect(await q('select first_name from contacts where phone = $1', [phone])).toEqual([
      { first_name: 'Sam' },
    ]);
    const history = await send('GET', `/v1/chats/contacts/${id}/conversations`);
    expect(history.json().data.map((i: { kind: string }) => i.kind)).toContain('call');
  });
});

describe('restricted content', () => {
  it('refuses the send with the filtered preview and the places of the restricted words', async () => {
    const phone = '+14155550641';
    const start = await send('POST', `/v1/chats/installs/${installA}/contacts`, { phone });
    const id = start.json().data.id as number;
    const body = 'Cheap beer and cigarettes here';
    const res = await send('POST', `/v1/chats/contacts/${id}/messages`, { body });
    expect(res.statusCode, res.body).toBe(422);
    const json = res.json();
    expect(json.reason).toBe('messages.restricted_content');
    expect(json.data.preview).toBe('Cheap b*** and c********* here');
    expect(json.data.marks).toEqual([
      { start: 6, end: 10 },
      { start: 15, end: 25 },
    ]);
    expect(await q('select count(*)::int as n from messages where contact_id = $1', [id])).toEqual([
      { n: 0 },
    ]);
  });
});

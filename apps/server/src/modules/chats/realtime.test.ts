// Realtime news of the inbox to whoever may see it (ADR 045), through real WebSockets on /ws: new_message
// and message_status reach the users who may see the conversation (inbox.all, the install's SMS agents,
// the assigned agent), each new_message with that user's unread total; reading lowers it; the profile's
// number_of_messages is the same total.

import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { addBusinessUser, bearer, drainJobs, login } from '../../../test/helpers.ts';
import { platformSystemContext } from '../../platform/tenancy/context.ts';
import { twilioSignature } from '../../platform/webhooks/tree.ts';
import { agencyCarrierAccount } from '../agencies/service.ts';
import { restoreSandboxNumbers } from '../telephony/service.ts';
import { type Telephony, telephonyApp } from '../telephony/testing.ts';

let h: Telephony;
let number: string;
let installId: number;
let installKey: string;
let url: string;
let sales2: { id: number; email: string };
const PUBLIC = 'http://localhost:3000';
const q = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;

type Event = { type: string; data?: Record<string, unknown> };
type Client = { ws: WebSocket; got: Event[]; of: (type: string) => Event[] };

async function open(email: string): Promise<Client> {
  const ws = new WebSocket(url, ['bearer', await login(h.t.app, email)]);
  const got: Event[] = [];
  await new Promise<void>((resolve, reject) => {
    ws.on('message', (raw) => {
      const msg = JSON.parse(raw.toString()) as Event;
      got.push(msg);
      if (msg.type === 'ready') resolve();
    });
    ws.on('error', reject);
  });
  return { ws, got, of: (type) => got.filter((e) => e.type === type) };
}

async function inbound(from: string, body: string, sid = `SM${crypto.randomBytes(16).toString('hex')}`) {
  const account = await agencyCarrierAccount(h.t.app.deps, h.seed.a.agency.id);
  if (!account) throw new Error('no account');
  const params = { AccountSid: account.accountSid, MessageSid: sid, From: from, To: number, Body: body };
  const path = '/webhooks/twilio/sms-in';
  const res = await h.t.app.inject({
    method: 'POST',
    url: path,
    headers: {
      host: 'localhost:3000',
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioSignature(account.authToken, `${PUBLIC}${path}`, params),
    },
    payload: new URLSearchParams(params).toString(),
  });
  expect(res.statusCode, res.body).toBe(200);
}

const contactId = async (phone: string) =>
  (await q('select id from contacts where business_id = $1 and phone = $2', [h.seed.a.business.id, phone]))[0]
    ?.id as number;

const profileTotal = async (email: string) => {
  const res = await h.t.app.inject({ url: '/api/v1/profile', headers: bearer(await h.token(email)) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.user.number_of_messages as number;
};

/** Lets every event in flight reach the sockets. */
const settle = () => new Promise((r) => setTimeout(r, 300));

beforeAll(async () => {
  h = await telephonyApp();
  await drainJobs(h.t);
  ({ id: installId, key: installKey } = await h.install());
  [{ phone_number: number }] = await q('select phone_number from numbers where install_id = $1', [installId]);
  // The sandbox learns the number, as at start (texts to it reach the product).
  await restoreSandboxNumbers(platformSystemContext(h.t.app.deps, 'job', 'sandbox numbers'));
  sales2 = await addBusinessUser(h.t, h.seed.a.business.id, 'sales2@a.test', '3');
  await h.t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `ws://127.0.0.1:${(h.t.app.server.address() as AddressInfo).port}/ws`;
});
afterAll(async () => {
  await h?.close();
});

describe('conversation_call to whoever may see the conversation', () => {
  it('a callback tells the inbox.all user of its conversation, named as the visitor said; no one else', async () => {
    const admin = await open(h.seed.a.businessAdmin.email);
    const sales = await open(h.seed.a.businessUser.email);
    const other = await open(h.seed.b.businessAdmin.email);
    const res = await h.callback(installKey, { phone: '+14155550477', name: 'Carla Caller' });
    expect(res.statusCode, res.body).toBe(200);
    const call = res.json().data.call_id as number;
    await expect.poll(() => admin.of('conversation_call').length).toBe(1);
    const [person] = await q(
      'select id, first_name, last_name, install_id from contacts where business_id = $1 and phone = $2',
      [h.seed.a.business.id, '+14155550477'],
    );
    expect(person).toMatchObject({ first_name: 'Carla', last_name: 'Caller', install_id: installId });
    expect(admin.of('conversation_call')[0]?.data).toEqual({ contact: person?.id, install: installId, call });
    await settle();
    // The sales user is no SMS agent of the install and not assigned; the other business hears nothing.
    expect(sales.of('conversation_call')).toEqual([]);
    expect(other.of('conversation_call')).toEqual([]);
    for (const x of [admin, sales, other]) x.ws.terminate();
  });
});

describe('new_message to whoever may see the conversation', () => {
  it('reaches the inbox.all user with its unread total, not an agent of nothing nor another business', async () => {
    const admin = await open(h.seed.a.businessAdmin.email);
    const sales = await open(h.seed.a.businessUser.email);
    const other = await open(h.seed.b.businessAdmin.email);
    const before = await profileTotal(h.seed.a.businessAdmin.email);
    await inbound('+14155550401', 'who sees me?');
    const c = await contactId('+14155550401');
    await expect
      .poll(() => admin.of('new_message')[0]?.data)
      .toMatchObject({ contact: c, install: installId, number_of_messages: before + 1 });
    expect(admin.of('new_message')[0]?.data?.message).toMatchObject({
      body: 'who sees me?',
      direction: 'in',
    });
    // The news carries the message as the API shows it, every field (times, media, status) alike.
    const listed = await h.t.app.inject({
      url: `/api/v1/chats/contacts/${c}/messages`,
      headers: bearer(await h.token(h.seed.a.businessAdmin.email)),
    });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(admin.of('new_message')[0]?.data?.message).toEqual(listed.json().data[0]);
    await settle();
    // The sales user is no SMS agent of the install and not assigned: nothing, not even on its business.
    expect(sales.of('new_message')).toEqual([]);
    expect(other.of('new_message')).toEqual([]);
    expect(await profileTotal(h.seed.a.businessAdmin.email)).toBe(before + 1);
    expect(await profileTotal(h.seed.a.businessUser.email)).toBe(0);
    for (const x of [admin, sales, other]) x.ws.terminate();
  });

  it('reaches the assigned agent with its own total; two messages raise it by two; reading lowers it', async () => {
    const phone = '+14155550402';
    await inbound(phone, 'first');
    const c = await contactId(phone);
    const agent = h.seed.a.businessUser;
    await q('update contacts set agent_user_id = $1 where id = $2', [agent.id, c]);
    expect(await profileTotal(agent.email)).toBe(1);
    const mine = await open(agent.email);
    const notMine = await open(sales2.email);
    await inbound(phone, 'second');
    await inbound(phone, 'third');
    await expect.poll(() => mine.of('new_message').length).toBe(2);
    // Each event carries the total when it was sent (two texts in one batch both say 3): never less than
    // the texts before it, and the last one says 1 + 2.
    const totals = mine.of('new_message').map((e) => e.data?.number_of_messages as number);
    expect(totals[0]).toBeGreaterThanOrEqual(2);
    expect(totals.at(-1)).toBe(3);
    expect(mine.of('new_message').map((e) => (e.data?.message as { body: string }).body)).toEqual([
      'second',
      'third',
    ]);
    expect(await profileTotal(agent.email)).toBe(3);

    // Reading the conversation: the agent's channel hears its new total, 0; the profile says the same.
    const read = await h.t.app.inject({
      url: `/api/v1/chats/contacts/${c}`,
      headers: bearer(await h.token(agent.email)),
    });
    expect(read.statusCode, read.body).toBe(200);
    await expect.poll(() => mine.of('unread_messages').at(-1)?.data).toEqual({ number_of_messages: 0 });
    expect(await profileTotal(agent.email)).toBe(0);

    // Made an SMS agent of the install, the other sales user hears of every conversation of it.
    const put = await h.t.app.inject({
      method: 'PUT',
      url: `/api/v1/installs/${installId}`,
      headers: bearer(await h.token(h.seed.a.businessAdmin.email)),
      payload: { settings: { smsAgents: [sales2.id] } },
    });
    expect(put.statusCode, put.body).toBe(200);
    await settle();
    expect(notMine.of('new_message')).toEqual([]);
    const allUnread = await profileTotal(sales2.email);
    expect(allUnread).toBeGreaterThanOrEqual(4);
    await inbound(phone, 'fourth');
    await expect.poll(() => notMine.of('new_message')[0]?.data?.number_of_messages).toBe(allUnread + 1);
    await expect.poll(() => mine.of('new_message').at(-1)?.data?.number_of_messages).toBe(1);
    for (const x of [mine, notMine]) x.ws.terminate();
  });

  it('sends message_status only to whoever may see the conversation', async () => {
    const phone = '+14155550403';
    await inbound(phone, 'status please');
    const c = await contactId(phone);
    // Nobody but inbox.all users sees this one (the install's SMS agents were changed above: reset them).
    await h.t.app.inject({
      method: 'PUT',
      url: `/api/v1/installs/${installId}`,
      headers: bearer(await h.token(h.seed.a.businessAdmin.email)),
      payload: { settings: { smsAgents: [] } },
    });
    const admin = await open(h.seed.a.businessAdmin.email);
    const sales = await open(h.seed.a.businessUser.email);
    const sent = await h.t.app.inject({
      method: 'POST',
      url: `/api/v1/chats/contacts/${c}/messages`,
      headers: bearer(await h.token(h.seed.a.businessAdmin.email)),
      payload: { body: 'Thanks, we got it.' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    await h.run(5_000);
    await expect.poll(() => admin.of('message_status').length).toBeGreaterThan(0);
    expect(admin.of('message_status')[0]?.data).toMatchObject({ contact: c });
    await settle();
    expect(sales.of('message_status')).toEqual([]);
    for (const x of [admin, sales]) x.ws.terminate();
  });
});

// Texting through the sandbox carrier: inbound once per MessageSid, keywords, status callbacks in any
// order, compliance on every send, the monthly limit, media, realtime.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainJobs, login, openSocket } from '../../../test/helpers.ts';
import { type Ctx, platformSystemContext, tenantContext } from '../../platform/tenancy/context.ts';
import { agencyCarrierAccount } from '../agencies/service.ts';
import { businessContact, carrierWebhook, type Telephony, telephonyApp } from '../telephony/testing.ts';
import { cancelScheduledMessage, resendMessage, runScheduledMessage, sendMessage } from './service.ts';
import { flushIncomingUsage } from './usage.ts';

let h: Telephony;
let number: string;
let ctxA: Ctx;
let ctxB: Ctx;
let accountSid: string;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const rows = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;
const PUBLIC = 'http://localhost:3000';

const post = (path: string, params: Record<string, string>, signed = true) =>
  carrierWebhook(h, path, params, signed ? {} : { signWith: null });

const sid = () => `SM${crypto.randomBytes(16).toString('hex')}`;
const inbound = (from: string, body: string, extra: Record<string, string> = {}) =>
  post('/webhooks/twilio/sms-in', {
    MessageSid: sid(),
    From: from,
    To: number,
    Body: body,
    NumMedia: '0',
    ...extra,
  });

const contactOf = (phone: string) => businessContact(h, phone);

beforeAll(async () => {
  h = await telephonyApp();
  // The monthly usage reset runs once when the workers start: done before counting anything.
  await drainJobs(h.t);
  const install = await h.install();
  [{ phone_number: number }] = await rows('select phone_number from numbers where install_id = $1', [
    install.id,
  ]);
  const account = await agencyCarrierAccount(h.t.app.deps, h.seed.a.agency.id);
  if (!account) throw new Error('no account');
  accountSid = account.accountSid;
  h.sandbox.restoreIncomingNumber(accountSid, {
    sid: `PN${crypto.randomBytes(16).toString('hex')}`,
    phoneNumber: number,
    voiceUrl: `${PUBLIC}/webhooks/twilio/voice`,
    smsUrl: `${PUBLIC}/webhooks/twilio/sms-in`,
  });
  const tenant = (s: typeof h.seed.a) =>
    ({ level: 'business', agencyId: s.agency.id, businessId: s.business.id }) as const;
  ctxA = tenantContext(h.t.app.deps, tenant(h.seed.a), { kind: 'system', source: 'seed', name: 'test' });
  ctxB = tenantContext(h.t.app.deps, tenant(h.seed.b), { kind: 'system', source: 'seed', name: 'test' });
});
afterAll(async () => {
  await h?.close();
});

describe('inbound texts', () => {
  it('makes one message of a text delivered twice (at once and later), and one contact', async () => {
    const from = '+14155550301';
    const params = { MessageSid: sid(), From: from, To: number, Body: 'Hello there', NumMedia: '0' };
    const answers = await Promise.all([1, 2, 3].map(() => post('/webhooks/twilio/sms-in', params)));
    for (const a of answers) {
      expect(a.statusCode).toBe(200);
      expect(a.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    }
    await post('/webhooks/twilio/sms-in', params);
    const msgs = await rows('select * from messages where carrier_sid = $1', [params.MessageSid]);
    expect(msgs).toHaveLength(1);
    expect(msgs[0]).toMatchObject({ direction: 'in', status: 'received', body: 'Hello there', segments: 1 });
    const contacts = await rows('select * from contacts where phone = $1', [from]);
    expect(contacts).toHaveLength(1);
    expect(contacts[0]).toMatchObject({ source: 'sms', business_id: h.seed.a.business.id });
  });

  it('records texts arriving together once each (batched), redeliveries and all, one contact per phone', async () => {
    const texts = Array.from({ length: 60 }, (_, i) => ({
      MessageSid: sid(),
      From: `+1415555${String(1000 + (i % 20)).padStart(4, '0')}`,
      To: number,
      Body: `together ${i}`,
      NumMedia: '0',
    }));
    const answers = await Promise.all(
      [...texts, ...texts.slice(0, 30)].map((t) => post('/webhooks/twilio/sms-in', t)),
    );
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    const stored = await rows(
      "select carrier_sid, count(*)::int as n from messages where body like 'together %' group by 1",
    );
    expect(stored).toHaveLength(60);
    expect(stored.every((r) => r.n === 1)).toBe(true);
    const people = await rows(
      "select phone, count(*)::int as n from contacts where business_id = $1 and phone like '+14155551%' group by 1",
      [h.seed.a.business.id],
    );
    expect(people).toHaveLength(20);
    expect(people.every((r) => r.n === 1)).toBe(true);
  });

  it("keeps a blacklisted number's texts out of the inbox, unless whitelisted; another agency's list does not count", async () => {
    const [blocked, allowed, elsewhere] = ['+14155550380', '+14155550381', '+14155550382'];
    const list = (kind: string, agencyId: number, businessId: number | null, phone: string) =>
      h.t.pool.query(
        'insert into phone_lists (list, agency_id, business_id, phone) values ($1, $2, $3, $4)',
        [kind, agencyId, businessId, phone],
      );
    const a = h.seed.a;
    await list('blacklist', a.agency.id, a.business.id, blocked);
    await list('blacklist', a.agency.id, null, allowed);
    await list('whitelist', a.agency.id, a.business.id, allowed);
    await list('blacklist', h.seed.b.agency.id, null, elsewhere);
    // Together, so that one batch checks them all.
    const answers = await Promise.all(
      [blocked, allowed, elsewhere, blocked].map((from, i) => inbound(from, `listed ${i}`)),
    );
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const stored = await rows(
      "select from_number, count(*)::int as n from messages where body like 'listed %' group by 1 order by 1",
    );
    expect(stored).toEqual([
      { from_number: allowed, n: 1 },
      { from_number: elsewhere, n: 1 },
    ]);
    const people = await rows('select phone, in_count from contacts where phone = any($1) order by phone', [
      [blocked, allowed, elsewhere],
    ]);
    expect(people).toEqual([
      { phone: allowed, in_count: 1 },
      { phone: elsewhere, in_count: 1 },
    ]);
  });

  it('refuses an unsigned text and records nothing', async () => {
    const params = { MessageSid: sid(), From: '+14155550302', To: number, Body: 'x' };
    expect((await post('/webhooks/twilio/sms-in', params, false)).statusCode).toBe(403);
    expect(await rows('select * from messages where carrier_sid = $1', [params.MessageSid])).toHaveLength(0);
  });

  it('orders by the carrier’s time, not by arrival', async () => {
    const from = '+14155550303';
    await inbound(from, 'second', { DateSent: 'Mon, 23 Nov 2026 10:00:05 +0000' });
    await inbound(from, 'first', { DateSent: 'Mon, 23 Nov 2026 10:00:01 +0000' });
    const c = await contactOf(from);
    const list = await rows('select body from messages where contact_id = $1 order by sent_at, id', [c.id]);
    expect(list.map((m) => m.body)).toEqual(['first', 'second']);
  });

  it('stores MMS media and counts an incoming image as 2 messages', async () => {
    const from = '+14155550304';
    await flushIncomingUsage(platformSystemContext(h.t.app.deps, 'job', 'incoming usage'));
    const before = (
      await rows('select number_of_messages from businesses where id = $1', [h.seed.a.business.id])
    )[0].number_of_messages;
    await inbound(from, 'look', {
      NumMedia: '1',
      // The carrier's own media (the sandbox's, fetched in process; ADR 049).
      MediaUrl0: h.sandbox.addMedia(accountSid, 'image/png', PNG),
      MediaContentType0: 'image/png',
    });
    // Fetched by a job once the text is committed (ADR 049).
    await drainJobs(h.t);
    const c = await contactOf(from);
    const [m] = await rows('select * from messages where contact_id = $1', [c.id]);
    expect(m.segments).toBe(2);
    expect(m.media).toHaveLength(1);
    expect(m.media[0]).toMatchObject({ content_type: 'image/png', size: PNG.length });
    const file = await h.t.app.inject({ method: 'GET', url: m.media[0].url });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PNG)).toBe(true);
    await flushIncomingUsage(platformSystemContext(h.t.app.deps, 'job', 'incoming usage'));
    const after = (
      await rows('select number_of_messages from businesses where id = $1', [h.seed.a.business.id])
    )[0].number_of_messages;
    expect(after - before).toBe(2);
  });
});

describe('keywords through the sandbox phone', () => {
  it('STOP blocks the next send with a clear message, HELP replies, START allows again', async () => {
    const phone = '+14155550310';
    h.sandbox.phones.sendText(phone, number, 'Hi, are you open today?');
    await h.run(100);
    const c = await contactOf(phone);
    expect(c).toBeTruthy();
    const ok = await sendMessage(ctxA, { contactId: c.id, body: 'Yes, until 6pm.' });
    expect(ok.status).toBe('queued');
    await h.run(5_000);
    expect(h.sandbox.phones.get(phone).texts.map((t) => t.body)).toContain('Yes, until 6pm.');
    const [delivered] = await rows('select status from messages where id = $1', [ok.id]);
    expect(delivered.status).toBe('delivered');

    h.sandbox.phones.sendText(phone, number, 'STOP');
    await h.run(5_000);
    expect((await contactOf(phone)).opted_out_at).not.toBeNull();
    expect(h.sandbox.phones.get(phone).texts.at(-1)?.body).toMatch(/unsubscribed.*Reply START/);
    const count = (await rows('select count(*)::int as n from messages where contact_id = $1', [c.id]))[0].n;
    await expect(sendMessage(ctxA, { contactId: c.id, body: 'Are you there?' })).rejects.toMatchObject({
      status: 422,
      message: 'messages.opted_out',
    });
    expect((await rows('select count(*)::int as n from messages where contact_id = $1', [c.id]))[0].n).toBe(
      count,
    );

    h.sandbox.phones.sendText(phone, number, 'help');
    await h.run(5_000);
    const help = h.sandbox.phones.get(phone).texts.at(-1)?.body ?? '';
    expect(help).toContain(h.seed.a.business.name);
    expect(help).toContain('Msg frequency varies. Msg & data rates may apply. Reply STOP to cancel.');

    h.sandbox.phones.sendText(phone, number, 'START');
    await h.run(5_000);
    expect((await contactOf(phone)).opted_out_at).toBeNull();
    const again = await sendMessage(ctxA, { contactId: c.id, body: 'Welcome back.' });
    expect(again.status).toBe('queued');
  });
});

describe('status callbacks', () => {
  it('end in the right state whatever the order, and a final state is never undone', async () => {
    const from = '+14155550320';
    await inbound(from, 'hi');
    const c = await contactOf(from);
    const m = await sendMessage(ctxA, { contactId: c.id, body: 'Out of order' });
    const [row] = await rows('select carrier_sid from messages where id = $1', [m.id]);
    const cb = (status: string, extra: Record<string, string> = {}) =>
      post(`/webhooks/twilio/sms-status?message=${m.id}`, {
        MessageSid: row.carrier_sid,
        MessageStatus: status,
        ...extra,
      });
    await cb('delivered');
    await cb('sent');
    await cb('queued');
    await cb('failed', { ErrorCode: '30003' });
    const [after] = await rows('select status, error_code from messages where id = $1', [m.id]);
    expect(after).toEqual({ status: 'delivered', error_code: null });
    // Another sid for this message id changes nothing.
    await post(`/webhooks/twilio/sms-status?message=${m.id}`, { MessageSid: sid(), MessageStatus: 'failed' });
    expect((await rows('select status from messages where id = $1', [m.id]))[0].status).toBe('delivered');
  });

  it('stores the error code, and 21610 opts the contact out instead of retrying', async () => {
    const from = '+14155550321';
    await inbound(from, 'hi');
    const c = await contactOf(from);
    const m = await sendMessage(ctxA, { contactId: c.id, body: 'Hello' });
    const [row] = await rows('select carrier_sid from messages where id = $1', [m.id]);
    await post(`/webhooks/twilio/sms-status?message=${m.id}`, {
      MessageSid: row.carrier_sid,
      MessageStatus: 'failed',
      ErrorCode: '21610',
    });
    const [after] = await rows('select status, error_code from messages where id = $1', [m.id]);
    expect(after).toEqual({ status: 'failed', error_code: 21610 });
    expect((await contactOf(from)).opted_out_at).not.toBeNull();
    await expect(resendMessage(ctxA, { id: m.id })).rejects.toMatchObject({ message: 'messages.opted_out' });
  });
});

describe('compliance on every send', () => {
  it('refuses blacklisted numbers unless whitelisted, and blocked contacts', async () => {
    const from = '+14155550330';
    await inbound(from, 'hi');
    const c = await contactOf(from);
    await h.t.pool.query(
      "insert into phone_lists (list, agency_id, business_id, phone) values ('blacklist', $1, null, $2)",
      [h.seed.a.agency.id, from],
    );
    await expect(sendMessage(ctxA, { contactId: c.id, body: 'x' })).rejects.toMatchObject({
      message: 'messages.blacklisted',
    });
    await h.t.pool.query(
      "insert into phone_lists (list, agency_id, business_id, phone) values ('whitelist', $1, $2, $3)",
      [h.seed.a.agency.id, h.seed.a.business.id, from],
    );
    expect((await sendMessage(ctxA, { contactId: c.id, body: 'x' })).status).toBe('queued');
    await h.t.pool.query('update contacts set blocked_at = now() where id = $1', [c.id]);
    await expect(sendMessage(ctxA, { contactId: c.id, body: 'x' })).rejects.toMatchObject({
      message: 'messages.blocked',
    });
  });

  it('stops restricted content (SHAFT always, profanity with the agency filter) with the filtered preview', async () => {
    const from = '+14155550331';
    await inbound(from, 'hi');
    const c = await contactOf(from);
    const before = await rows('select count(*)::int as n from messages where contact_id = $1', [c.id]);
    await expect(
      sendMessage(ctxA, { contactId: c.id, body: 'Buy cheap cigarettes now' }),
    ).rejects.toMatchObject({
      reason: 'messages.restricted_content',
      data: { preview: 'Buy cheap c********* now', categories: ['tobacco'] },
    });
    expect((await sendMessage(ctxA, { contactId: c.id, body: 'What the shit' })).status).toBe('queued');
    await h.t.pool.query('update agencies set profanity_enabled = true where id = $1', [h.seed.a.agency.id]);
    await expect(sendMessage(ctxA, { contactId: c.id, body: 'What the shit' })).rejects.toMatchObject({
      data: { preview: 'What the s***', categories: ['profanity'] },
    });
    await h.t.pool.query('update agencies set profanity_enabled = false where id = $1', [h.seed.a.agency.id]);
    expect((await rows('select count(*)::int as n from messages where contact_id = $1', [c.id]))[0].n).toBe(
      before[0].n + 1,
    );
  });

  it('refuses a send past the monthly limit and counts images as 3', async () => {
    const from = '+14155550332';
    await inbound(from, 'hi');
    const c = await contactOf(from);
    await flushIncomingUsage(platformSystemContext(h.t.app.deps, 'job', 'incoming usage'));
    const [{ number_of_messages: used }] = await rows(
      'select number_of_messages from businesses where id = $1',
      [h.seed.a.business.id],
    );
    await h.t.pool.query('update businesses set messages = $1 where id = $2', [
      used + 3,
      h.seed.a.business.id,
    ]);
    const img = await sendMessage(ctxA, {
      contactId: c.id,
      body: 'photo',
      media: [`data:image/png;base64,${PNG.toString('base64')}`],
    });
    expect(img.segments).toBe(3);
    expect(img.media[0]?.url).toMatch(/^\/uploads\/messages\//);
    await expect(sendMessage(ctxA, { contactId: c.id, body: 'one more' })).rejects.toMatchObject({
      reason: 'messages.limit_reached',
    });
    await h.t.pool.query('update businesses set messages = 0 where id = $1', [h.seed.a.business.id]);
  });

  it('answers 404 for another tenant’s contact', async () => {
    const from = '+14155550333';
    await inbound(from, 'hi');
    const c = await contactOf(from);
    await expect(sendMessage(ctxB, { contactId: c.id, body: 'x' })).rejects.toMatchObject({ status: 404 });
  });
});

describe('scheduled messages', () => {
  it('sends at its time, and a cancelled one never goes', async () => {
    const from = '+14155550340';
    await inbound(from, 'hi');
    const c = await contactOf(from);
    const later = new Date(Date.now() + 3_600_000);
    const m = await sendMessage(ctxA, { contactId: c.id, body: 'Reminder', sendAt: later });
    expect(m.status).toBe('scheduled');
    const canceled = await cancelScheduledMessage(ctxA, { id: m.id });
    expect(canceled.status).toBe('canceled');
    await expect(cancelScheduledMessage(ctxA, { id: m.id })).rejects.toMatchObject({
      message: 'messages.not_scheduled',
    });
    await expect(cancelScheduledMessage(ctxB, { id: m.id })).rejects.toMatchObject({ status: 404 });
  });
});

describe('scheduled messages at their time', () => {
  it('go through the carrier with every check again; an opted-out contact’s is refused', async () => {
    const from = '+14155550341';
    await inbound(from, 'hi');
    const c = await contactOf(from);
    const later = new Date(Date.now() + 3_600_000);
    const due = await sendMessage(ctxA, {
      contactId: c.id,
      body: 'Your appointment is tomorrow',
      sendAt: later,
    });
    await runScheduledMessage(ctxA, due.id);
    const [sent] = await rows('select status, carrier_sid from messages where id = $1', [due.id]);
    expect(sent.status).toBe('queued');
    expect(sent.carrier_sid).toMatch(/^SM/);
    const refused = await sendMessage(ctxA, { contactId: c.id, body: 'Second reminder', sendAt: later });
    await h.t.pool.query('update contacts set opted_out_at = now() where id = $1', [c.id]);
    await runScheduledMessage(ctxA, refused.id);
    const [after] = await rows('select status, error_message, carrier_sid from messages where id = $1', [
      refused.id,
    ]);
    expect(after).toEqual({ status: 'refused', error_message: 'messages.opted_out', carrier_sid: null });
  });
});

describe('realtime', () => {
  it('a WebSocket client of the business’s inbox.all user gets new_message, another business’s does not', async () => {
    await h.t.app.listen({ port: 0, host: '127.0.0.1' });
    const open = async (email: string) => openSocket(h.t.app, await login(h.t.app, email));
    const a = await open(h.seed.a.businessAdmin.email);
    const b = await open(h.seed.b.businessAdmin.email);
    const from = '+14155550350';
    await inbound(from, 'realtime please');
    const c = await contactOf(from);
    // The news of this contact's text (an earlier test's text may still be announced after the socket opened).
    const news = () => a.got.find((m) => m.type === 'new_message' && m.data?.contact === c.id)?.data;
    await expect
      .poll(news, { timeout: 10_000 })
      .toMatchObject({ contact: c.id, message: { body: 'realtime please' } });
    expect(b.got.some((m) => m.type === 'new_message')).toBe(false);
    a.ws.terminate();
    b.ws.terminate();
  });
});

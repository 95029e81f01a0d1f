// Inbound calls to an install's number: staff hear the whisper and press the key before the caller is
// bridged; nobody takes it and the caller hears the missed-call message. A staff phone in a call is busy
// (ADR 051): the caller rings the free ones, or waits for one. Every inbound call, answered or not, is in
// the caller's conversation (ADR 052).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call as api } from '../../../test/helpers.ts';
import { platformSystemContext, tenantContext } from '../../platform/tenancy/context.ts';
import { addDemoNumber, callMissed, carrierFor, restoreSandboxNumbers } from './service.ts';
import { connectedCallback, STAFF_1, STAFF_2, staffTakes, type Telephony, telephonyApp } from './testing.ts';

let h: Telephony;
let installKey: string;
const missed: { callId: number }[] = [];
const NUMBER = '+15005550099';

beforeAll(async () => {
  h = await telephonyApp();
  h.t.app.deps.events.on(callMissed, (p) => {
    missed.push(p);
  });
  const install = await h.install({ timeout: 20 }, { number: null });
  installKey = install.key;
  const ctx = tenantContext(
    h.t.app.deps,
    { level: 'business', agencyId: h.seed.a.agency.id, businessId: h.seed.a.business.id },
    { kind: 'system', source: 'seed', name: 'test' },
  );
  const carrier = await carrierFor(ctx);
  await carrier.purchaseNumber(NUMBER, { voiceUrl: 'http://localhost:3000/webhooks/twilio/voice' });
  await addDemoNumber(ctx, {
    agencyId: h.seed.a.agency.id,
    businessId: h.seed.a.business.id,
    installId: install.id,
    phoneNumber: NUMBER,
  });
});
afterAll(() => h?.close());

const rows = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;
const phone = (n: string) => h.sandbox.phones.get(n);
const inboundOf = async (caller: string) =>
  (await rows("select * from calls where kind = 'inbound' and visitor_phone = $1", [caller]))[0];
const staffLegs = async (callId: number) =>
  (
    await rows("select to_number from call_legs where call_id = $1 and role = 'staff' order by id", [callId])
  ).map((r) => r.to_number as string);
/** Staff 1 takes a callback and is in the call with `visitor`. */
async function staff1InCallback(visitor: string): Promise<number> {
  const id = await connectedCallback(h, installKey, visitor);
  await h.run(1000);
  expect(phone(STAFF_1).call?.bridged_with).toBe(visitor);
  expect(phone(STAFF_2).state).toBe('idle');
  return id;
}
/** `caller` phones the install's number and staff 2 (the free one) takes the call. */
async function staff2TakesInbound(caller: string): Promise<void> {
  h.sandbox.phones.dial(caller, NUMBER);
  await h.run(1000);
  await staffTakes(h, STAFF_2, 4000);
  expect(phone(caller).call?.bridged_with).toBe(STAFF_2);
}

describe('inbound calls', () => {
  it('ring every staff phone; the one that presses the key is bridged with the caller', async () => {
    const caller = '+14155550401';
    h.sandbox.phones.dial(caller, NUMBER);
    await h.run(1000);
    expect(phone(STAFF_1).state).toBe('ringing');
    expect(phone(STAFF_2).state).toBe('ringing');
    h.sandbox.phones.answer(STAFF_1);
    await h.run(4000);
    expect(phone(STAFF_1).call?.heard.join(' ')).toContain('Incoming call from 4 1 5 5 5 5 0 4 0 1. Press 1');
    h.sandbox.phones.press(STAFF_1, '1');
    await h.run(1000);
    expect(phone(caller).call?.bridged_with).toBe(STAFF_1);
    expect(phone(STAFF_2).state).toBe('idle');
    await h.run(10_000);
    h.sandbox.phones.hangUp(caller);
    await h.run(2000);
    const [call] = await rows("select * from calls where kind = 'inbound' and visitor_phone = $1", [caller]);
    expect(call).toMatchObject({ outcome: 'completed', agent_phone: STAFF_1, agent_name: 'Front desk' });
    expect(call.connected_at).not.toBeNull();
  });

  it('is missed when nobody presses the key: the caller hears the message and may leave a voicemail', async () => {
    const caller = '+14155550402';
    h.sandbox.phones.dial(caller, NUMBER);
    await h.run(25_000);
    const [call] = await rows("select * from calls where kind = 'inbound' and visitor_phone = $1", [caller]);
    expect(call.outcome).toBe('missed');
    // Listeners run one after another after commit (the inbox's first): wait for the event, not a time.
    await expect.poll(() => missed.some((m) => m.callId === call.id), { timeout: 15_000 }).toBe(true);
    await h.run(8000);
    expect(phone(caller).call?.heard.join(' ')).toContain('Sorry, nobody could take your call');
    h.sandbox.phones.hangUp(caller);
    await h.run(2000);
    expect(await rows('select * from voice_records where call_id = $1', [call.id])).toHaveLength(1);
  });

  it("reach an install's number the sandbox had forgotten, once the start-up step put it back", async () => {
    const install = await h.install({ timeout: 20 }, { number: '+15005550098' });
    expect(install.id).toBeGreaterThan(0);
    expect(
      await restoreSandboxNumbers(platformSystemContext(h.t.app.deps, 'job', 'sandbox numbers')),
    ).toBeGreaterThanOrEqual(2);
    h.sandbox.phones.dial('+14155550403', '+15005550098');
    await h.run(1000);
    expect(phone(STAFF_1).state).toBe('ringing');
    const [call] = await rows("select * from calls where kind = 'inbound' and visitor_phone = $1", [
      '+14155550403',
    ]);
    expect(call.install_id).toBe(install.id);
    await h.run(60_000);
  });

  it('ring only the free staff phones: staff 1 in a callback, the caller rings staff 2; the callback stays connected', async () => {
    const visitor = '+14155550411';
    const caller = '+14155550412';
    const callbackId = await staff1InCallback(visitor);
    h.sandbox.phones.dial(caller, NUMBER);
    await h.run(1000);
    const call = await inboundOf(caller);
    expect(await staffLegs(call.id)).toEqual([STAFF_2]);
    expect(phone(STAFF_2).state).toBe('ringing');
    expect(phone(STAFF_1).state).toBe('in-call');
    expect(phone(STAFF_1).call?.bridged_with).toBe(visitor);
    await staffTakes(h, STAFF_2, 4000);
    expect(phone(caller).call?.bridged_with).toBe(STAFF_2);
    // The callback's visitor never lost staff 1.
    expect(phone(visitor).state).toBe('in-call');
    expect(phone(STAFF_1).call?.bridged_with).toBe(visitor);
    const [cb] = await rows('select outcome, agent_phone from calls where id = $1', [callbackId]);
    expect(cb).toEqual({ outcome: 'in_progress', agent_phone: STAFF_1 });
    h.sandbox.phones.hangUp(caller);
    h.sandbox.phones.hangUp(visitor);
    await h.run(2000);
    expect((await inboundOf(caller)).outcome).toBe('completed');
    expect((await rows('select outcome from calls where id = $1', [callbackId]))[0].outcome).toBe(
      'completed',
    );
  });

  it('wait on hold while every staff phone is busy, and ring the first one that comes free', async () => {
    const visitor = '+14155550421';
    const first = '+14155550422';
    const waiting = '+14155550423';
    await staff1InCallback(visitor);
    await staff2TakesInbound(first);

    // Both staff phones are in calls: the next caller waits, hearing the hold message, ringing nobody.
    h.sandbox.phones.dial(waiting, NUMBER);
    await h.run(3000);
    const call = await inboundOf(waiting);
    expect(call.outcome).toBe('in_progress');
    expect(await staffLegs(call.id)).toEqual([]);
    expect(phone(waiting).state).toBe('in-call');
    expect(phone(waiting).call?.heard.join(' ')).toContain('Please hold');
    expect(phone(STAFF_1).call?.bridged_with).toBe(visitor);
    expect(phone(STAFF_2).call?.bridged_with).toBe(first);

    // The callback ends: staff 1 is free and rings for the waiting caller, who is put through.
    h.sandbox.phones.hangUp(visitor);
    await h.run(2000);
    expect(await staffLegs(call.id)).toEqual([STAFF_1]);
    expect(phone(STAFF_1).state).toBe('ringing');
    await staffTakes(h, STAFF_1, 4000);
    expect(phone(waiting).call?.bridged_with).toBe(STAFF_1);
    expect(phone(first).call?.bridged_with).toBe(STAFF_2);
    h.sandbox.phones.hangUp(waiting);
    h.sandbox.phones.hangUp(first);
    await h.run(2000);
    expect((await inboundOf(waiting)).outcome).toBe('completed');
    expect((await inboundOf(first)).outcome).toBe('completed');
  });

  it('a wait with no phone free in time ends as missed: the message, then a voicemail', async () => {
    const visitor = '+14155550431';
    const first = '+14155550432';
    const waiting = '+14155550433';
    await staff1InCallback(visitor);
    await staff2TakesInbound(first);
    // Both staff members talk to someone: `waiting` waits the ring timeout (20 s), nobody comes free.
    h.sandbox.phones.dial(waiting, NUMBER);
    await h.run(1000);
    const call = await inboundOf(waiting);
    expect(await staffLegs(call.id)).toEqual([]);
    await h.run(25_000);
    expect((await inboundOf(waiting)).outcome).toBe('missed');
    await expect.poll(() => missed.some((m) => m.callId === call.id), { timeout: 15_000 }).toBe(true);
    await h.run(8000);
    expect(phone(waiting).call?.heard.join(' ')).toContain('Sorry, nobody could take your call');
    h.sandbox.phones.hangUp(waiting);
    await h.run(2000);
    expect(await rows('select * from voice_records where call_id = $1', [call.id])).toHaveLength(1);
    // The callback went on all along.
    expect(phone(STAFF_1).call?.bridged_with).toBe(visitor);
    h.sandbox.phones.hangUp(visitor);
    h.sandbox.phones.hangUp(first);
    await h.run(30_000);
  });
});

describe("inbound calls in the caller's conversation", () => {
  it('an answered inbound call is in the conversation with its outcome, and the Voice filter finds it', async () => {
    const caller = '+14155550441';
    h.sandbox.phones.dial(caller, NUMBER);
    await h.run(1000);
    await staffTakes(h, STAFF_1, 4000);
    await h.run(10_000);
    h.sandbox.phones.hangUp(caller);
    await h.run(2000);
    const call = await inboundOf(caller);
    expect(call.outcome).toBe('completed');

    const token = await h.token(h.seed.a.businessAdmin.email);
    const get = (url: string) => api(h.t).get(token, `/api${url}`);
    // The caller's contact, found or created by the phone (no name: a caller gives none).
    await expect
      .poll(async () => (await rows('select * from contacts where phone = $1', [caller]))[0], {
        timeout: 10_000,
      })
      .toMatchObject({ install_id: call.install_id, source: 'voice' });
    const [row] = await rows('select id from contacts where phone = $1', [caller]);
    const history = await get(`/v1/chats/contacts/${row.id}/conversations`);
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json().data).toContainEqual(
      expect.objectContaining({
        kind: 'call',
        call: expect.objectContaining({ id: call.id, kind: 'inbound', outcome: 'completed' }),
      }),
    );
    const voice = await get(`/v1/chats/installs/${call.install_id}/inbox?type=voice`);
    expect(voice.statusCode, voice.body).toBe(200);
    expect(voice.json().data).toContainEqual(
      expect.objectContaining({
        phone: caller,
        last_call: expect.objectContaining({ outcome: 'completed' }),
      }),
    );
  });
});

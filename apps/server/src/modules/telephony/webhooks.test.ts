// The carrier's webhooks: signatures, retries delivered at once, events out of order.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { callCompleted, callMissed } from './service.ts';
import { carrierWebhook, STAFF_1, type Telephony, telephonyApp } from './testing.ts';

let h: Telephony;
const missed: { callId: number }[] = [];
const completed: { callId: number }[] = [];

beforeAll(async () => {
  h = await telephonyApp();
  h.t.app.deps.events.on(callMissed, (p) => {
    missed.push(p);
  });
  h.t.app.deps.events.on(callCompleted, (p) => {
    completed.push(p);
  });
});
afterAll(() => h?.close());

const rows = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;

const post = (path: string, params: Record<string, string>, signature: 'good' | 'bad' | 'none' = 'good') =>
  carrierWebhook(h, path, params, {
    signWith: signature === 'none' ? null : signature === 'bad' ? 'not-the-token' : undefined,
  });

/** A callback ringing one staff phone; its call id and the staff leg's CallSid. */
async function ringingCall(visitor: string) {
  const install = await h.install({ phoneAgents: [{ name: 'Front desk', phone: STAFF_1 }], timeout: 30 });
  const res = await h.callback(install.key, { phone: visitor });
  expect(res.statusCode, res.body).toBe(200);
  const callId = res.json().data.call_id as number;
  await h.run(1000);
  const [leg] = await rows("select * from call_legs where call_id = $1 and role = 'staff'", [callId]);
  return { callId, sid: leg.call_sid as string };
}

describe('carrier webhooks', () => {
  it('refuse a missing or wrong signature with 403 and change nothing', async () => {
    const { callId, sid } = await ringingCall('+14155550201');
    const before = await rows('select * from call_legs where call_id = $1 order by id', [callId]);
    const params = { CallSid: sid, CallStatus: 'completed', SequenceNumber: '9' };
    for (const signature of ['none', 'bad'] as const) {
      const res = await post(`/webhooks/twilio/call-status?call=${callId}`, params, signature);
      expect(res.statusCode).toBe(403);
      expect(res.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    }
    // Signed by another agency's account: not this call's account, nothing happens either.
    const foreign = await carrierWebhook(h, `/webhooks/twilio/call-status?call=${callId}`, params, {
      tenant: 'b',
    });
    expect(foreign.statusCode).toBe(200);
    // A CallSid that is not a leg of this call changes nothing.
    const stranger = await post(`/webhooks/twilio/call-status?call=${callId}`, {
      ...params,
      CallSid: `CA${'0'.repeat(32)}`,
    });
    expect(stranger.statusCode).toBe(200);
    expect(await rows('select * from call_legs where call_id = $1 order by id', [callId])).toEqual(before);
    const [call] = await rows('select outcome from calls where id = $1', [callId]);
    expect(call.outcome).toBe('in_progress');
    await h.run(60_000);
  });

  it('have one effect when the same delivery comes three times at once', async () => {
    const visitor = '+14155550202';
    const { callId, sid } = await ringingCall(visitor);
    const params = { CallSid: sid, CallStatus: 'no-answer', SequenceNumber: '7', CallDuration: '0' };
    const answers = await Promise.all(
      [1, 2, 3].map(() => post(`/webhooks/twilio/call-status?call=${callId}`, params)),
    );
    for (const a of answers) expect(a.statusCode).toBe(200);
    await h.run(1000);
    const [call] = await rows('select outcome from calls where id = $1', [callId]);
    expect(call.outcome).toBe('missed');
    // The event reaches listeners after the update, once the listeners registered before this one are done.
    await vi.waitFor(() => expect(missed.filter((m) => m.callId === callId)).not.toHaveLength(0), {
      timeout: 10_000,
    });
    await h.run(1000);
    expect(missed.filter((m) => m.callId === callId)).toHaveLength(1);
    const messages = await rows("select * from call_legs where call_id = $1 and role = 'missed_message'", [
      callId,
    ]);
    expect(messages).toHaveLength(1);
    expect(h.sandbox.phones.get(visitor).state).toBe('ringing');

    // The same gather pressed three times at once claims once and answers the same TwiML each time.
    const second = await ringingCall('+14155550203');
    h.sandbox.phones.answer(STAFF_1);
    await h.run(3000);
    const presses = await Promise.all(
      [1, 2, 3].map(() =>
        post(`/webhooks/twilio/gather?call=${second.callId}`, { CallSid: second.sid, Digits: '1' }),
      ),
    );
    for (const p of presses) {
      expect(p.statusCode).toBe(200);
      expect(p.body).toContain('<Dial');
      expect(p.body).toContain('+14155550203</Number>');
    }
    const [claimed] = await rows('select claimed_leg_sid from calls where id = $1', [second.callId]);
    expect(claimed.claimed_leg_sid).toBe(second.sid);
    await h.run(60_000);
  });

  it('never reopen a completed leg or call with a late ringing event', async () => {
    const { callId, sid } = await ringingCall('+14155550204');
    const done = await post(`/webhooks/twilio/call-status?call=${callId}`, {
      CallSid: sid,
      CallStatus: 'completed',
      SequenceNumber: '5',
      CallDuration: '0',
    });
    expect(done.statusCode).toBe(200);
    const late = await post(`/webhooks/twilio/call-status?call=${callId}`, {
      CallSid: sid,
      CallStatus: 'ringing',
      SequenceNumber: '2',
    });
    expect(late.statusCode).toBe(200);
    const lateNoSequence = await post(`/webhooks/twilio/call-status?call=${callId}`, {
      CallSid: sid,
      CallStatus: 'in-progress',
      SequenceNumber: '6',
    });
    expect(lateNoSequence.statusCode).toBe(200);
    const [leg] = await rows('select status from call_legs where call_sid = $1', [sid]);
    expect(leg.status).toBe('completed');
    const [call] = await rows('select outcome from calls where id = $1', [callId]);
    expect(call.outcome).toBe('missed');
    // A gather after the end cannot claim it.
    const press = await post(`/webhooks/twilio/gather?call=${callId}`, { CallSid: sid, Digits: '1' });
    expect(press.body).not.toContain('<Dial');
    const [after] = await rows('select claimed_leg_sid, outcome from calls where id = $1', [callId]);
    expect(after).toEqual({ claimed_leg_sid: null, outcome: 'missed' });
    await h.run(60_000);
  });

  it('end a claimed call whose member hangs up before the dial action: no answer, or completed once connected', async () => {
    for (const [visitor, connected] of [
      ['+14155550206', false],
      ['+14155550207', true],
    ] as const) {
      const { callId, sid } = await ringingCall(visitor);
      h.sandbox.phones.answer(STAFF_1);
      await h.run(3000);
      const press = await post(`/webhooks/twilio/gather?call=${callId}`, { CallSid: sid, Digits: '1' });
      expect(press.body).toContain('<Dial');
      if (connected) {
        const answered = await post(`/webhooks/twilio/call-status?call=${callId}&leg=visitor`, {
          CallSid: `CA${'7'.repeat(32)}`,
          ParentCallSid: sid,
          CallStatus: 'in-progress',
          SequenceNumber: '2',
        });
        expect(answered.statusCode).toBe(200);
      }
      // The staff leg's end comes first (the dial's action is late): the call ends by what it knows.
      const end = await post(`/webhooks/twilio/call-status?call=${callId}`, {
        CallSid: sid,
        CallStatus: 'completed',
        SequenceNumber: '9',
        CallDuration: '4',
      });
      expect(end.statusCode).toBe(200);
      const [call] = await rows('select outcome, ended_at, connected_at from calls where id = $1', [callId]);
      expect(call.outcome).toBe(connected ? 'completed' : 'no_answer');
      expect(call.ended_at).not.toBeNull();
      expect(call.connected_at === null).toBe(!connected);
      await vi.waitFor(
        () => expect(completed.filter((c) => c.callId === callId)).toHaveLength(connected ? 1 : 0),
        { timeout: 10_000 },
      );
      // The dial's action comes after all, delivered twice at once (a retry): its duration and its
      // recording are the word on the call, written once, and a completed call is announced once.
      const recordingSid = `RE${(connected ? '5' : '6').repeat(32)}`;
      const actionOnce = () =>
        post(`/webhooks/twilio/dial-action?call=${callId}`, {
          CallSid: sid,
          DialCallStatus: connected ? 'completed' : 'no-answer',
          DialCallDuration: connected ? '3' : '0',
          RecordingSid: recordingSid,
          RecordingUrl: `https://api.twilio.com/recordings/${recordingSid}`,
        });
      const actions = await Promise.all([actionOnce(), actionOnce()]);
      for (const action of actions) expect(action.statusCode).toBe(200);
      const [after] = await rows('select outcome, duration, recording_sid from calls where id = $1', [
        callId,
      ]);
      expect(after).toEqual({
        outcome: connected ? 'completed' : 'no_answer',
        duration: connected ? 3 : 0,
        recording_sid: recordingSid,
      });
      const deliveries = await rows('select key from carrier_events where key = $1', [`dial:${sid}`]);
      expect(deliveries).toHaveLength(1);
      // A later action of the same leg (a repeat the carrier sent again) changes nothing.
      await post(`/webhooks/twilio/dial-action?call=${callId}`, {
        CallSid: sid,
        DialCallStatus: 'no-answer',
        DialCallDuration: '0',
      });
      const [still] = await rows('select outcome, duration from calls where id = $1', [callId]);
      expect(still).toEqual({ outcome: connected ? 'completed' : 'no_answer', duration: connected ? 3 : 0 });
      await h.run(60_000);
      expect(completed.filter((c) => c.callId === callId)).toHaveLength(connected ? 1 : 0);
    }
  });

  // Texts are the chats module's (modules/chats/messages.test.ts: one message per MessageSid).
  it('answer texts with an empty document, and refuse unsigned ones', async () => {
    const params = {
      MessageSid: `SM${'1'.repeat(32)}`,
      From: '+14155550205',
      To: '+15005550006',
      Body: 'hi',
    };
    const answers = await Promise.all([1, 2, 3].map(() => post('/webhooks/twilio/sms-in', params)));
    for (const a of answers) expect(a.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    const texts = await rows('select * from messages where carrier_sid = $1', [params.MessageSid]);
    expect(texts.length).toBeLessThanOrEqual(1);
    const unsigned = await post('/webhooks/twilio/sms-status', { MessageSid: params.MessageSid }, 'none');
    expect(unsigned.statusCode).toBe(403);
  });
});

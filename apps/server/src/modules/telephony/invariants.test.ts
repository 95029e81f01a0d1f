// Invariants of the instant callback that only a second press or a pressing voicemail can break (issue 18):
// two staff phones pressing 1 at the same moment, and a staff voicemail whose greeting's tones register as
// digits. Through the sandbox carrier and the product's own webhooks.
import { describe, expect, it } from 'vitest';
import { STAFF_1, STAFF_2, useTelephony } from './testing.ts';

const h = useTelephony();

const rows = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;
const phone = (n: string) => h.sandbox.phones.get(n);
const TAKEN = 'Another team member took this call.';

describe('callback invariants', () => {
  it('two staff pressing 1 at the same moment: one claims it, the other hears it was taken, the visitor is called once', async () => {
    const install = await h.install({ timeout: 20 });
    const visitor = '+14155550301';
    const res = await h.callback(install.key, { phone: visitor, name: 'Pat' });
    expect(res.statusCode, res.body).toBe(200);
    const callId = res.json().data.call_id as number;
    await h.run(1000);
    h.sandbox.phones.answer(STAFF_1);
    h.sandbox.phones.answer(STAFF_2);
    await h.run(5000);
    expect(phone(STAFF_1).call?.gathering).toBe(true);
    expect(phone(STAFF_2).call?.gathering).toBe(true);
    const sids = { [STAFF_1]: phone(STAFF_1).call?.sid, [STAFF_2]: phone(STAFF_2).call?.sid };
    const heardBefore = h.sandbox.calls.size;

    // Both presses in the same tick: the two gather webhooks run at once.
    await Promise.all([
      Promise.resolve(h.sandbox.phones.press(STAFF_1, '1')),
      Promise.resolve(h.sandbox.phones.press(STAFF_2, '1')),
    ]);
    await h.run(1000);

    const [call] = await rows('select * from calls where id = $1', [callId]);
    expect(call.claimed_leg_sid).not.toBeNull();
    const winner = call.claimed_leg_sid === sids[STAFF_1] ? STAFF_1 : STAFF_2;
    const loser = winner === STAFF_1 ? STAFF_2 : STAFF_1;
    expect(call.claimed_leg_sid).toBe(sids[winner]);
    expect(call.agent_phone).toBe(winner);
    expect(call.agent_name).toBe(winner === STAFF_1 ? 'Front desk' : 'Dr. Bright');

    // What each gather webhook answered: one <Dial> to the visitor, one "taken".
    const answers = h.sandbox.webhooks.deliveries
      .filter((d) => d.url.includes('/gather') && d.url.includes(`call=${callId}`))
      .map((d) => ({ sid: d.params.CallSid, body: d.responseBody ?? '' }));
    expect(answers).toHaveLength(2);
    const won = answers.find((a) => a.sid === sids[winner]);
    const lost = answers.find((a) => a.sid === sids[loser]);
    expect(won?.body).toContain('<Dial');
    expect(won?.body).not.toContain(TAKEN);
    expect(lost?.body).toContain(TAKEN);
    expect(lost?.body).not.toContain('<Dial');

    // The loser's leg is over; the winner's phone rings the visitor, once.
    expect(h.sandbox.calls.get(sids[loser] ?? '')?.status).toBe('completed');
    expect(phone(loser).state).toBe('idle');
    expect(phone(visitor).state).toBe('ringing');
    const visitorLegs = [...h.sandbox.calls.values()].filter((c) => c.phone === visitor);
    expect(visitorLegs).toHaveLength(1);
    expect(h.sandbox.calls.size).toBe(heardBefore + 1);

    h.sandbox.phones.answer(visitor);
    await h.run(2000);
    expect(phone(visitor).call?.bridged_with).toBe(winner);
    const legs = await rows("select * from call_legs where call_id = $1 and role = 'visitor'", [callId]);
    expect(legs).toHaveLength(1);
    h.sandbox.phones.hangUp(visitor);
    await h.run(5000);
    const [done] = await rows('select outcome, agent_phone from calls where id = $1', [callId]);
    expect(done).toEqual({ outcome: 'completed', agent_phone: winner });
  });

  it("a staff voicemail whose greeting 'presses' 1 neither claims the callback nor holds the visitor's line", async () => {
    const staff = '+15005550103';
    const install = await h.install({ phoneAgents: [{ name: 'Front desk', phone: staff }], timeout: 20 });
    const visitor = '+14155550302';
    const res = await h.callback(install.key, { phone: visitor });
    expect(res.statusCode, res.body).toBe(200);
    const callId = res.json().data.call_id as number;
    await h.run(1000);
    // The voicemail's greeting has tones that register as 1: it would press whatever it is asked.
    const sid = h.sandbox.phones.answer(staff, { as: 'machine', greetingTones: '1' });
    await h.run(3000);

    const [call] = await rows('select * from calls where id = $1', [callId]);
    expect(call.claimed_leg_sid).toBeNull();
    expect(call.agent_phone).toBeNull();
    const [leg] = await rows("select * from call_legs where call_id = $1 and role = 'staff'", [callId]);
    expect(leg.answered_by).toMatch(/^machine/);
    expect(leg.digits).toBeNull();
    // The machine leg was hung up at once (its TwiML a hangup, no gather) and never dialled the visitor.
    expect(h.sandbox.calls.get(sid)?.status).toBe('completed');
    const whisper = h.sandbox.webhooks.deliveries.find(
      (d) => d.url.includes('/voice') && d.params.CallSid === sid,
    );
    expect(whisper?.responseBody).toContain('<Hangup/>');
    expect(whisper?.responseBody).not.toContain('<Gather');
    expect([...h.sandbox.calls.values()].filter((c) => c.parentCallSid === sid)).toEqual([]);
    expect(await rows("select * from call_legs where call_id = $1 and role = 'visitor'", [callId])).toEqual(
      [],
    );
    expect(phone(visitor).state).not.toBe('in-call');
    await h.run(30_000);
    const [after] = await rows('select outcome, claimed_leg_sid from calls where id = $1', [callId]);
    expect(after).toEqual({ outcome: 'missed', claimed_leg_sid: null });
  });
});

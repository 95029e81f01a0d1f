// The instant callback end to end: the widget's request, the real twilio SDK, the sandbox carrier and its
// simulated phones on a ManualClock, the product's webhooks, and the calls API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../../test/helpers.ts';
import { callMissed } from './service.ts';
import {
  closedHours,
  STAFF_1,
  STAFF_2,
  type Telephony,
  telephonyApp,
  VISITOR,
  weekdayAhead,
} from './testing.ts';

let h: Telephony;
const missedEvents: unknown[] = [];

beforeAll(async () => {
  h = await telephonyApp();
  h.t.app.deps.events.on(callMissed, (payload) => {
    missedEvents.push(payload);
  });
});
afterAll(() => h?.close());

const rows = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;
const phone = (n: string) => h.sandbox.phones.get(n);

describe('instant callback', () => {
  it('rings two staff phones; the second presses 1, the first stops, the visitor is connected and recorded', async () => {
    const install = await h.install({ call_recording: true });
    const res = await h.callback(install.key, { phone: '(415) 555-0100', name: 'Vera Visitor' });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ status: 'calling', callback_seconds: 14, next_slots: [] });
    const callId = data.call_id as number;

    await h.run(1000);
    expect(phone(STAFF_1).state).toBe('ringing');
    expect(phone(STAFF_2).state).toBe('ringing');
    const [counted] = await rows('select number_of_calls from businesses where id = $1', [
      h.seed.a.business.id,
    ]);
    expect(counted.number_of_calls).toBe(1);

    h.sandbox.phones.answer(STAFF_2);
    await h.run(5000);
    const staff2 = phone(STAFF_2);
    expect(staff2.state).toBe('in-call');
    expect(staff2.call?.heard.join(' ')).toContain('New callback request from Vera Visitor');
    expect(staff2.call?.heard.join(' ')).toContain('Press 1 to connect.');
    expect(staff2.call?.gathering).toBe(true);

    h.sandbox.phones.press(STAFF_2, '1');
    await h.run(2000);
    expect(phone(STAFF_1).state).toBe('idle');
    const visitor = phone(VISITOR);
    expect(visitor.state).toBe('ringing');
    expect(visitor.call?.from).toBe('+15005550006');

    h.sandbox.phones.answer(VISITOR);
    await h.run(30_000);
    expect(phone(VISITOR).state).toBe('in-call');
    const [connected] = await rows('select * from calls where id = $1', [callId]);
    expect(connected.outcome).toBe('in_progress');
    expect(connected.connected_at).not.toBeNull();
    expect(connected.agent_name).toBe('Dr. Bright');

    h.sandbox.phones.hangUp(VISITOR);
    await h.run(2000);
    const [done] = await rows('select * from calls where id = $1', [callId]);
    expect(done.outcome).toBe('completed');
    expect(done.duration).toBeGreaterThan(0);
    expect(done.recording_sid).toMatch(/^RE/);

    const admin = bearer(await h.token(h.seed.a.businessAdmin.email));
    const list = await h.t.app.inject({ url: '/api/v1/calls', headers: admin });
    expect(list.statusCode, list.body).toBe(200);
    const listed = list.json().data.find((c: { id: number }) => c.id === callId);
    expect(listed).toMatchObject({
      outcome: 'completed',
      visitor_phone: VISITOR,
      agent_name: 'Dr. Bright',
      agent_phone: STAFF_2,
      caller_id: '+15005550006',
      recording_url: `/api/v1/calls/${callId}/recording`,
    });
    expect(listed.time_to_connect).toBeGreaterThanOrEqual(0);

    const detail = await h.t.app.inject({ url: `/api/v1/calls/${callId}`, headers: admin });
    expect(detail.statusCode, detail.body).toBe(200);
    const legs = detail.json().data.legs as {
      role: string;
      to: string;
      status: string;
      digits: string | null;
    }[];
    expect(legs.filter((l) => l.role === 'staff').map((l) => [l.to, l.status])).toEqual(
      expect.arrayContaining([
        [STAFF_1, 'canceled'],
        [STAFF_2, 'completed'],
      ]),
    );
    expect(legs.find((l) => l.role === 'visitor')).toMatchObject({ to: VISITOR, status: 'completed' });
    // The press that claimed the call is on its leg's row (written by the claim's own statement).
    expect(legs.find((l) => l.to === STAFF_2)?.digits).toBe('1');
    expect(legs.find((l) => l.to === STAFF_1)?.digits).toBeNull();

    const audio = await h.t.app.inject({ url: `/api/v1/calls/${callId}/recording`, headers: admin });
    expect(audio.statusCode, audio.body.slice(0, 200)).toBe(200);
    expect(audio.headers['content-type']).toContain('audio/');
    expect(audio.rawPayload.subarray(0, 4).toString('latin1')).toBe('RIFF');

    const report = await h.t.app.inject({ url: '/api/v1/calls-report', headers: admin });
    expect(report.statusCode, report.body).toBe(200);
    const r = report.json().data;
    expect(r.totals.completed).toBeGreaterThanOrEqual(1);
    expect(r.by_agent).toEqual(
      expect.arrayContaining([expect.objectContaining({ agent_name: 'Dr. Bright', agent_phone: STAFF_2 })]),
    );
  });

  it('round robin: one phone rings; a wrong key, then 1; its member hangs up before the visitor answers', async () => {
    const install = await h.install({ calling_type: 'round_robin' });
    const res = await h.callback(install.key, { phone: '+14155550112', name: 'Rita' });
    expect(res.statusCode, res.body).toBe(200);
    const callId = res.json().data.call_id as number;
    await h.run(1000);
    // One phone at a time: the other stays idle (nothing of it to cancel once this one claims).
    const ringing = [STAFF_1, STAFF_2].filter((s) => phone(s).state === 'ringing');
    expect(ringing).toHaveLength(1);
    const staff = ringing[0] as string;
    const other = staff === STAFF_1 ? STAFF_2 : STAFF_1;
    expect(phone(other).state).toBe('idle');

    h.sandbox.phones.answer(staff);
    await h.run(5000);
    h.sandbox.phones.press(staff, '7');
    await h.run(1000);
    // A wrong key claims nothing: the prompt again, and the key is on the leg's row.
    const [unclaimed] = await rows('select claimed_leg_sid from calls where id = $1', [callId]);
    expect(unclaimed.claimed_leg_sid).toBeNull();
    const [wrong] = await rows("select digits from call_legs where call_id = $1 and role = 'staff'", [
      callId,
    ]);
    expect(wrong.digits).toBe('7');
    expect(phone(staff).call?.gathering).toBe(true);

    h.sandbox.phones.press(staff, '1');
    await h.run(2000);
    expect(phone('+14155550112').state).toBe('ringing');
    expect(phone(other).state).toBe('idle');
    const [claimed] = await rows('select claimed_leg_sid, agent_phone from calls where id = $1', [callId]);
    expect(claimed.agent_phone).toBe(staff);
    const [leg] = await rows("select call_sid, digits from call_legs where call_id = $1 and role = 'staff'", [
      callId,
    ]);
    expect(leg).toEqual({ call_sid: claimed.claimed_leg_sid, digits: '1' });

    // The member hangs up while the visitor's phone still rings: no answer, and the visitor's phone stops.
    h.sandbox.phones.hangUp(staff);
    await h.run(3000);
    const [ended] = await rows('select outcome, ended_at, connected_at from calls where id = $1', [callId]);
    expect(ended.outcome).toBe('no_answer');
    expect(ended.ended_at).not.toBeNull();
    expect(ended.connected_at).toBeNull();
    expect(phone('+14155550112').state).toBe('idle');
  });

  it('is missed when nobody answers: the event, the message to the visitor, and a voicemail', async () => {
    const install = await h.install({ timeout: 20 });
    const visitorPhone = '+14155550111';
    const res = await h.callback(install.key, { phone: visitorPhone, name: 'Max' });
    expect(res.statusCode, res.body).toBe(200);
    const callId = res.json().data.call_id as number;
    await h.run(1000);
    expect(phone(STAFF_1).state).toBe('ringing');
    await h.run(25_000);
    const [missed] = await rows('select * from calls where id = $1', [callId]);
    expect(missed.outcome).toBe('missed');
    // Listeners hear call.missed after the commit that marked it (ADR 015): the row may be read first.
    await expect
      .poll(() => missedEvents, { timeout: 10_000 })
      .toContainEqual(expect.objectContaining({ callId, visitorPhone }));
    expect(phone(visitorPhone).state).toBe('ringing');

    h.sandbox.phones.answer(visitorPhone);
    await h.run(10_000);
    expect(phone(visitorPhone).call?.heard.join(' ')).toContain('Sorry, nobody could take your call');
    await h.run(5_000);
    h.sandbox.phones.hangUp(visitorPhone);
    await h.run(2000);
    const voice = await rows('select * from voice_records where call_id = $1', [callId]);
    expect(voice).toHaveLength(1);
    expect(voice[0].from_number).toBe(visitorPhone);

    const admin = bearer(await h.token(h.seed.a.businessAdmin.email));
    const list = await h.t.app.inject({ url: '/api/v1/voice-records', headers: admin });
    expect(list.statusCode, list.body).toBe(200);
    const record = list.json().data.find((v: { call_id: number }) => v.call_id === callId);
    expect(record).toMatchObject({ from: visitorPhone });
    const audio = await h.t.app.inject({ url: `/api/v1/voice-records/${record.id}/audio`, headers: admin });
    expect(audio.statusCode).toBe(200);
    expect(audio.rawPayload.subarray(0, 4).toString('latin1')).toBe('RIFF');
  });

  it("a staff phone's voicemail cannot claim the call", async () => {
    const install = await h.install({
      phoneAgents: [{ name: 'Front desk', phone: '+15005550103' }],
      timeout: 20,
    });
    const visitorPhone = '+14155550122';
    const res = await h.callback(install.key, { phone: visitorPhone });
    const callId = res.json().data.call_id as number;
    await h.run(1000);
    h.sandbox.phones.answer('+15005550103', { as: 'machine' });
    await h.run(3000);
    const [call] = await rows('select * from calls where id = $1', [callId]);
    expect(call.claimed_leg_sid).toBeNull();
    const [leg] = await rows("select * from call_legs where call_id = $1 and role = 'staff'", [callId]);
    expect(leg.answered_by).toMatch(/^machine/);
    await h.run(30_000);
    const [after] = await rows('select * from calls where id = $1', [callId]);
    expect(after.outcome).toBe('missed');
    expect(phone(VISITOR).state).not.toBe('in-call');
  });

  it('out of hours answers closed with the next openings, and creates nothing', async () => {
    const install = await h.install({ hours: closedHours('America/New_York'), timezone: 'America/New_York' });
    const before = await rows('select count(*)::int as n from calls');
    const res = await h.callback(install.key, { phone: '+14155550133' });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.status).toBe('closed');
    expect(data.call_id).toBeNull();
    expect(data.next_slots).toHaveLength(3);
    for (const slot of data.next_slots) {
      expect(slot).toMatch(/T08:00:00-0[45]:00$/);
      expect(new Date(slot).getTime()).toBeGreaterThan(Date.now());
      expect(new Date(slot).getUTCDay()).toBe(weekdayAhead('America/New_York'));
    }
    expect(await rows('select count(*)::int as n from calls')).toEqual(before);

    // The visitor schedules a call in one of those slots instead; a closed time is refused.
    const schedule = (payload: object) =>
      h.t.app.inject({
        method: 'POST',
        url: '/api/widget/v1/schedule',
        headers: { 'x-install-key': install.key },
        payload,
      });
    const slot = new Date(new Date(data.next_slots[0]).getTime() + 30 * 60_000).toISOString();
    const ok = await schedule({ phone: '+14155550134', scheduled_at: slot });
    expect(ok.statusCode, ok.body).toBe(200);
    const closedTime = new Date(new Date(data.next_slots[0]).getTime() + 24 * 3_600_000).toISOString();
    const refused = await schedule({ phone: '+14155550135', scheduled_at: closedTime });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.scheduled_at[0]).toBe(
      'The business is closed at that time. Please choose another time.',
    );
    const scheduled = await rows("select * from calls where kind = 'scheduled' and install_id = $1", [
      install.id,
    ]);
    expect(scheduled).toEqual([
      expect.objectContaining({
        outcome: 'scheduled',
        visitor_phone: '+14155550134',
        scheduled_for: new Date(slot),
      }),
    ]);
  });

  it('refuses over the monthly limit, bad phones, blacklisted numbers and switched-off installs, changing nothing', async () => {
    const install = await h.install();
    const snapshot = async () => ({
      calls: await rows('select count(*)::int as n from calls'),
      used: await rows('select number_of_calls from businesses where id = $1', [h.seed.a.business.id]),
    });
    const before = await snapshot();

    const bad = await h.callback(install.key, { phone: 'abc' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.phone[0]).toBe('Wrong phone number format!!');

    const unknown = await h.callback('no-such-key', { phone: '+14155550144' });
    expect(unknown.statusCode).toBe(401);

    await rows(
      "insert into phone_lists (list, agency_id, business_id, phone) values ('blacklist', $1, $2, '+14155550145')",
      [h.seed.a.agency.id, h.seed.a.business.id],
    );
    const blocked = await h.callback(install.key, { phone: '+14155550145' });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().message).toBe('This phone number cannot request a callback.');

    const foreign = await h.callback(install.key, { phone: '+5511912345678' });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors.phone[0]).toBe('Calls to this country are not available.');

    const used = before.used[0].number_of_calls as number;
    await rows('update businesses set calls = $1 where id = $2', [used, h.seed.a.business.id]);
    const over = await h.callback(install.key, { phone: '+14155550146' });
    expect(over.statusCode).toBe(403);
    expect(over.json().message).toBe('This business has used all of its calls for this month.');

    // Switched off by its business (as the installs screen does): its key takes no widget request.
    const switched = await h.t.app.inject({
      method: 'POST',
      url: `/api/v1/installs/${install.id}/toggle-active`,
      headers: bearer(await h.token(h.seed.a.businessAdmin.email)),
      payload: { active: false },
    });
    expect(switched.statusCode, switched.body).toBe(200);
    const off = await h.callback(install.key, { phone: '+14155550147' });
    expect(off.statusCode).toBe(401);

    expect(await snapshot()).toEqual(before);
    await rows('update businesses set calls = 200 where id = $1', [h.seed.a.business.id]);
    // A whitelist entry overrides the blacklist.
    await rows(
      "insert into phone_lists (list, agency_id, business_id, phone) values ('whitelist', $1, $2, '+14155550145')",
      [h.seed.a.agency.id, h.seed.a.business.id],
    );
    const install2 = await h.install();
    const allowed = await h.callback(install2.key, { phone: '+14155550145' });
    expect(allowed.statusCode, allowed.body).toBe(200);
    await h.run(120_000);
  });

  it('keeps one callback in flight per visitor phone, and a honeypot changes nothing', async () => {
    const install = await h.install({ timeout: 20 });
    const first = await h.callback(install.key, { phone: '+14155550150' });
    expect(first.statusCode, first.body).toBe(200);
    const second = await h.callback(install.key, { phone: '+14155550150' });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe('A callback to this number is already in progress.');
    const before = await rows('select count(*)::int as n from calls');
    const bot = await h.callback(install.key, { phone: '+14155550151', website: 'http://spam.example' });
    expect(bot.statusCode, bot.body).toBe(200);
    expect(bot.json().data.status).toBe('calling');
    expect(await rows('select count(*)::int as n from calls')).toEqual(before);
    await h.run(120_000);
  });

  it('rings in order: the next staff phone when the first one is not answered', async () => {
    const install = await h.install({ calling_type: 'sequential', timeout: 20 });
    const visitorPhone = '+14155550160';
    const res = await h.callback(install.key, { phone: visitorPhone });
    const callId = res.json().data.call_id as number;
    await h.run(1000);
    expect(phone(STAFF_1).state).toBe('ringing');
    expect(phone(STAFF_2).state).toBe('idle');
    await h.run(21_000);
    expect(phone(STAFF_1).state).toBe('idle');
    expect(phone(STAFF_2).state).toBe('ringing');
    h.sandbox.phones.answer(STAFF_2);
    await h.run(5000);
    h.sandbox.phones.press(STAFF_2, '1');
    await h.run(1000);
    expect(phone(visitorPhone).state).toBe('ringing');
    const [call] = await rows('select agent_phone from calls where id = $1', [callId]);
    expect(call.agent_phone).toBe(STAFF_2);
    h.sandbox.phones.hangUp(STAFF_2);
    await h.run(60_000);
  });

  it('round robin starts after the staff member who took the last call', async () => {
    const install = await h.install({ calling_type: 'round_robin', timeout: 20 });
    const first = await h.callback(install.key, { phone: '+14155550170' });
    expect(first.statusCode, first.body).toBe(200);
    await h.run(1000);
    expect(phone(STAFF_1).state).toBe('ringing');
    h.sandbox.phones.answer(STAFF_1);
    await h.run(5000);
    h.sandbox.phones.press(STAFF_1, '1');
    await h.run(1000);
    h.sandbox.phones.hangUp(STAFF_1);
    await h.run(60_000);
    const second = await h.callback(install.key, { phone: '+14155550171' });
    expect(second.statusCode, second.body).toBe(200);
    await h.run(1000);
    expect(phone(STAFF_2).state).toBe('ringing');
    expect(phone(STAFF_1).state).toBe('idle');
    await h.run(60_000);
  });
});

// Two callbacks at once (ADR 051): a staff phone in a call, or ringing for another callback, is busy.
// The next callback rings the free phones, waits for one when none is free, and ends as missed with its
// message when none comes free in time; the first visitor's call is never touched.
import { describe, expect, it } from 'vitest';
import { STAFF_1, STAFF_2, useTelephony } from './testing.ts';

const h = useTelephony();

const rows = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;
const phone = (n: string) => h.sandbox.phones.get(n);
const staffLegs = async (callId: number) =>
  (
    await rows("select to_number from call_legs where call_id = $1 and role = 'staff' order by id", [callId])
  ).map((r) => r.to_number as string);
const outcome = async (callId: number) =>
  (await rows('select outcome from calls where id = $1', [callId]))[0]?.outcome;

describe('busy staff phones', () => {
  it('the second callback rings only the free phone, a third waits for one, and the first visitor stays connected', async () => {
    const install = await h.install({ timeout: 10 });
    const v1 = '+14155550201';
    const v2 = '+14155550202';
    const v3 = '+14155550203';

    const first = await h.callback(install.key, { phone: v1, name: 'First' });
    expect(first.statusCode, first.body).toBe(200);
    const call1 = first.json().data.call_id as number;
    await h.run(1000);
    expect(phone(STAFF_1).state).toBe('ringing');
    expect(phone(STAFF_2).state).toBe('ringing');
    h.sandbox.phones.answer(STAFF_1);
    await h.run(5000);
    h.sandbox.phones.press(STAFF_1, '1');
    await h.run(2000);
    expect(phone(STAFF_2).state).toBe('idle');
    h.sandbox.phones.answer(v1);
    await h.run(1000);
    expect(phone(v1).state).toBe('in-call');
    expect(phone(STAFF_1).call?.bridged_with).toBe(v1);

    // Staff 1 is in a call: the second callback rings staff 2 only.
    const second = await h.callback(install.key, { phone: v2, name: 'Second' });
    expect(second.statusCode, second.body).toBe(200);
    const call2 = second.json().data.call_id as number;
    await h.run(1000);
    expect(await staffLegs(call2)).toEqual([STAFF_2]);
    expect(phone(STAFF_2).state).toBe('ringing');
    expect(phone(STAFF_1).state).toBe('in-call');
    expect(phone(STAFF_1).call?.bridged_with).toBe(v1);

    // Both phones taken: the third callback waits, ringing nobody.
    const third = await h.callback(install.key, { phone: v3, name: 'Third' });
    expect(third.statusCode, third.body).toBe(200);
    const call3 = third.json().data.call_id as number;
    await h.run(1000);
    expect(await staffLegs(call3)).toEqual([]);
    expect(await outcome(call3)).toBe('in_progress');

    // Staff 2 declines the second: it is missed, and the phone, free again, rings for the third.
    h.sandbox.phones.reject(STAFF_2);
    await h.run(2000);
    expect(await outcome(call2)).toBe('missed');
    expect(await staffLegs(call3)).toEqual([STAFF_2]);
    expect(phone(STAFF_2).state).toBe('ringing');
    expect(phone(STAFF_2).call?.sid).not.toBeUndefined();

    // The first visitor's call went on untouched all along.
    expect(phone(v1).state).toBe('in-call');
    expect(await outcome(call1)).toBe('in_progress');
    const [c1] = await rows('select connected_at, agent_phone from calls where id = $1', [call1]);
    expect(c1.connected_at).not.toBeNull();
    expect(c1.agent_phone).toBe(STAFF_1);

    h.sandbox.phones.hangUp(v1);
    h.sandbox.phones.reject(STAFF_2);
    await h.run(2000);
    expect(await outcome(call1)).toBe('completed');
    expect(await outcome(call3)).toBe('missed');
  });

  it('a callback that finds every phone busy and none free in time is missed, with its message to the visitor', async () => {
    const install = await h.install({ timeout: 10 });
    const busyVisitor = '+14155550211';
    const waiting = '+14155550212';
    const first = await h.callback(install.key, { phone: busyVisitor });
    const call1 = first.json().data.call_id as number;
    await h.run(1000);
    expect(await staffLegs(call1)).toEqual([STAFF_1, STAFF_2]);

    const second = await h.callback(install.key, { phone: waiting });
    const call2 = second.json().data.call_id as number;
    await h.run(0);
    expect(await staffLegs(call2)).toEqual([]);
    // The wait is the install's ring timeout (10 s of real time here): then the call is missed.
    await expect.poll(() => outcome(call2), { timeout: 30_000, interval: 250 }).toBe('missed');
    await h.run(1000);
    expect(phone(waiting).state).toBe('ringing');
    h.sandbox.phones.answer(waiting);
    await h.run(5000);
    expect(phone(waiting).call?.heard.join(' ')).toContain('Sorry, nobody could take your call');
    h.sandbox.phones.hangUp(waiting);
    h.sandbox.phones.reject(STAFF_1);
    h.sandbox.phones.reject(STAFF_2);
    await h.run(35_000);
    expect(await outcome(call1)).toBe('missed');
  });

  it('callbacks asked at the same moment never ring one phone twice: each phone takes one, the rest wait', async () => {
    // The staff lock and the busy phones are read in the statement that writes the call (ADR 125): two
    // such statements at once must still see each other's legs.
    for (const calling_type of ['round_robin', 'simultaneous'] as const) {
      const install = await h.install({ timeout: 10, calling_type });
      const visitors = ['+14155550221', '+14155550222', '+14155550223', '+14155550224'].map((v) =>
        calling_type === 'round_robin' ? v : v.replace('02', '03'),
      );
      const answers = await Promise.all(visitors.map((v) => h.callback(install.key, { phone: v })));
      for (const a of answers) expect(a.statusCode, a.body).toBe(200);
      const ids = answers.map((a) => a.json().data.call_id as number);
      const legs = await Promise.all(ids.map((id) => staffLegs(id)));
      // Every phone rings for one call at most, and both phones are taken.
      expect(legs.flat().sort((a, b) => a.localeCompare(b))).toEqual([STAFF_1, STAFF_2]);
      const rung = legs.filter((l) => l.length > 0);
      expect(rung.length).toBe(calling_type === 'round_robin' ? 2 : 1);
      // The others wait for a phone.
      for (const [i, id] of ids.entries())
        if ((legs[i] ?? []).length === 0) expect(await outcome(id)).toBe('in_progress');
      // Both phones ring; nobody answers: each call is missed, and a waiting one rings the phones freed.
      await h.run(1000);
      expect(phone(STAFF_1).state).toBe('ringing');
      expect(phone(STAFF_2).state).toBe('ringing');
      const ended = async () =>
        (await Promise.all(ids.map((id) => outcome(id)))).every((o) => o !== 'in_progress');
      while (!(await ended())) {
        for (const staff of [STAFF_1, STAFF_2])
          if (phone(staff).state === 'ringing') h.sandbox.phones.reject(staff);
        await h.run(1000);
      }
      await h.run(35_000);
    }
  });
});

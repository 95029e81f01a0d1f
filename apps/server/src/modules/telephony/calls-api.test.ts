// The app's calls API: roles, a voice agent's own calls, cross-tenant 404s, scheduled calls (also across
// a restart of the server), voice records.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import { ManualClock } from '../../platform/carrier/sandbox/clock.ts';
import { answeredCall, STAFF_1, STAFF_2, type Telephony, telephonyApp, voicemailCall } from './testing.ts';

let h: Telephony;
let completedId: number;
let missedId: number;
let voiceId: number;
let bCallId: number;
let install: { id: number; key: string };

const rows = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;
const as = async (email: string) => bearer(await h.token(email));
const get = async (email: string, url: string) => h.t.app.inject({ url, headers: await as(email) });

beforeAll(async () => {
  h = await telephonyApp();
  install = await h.install({ call_recording: true, timeout: 20 });
  // A completed, recorded call: STAFF_1 takes it.
  completedId = await answeredCall(h, install.key, '+14155550301');
  // A missed call with a voicemail.
  missedId = await voicemailCall(h, install.key, '+14155550302');
  [{ id: voiceId }] = await rows('select id from voice_records where call_id = $1', [missedId]);
  // Tenant B's own call.
  const bInstall = await h.install({}, { tenant: 'b' });
  const b = await h.callback(bInstall.key, { phone: '+14155550303' });
  bCallId = b.json().data.call_id;
  await h.run(60_000);
});
afterAll(async () => {
  // After the restart test the app in use is the second one.
  await h?.t.app.close();
  await h?.close();
});

describe('calls API', () => {
  it('lists, filters and shows calls to business managers', async () => {
    const admin = h.seed.a.businessAdmin.email;
    const [done] = await rows('select outcome, recording_sid from calls where id = $1', [completedId]);
    expect(done.outcome).toBe('completed');
    const all = await get(admin, '/api/v1/calls');
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().data.map((c: { id: number }) => c.id)).toEqual([missedId, completedId]);
    expect(all.json().meta.total).toBe(2);
    const missed = await get(admin, '/api/v1/calls?outcome=missed');
    expect(missed.json().data).toEqual([expect.objectContaining({ id: missedId, has_voicemail: true })]);
    const byPhone = await get(admin, '/api/v1/calls?keyword=0301');
    expect(byPhone.json().data.map((c: { id: number }) => c.id)).toEqual([completedId]);
    const badFilter = await get(admin, '/api/v1/calls?outcome=maybe');
    expect(badFilter.statusCode).toBe(422);
    const detail = await get(admin, `/api/v1/calls/${completedId}`);
    expect(detail.json().data).toMatchObject({ id: completedId, agent_phone: STAFF_1, outcome: 'completed' });
  });

  it('shows a voice agent only the calls it took, and keeps the report to managers', async () => {
    const sales = h.seed.a.businessUser.email;
    const none = await get(sales, '/api/v1/calls');
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json().data).toEqual([]);
    expect((await get(sales, `/api/v1/calls/${completedId}`)).statusCode).toBe(404);
    await rows('update calls set agent_user_id = $1 where id = $2', [h.seed.a.businessUser.id, completedId]);
    const own = await get(sales, '/api/v1/calls');
    expect(own.json().data.map((c: { id: number }) => c.id)).toEqual([completedId]);
    expect((await get(sales, `/api/v1/calls/${completedId}`)).statusCode).toBe(200);
    expect((await get(sales, '/api/v1/calls-report')).statusCode).toBe(403);
    const report = await get(h.seed.a.businessAdmin.email, '/api/v1/calls-report');
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json().data.totals).toMatchObject({ requested: 2, completed: 1, missed: 1, no_answer: 0 });
    expect(report.json().data.by_outcome).toEqual([
      { outcome: 'completed', count: 1 },
      { outcome: 'missed', count: 1 },
    ]);
  });

  it('refuses agency users (403) and answers 404 for another tenant', async () => {
    const agency = await as(h.seed.a.agencyAdmin.email);
    for (const url of [
      '/api/v1/calls',
      '/api/v1/voice-records',
      '/api/v1/scheduled-calls',
      '/api/v1/calls-report',
    ]) {
      const res = await h.t.app.inject({ url, headers: agency });
      expect(res.statusCode, url).toBe(403);
    }
    const b = h.seed.b.businessAdmin.email;
    expect((await get(b, `/api/v1/calls/${bCallId}`)).statusCode).toBe(200);
    for (const url of [
      `/api/v1/calls/${completedId}`,
      `/api/v1/calls/${completedId}/recording`,
      `/api/v1/voice-records/${voiceId}/audio`,
    ]) {
      const res = await get(b, url);
      expect(res.statusCode, url).toBe(404);
    }
    const del = await h.t.app.inject({
      method: 'DELETE',
      url: `/api/v1/voice-records/${voiceId}`,
      headers: await as(b),
    });
    expect(del.statusCode).toBe(404);
    expect(await rows('select id from voice_records where id = $1', [voiceId])).toHaveLength(1);
    const list = await get(b, '/api/v1/calls');
    expect(list.json().data.map((c: { id: number }) => c.id)).toEqual([bCallId]);
    expect((await get(b, '/api/v1/voice-records')).json().data).toEqual([]);
  });

  it('plays and deletes voice records', async () => {
    const admin = h.seed.a.businessAdmin.email;
    const list = await get(admin, '/api/v1/voice-records');
    expect(list.json().data).toEqual([expect.objectContaining({ id: voiceId, from: '+14155550302' })]);
    const audio = await get(admin, `/api/v1/voice-records/${voiceId}/audio`);
    expect(audio.statusCode).toBe(200);
    expect(audio.rawPayload.subarray(0, 4).toString('latin1')).toBe('RIFF');
    const del = await h.t.app.inject({
      method: 'DELETE',
      url: `/api/v1/voice-records/${voiceId}`,
      headers: await as(admin),
    });
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json().message).toBe('Voicemail deleted.');
    expect(await rows('select id from voice_records where id = $1', [voiceId])).toEqual([]);
  });

  it('schedules, lists and cancels calls; refuses bad times and other tenants', async () => {
    const admin = h.seed.a.businessAdmin.email;
    const post = async (email: string, payload: object) =>
      h.t.app.inject({ method: 'POST', url: '/api/v1/scheduled-calls', headers: await as(email), payload });
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const made = await post(admin, { install_id: install.id, phone: '+14155550310', scheduled_at: later });
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().data.id as number;
    const list = await get(admin, '/api/v1/scheduled-calls');
    expect(list.json().data).toEqual([
      expect.objectContaining({ id, outcome: 'scheduled', kind: 'scheduled' }),
    ]);

    const past = await post(admin, {
      install_id: install.id,
      phone: '+14155550311',
      scheduled_at: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(past.statusCode).toBe(422);
    expect(past.json().errors.scheduled_at[0]).toBe('Choose a time in the future, within the next 90 days.');
    const foreign = await post(h.seed.b.businessAdmin.email, {
      install_id: install.id,
      phone: '+14155550312',
      scheduled_at: later,
    });
    expect(foreign.statusCode).toBe(404);

    const otherDelete = await h.t.app.inject({
      method: 'DELETE',
      url: `/api/v1/scheduled-calls/${id}`,
      headers: await as(h.seed.b.businessAdmin.email),
    });
    expect(otherDelete.statusCode).toBe(404);
    const cancel = await h.t.app.inject({
      method: 'DELETE',
      url: `/api/v1/scheduled-calls/${id}`,
      headers: await as(admin),
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const again = await h.t.app.inject({
      method: 'DELETE',
      url: `/api/v1/scheduled-calls/${id}`,
      headers: await as(admin),
    });
    expect(again.statusCode).toBe(409);
    const [row] = await rows('select outcome from calls where id = $1', [id]);
    expect(row.outcome).toBe('canceled');
  });

  it('rings staff at a scheduled time even after the server restarts', async () => {
    const admin = h.seed.a.businessAdmin.email;
    const made = await h.t.app.inject({
      method: 'POST',
      url: '/api/v1/scheduled-calls',
      headers: await as(admin),
      payload: {
        install_id: install.id,
        phone: '+14155550320',
        scheduled_at: new Date(Date.now() + 2000).toISOString(),
      },
    });
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().data.id as number;
    // The server stops before the time comes; a new one starts on the same database.
    await h.t.app.close();
    const clock = new ManualClock(Date.now());
    const app = await buildApp({ config: h.t.config, db: h.t.db, sandboxClock: clock });
    await app.ready();
    h.t.app = app;
    // The job's time comes (pg-boss polls every second); the call is then placed.
    const until = Date.now() + 15_000;
    while (Date.now() < until) {
      const [r] = await rows('select outcome from calls where id = $1', [id]);
      if (r.outcome !== 'scheduled') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const sandbox = app.deps.carrier.sandbox;
    // The job dials the staff just after it opens the call, and the sandbox's calls then ring on its
    // clock: wait for that state (a busy machine may dial after a first tick), not for one tick.
    const ringing = () => [STAFF_1, STAFF_2].every((p) => sandbox?.phones.get(p).state === 'ringing');
    for (let i = 0; i < 50 && !ringing(); i++) {
      await clock.settle();
      await clock.advance(200);
      if (!ringing()) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(sandbox?.phones.get(STAFF_1).state).toBe('ringing');
    expect(sandbox?.phones.get(STAFF_2).state).toBe('ringing');
    const [row] = await rows('select outcome, kind from calls where id = $1', [id]);
    expect(row).toEqual({ outcome: 'in_progress', kind: 'scheduled' });
  });
});

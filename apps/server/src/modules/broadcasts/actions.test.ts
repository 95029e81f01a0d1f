import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, snapshot } from '../../../test/helpers.ts';
import { agencyCarrierAccount } from '../agencies/service.ts';
import { carrierWebhook } from '../telephony/testing.ts';
import {
  addBroadcaster,
  addContacts,
  addTag,
  type Broadcasts,
  broadcastsApp,
  installWithNumber,
  sandboxSent,
  statusOf,
  until,
} from './test-support.ts';

// The broadcasts API over the real engine (ADR 061, 062), throttle off: a broadcast started by its create
// call is sent to its audience through the sandbox; scheduled, rescheduled, stopped, re-run, refreshed,
// reported; a start that does not fit the month is refused with the row and everything else unwritten.

let h: Broadcasts;
let token: string;
let tag: number;
let n1: { installId: number; phone: string; numberId: number };
let broadcaster: number;
const base = '/api/v1/broadcasts';
const TABLES = ['broadcasts', 'broadcast_recipients', 'messages', 'businesses'];
const PUBLIC = 'http://localhost:3000';

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  h.t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

const body = (over: Record<string, unknown> = {}) => ({
  name: 'Spring sale',
  body: 'Hi {first_name|there}, 20% off!',
  audience: { tag_ids: [tag] },
  broadcaster_ids: [broadcaster],
  ...over,
});

beforeAll(async () => {
  h = await broadcastsApp({ BROADCAST_THROTTLE: 'off' });
  token = await h.token(h.seed.a.businessAdmin.email);
  n1 = await installWithNumber(h);
  const account = await agencyCarrierAccount(h.t.app.deps, h.seed.a.agency.id);
  if (!account) throw new Error('no account');
  h.sandbox.restoreIncomingNumber(account.accountSid, {
    sid: `PN${crypto.randomBytes(16).toString('hex')}`,
    phoneNumber: n1.phone,
    voiceUrl: `${PUBLIC}/webhooks/twilio/voice`,
    smsUrl: `${PUBLIC}/webhooks/twilio/sms-in`,
  });
  broadcaster = await addBroadcaster(h, n1);
  tag = await addTag(h, 'VIP');
  const ids = await addContacts(h, { count: 5, installId: n1.installId, tagId: tag, prefix: '+1415800' });
  await h.q('update contacts set opted_out_at = now() where id = $1', [ids[4]]);
});
afterAll(() => h?.close());

describe('sending through the API', () => {
  it('estimates the credits, starts at once, sends to every eligible recipient, reports and re-runs', async () => {
    const credit = await call('POST', `${base}/message-credit`, { body: 'Hi', audience: { tag_ids: [tag] } });
    expect(credit.statusCode, credit.body).toBe(200);
    expect(credit.json().data).toMatchObject({
      recipients: 4,
      skipped: 1,
      per_message: 1,
      credits: 4,
      fits: true,
    });

    // One number the carrier refuses (21211, invalid): a failure of its own, the others go on.
    h.sandbox.failNumber('+14158000003', 21211);
    const res = await call('POST', base, body({ start: true }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Broadcast started.');
    const b = res.json().data;
    expect(b.status).toBe('sending');
    await until(async () => (await statusOf(h, b.id)) === 'completed', 20_000, 'the broadcast completed');
    const sent = sandboxSent(h, n1.phone).filter((m) => m.body.endsWith('20% off!'));
    expect(sent.map((m) => m.to).sort()).toEqual(['+14158000000', '+14158000001', '+14158000002']);
    expect(sent.map((m) => m.body)).toContain('Hi Ann0, 20% off!');

    const got = (await call('GET', `${base}/${b.id}`)).json().data;
    expect(got).toMatchObject({ status: 'completed', counts: { total: 5, skipped: 1, failed: 1 } });
    const list = (await call('GET', `${base}?status=completed`)).json();
    expect(list.data.map((x: { id: number }) => x.id)).toContain(b.id);

    // A reply from a recipient lands marked with the broadcast and counts as replied.
    const reply = await carrierWebhook(h, '/webhooks/twilio/sms-in', {
      MessageSid: `SM${crypto.randomBytes(16).toString('hex')}`,
      From: '+14158000001',
      To: n1.phone,
      Body: 'Please stop texting me',
      NumMedia: '0',
    });
    expect(reply.statusCode).toBe(200);
    await until(
      async () => (await call('GET', `${base}/${b.id}`)).json().data.counts.replied === 1,
      10_000,
      'the reply counted',
    );

    const report = await call('GET', `${base}/${b.id}/report`);
    expect(report.statusCode, report.body).toBe(200);
    const r = report.json().data;
    expect(r.meta.total).toBe(5);
    expect(r.skipped_by_reason).toEqual([{ reason: 'opted_out', count: 1 }]);
    expect(r.failed_by_reason).toEqual([{ reason: '21211', count: 1 }]);
    expect(r.timeline.reduce((n: number, x: { sent: number }) => n + x.sent, 0)).toBe(3);
    const replied = r.recipients.find((x: { phone: string }) => x.phone === '+14158000001');
    expect(replied).toMatchObject({ reply: 'Please stop texting me', asks_to_stop: true });
    const csv = await call('GET', `${base}/report/download?id=${b.id}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body.trim().split('\r\n')).toHaveLength(6);

    const opt = await call('POST', `${base}/${b.id}/bulk-optout`, {});
    expect(opt.json().data.count).toBe(1);
    const after = (await call('GET', `${base}/${b.id}`)).json().data;
    expect(after.counts.opted_out).toBeGreaterThanOrEqual(1);

    const refresh = await call('POST', `${base}/${b.id}/refresh`, {});
    expect(refresh.statusCode, refresh.body).toBe(200);
    expect(refresh.json().message).toBe('Broadcast refreshed successfully.');

    // A re-run sends to the failed recipient only (the carrier takes its number now), no one twice.
    h.sandbox.clearFailingNumber('+14158000003');
    const before = sandboxSent(h, n1.phone).length;
    const rerun = await call('POST', `${base}/${b.id}/rerun`, { include_new: true });
    expect(rerun.statusCode, rerun.body).toBe(200);
    expect(rerun.json().message).toBe('Broadcast re-run successfully.');
    await until(async () => (await statusOf(h, b.id)) === 'completed', 20_000, 'the re-run completed');
    expect(
      sandboxSent(h, n1.phone)
        .slice(before)
        .map((m) => m.to),
    ).toEqual(['+14158000003']);
    // Nothing left to send: a second re-run is refused with the reason.
    const none = await call('POST', `${base}/${b.id}/rerun`, {});
    expect(none.statusCode).toBe(422);
    expect(none.json().message).toContain('No one in this audience can receive the broadcast');

    const edit = await call('PUT', `${base}/${b.id}`, body());
    expect(edit.statusCode).toBe(422);
  });

  it('schedules, moves the time, unschedules, stops and deletes a scheduled broadcast', async () => {
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const res = await call('POST', base, body({ name: 'Later', start: true, send_at: at }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Broadcast scheduled.');
    const b = res.json().data;
    expect(b).toMatchObject({ status: 'scheduled', send_at: at });
    const later = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const moved = await call('PUT', `${base}/${b.id}`, body({ name: 'Later', send_at: later }));
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({
      message: 'Broadcast scheduled.',
      data: { status: 'scheduled', send_at: later },
    });
    const unscheduled = await call('PUT', `${base}/${b.id}`, body({ name: 'Later' }));
    expect(unscheduled.json()).toMatchObject({
      message: 'Broadcast updated successfully.',
      data: { status: 'draft' },
    });
    await call('PUT', `${base}/${b.id}`, body({ name: 'Later', start: true, send_at: later }));
    // Its number stays while it is scheduled.
    const busy = await call('DELETE', `/api/v1/broadcasters/${broadcaster}`);
    expect(busy.statusCode, busy.body).toBe(422);
    expect(busy.json().message).toBe(
      'This number sends a scheduled or sending broadcast. Stop the broadcast first.',
    );
    const stop = await call('POST', `${base}/${b.id}/stop`, {});
    expect(stop.statusCode, stop.body).toBe(200);
    expect(stop.json()).toMatchObject({
      message: 'Broadcast stopped successfully.',
      data: { status: 'stopped' },
    });

    const again = (await call('POST', base, body({ name: 'Later 2', start: true, send_at: at }))).json().data;
    const del = await call('DELETE', `${base}/${again.id}`);
    expect(del.statusCode, del.body).toBe(200);
    const [row] = await h.q<{ status: string; deleted_at: Date | null }>(
      'select status, deleted_at from broadcasts where id = $1',
      [again.id],
    );
    expect(row?.status).toBe('stopped');
    expect(row?.deleted_at).not.toBeNull();
  });

  it('refuses a start that does not fit the month, writing nothing', async () => {
    await h.q('update businesses set messages = 10, number_of_messages = 8 where id = $1', [
      h.seed.a.business.id,
    ]);
    const credit = await call('POST', `${base}/message-credit`, { body: 'Hi', audience: { tag_ids: [tag] } });
    expect(credit.json().data).toMatchObject({ recipients: 3, credits: 3, remaining: 2, fits: false });
    const before = await snapshot(h.t.pool, TABLES);
    const res = await call('POST', base, body({ name: 'Too big', start: true }));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toContain('more messages than your business has left this month');
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
    await h.q('update businesses set messages = 0, number_of_messages = 0 where id = $1', [
      h.seed.a.business.id,
    ]);
  });
});

// Recordings and voicemails (ADR 049): kept by their sid, never a URL a webhook names; the sandbox's kept on
// the file store, so that a restarted server on the same database and storage still plays what its lists link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import { ManualClock } from '../../platform/carrier/sandbox/clock.ts';
import { twilioSignature } from '../../platform/webhooks/tree.ts';
import { agencyCarrierAccount } from '../agencies/service.ts';
import { answeredCall, type Telephony, telephonyApp, voicemailCall } from './testing.ts';

let h: Telephony;
let recordedId: number;
let voiceId: number;
let install: { id: number; key: string };

const rows = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;
const get = async (url: string) =>
  h.t.app.inject({ url, headers: bearer(await h.token(h.seed.a.businessAdmin.email)) });

beforeAll(async () => {
  h = await telephonyApp();
  install = await h.install({ call_recording: true, timeout: 20 });
  recordedId = await answeredCall(h, install.key, '+14155550401');
  const missedId = await voicemailCall(h, install.key, '+14155550402');
  [{ id: voiceId }] = await rows('select id from voice_records where call_id = $1', [missedId]);
});
afterAll(async () => {
  await h?.t.app.close();
  await h?.close();
});

describe('recordings', () => {
  it('never keeps a RecordingSid that is not a sid (a URL would be fetched with the credentials)', async () => {
    const account = await agencyCarrierAccount(h.t.app.deps, h.seed.a.agency.id);
    if (!account) throw new Error('no account');
    // A callback whose call was not recorded: the webhook would set its recording.
    const res = await h.callback(install.key, { phone: '+14155550403' });
    const callId = res.json().data.call_id as number;
    await h.run(1000);
    const [leg] = await rows("select call_sid from call_legs where call_id = $1 and role = 'staff' limit 1", [
      callId,
    ]);
    const steal = 'http://127.0.0.1:9/steal';
    for (const query of [`call=${callId}`, `call=${callId}&voicemail=1`]) {
      const path = `/webhooks/twilio/recording-status?${query}`;
      const body = {
        AccountSid: account.accountSid,
        CallSid: leg.call_sid,
        RecordingSid: steal,
        RecordingUrl: steal,
        RecordingStatus: 'completed',
        RecordingDuration: '3',
      };
      const answer = await h.t.app.inject({
        method: 'POST',
        url: path,
        headers: {
          host: 'localhost:3000',
          'content-type': 'application/x-www-form-urlencoded',
          'x-twilio-signature': twilioSignature(account.authToken, `http://localhost:3000${path}`, body),
        },
        payload: new URLSearchParams(body).toString(),
      });
      expect(answer.statusCode).toBe(200);
    }
    const [call] = await rows('select recording_sid, recording_url from calls where id = $1', [callId]);
    expect(call).toEqual({ recording_sid: null, recording_url: null });
    expect(await rows('select id from voice_records where recording_sid = $1', [steal])).toEqual([]);
    await h.run(60_000);
  });

  it('plays the recording and the voicemail after a restart on the same database and storage', async () => {
    const before = await get(`/api/v1/calls/${recordedId}/recording`);
    expect(before.statusCode, before.body).toBe(200);
    const voiceBefore = await get(`/api/v1/voice-records/${voiceId}/audio`);
    expect(voiceBefore.statusCode, voiceBefore.body).toBe(200);
    // The server stops; a new one starts on the same database and DATA_DIR (a new sandbox, empty memory).
    await h.t.app.close();
    const app = await buildApp({ config: h.t.config, db: h.t.db, sandboxClock: new ManualClock(Date.now()) });
    await app.ready();
    h.t.app = app;
    expect(app.deps.carrier.sandbox?.recordings.size).toBe(0);
    const after = await get(`/api/v1/calls/${recordedId}/recording`);
    expect(after.statusCode, after.body).toBe(200);
    expect(after.headers['content-type']).toContain('audio/wav');
    expect(after.rawPayload.equals(before.rawPayload)).toBe(true);
    const voiceAfter = await get(`/api/v1/voice-records/${voiceId}/audio`);
    expect(voiceAfter.statusCode, voiceAfter.body).toBe(200);
    expect(voiceAfter.rawPayload.equals(voiceBefore.rawPayload)).toBe(true);
    // The call list still links it.
    const list = await get('/api/v1/calls');
    expect(list.json().data.find((c: { id: number }) => c.id === recordedId)?.recording_url).toBe(
      `/api/v1/calls/${recordedId}/recording`,
    );
  });
});

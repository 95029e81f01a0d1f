// The remote sandbox (ADR 063): a process started with CARRIER_SANDBOX_URL holds no sandbox; its carrier
// for a sandbox account forwards the SDK's requests over HTTP to the API server's /sandbox/twilio/*, so the
// sandbox's record is the API server's. Two apps here: the first listens on 127.0.0.1 and holds the sandbox.
// A child `npm run worker` on it: apps/server/test/worker-remote-sandbox.test.ts.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, seedTenants, type TestApp } from '../../../test/helpers.ts';
import { agencies } from '../../modules/agencies/tables.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { ManualClock } from './sandbox/clock.ts';
import type { TwilioSandbox } from './sandbox/sandbox.ts';

const FROM = '+15550100001';
const TO = '+15557770001';

let api: TestApp;
let worker: TestApp;
let sandbox: TwilioSandbox;
let base = '';
const clock = new ManualClock();

beforeAll(async () => {
  api = await createTestApp({}, { sandboxClock: clock });
  await api.app.listen({ host: '127.0.0.1', port: 0 });
  const address = api.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  base = `http://127.0.0.1:${address.port}`;
  sandbox = api.app.deps.carrier.sandbox as TwilioSandbox;
  worker = await createTestApp({ CARRIER_SANDBOX_URL: base, WORKERS: 'off' });
});
afterAll(async () => {
  await worker?.close();
  await api?.close();
});

const remoteCarrier = (sid: string, token: string) =>
  worker.app.deps.carrier.forAccount({ accountSid: sid, authToken: token, sandbox: true });

describe('a process with CARRIER_SANDBOX_URL', () => {
  it('holds no sandbox of its own and still texts for a sandbox account', () => {
    expect(worker.app.deps.carrier.sandbox).toBeNull();
    expect(worker.app.deps.carrier.sandboxOn).toBe(true);
  });

  it("sends through the API server's sandbox, which records it and plays it out", async () => {
    const acc = api.app.deps.carrier.createSandboxAccount('Agency A');
    const c = remoteCarrier(acc.sid, acc.authToken);
    const sent = await c.createMessage({ to: TO, from: FROM, body: 'Hello from the worker' });
    expect(sent).toMatchObject({ to: TO, from: FROM, status: 'queued', accountSid: acc.sid });
    expect(sandbox.messages.get(sent.sid)).toMatchObject({
      to: TO,
      from: FROM,
      body: 'Hello from the worker',
    });
    await clock.runAll();
    expect(sandbox.phones.get(TO).texts.map((t) => t.body)).toContain('Hello from the worker');
    expect(await c.fetchMessage(sent.sid)).toMatchObject({ sid: sent.sid, status: 'delivered' });
    const listed = await c.listMessages({ to: TO, from: FROM, sentAfter: new Date(0) });
    expect(listed.map((m) => m.sid)).toEqual([sent.sid]);
    expect(await c.fetchAccount()).toMatchObject({ sid: acc.sid, friendlyName: 'Agency A' });
  });

  it('refuses wrong credentials, as the sandbox does in process', async () => {
    const acc = api.app.deps.carrier.createSandboxAccount('Agency B');
    const wrong = remoteCarrier(acc.sid, 'not-the-token');
    await expect(wrong.createMessage({ to: TO, from: FROM, body: 'x' })).rejects.toMatchObject({
      name: 'CarrierError',
      status: 401,
      code: 20003,
    });
    const res = await fetch(`${base}/sandbox/twilio/2010-04-01/Accounts/${acc.sid}/Messages.json`);
    expect(res.status).toBe(401);
  });

  it("an account the API server's sandbox lost (a restart) is put back from its database", async () => {
    const acc = api.app.deps.carrier.createSandboxAccount('Agency A');
    const agencyId = (await seedTenants(api.db)).a.agency.id;
    await api.db
      .update(agencies)
      .set({
        twilio_config: {
          accountSid: acc.sid,
          authToken: api.app.deps.secrets.seal(acc.authToken),
          sandbox: true,
        } as {
          accountSid: string;
          authToken: string;
        },
      })
      .where(eq(agencies.id, agencyId));
    sandbox.accounts.delete(acc.sid);
    // Not with a token the database does not hold.
    await expect(
      remoteCarrier(acc.sid, 'guess').createMessage({ to: TO, from: FROM, body: 'x' }),
    ).rejects.toMatchObject({ status: 401 });
    expect(sandbox.accounts.has(acc.sid)).toBe(false);
    const sent = await remoteCarrier(acc.sid, acc.authToken).createMessage({
      to: TO,
      from: FROM,
      body: 'back',
    });
    expect(sandbox.messages.get(sent.sid)?.accountSid).toBe(acc.sid);
  });

  it("streams a recording's audio from the API server's sandbox, for the account that owns it only", async () => {
    const acc = api.app.deps.carrier.createSandboxAccount('Agency A');
    const other = api.app.deps.carrier.createSandboxAccount('Agency B');
    const call = sandbox.newCall({ accountSid: acc.sid, to: TO, from: FROM, direction: 'outbound-api' });
    const rec = sandbox.addRecording(call, 3, 2, 'OutboundAPI');
    const audio = await remoteCarrier(acc.sid, acc.authToken).fetchRecordingAudio(rec.sid);
    expect(audio.contentType).toBe('audio/wav');
    const bytes = Buffer.concat(await audio.body.toArray());
    expect(bytes.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(bytes.equals(sandbox.recordingAudio(rec.sid) ?? Buffer.alloc(0))).toBe(true);
    await expect(
      remoteCarrier(other.sid, other.authToken).fetchRecordingAudio(rec.sid),
    ).rejects.toMatchObject({
      status: 404,
    });
    await expect(remoteCarrier(acc.sid, 'wrong').fetchRecordingAudio(rec.sid)).rejects.toMatchObject({
      name: 'CarrierError',
    });
    // A sid is never a URL (ADR 049): refused before any request.
    await expect(
      remoteCarrier(acc.sid, acc.authToken).fetchRecordingAudio(`${base}/sandbox/recordings/${rec.sid}`),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("reads a phone's media file through the API server, for the account that owns it only", async () => {
    const acc = api.app.deps.carrier.createSandboxAccount('Agency A');
    const other = api.app.deps.carrier.createSandboxAccount('Agency B');
    const url = sandbox.addMedia(acc.sid, 'image/png', Buffer.from('PNG-bytes'));
    const media = await remoteCarrier(acc.sid, acc.authToken).fetchMedia(url, { maxBytes: 1024 });
    expect(media).toMatchObject({ contentType: 'image/png' });
    expect(media.body.toString()).toBe('PNG-bytes');
    await expect(
      remoteCarrier(other.sid, other.authToken).fetchMedia(url, { maxBytes: 1024 }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      remoteCarrier(acc.sid, acc.authToken).fetchMedia(url, { maxBytes: 4 }),
    ).rejects.toMatchObject({
      status: 413,
    });
    await expect(
      remoteCarrier(acc.sid, acc.authToken).fetchMedia('https://evil.example.test/sandbox/media/x', {
        maxBytes: 9,
      }),
    ).rejects.toMatchObject({ status: 403 });
  });
});

describe('CARRIER_SANDBOX_URL', () => {
  it('must be an http(s) URL, and only with the sandbox on', () => {
    expect(loadConfig({ NODE_ENV: 'test', CARRIER_SANDBOX_URL: 'http://api:3000/' }).carrierSandboxUrl).toBe(
      'http://api:3000',
    );
    expect(loadConfig({ NODE_ENV: 'test' }).carrierSandboxUrl).toBeUndefined();
    expect(() => loadConfig({ NODE_ENV: 'test', CARRIER_SANDBOX_URL: 'ftp://api' })).toThrow(ConfigError);
    expect(() =>
      loadConfig({ NODE_ENV: 'test', CARRIER_SANDBOX: 'off', CARRIER_SANDBOX_URL: 'http://api:3000' }),
    ).toThrow(/CARRIER_SANDBOX_URL/);
  });
});

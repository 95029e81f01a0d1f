import { buffer } from 'node:stream/consumers';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, seedTenants, type TestApp } from '../../../test/helpers.ts';
import type { Plugs } from '../../app.ts';
import { agencies } from '../../modules/agencies/tables.ts';
import type { FormBody } from '../webhooks/tree.ts';
import { CarrierError } from './carrier.ts';
import { ManualClock } from './sandbox/clock.ts';

// The sandbox inside the platform: deps.carrier, webhooks delivered in process to the app's own webhook
// tree (signature checked against the agency's sealed token), recordings served at /sandbox/recordings.

const VISITOR = '+15550001001';
const OURS = '+15550009000';

type Hit = { path: string; body: FormBody; host: string | undefined };

function plugTestRoutes(hits: Hit[]) {
  return (p: Plugs) => {
    for (const path of ['voice', 'status', 'recorded']) {
      p.webhooks.route({
        method: 'POST',
        url: `/test/sbx/${path}`,
        provider: 'twilio',
        async handler(request, reply) {
          hits.push({ path, body: request.body as FormBody, host: request.headers.host });
          const xml =
            path === 'voice'
              ? '<Response><Say>Hello from the platform</Say><Record action="/webhooks/test/sbx/recorded"/></Response>'
              : '<Response/>';
          return reply.type('text/xml').send(xml);
        },
      });
    }
  };
}

async function connectAgency(t: TestApp, agencyId: number, sid: string, token: string) {
  await t.db
    .update(agencies)
    .set({
      // As agency Setup stores a sandbox account (the `sandbox` flag is not in the column's type yet).
      twilio_config: { accountSid: sid, authToken: t.app.deps.secrets.seal(token), sandbox: true } as {
        accountSid: string;
        authToken: string;
      },
    })
    .where(eq(agencies.id, agencyId));
}

describe('the sandbox carrier in the platform', () => {
  let t: TestApp;
  let agencyId = 0;
  const clock = new ManualClock();
  const hits: Hit[] = [];

  beforeAll(async () => {
    t = await createTestApp({}, { sandboxClock: clock, plug: plugTestRoutes(hits) });
    agencyId = (await seedTenants(t.db)).a.agency.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates a sandbox account, verifies credentials against it, refuses bad ones', async () => {
    const { carrier } = t.app.deps;
    expect(carrier.sandbox).not.toBeNull();
    const acc = carrier.createSandboxAccount('Agency A');
    expect(acc.sid).toMatch(/^AC[0-9a-f]{32}$/);
    expect(await carrier.verify({ accountSid: acc.sid, authToken: acc.authToken })).toMatchObject({
      sid: acc.sid,
      friendlyName: 'Agency A',
      status: 'active',
    });
    const wrong = await carrier.verify({ accountSid: acc.sid, authToken: 'nope' }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(CarrierError);
    expect((wrong as CarrierError).isAuthentication).toBe(true);
    const malformed = await carrier
      .verify({ accountSid: 'not-a-sid', authToken: 'x' })
      .catch((e: unknown) => e);
    expect((malformed as CarrierError).isAuthentication).toBe(true);
  });

  it('calls back the app in process, signed with the agency token; serves the recording', async () => {
    const { carrier, config } = t.app.deps;
    const acc = carrier.createSandboxAccount('Agency A');
    await connectAgency(t, agencyId, acc.sid, acc.authToken);
    const sandbox = carrier.sandbox;
    if (!sandbox) throw new Error('no sandbox');
    // A restarted process: the account is known only to the database, forAccount brings it back.
    sandbox.accounts.delete(acc.sid);
    const c = carrier.forAccount({ accountSid: acc.sid, authToken: acc.authToken, sandbox: true });
    const base = `${config.publicUrl.origin}/webhooks/test/sbx`;
    const created = await c.createCall({
      to: VISITOR,
      from: OURS,
      url: `${base}/voice`,
      statusCallback: `${base}/status`,
      statusCallbackEvents: ['initiated', 'ringing', 'answered', 'completed'],
    });
    await clock.advance(500);
    sandbox.phones.answer(VISITOR);
    await clock.advance(3000);
    sandbox.phones.hangUp(VISITOR);
    await clock.settle();
    // The Record action and the completed callback both follow the hang-up, in either order.
    expect(hits.slice(0, 4).map((h) => h.path)).toEqual(['status', 'status', 'status', 'voice']);
    expect(
      hits
        .slice(4)
        .map((h) => h.path)
        .sort(),
    ).toEqual(['recorded', 'status']);
    expect(hits.every((h) => h.host === config.publicUrl.host)).toBe(true);
    expect(hits.find((h) => h.path === 'voice')?.body).toMatchObject({
      CallSid: created.sid,
      AccountSid: acc.sid,
    });
    expect(sandbox.webhooks.deliveries.map((d) => d.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(sandbox.phones.get(VISITOR).state).toBe('idle');

    const recorded = hits.find((h) => h.path === 'recorded')?.body ?? {};
    const url = String(recorded.RecordingUrl);
    expect(url).toBe(`${config.publicUrl.origin}/sandbox/recordings/${recorded.RecordingSid}`);
    const path = new URL(url).pathname;
    for (const p of [path, `${path}.wav`]) {
      const res = await t.app.inject({ method: 'GET', url: p });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('audio/wav');
      expect(res.rawPayload.subarray(0, 4).toString('ascii')).toBe('RIFF');
    }
    const ranged = await t.app.inject({ method: 'GET', url: path, headers: { range: 'bytes=0-11' } });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers['content-range']).toMatch(/^bytes 0-11\/\d+$/);
    expect(ranged.rawPayload.toString('ascii', 8, 12)).toBe('WAVE');
    const outside = await t.app.inject({ method: 'GET', url: path, headers: { range: 'bytes=99999999-' } });
    expect(outside.statusCode).toBe(416);
    const audio = await c.fetchRecordingAudio(String(recorded.RecordingSid));
    expect((await buffer(audio.body)).subarray(8, 12).toString('ascii')).toBe('WAVE');
    // A recording is fetched by its sid, never by a URL (ADR 049).
    await expect(c.fetchRecordingAudio(url)).rejects.toMatchObject({ name: 'CarrierError', status: 404 });
    expect(
      (await t.app.inject({ method: 'GET', url: `/sandbox/recordings/RE${'0'.repeat(32)}` })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/sandbox/recordings/whatever' })).statusCode).toBe(404);

    // A webhook signed with another token is refused by the tree, and its handler never runs.
    const before = hits.length;
    const forged = await sandbox.webhooks.post(
      `${base}/status`,
      { AccountSid: acc.sid, CallSid: created.sid },
      'x',
    );
    expect(forged.status).toBe(403);
    expect(hits).toHaveLength(before);
  });

  it('restores an incoming number after a restart: a phone calling it reaches the voice URL', async () => {
    const { carrier, config } = t.app.deps;
    const acc = carrier.createSandboxAccount('Agency A');
    await connectAgency(t, agencyId, acc.sid, acc.authToken);
    const sandbox = carrier.sandbox;
    if (!sandbox) throw new Error('no sandbox');
    sandbox.restoreIncomingNumber(acc.sid, {
      sid: `PN${'1'.repeat(32)}`,
      phoneNumber: '+15550009111',
      voiceUrl: `${config.publicUrl.origin}/webhooks/test/sbx/voice`,
      smsUrl: null,
    });
    hits.length = 0;
    sandbox.phones.dial(VISITOR, '+15550009111');
    await clock.advance(100);
    expect(hits.map((h) => [h.path, h.body.Direction, h.body.To])).toEqual([
      ['voice', 'inbound', '+15550009111'],
    ]);
    const listed = await carrier
      .forAccount({ accountSid: acc.sid, authToken: acc.authToken, sandbox: true })
      .listIncomingNumbers();
    expect(listed.map((n) => n.phoneNumber)).toEqual(['+15550009111']);
  });
});

// The proxy as a hop count, or named by its address: then the in-process webhook (from loopback, not
// listed) is not from a trusted hop, and the signature still holds over the https URL it was made for.
describe.each(['1', '10.0.0.0/8'])('behind a TLS proxy (TRUST_PROXY=%s)', (trustProxy) => {
  let t: TestApp;
  let agencyId = 0;
  const clock = new ManualClock();
  const hits: Hit[] = [];

  beforeAll(async () => {
    t = await createTestApp(
      { PUBLIC_URL: 'https://calls.example.test', MAIN_DOMAIN: 'example.test', TRUST_PROXY: trustProxy },
      { sandboxClock: clock, plug: plugTestRoutes(hits) },
    );
    agencyId = (await seedTenants(t.db)).a.agency.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('delivers to an https URL in process, and the signature over that URL holds', async () => {
    const acc = t.app.deps.carrier.createSandboxAccount('Agency A');
    await connectAgency(t, agencyId, acc.sid, acc.authToken);
    const c = t.app.deps.carrier.forAccount({ accountSid: acc.sid, authToken: acc.authToken, sandbox: true });
    await c.createCall({
      to: VISITOR,
      from: OURS,
      url: 'https://calls.example.test/webhooks/test/sbx/voice',
    });
    await clock.advance(500);
    t.app.deps.carrier.sandbox?.phones.answer(VISITOR);
    await clock.settle();
    expect(hits.map((h) => [h.path, h.host])).toEqual([['voice', 'calls.example.test']]);
    expect(t.app.deps.carrier.sandbox?.webhooks.deliveries.at(-1)?.status).toBe(200);
  });
});

describe('with CARRIER_SANDBOX off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CARRIER_SANDBOX: 'off' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('has no sandbox: no sandbox accounts, no recordings route answers', async () => {
    const { carrier } = t.app.deps;
    expect(carrier.sandbox).toBeNull();
    expect(() => carrier.createSandboxAccount('x')).toThrow(CarrierError);
    expect(() =>
      carrier.forAccount({ accountSid: `AC${'a'.repeat(32)}`, authToken: 't', sandbox: true }),
    ).toThrow(/switched off/);
    const res = await t.app.inject({ method: 'GET', url: `/sandbox/recordings/RE${'0'.repeat(32)}` });
    expect(res.statusCode).toBe(404);
  });
});

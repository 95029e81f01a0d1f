import Fastify, { type FastifyInstance } from 'fastify';
import twilio from 'twilio';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createWebhookRegistry, type FormBody, twilioProvider, webhookTree } from '../webhooks/tree.ts';
import { CarrierError } from './carrier.ts';
import { ManualClock } from './sandbox/clock.ts';
import { type SandboxAccount, TwilioSandbox } from './sandbox/sandbox.ts';

// The real `twilio` SDK, talking to the in-process sandbox through its httpClient option; the
// sandbox's callbacks go over HTTP to a local Fastify server that mounts the product's webhook tree.

type Received = { path: string; body: FormBody; headers: Record<string, unknown>; sdkValid: boolean };

let clock: ManualClock;
let sandbox: TwilioSandbox;
let account: SandboxAccount;
let other: SandboxAccount;
let server: FastifyInstance;
let base = '';
const received: Received[] = [];

beforeAll(async () => {
  server = Fastify();
  const registry = createWebhookRegistry();
  // The token by AccountSid, as the product's resolver does (here from the sandbox's own accounts).
  registry.provider(twilioProvider(async (sid) => sandbox.accounts.get(sid)?.authToken ?? null));
  for (const path of ['/test/sms-status', '/test/call-status']) {
    registry.route({
      method: 'POST',
      url: path,
      provider: 'twilio',
      async handler(request, reply) {
        const body = request.body as FormBody;
        const token = sandbox.accounts.get(String(body.AccountSid))?.authToken ?? '';
        received.push({
          path,
          body,
          headers: request.headers,
          // The SDK's own check, independent of ours.
          sdkValid: twilio.validateRequest(
            token,
            String(request.headers['x-twilio-signature']),
            request.webhookUrl ?? '',
            body as Record<string, string>,
          ),
        });
        return reply.type('text/xml').send('<Response/>');
      },
    });
  }
  await server.register(webhookTree, { prefix: '/webhooks', registry });
  await server.listen({ host: '127.0.0.1', port: 0 });
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  base = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await server?.close();
});

beforeEach(() => {
  clock = new ManualClock();
  sandbox = new TwilioSandbox({ clock });
  account = sandbox.createAccount({ friendlyName: 'Agency A' });
  other = sandbox.createAccount({ friendlyName: 'Agency B' });
  received.length = 0;
});

const sdk = (sid = account.sid, token = account.authToken) =>
  twilio(sid, token, { httpClient: sandbox.httpClient });

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(twilio.RestException);
  return error as InstanceType<typeof twilio.RestException>;
}

describe('sandbox carrier through the twilio SDK', () => {
  it('fetches the account', async () => {
    const a = await sdk().api.v2010.accounts(account.sid).fetch();
    expect(a.sid).toBe(account.sid);
    expect(a.friendlyName).toBe('Agency A');
    expect(a.status).toBe('active');
    expect(a.dateCreated).toBeInstanceOf(Date);
    expect(await sandbox.carrier(account.sid).fetchAccount()).toEqual({
      sid: account.sid,
      friendlyName: 'Agency A',
      status: 'active',
      type: 'Full',
    });
  });

  it('refuses a wrong token, an unknown account and another account with 20003/401', async () => {
    for (const client of [
      sdk(account.sid, 'not-the-token'),
      sdk(account.sid, other.authToken),
      sdk(`AC${'0'.repeat(32)}`, account.authToken),
    ]) {
      const e = await refusal(
        client.messages.create({ to: '+15550002222', from: '+15550001111', body: 'hi' }),
      );
      expect(e.status).toBe(401);
      expect(e.code).toBe(20003);
      expect(e.moreInfo).toBe('https://www.twilio.com/docs/errors/20003');
    }
    // Valid credentials of one account do not open another's resources.
    const cross = await refusal(sdk(other.sid, other.authToken).api.v2010.accounts(account.sid).fetch());
    expect(cross.code).toBe(20003);
    expect(sandbox.messages.size).toBe(0);
    // The adapter speaks our terms.
    const error = await sandbox
      .carrier(account.sid, 'wrong')
      .fetchAccount()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CarrierError);
    expect((error as CarrierError).isAuthentication).toBe(true);
  });

  it('creates a message and answers like Twilio', async () => {
    const m = await sdk().messages.create({ to: '+15550002222', from: '+15550001111', body: 'Hello there' });
    expect(m.sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(m).toMatchObject({
      accountSid: account.sid,
      to: '+15550002222',
      from: '+15550001111',
      body: 'Hello there',
      status: 'queued',
      direction: 'outbound-api',
      apiVersion: '2010-04-01',
      numSegments: '1',
      uri: `/2010-04-01/Accounts/${account.sid}/Messages/${m.sid}.json`,
    });
    expect(m.dateCreated).toEqual(new Date(Math.floor(clock.now() / 1000) * 1000));
    expect(sandbox.messages.get(m.sid)?.body).toBe('Hello there');
  });

  it('refuses bad numbers with 21211 and a missing body, and stores nothing', async () => {
    for (const to of ['555', '15550002222', '+0123456789', 'not a number']) {
      const e = await refusal(sdk().messages.create({ to, from: '+15550001111', body: 'x' }));
      expect(e.status).toBe(400);
      expect(e.code).toBe(21211);
      expect(e.message).toBe(`Invalid 'To' Phone Number: ${to}`);
      expect(e.moreInfo).toBe('https://www.twilio.com/docs/errors/21211');
    }
    const call = await refusal(sdk().calls.create({ to: '555', from: '+15550001111', url: `${base}/twiml` }));
    expect(call.code).toBe(21211);
    const from = await refusal(sdk().messages.create({ to: '+15550002222', from: 'abc', body: 'x' }));
    expect(from.code).toBe(21212);
    const body = await refusal(sdk().messages.create({ to: '+15550002222', from: '+15550001111', body: '' }));
    expect(body.code).toBe(21602);
    const url = await refusal(sdk().calls.create({ to: '+15550002222', from: '+15550001111' } as never));
    expect(url.code).toBe(21205);
    expect(sandbox.messages.size + sandbox.calls.size).toBe(0);
    await expect(
      sandbox.carrier(account.sid).createMessage({ to: '555', from: '+15550001111', body: 'x' }),
    ).rejects.toMatchObject({
      name: 'CarrierError',
      code: 21211,
      status: 400,
    });
  });

  it('posts signed, form-encoded status callbacks queued → sent → delivered on the sandbox clock', async () => {
    const url = `${base}/webhooks/test/sms-status?tenant=a&x=1`;
    const m = await sdk().messages.create({
      to: '+15550002222',
      from: '+15550001111',
      body: 'Hello there',
      statusCallback: url,
    });
    expect(received).toHaveLength(0); // nothing happens until the clock moves
    await clock.advance(0);
    expect(received.map((r) => r.body.MessageStatus)).toEqual(['queued']);
    await clock.advance(299);
    expect(received).toHaveLength(1);
    await clock.advance(1);
    await clock.advance(1200);
    expect(received.map((r) => r.body.MessageStatus)).toEqual(['queued', 'sent', 'delivered']);
    expect(sandbox.messages.get(m.sid)?.status).toBe('delivered');
    for (const r of received) {
      expect(r.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
      expect(r.sdkValid).toBe(true);
      expect(r.body).toMatchObject({
        AccountSid: account.sid,
        MessageSid: m.sid,
        SmsSid: m.sid,
        To: '+15550002222',
        From: '+15550001111',
        ApiVersion: '2010-04-01',
      });
    }
    // The webhook tree accepted every one (403 otherwise, and the handler would not have run).
    expect(sandbox.webhooks.deliveries.map((d) => d.status)).toEqual([200, 200, 200]);
    // And the checks can fail: the same delivery signed with another account's token is refused.
    const first = sandbox.webhooks.deliveries[0];
    if (!first) throw new Error('no delivery');
    const forged = await sandbox.webhooks.post(url, first.params, other.authToken);
    expect(forged.status).toBe(403);
    expect(twilio.validateRequest(account.authToken, forged.signature, url, first.params)).toBe(false);
    const tampered = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': first.signature },
      body: new URLSearchParams({ ...first.params, MessageStatus: 'failed' }).toString(),
    });
    expect(tampered.status).toBe(403);
    expect(received).toHaveLength(3);
  });

  it('creates a call and reports initiated, ringing, then no-answer after its timeout', async () => {
    const c = await sdk().calls.create({
      to: '+15550002222',
      from: '+15550001111',
      url: `${base}/twiml/answer`,
      statusCallback: `${base}/webhooks/test/call-status`,
      statusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
      timeout: 20,
    });
    expect(c.sid).toMatch(/^CA[0-9a-f]{32}$/);
    expect(c).toMatchObject({
      status: 'queued',
      to: '+15550002222',
      from: '+15550001111',
      direction: 'outbound-api',
    });
    await clock.advance(1000);
    expect(received.map((r) => r.body.CallStatus)).toEqual(['initiated', 'ringing']);
    await clock.advance(18_000);
    expect(received).toHaveLength(2);
    await clock.advance(2000);
    expect(received.map((r) => r.body.CallStatus)).toEqual(['initiated', 'ringing', 'no-answer']);
    expect(received.map((r) => r.body.SequenceNumber)).toEqual(['0', '1', '2']);
    expect(received.every((r) => r.sdkValid && r.body.CallSid === c.sid)).toBe(true);
    expect(received[2]?.body.CallDuration).toBe('0');
    expect(sandbox.calls.get(c.sid)?.status).toBe('no-answer');
  });

  it('reports only the completed event when none is asked for', async () => {
    await sdk().calls.create({
      to: '+15550002222',
      from: '+15550001111',
      url: `${base}/twiml/answer`,
      statusCallback: `${base}/webhooks/test/call-status`,
    });
    await clock.advance(61_000);
    expect(received.map((r) => r.body.CallStatus)).toEqual(['no-answer']);
  });
});

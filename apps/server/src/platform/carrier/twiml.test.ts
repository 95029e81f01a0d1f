import { buffer } from 'node:stream/consumers';
import Fastify, { type FastifyInstance } from 'fastify';
import twilio from 'twilio';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createWebhookRegistry, type FormBody, twilioProvider, webhookTree } from '../webhooks/tree.ts';
import { inProcessTransport } from './platform.ts';
import { ManualClock } from './sandbox/clock.ts';
import { type SandboxAccount, TwilioSandbox } from './sandbox/sandbox.ts';

// The sandbox's phones and TwiML interpreter, driven through the real `twilio` SDK; the sandbox calls
// a Fastify app mounting the product's webhook tree in process (the platform's transport), whose test
// routes answer TwiML. Every request is signed and checked by the tree; time runs on a ManualClock.

type Hit = { path: string; method: string; body: FormBody; query: Record<string, string>; sdkValid: boolean };

const BASE = 'http://localhost:3000/webhooks/t';
let server: FastifyInstance;
let clock: ManualClock;
let sandbox: TwilioSandbox;
let account: SandboxAccount;
let hits: Hit[] = [];
/** TwiML by path (below /webhooks/t); a function gets the request's parameters. */
let answers: Record<string, string | ((body: FormBody) => string)> = {};

const VISITOR = '+15550001001';
const STAFF1 = '+15550002001';
const STAFF2 = '+15550002002';
const OURS = '+15550009000';

beforeAll(async () => {
  server = Fastify();
  const registry = createWebhookRegistry();
  registry.provider(twilioProvider(async (sid) => sandbox.accounts.get(sid)?.authToken ?? null));
  for (const method of ['POST', 'GET'] as const) {
    registry.route({
      method,
      url: '/t/*',
      provider: 'twilio',
      async handler(request, reply) {
        const path = (request.params as { '*': string })['*'];
        const body = (method === 'POST' ? request.body : {}) as FormBody;
        const query = request.query as Record<string, string>;
        const params = method === 'POST' ? body : query;
        const token = sandbox.accounts.get(String(params.AccountSid))?.authToken ?? '';
        hits.push({
          path,
          method,
          body: params,
          query,
          sdkValid: twilio.validateRequest(
            token,
            String(request.headers['x-twilio-signature']),
            request.webhookUrl ?? '',
            method === 'POST' ? (body as Record<string, string>) : {},
          ),
        });
        const answer = answers[path];
        const xml = typeof answer === 'function' ? answer(params) : (answer ?? '<Response/>');
        return reply.type('text/xml').send(xml);
      },
    });
  }
  await server.register(webhookTree, { prefix: '/webhooks', registry });
  await server.ready();
});

afterAll(async () => {
  await server?.close();
});

beforeEach(() => {
  clock = new ManualClock();
  sandbox = new TwilioSandbox({
    clock,
    publicBase: 'http://localhost:3000',
    transport: inProcessTransport(() => server, { trustProxy: false, hosts: [], mainDomain: 'localhost' }),
  });
  account = sandbox.createAccount({ friendlyName: 'Agency A' });
  hits = [];
  answers = {};
});

const sdk = () => twilio(account.sid, account.authToken, { httpClient: sandbox.httpClient });
const at = (path: string) => hits.filter((h) => h.path === path);
const only = (path: string) => {
  const list = at(path);
  expect(list, `one request to ${path}`).toHaveLength(1);
  return list[0] as Hit;
};

async function call(to: string, extra: Record<string, unknown> = {}) {
  const c = await sdk().calls.create({
    to,
    from: OURS,
    url: `${BASE}/voice`,
    statusCallback: `${BASE}/status`,
    statusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
    ...extra,
  });
  await clock.advance(500); // queued → initiated → ringing
  return c;
}

describe('simulated phones and the TwiML interpreter', () => {
  it('rings a phone that answers, hears the Say, presses into a Gather that posts its action', async () => {
    answers.voice =
      '<?xml version="1.0" encoding="UTF-8"?><Response><Gather numDigits="1" action="/webhooks/t/gather" timeout="7"><Say>Press 1 to talk</Say></Gather><Say>Goodbye</Say></Response>';
    answers.gather = (b) => `<Response><Say>You pressed ${b.Digits}</Say></Response>`;
    const c = await call(VISITOR);
    expect(sandbox.phones.get(VISITOR)).toMatchObject({
      state: 'ringing',
      call: { sid: c.sid, status: 'ringing' },
    });
    expect(() => sandbox.phones.press(VISITOR, '1')).toThrow(/not in a call/);

    sandbox.phones.answer(VISITOR);
    await clock.settle();
    const voice = only('voice');
    expect(voice.body).toMatchObject({
      CallSid: c.sid,
      CallStatus: 'in-progress',
      Direction: 'outbound-api',
      From: OURS,
      To: VISITOR,
      Called: VISITOR,
      Caller: OURS,
      AccountSid: account.sid,
      ApiVersion: '2010-04-01',
    });
    expect(voice.body.AnsweredBy).toBeUndefined(); // no machine detection asked
    expect(sandbox.phones.get(VISITOR)).toMatchObject({
      state: 'in-call',
      call: { heard: ['Press 1 to talk'], gathering: true },
    });

    await clock.advance(1500);
    sandbox.phones.press(VISITOR, '1');
    await clock.settle();
    expect(only('gather').body).toMatchObject({ Digits: '1', CallSid: c.sid });
    await clock.advance(1000);
    expect(sandbox.phones.get(VISITOR).state).toBe('idle'); // the document ended: the call hangs up
    expect(sandbox.calls.get(c.sid)?.heard).toEqual(['Press 1 to talk', 'You pressed 1']);

    // Status callbacks, in order, numbered, every request signed.
    const status = at('status');
    expect(status.map((s) => s.body.CallStatus)).toEqual([
      'initiated',
      'ringing',
      'in-progress',
      'completed',
    ]);
    expect(status.map((s) => s.body.SequenceNumber)).toEqual(['0', '1', '2', '3']);
    expect(status[3]?.body.CallDuration).toBe('2');
    expect(hits.every((h) => h.sdkValid)).toBe(true);
    expect(sandbox.webhooks.deliveries.every((d) => d.status === 200)).toBe(true);
    const fetched = await sandbox.carrier(account.sid).fetchCall(c.sid);
    expect(fetched).toMatchObject({ status: 'completed', duration: 2, direction: 'outbound-api' });
  });

  it('Gather: no digits goes on with the next verb; actionOnEmptyResult posts empty Digits', async () => {
    answers.voice =
      '<Response><Gather numDigits="1" action="/webhooks/t/g"><Say>Press</Say></Gather><Say>Nothing pressed</Say></Response>';
    await call(VISITOR);
    sandbox.phones.answer(VISITOR);
    await clock.advance(4000);
    expect(sandbox.phones.get(VISITOR).call?.gathering).toBe(true);
    await clock.advance(2000); // 5 s default timeout after the prompt
    expect(at('g')).toHaveLength(0);
    expect(sandbox.calls.get(sandbox.phones.callSids(VISITOR)[0] ?? '')?.heard).toEqual([
      'Press',
      'Nothing pressed',
    ]);

    answers.voice =
      '<Response><Gather action="/webhooks/t/g" actionOnEmptyResult="true" timeout="3"/><Say>never</Say></Response>';
    answers.g = '<Response><Say>empty</Say></Response>';
    await call(STAFF1);
    sandbox.phones.answer(STAFF1);
    await clock.advance(3500);
    expect(only('g').body.Digits).toBe('');
    // finishOnKey ends the digits early
    answers.voice = '<Response><Gather action="/webhooks/t/h" timeout="3"/></Response>';
    await call(STAFF2);
    sandbox.phones.answer(STAFF2);
    await clock.settle();
    sandbox.phones.press(STAFF2, '42#');
    await clock.settle();
    expect(only('h').body.Digits).toBe('42');
  });

  it('hangs up: a bridged call ends on either side; a phone hangs up its call in progress', async () => {
    answers.voice = '<Response><Pause length="60"/></Response>';
    const c = await call(VISITOR);
    sandbox.phones.answer(VISITOR);
    await clock.advance(12_000);
    sandbox.phones.hangUp(VISITOR);
    await clock.settle();
    expect(sandbox.calls.get(c.sid)?.status).toBe('completed');
    const last = at('status').at(-1);
    expect(last?.body).toMatchObject({ CallStatus: 'completed', CallDuration: '12' });
    expect(() => sandbox.phones.hangUp(VISITOR)).toThrow();
    expect(() => sandbox.phones.answer(VISITOR)).toThrow(/no ringing call/);
  });

  it('Dial with two Numbers and a whisper: the second answers and presses 1, the first is canceled, both legs bridged', async () => {
    answers.voice = `<Response><Say>Connecting</Say><Dial callerId="${OURS}" timeout="20" record="record-from-answer-dual" action="/webhooks/t/dial-action" recordingStatusCallback="/webhooks/t/rec">
        <Number url="/webhooks/t/whisper" statusCallback="/webhooks/t/leg" statusCallbackEvent="initiated ringing answered completed">${STAFF1}</Number>
        <Number url="/webhooks/t/whisper" statusCallback="/webhooks/t/leg" statusCallbackEvent="initiated ringing answered completed">${STAFF2}</Number>
      </Dial></Response>`;
    answers.whisper =
      '<Response><Gather numDigits="1" action="/webhooks/t/pressed" timeout="10"><Say>Callback request, press 1</Say></Gather><Hangup/></Response>';
    answers.pressed = (b) => (b.Digits === '1' ? '<Response/>' : '<Response><Hangup/></Response>');
    answers['dial-action'] = '<Response><Say>Bye</Say><Hangup/></Response>';
    const parent = await call(VISITOR);
    sandbox.phones.answer(VISITOR);
    await clock.advance(1000);
    expect(sandbox.phones.get(STAFF1).state).toBe('ringing');
    expect(sandbox.phones.get(STAFF2).state).toBe('ringing');
    const legs = hits.filter((h) => h.path === 'leg');
    expect(legs.map((h) => h.body.CallStatus)).toEqual(['initiated', 'initiated', 'ringing', 'ringing']);
    for (const l of legs)
      expect(l.body).toMatchObject({ ParentCallSid: parent.sid, Direction: 'outbound-dial', From: OURS });
    expect(legs.filter((l) => l.body.CallStatus === 'initiated').map((l) => l.body.SequenceNumber)).toEqual([
      '0',
      '0',
    ]);
    const child1 = sandbox.phones.get(STAFF1).call?.sid ?? '';
    const child2 = sandbox.phones.get(STAFF2).call?.sid ?? '';

    sandbox.phones.answer(STAFF2);
    await clock.settle();
    expect(only('whisper').body).toMatchObject({
      CallSid: child2,
      ParentCallSid: parent.sid,
      CallStatus: 'in-progress',
    });
    expect(sandbox.phones.get(STAFF2).call).toMatchObject({
      heard: ['Callback request, press 1'],
      gathering: true,
    });
    expect(sandbox.phones.get(STAFF1).state).toBe('ringing'); // still ringing while the second one decides
    sandbox.phones.press(STAFF2, '1');
    await clock.settle();
    expect(only('pressed').body.Digits).toBe('1');
    expect(sandbox.calls.get(child1)?.status).toBe('canceled');
    expect(sandbox.phones.get(STAFF1).state).toBe('idle');
    expect(sandbox.phones.get(VISITOR)).toMatchObject({ state: 'in-call', call: { bridged_with: STAFF2 } });
    expect(sandbox.phones.get(STAFF2)).toMatchObject({ state: 'in-call', call: { bridged_with: VISITOR } });

    await clock.advance(30_000);
    sandbox.phones.hangUp(STAFF2);
    await clock.settle();
    const action = only('dial-action').body;
    expect(action).toMatchObject({
      CallSid: parent.sid,
      DialCallStatus: 'completed',
      DialCallSid: child2,
      DialCallDuration: '30',
      RecordingDuration: '30',
    });
    expect(action.RecordingSid).toMatch(/^RE[0-9a-f]{32}$/);
    expect(action.RecordingUrl).toBe(`http://localhost:3000/sandbox/recordings/${action.RecordingSid}`);
    await clock.advance(1000);
    expect(sandbox.calls.get(parent.sid)?.status).toBe('completed');
    expect(sandbox.calls.get(child2)?.status).toBe('completed');
    const rec = only('rec').body;
    expect(rec).toMatchObject({
      RecordingStatus: 'completed',
      RecordingSid: action.RecordingSid,
      RecordingChannels: '2',
      RecordingSource: 'DialVerb',
      CallSid: parent.sid,
    });
    const wav = sandbox.recordingAudio(String(action.RecordingSid));
    expect(wav?.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(wav?.subarray(8, 12).toString('ascii')).toBe('WAVE');
    // Leg callbacks: the canceled one, the bridged one completed with its duration.
    const finals = at('leg').filter((h) => ['canceled', 'completed'].includes(String(h.body.CallStatus)));
    expect(finals.map((h) => [h.body.CallSid, h.body.CallStatus])).toEqual([
      [child1, 'canceled'],
      [child2, 'completed'],
    ]);
    expect(finals[1]?.body.CallDuration).toBe('30');
    expect(
      at('leg')
        .filter((h) => h.body.CallSid === child2)
        .map((h) => h.body.SequenceNumber),
    ).toEqual(['0', '1', '2', '3']);
    expect(hits.every((h) => h.sdkValid)).toBe(true);
  });

  it('Dial: a voicemail cannot claim the call; nobody pressing gives no-answer and the caller goes on', async () => {
    answers.voice = `<Response><Dial timeout="15"><Number url="/webhooks/t/whisper">${STAFF1}</Number></Dial><Say>Nobody answered</Say></Response>`;
    answers.whisper =
      '<Response><Gather numDigits="1" action="/webhooks/t/pressed" timeout="5"><Say>press 1</Say></Gather><Hangup/></Response>';
    sandbox.phones.configure(STAFF1, { autoAnswer: 'machine', autoPress: '1' });
    const parent = await call(VISITOR);
    sandbox.phones.answer(VISITOR);
    await clock.advance(1000);
    expect(sandbox.phones.get(STAFF1).state).toBe('voicemail');
    await clock.advance(10_000);
    expect(at('pressed')).toHaveLength(0);
    expect(sandbox.calls.get(parent.sid)?.heard).toEqual(['Nobody answered']);
    await clock.runAll();
    expect(sandbox.calls.get(parent.sid)?.status).toBe('completed');

    // A Dial with a time limit ends the bridge by itself.
    answers.voice = `<Response><Dial timeLimit="20" action="/webhooks/t/limited">${STAFF1}</Dial></Response>`;
    sandbox.phones.configure(STAFF1, { autoAnswer: 'human', autoPress: null });
    await call(VISITOR);
    sandbox.phones.answer(VISITOR);
    await clock.advance(25_000);
    expect(only('limited').body).toMatchObject({ DialCallStatus: 'completed', DialCallDuration: '20' });

    // A Dial nobody answers: no-answer, posted to the action.
    answers.voice = `<Response><Dial timeout="10" action="/webhooks/t/da">${STAFF2}</Dial></Response>`;
    await call(VISITOR);
    sandbox.phones.answer(VISITOR);
    await clock.advance(12_000);
    expect(only('da').body).toMatchObject({ DialCallStatus: 'no-answer', DialCallDuration: '0' });

    // A callerId that is not a phone number fails the Dial without ringing anyone.
    answers.voice = `<Response><Dial callerId="Acme" action="/webhooks/t/bad">${STAFF2}</Dial></Response>`;
    await call(VISITOR);
    sandbox.phones.answer(VISITOR);
    await clock.advance(100);
    expect(only('bad').body).toMatchObject({ DialCallStatus: 'failed' });
    expect(sandbox.phones.get(STAFF2).state).toBe('idle');
  });

  it('phones set to answer and press at once bridge a callback without anyone touching them', async () => {
    answers.voice = `<Response><Dial><Number url="/webhooks/t/whisper">${STAFF1}</Number></Dial></Response>`;
    answers.whisper =
      '<Response><Gather numDigits="1" action="/webhooks/t/pressed"><Say>press 1</Say></Gather><Hangup/></Response>';
    sandbox.phones.configure(VISITOR, { autoAnswer: 'human' });
    sandbox.phones.configure(STAFF1, { autoAnswer: 'human', autoPress: '1' });
    await call(VISITOR);
    await clock.advance(500);
    expect(sandbox.phones.get(VISITOR).call?.bridged_with).toBe(STAFF1);
  });

  it('Record: a recording callback, the action with the recording, and real WAV bytes', async () => {
    answers.voice =
      '<Response><Say>Leave a message</Say><Record maxLength="60" action="/webhooks/t/recorded" recordingStatusCallback="/webhooks/t/rec"/></Response>';
    answers.recorded = '<Response><Hangup/></Response>';
    const c = await call(VISITOR);
    sandbox.phones.answer(VISITOR);
    await clock.advance(8000);
    expect(sandbox.phones.get(VISITOR).call?.heard).toEqual(['Leave a message', '[beep]', '[recording]']);
    sandbox.phones.press(VISITOR, '#');
    await clock.settle();
    const action = only('recorded').body;
    expect(action).toMatchObject({ CallSid: c.sid, Digits: '#', RecordingDuration: '8' });
    const rec = only('rec').body;
    expect(rec).toMatchObject({
      RecordingStatus: 'completed',
      RecordingSid: action.RecordingSid,
      RecordingSource: 'RecordVerb',
      RecordingDuration: '8',
    });
    const audio = await sandbox.carrier(account.sid).fetchRecordingAudio(String(action.RecordingSid));
    expect(audio.contentType).toBe('audio/wav');
    const wav = await buffer(audio.body);
    expect(wav.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(wav.readUInt32LE(24)).toBe(8000); // sample rate
    expect(wav.length).toBeGreaterThan(44 + 8000 * 2 - 1);
    await expect(
      sandbox.carrier(account.sid).fetchRecordingAudio(`RE${'0'.repeat(32)}`),
    ).rejects.toMatchObject({
      name: 'CarrierError',
      status: 404,
    });

    // Hanging up ends a recording too; the action still hears about it.
    hits = [];
    await call(STAFF1);
    sandbox.phones.answer(STAFF1);
    await clock.advance(5000);
    sandbox.phones.hangUp(STAFF1);
    await clock.settle();
    expect(only('recorded').body).toMatchObject({ Digits: 'hangup', RecordingDuration: '5' });
  });

  it('answering-machine detection reports AnsweredBy human or machine_start', async () => {
    answers.voice = '<Response><Say>Hello</Say></Response>';
    await call(VISITOR, { machineDetection: 'Enable' });
    sandbox.phones.answer(VISITOR, { as: 'machine' });
    await clock.settle();
    expect(only('voice').body.AnsweredBy).toBe('machine_start');
    expect(sandbox.phones.get(VISITOR).state).toBe('voicemail');
    const c = await call(STAFF1, { machineDetection: 'Enable' });
    sandbox.phones.answer(STAFF1);
    await clock.settle();
    expect(at('voice')[1]?.body.AnsweredBy).toBe('human');
    expect((await sandbox.carrier(account.sid).fetchCall(c.sid)).answeredBy).toBe('human');
  });

  it('Redirect fetches a new document; a call update with Url or Twiml redirects a live call', async () => {
    answers.voice =
      '<Response><Say>one</Say><Redirect>/webhooks/t/next?step=2</Redirect><Say>never</Say></Response>';
    answers.next = '<Response><Say>two</Say><Pause length="30"/><Say>never either</Say></Response>';
    answers.moved = '<Response><Say>three</Say></Response>';
    const c = await call(VISITOR);
    sandbox.phones.answer(VISITOR);
    await clock.advance(1000);
    const next = only('next');
    expect(next.query).toMatchObject({ step: '2' });
    expect(next.body).toMatchObject({ CallSid: c.sid });
    expect(next.sdkValid).toBe(true);
    await sandbox.carrier(account.sid).updateCall(c.sid, { url: `${BASE}/moved` });
    await clock.advance(1000);
    expect(sandbox.calls.get(c.sid)?.heard).toEqual(['one', 'two', 'three']);
    expect(sandbox.calls.get(c.sid)?.status).toBe('completed');

    const d = await call(STAFF1);
    sandbox.phones.answer(STAFF1);
    await clock.settle();
    await sandbox
      .carrier(account.sid)
      .updateCall(d.sid, { twiml: '<Response><Say>inline</Say><Hangup/></Response>' });
    await clock.advance(1000);
    expect(sandbox.calls.get(d.sid)?.heard.at(-1)).toBe('inline');
    expect(sandbox.calls.get(d.sid)?.status).toBe('completed');
  });

  it('Reject: a phone that declines is busy; an inbound call rejected by the TwiML is busy', async () => {
    await call(VISITOR);
    sandbox.phones.reject(VISITOR);
    await clock.settle();
    expect(at('status').at(-1)?.body).toMatchObject({ CallStatus: 'busy', CallDuration: '0' });
    expect(at('voice')).toHaveLength(0);

    const n = await sdk().incomingPhoneNumbers.create({
      phoneNumber: OURS,
      voiceUrl: `${BASE}/in-voice`,
      statusCallback: `${BASE}/in-status`,
    });
    answers['in-voice'] = '<Response><Reject reason="busy"/></Response>';
    const sid = sandbox.phones.dial(STAFF1, OURS);
    await clock.settle();
    expect(sandbox.calls.get(sid)?.status).toBe('busy');
    expect(only('in-status').body).toMatchObject({ CallStatus: 'busy', Direction: 'inbound' });
    expect(n.phoneNumber).toBe(OURS);
  });

  it('a phone calls and texts an incoming number: inbound voice and SMS webhooks', async () => {
    await sdk().incomingPhoneNumbers.create({
      phoneNumber: OURS,
      voiceUrl: `${BASE}/in-voice`,
      smsUrl: `${BASE}/sms`,
    });
    answers['in-voice'] = '<Response><Say>Thanks for calling</Say></Response>';
    const sid = sandbox.phones.dial(VISITOR, OURS);
    await clock.settle();
    expect(only('in-voice').body).toMatchObject({
      CallSid: sid,
      CallStatus: 'ringing',
      Direction: 'inbound',
      From: VISITOR,
      To: OURS,
      AccountSid: account.sid,
    });
    expect(sandbox.phones.get(VISITOR).call?.heard).toEqual(['Thanks for calling']);
    await clock.advance(1000);
    expect(sandbox.calls.get(sid)?.status).toBe('completed');

    const mid = sandbox.phones.sendText(VISITOR, OURS, 'STOP');
    await clock.settle();
    const sms = only('sms').body;
    expect(sms).toMatchObject({
      MessageSid: mid,
      SmsSid: mid,
      From: VISITOR,
      To: OURS,
      Body: 'STOP',
      NumMedia: '0',
      AccountSid: account.sid,
    });
    expect(String(mid)).toMatch(/^SM[0-9a-f]{32}$/);
    expect(sandbox.phones.get(VISITOR).texts).toMatchObject([
      { direction: 'out', other: OURS, body: 'STOP' },
    ]);
    expect(() => sandbox.phones.dial(VISITOR, '+15559990000')).toThrow(/not a number of any sandbox account/);

    // A text the product sends shows on the phone.
    await sdk().messages.create({ to: VISITOR, from: OURS, body: 'We got it' });
    await clock.advance(500);
    expect(sandbox.phones.get(VISITOR).texts.at(-1)).toMatchObject({
      direction: 'in',
      other: OURS,
      body: 'We got it',
    });
  });

  it('cancels a ringing call through a calls update; completes one in progress', async () => {
    const c = await call(VISITOR);
    const updated = await sandbox.carrier(account.sid).updateCall(c.sid, { status: 'canceled' });
    expect(updated.status).toBe('canceled');
    await clock.settle();
    expect(sandbox.phones.get(VISITOR).state).toBe('idle');
    expect(at('status').map((s) => s.body.CallStatus)).toEqual(['initiated', 'ringing', 'canceled']);

    answers.voice = '<Response><Pause length="100"/></Response>';
    const d = await call(STAFF1);
    sandbox.phones.answer(STAFF1);
    await clock.advance(3000);
    await sandbox.carrier(account.sid).updateCall(d.sid, { status: 'completed' });
    await clock.settle();
    expect(sandbox.calls.get(d.sid)?.status).toBe('completed');
    // Canceling a call in progress changes nothing (as Twilio).
    expect((await sandbox.carrier(account.sid).updateCall(d.sid, { status: 'canceled' })).status).toBe(
      'completed',
    );
  });

  it('searches available numbers, buys, lists, updates and releases incoming numbers', async () => {
    const carrier = sandbox.carrier(account.sid);
    const found = await carrier.searchAvailableNumbers({ country: 'US', areaCode: 212, limit: 3 });
    expect(found.map((n) => n.phoneNumber)).toEqual(['+12125550100', '+12125550101', '+12125550102']);
    expect(found[0]).toMatchObject({ country: 'US', capabilities: { voice: true, sms: true } });
    expect(await carrier.searchAvailableNumbers({ country: 'ZZ' })).toEqual([]);
    expect((await carrier.searchAvailableNumbers({ country: 'CA', limit: 1 }))[0]?.phoneNumber).toBe(
      '+16045550100',
    );

    const bought = await carrier.purchaseNumber('+12125550100', {
      voiceUrl: `${BASE}/v`,
      smsUrl: `${BASE}/s`,
    });
    expect(bought).toMatchObject({ phoneNumber: '+12125550100', voiceUrl: `${BASE}/v`, smsUrl: `${BASE}/s` });
    expect(bought.sid).toMatch(/^PN[0-9a-f]{32}$/);
    // Bought numbers are no longer offered, and cannot be bought twice.
    expect(
      (await carrier.searchAvailableNumbers({ country: 'US', areaCode: 212, limit: 1 }))[0]?.phoneNumber,
    ).toBe('+12125550101');
    await expect(carrier.purchaseNumber('+12125550100')).rejects.toMatchObject({ code: 21422 });
    const other = sandbox.createAccount();
    expect(await sandbox.carrier(other.sid).listIncomingNumbers()).toEqual([]);
    expect((await carrier.listIncomingNumbers()).map((n) => n.sid)).toEqual([bought.sid]);
    const updated = await carrier.updateIncomingNumber(bought.sid, { smsUrl: `${BASE}/s2` });
    expect(updated.smsUrl).toBe(`${BASE}/s2`);
    await expect(sandbox.carrier(other.sid).releaseNumber(bought.sid)).rejects.toMatchObject({ status: 404 });
    await carrier.releaseNumber(bought.sid);
    expect(await carrier.listIncomingNumbers()).toEqual([]);
  });

  it('validates a caller id: the phone that answers and presses the code makes it a caller id', async () => {
    const carrier = sandbox.carrier(account.sid);
    const v = await carrier.requestCallerIdValidation({
      phoneNumber: STAFF1,
      friendlyName: 'Front desk',
      statusCallback: `${BASE}/verified`,
    });
    expect(v.validationCode).toMatch(/^\d{6}$/);
    await clock.advance(500);
    expect(sandbox.phones.get(STAFF1).state).toBe('ringing');
    sandbox.phones.answer(STAFF1);
    await clock.advance(1000);
    expect(sandbox.phones.get(STAFF1).call?.gathering).toBe(true);
    sandbox.phones.press(STAFF1, v.validationCode);
    await clock.advance(5000);
    const cb = only('verified').body;
    expect(cb).toMatchObject({ VerificationStatus: 'success', CallSid: v.callSid, PhoneNumber: STAFF1 });
    const ids = await carrier.listOutgoingCallerIds();
    expect(ids).toEqual([{ sid: cb.OutgoingCallerIdSid, phoneNumber: STAFF1, friendlyName: 'Front desk' }]);
    await expect(carrier.requestCallerIdValidation({ phoneNumber: STAFF1 })).rejects.toMatchObject({
      code: 21450,
    });
    await carrier.deleteOutgoingCallerId(String(cb.OutgoingCallerIdSid));
    expect(await carrier.listOutgoingCallerIds()).toEqual([]);

    // A wrong code fails, and so does a validation call nobody answers.
    const w = await carrier.requestCallerIdValidation({
      phoneNumber: STAFF2,
      statusCallback: `${BASE}/verified2`,
    });
    await clock.advance(500);
    sandbox.phones.answer(STAFF2);
    await clock.advance(1000);
    sandbox.phones.press(STAFF2, w.validationCode === '000000' ? '111111' : '000000');
    await clock.advance(5000);
    expect(only('verified2').body.VerificationStatus).toBe('failed');
    await carrier.requestCallerIdValidation({ phoneNumber: VISITOR, statusCallback: `${BASE}/verified3` });
    await clock.advance(70_000);
    expect(only('verified3').body.VerificationStatus).toBe('failed');
    expect(await carrier.listOutgoingCallerIds()).toEqual([]);
  });

  it('reports changes to listeners (the live Sandbox Phones screen)', async () => {
    let changes = 0;
    const off = sandbox.onChange(() => {
      changes++;
    });
    await call(VISITOR);
    expect(changes).toBeGreaterThan(0);
    off();
    const before = changes;
    sandbox.phones.sendText(VISITOR, STAFF1, 'hi');
    await clock.settle();
    expect(changes).toBe(before);
    expect(sandbox.phones.get(STAFF1).texts).toMatchObject([{ direction: 'in', other: VISITOR, body: 'hi' }]);
    expect(sandbox.phones.list().map((p) => p.number)).toEqual([VISITOR, STAFF1]);
  });

  it('records a whole call created with Record, and redirecting a finished call is refused (21220)', async () => {
    answers.voice = '<Response><Pause length="20"/></Response>';
    const c = await sandbox.carrier(account.sid).createCall({
      to: VISITOR,
      from: OURS,
      url: `${BASE}/voice`,
      record: true,
      recordingStatusCallback: `${BASE}/rec`,
    });
    await clock.advance(500);
    sandbox.phones.answer(VISITOR);
    await clock.advance(30_000);
    const rec = only('rec').body;
    expect(rec).toMatchObject({
      CallSid: c.sid,
      RecordingStatus: 'completed',
      RecordingDuration: '20',
      RecordingSource: 'OutboundAPI',
    });
    expect(sandbox.recordingAudio(String(rec.RecordingSid))?.subarray(0, 4).toString('ascii')).toBe('RIFF');
    await expect(
      sandbox.carrier(account.sid).updateCall(c.sid, { url: `${BASE}/voice` }),
    ).rejects.toMatchObject({
      code: 21220,
      status: 400,
    });
  });

  it('a phone with several calls ringing shows the newest; answering takes the newest', async () => {
    answers.voice = '<Response><Pause length="5"/></Response>';
    const first = await call(VISITOR);
    const second = await call(VISITOR);
    expect(sandbox.phones.get(VISITOR).call?.sid).toBe(second.sid);
    expect(sandbox.phones.answer(VISITOR)).toBe(second.sid);
    await clock.settle();
    expect(sandbox.calls.get(first.sid)?.status).toBe('ringing');
    expect(sandbox.phones.get(VISITOR)).toMatchObject({ state: 'in-call', call: { sid: second.sid } });
    await clock.advance(70_000);
    expect(sandbox.calls.get(first.sid)?.status).toBe('no-answer');
    expect(sandbox.phones.get(VISITOR).state).toBe('idle');
  });

  it('a bad answer (an error status, not TwiML) is an application error and hangs up', async () => {
    for (const answer of ['{"success":false}', '<Html/>', '<Response><Say>unclosed</Response>']) {
      answers.voice = answer;
      const c = await call(VISITOR);
      sandbox.phones.answer(VISITOR);
      await clock.advance(100);
      expect(sandbox.calls.get(c.sid)).toMatchObject({ status: 'completed', heard: ['[application error]'] });
    }
    const c = await call(VISITOR, { url: 'http://localhost:3000/webhooks/t-missing/voice' });
    sandbox.phones.answer(VISITOR);
    await clock.advance(100);
    expect(sandbox.calls.get(c.sid)).toMatchObject({ status: 'completed', heard: ['[application error]'] });
    expect(sandbox.webhooks.deliveries.at(-2)?.status).toBe(404);
  });
});

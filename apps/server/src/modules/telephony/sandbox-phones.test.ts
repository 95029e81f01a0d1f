import crypto from 'node:crypto';
import type { TSandboxPhone } from '@stn/contracts/telephony';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addBusinessUser,
  bearer,
  createTestApp,
  expect422,
  login,
  rows,
  seedTenants,
  snapshot,
} from '../../../test/helpers.ts';
import { ManualClock } from '../../platform/carrier/sandbox/clock.ts';
import { sandboxNumberSid } from './sandbox-restore.ts';
import { type Telephony, telephonyApp } from './testing.ts';

// The Sandbox Phones control API (ADR 030) drives a real callback: the widget's checks and the carrier
// sandbox's TwiML, on a ManualClock so that no test waits real seconds.

let tel: Telephony;

const A_NUMBER = '+15005550006';
const FRONT_DESK = '+15005550101';
const DOCTOR = '+15005550102';
const B_STAFF = '+15005550201';
const VISITOR = '+14155550123';
const TABLES = ['calls', 'call_legs', 'numbers', 'installs'];

let aToken: string;
let bToken: string;
let aInstall: number;
let B_NUMBER: string;

const get = async (token: string) => {
  const res = await tel.t.app.inject({ url: '/api/v1/sandbox/phones', headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as TSandboxPhone[];
};
const phone = async (token: string, number: string) => (await get(token)).find((p) => p.number === number);
const act = (token: string, number: string, action: string, payload?: object) =>
  tel.t.app.inject({
    method: 'POST',
    url: `/api/v1/sandbox/phones/${encodeURIComponent(number)}/${action}`,
    headers: bearer(token),
    payload: payload ?? {},
  });
const callback = (token: string, payload: object) =>
  tel.t.app.inject({ method: 'POST', url: '/api/v1/sandbox/callback', headers: bearer(token), payload });
/** Lets the sandbox play out `ms` of its time (webhooks in process, TwiML, our follow-up work). */
const run = (ms = 0) => tel.run(ms);

/** The agency's telephony: a sandbox account of the process, or (false) a real Twilio account. */
async function useSandbox(agencyId: number, sandbox: boolean) {
  const deps = tel.t.app.deps;
  const account = sandbox
    ? deps.carrier.createSandboxAccount(`agency ${agencyId}`)
    : { sid: `AC${crypto.randomBytes(16).toString('hex')}`, authToken: 'real-twilio-token' };
  await tel.t.pool.query('update agencies set twilio_config = $2 where id = $1', [
    agencyId,
    {
      accountSid: account.sid,
      authToken: deps.secrets.seal(account.authToken),
      ...(sandbox ? { sandbox } : {}),
    },
  ]);
}

beforeAll(async () => {
  const clock = new ManualClock(Date.now());
  const t = await createTestApp(
    { WIDGET_RATE_PER_ADDRESS: '100000', PUBLIC_URL: 'http://localhost:3000' },
    { sandboxClock: clock },
  );
  const seed = await seedTenants(t.db);
  tel = await telephonyApp({}, { t, seed, clock });
  aInstall = (await tel.install({}, { number: A_NUMBER })).id;
  B_NUMBER = '+15005550007';
  await tel.install(
    { phoneAgents: [{ name: 'B staff', phone: B_STAFF }] },
    { tenant: 'b', number: B_NUMBER },
  );
  // Business B's agency uses a real Twilio account, not the sandbox (until a test switches it).
  await useSandbox(seed.b.agency.id, false);
  aToken = await login(tel.t.app, seed.a.businessAdmin.email);
  bToken = await login(tel.t.app, seed.b.businessAdmin.email);
});
afterAll(() => tel?.t.close());

describe('Sandbox Phones control API', () => {
  it('is not found for a business whose agency does not use the sandbox', async () => {
    const before = await snapshot(tel.t.pool, TABLES);
    for (const res of [
      await tel.t.app.inject({ url: '/api/v1/sandbox/phones', headers: bearer(bToken) }),
      await act(bToken, B_STAFF, 'answer'),
      await act(bToken, B_STAFF, 'texts', { to: B_NUMBER, body: 'hi' }),
    ]) {
      expect(res.statusCode, res.body).toBe(404);
    }
    const cb = await callback(bToken, { install_id: aInstall, phone: VISITOR });
    expect(cb.statusCode, cb.body).toBe(404);
    expect(await snapshot(tel.t.pool, TABLES)).toEqual(before);
  });

  it('the profile tells the web app whether the agency uses the sandbox (the screen and its menu item)', async () => {
    const profile = async (token: string) =>
      (await tel.t.app.inject({ url: '/api/v1/profile', headers: bearer(token) })).json().data.user;
    expect((await profile(aToken)).carrier_sandbox).toBe(true);
    expect((await profile(bToken)).carrier_sandbox).toBe(false);
  });

  it("lists the install's staff phones, idle, with the agents' names", async () => {
    const list = await get(aToken);
    expect(list.map((p) => [p.number, p.label, p.state])).toEqual([
      [FRONT_DESK, 'Front desk', 'idle'],
      [DOCTOR, 'Dr. Bright', 'idle'],
    ]);
    // Each says whose staff phone it is, so the screen needs no installs call (ADR 047).
    expect(list.map((p) => p.installs)).toEqual([[aInstall], [aInstall]]);
  });

  it('a bad number is a 422 with a clear message, and changes nothing', async () => {
    const before = await snapshot(tel.t.pool, TABLES);
    for (const bad of ['12345', '5005550101', '+0123', 'abc']) {
      expect422(await act(aToken, bad, 'answer'), 'number', 'Wrong phone number format!!');
    }
    expect((await act(aToken, FRONT_DESK, 'press', { digits: '1x' })).statusCode).toBe(422);
    expect(await snapshot(tel.t.pool, TABLES)).toEqual(before);
  });

  it('answer, press 1 and answer again drive a real callback to both phones in a call', async () => {
    // Nothing rings yet: answering is refused in plain words.
    const early = await act(aToken, DOCTOR, 'answer');
    expect(early.statusCode, early.body).toBe(409);
    expect(early.json().message).toBe('This phone is not ringing.');

    const cb = await callback(aToken, { install_id: aInstall, phone: VISITOR, name: 'Vera' });
    expect(cb.statusCode, cb.body).toBe(200);
    expect(cb.json().data).toMatchObject({ status: 'calling', call_id: expect.any(Number) });
    await run(1000);

    expect((await phone(aToken, FRONT_DESK))?.state).toBe('ringing');
    const ringing = await phone(aToken, DOCTOR);
    expect(ringing).toMatchObject({ state: 'ringing', call: { from: A_NUMBER, to: DOCTOR } });

    // The second staff phone answers, hears the whisper, presses 1.
    expect((await act(aToken, DOCTOR, 'answer')).statusCode).toBe(200);
    await run(3000);
    const whispered = await phone(aToken, DOCTOR);
    expect(whispered?.state).toBe('in-call');
    expect(whispered?.call?.gathering).toBe(true);
    expect(whispered?.call?.heard.join(' ')).toMatch(/Press 1/);
    const pressed = await act(aToken, DOCTOR, 'press', { digits: '1' });
    expect(pressed.statusCode, pressed.body).toBe(200);
    await run(3000);

    // The first stops ringing; the visitor's phone rings from the install's number.
    expect((await phone(aToken, FRONT_DESK))?.state).toBe('idle');
    const visitor = await phone(aToken, VISITOR);
    expect(visitor).toMatchObject({ label: 'Visitor · Vera', state: 'ringing', call: { from: A_NUMBER } });
    expect((await act(aToken, VISITOR, 'answer')).statusCode).toBe(200);
    await run(1000);

    const doctor = await phone(aToken, DOCTOR);
    const vera = await phone(aToken, VISITOR);
    expect(doctor).toMatchObject({ state: 'in-call', call: { bridged_with: VISITOR } });
    // The claim answers the visitor's <Dial> at once, with no prompt before it (ADR 028).
    expect(doctor?.call?.heard.join(' ')).toContain('Press 1 to connect.');
    expect(vera).toMatchObject({ state: 'in-call', call: { bridged_with: DOCTOR } });

    // Another business sees none of it, and may not touch these phones.
    const seenByB = (await tel.t.app.inject({ url: '/api/v1/sandbox/phones', headers: bearer(bToken) }))
      .statusCode;
    expect(seenByB).toBe(404); // B is not on the sandbox yet
    await useSandbox(tel.seed.b.agency.id, true);
    expect((await get(bToken)).map((p) => p.number)).toEqual([B_STAFF]);
    const before = await snapshot(tel.t.pool, TABLES);
    for (const [number, action, payload] of [
      [DOCTOR, 'hangup', {}],
      [VISITOR, 'press', { digits: '1' }],
      [FRONT_DESK, 'answer', {}],
      [VISITOR, 'texts', { to: B_NUMBER, body: 'hi' }],
    ] as const) {
      const res = await act(bToken, number, action, payload);
      expect(res.statusCode, `${action} ${number}: ${res.body}`).toBe(404);
    }
    // Nor ask for a callback from A's install.
    const cross = await callback(bToken, { install_id: aInstall, phone: '+14155550999' });
    expect(cross.statusCode, cross.body).toBe(404);
    expect(await snapshot(tel.t.pool, TABLES)).toEqual(before);
    expect((await phone(aToken, DOCTOR))?.state).toBe('in-call');

    // The visitor hangs up: both phones are idle, the call completed.
    expect((await act(aToken, VISITOR, 'hangup')).statusCode).toBe(200);
    await run(2000);
    expect((await phone(aToken, DOCTOR))?.state).toBe('idle');
    expect((await phone(aToken, VISITOR))?.state).toBe('idle');
    const hangUpAgain = await act(aToken, VISITOR, 'hangup');
    expect(hangUpAgain.statusCode).toBe(409);
    expect(hangUpAgain.json().message).toBe('This phone is not in a call.');
    const [call] = await rows(tel.t, 'select outcome, agent_phone from calls where id = $1', [
      cb.json().data.call_id,
    ]);
    expect(call).toEqual({ outcome: 'completed', agent_phone: DOCTOR });
  });

  it('a new phone texts and calls the business’s number: it becomes the business’s to see, not another’s', async () => {
    const caller = '+14155550444';
    // The install's number answers in the sandbox once it is one of the account's numbers there.
    expect422(
      await act(aToken, caller, 'texts', { to: A_NUMBER, body: 'Are you open?' }),
      'to',
      "This number does not answer in the sandbox: it is not one of the account's numbers yet.",
    );
    const [agency] = await rows(tel.t, 'select twilio_config from agencies where id = $1', [
      tel.seed.a.agency.id,
    ]);
    // Under the sid the number has at a start (texts are the business's through its numbers' sids).
    const [number] = await rows(tel.t, 'select * from numbers where phone_number = $1', [A_NUMBER]);
    tel.sandbox.restoreIncomingNumber(agency.twilio_config.accountSid, {
      sid: sandboxNumberSid(number),
      phoneNumber: A_NUMBER,
      voiceUrl: 'http://localhost:3000/webhooks/twilio/voice',
      smsUrl: 'http://localhost:3000/webhooks/twilio/sms-in',
    });
    const text = await act(aToken, caller, 'texts', { to: A_NUMBER, body: 'Are you open?' });
    expect(text.statusCode, text.body).toBe(200);
    await run(1000);
    expect(await phone(aToken, caller)).toMatchObject({
      label: caller,
      texts: [{ direction: 'out', other: A_NUMBER, body: 'Are you open?' }],
    });
    expect(await phone(bToken, caller)).toBeUndefined();
    // B may not drive a phone it does not see.
    expect((await act(bToken, caller, 'hangup')).statusCode).toBe(404);

    // It calls the number: an inbound call the sandbox places to the product's voice webhook.
    const dial = await act(aToken, caller, 'dial', { to: A_NUMBER });
    expect(dial.statusCode, dial.body).toBe(200);
    await run(1000);
    const placed = [...tel.sandbox.calls.values()].filter(
      (c) => c.direction === 'inbound' && c.from === caller,
    );
    expect(placed.map((c) => c.to)).toEqual([A_NUMBER]);
    expect(await phone(aToken, caller)).toMatchObject({
      state: 'in-call',
      call: { from: caller, to: A_NUMBER },
    });
    expect(await phone(bToken, caller)).toBeUndefined();
    // Its staff phones ring on the screen (the <Dial> legs are the business's through the caller's call),
    // and one answers and takes it there; another tenant sees nothing of them.
    expect((await phone(aToken, FRONT_DESK))?.state).toBe('ringing');
    expect((await phone(aToken, DOCTOR))?.state).toBe('ringing');
    expect((await phone(bToken, FRONT_DESK))?.state ?? 'idle').toBe('idle');
    expect((await act(aToken, FRONT_DESK, 'answer')).statusCode).toBe(200);
    await run(4000);
    expect((await phone(aToken, FRONT_DESK))?.call?.gathering).toBe(true);
    expect((await act(aToken, FRONT_DESK, 'press', { digits: '1' })).statusCode).toBe(200);
    await run(1000);
    expect((await phone(aToken, caller))?.call?.bridged_with).toBe(FRONT_DESK);
    expect((await act(aToken, caller, 'hangup')).statusCode).toBe(200);
    await run(1000);
    expect((await phone(aToken, caller))?.state).toBe('idle');
  });

  it('texts and calls go only to one of the business’s own numbers', async () => {
    const res = await act(aToken, '+14155550777', 'texts', { to: B_NUMBER, body: 'hello' });
    expect422(res, 'to', "Sandbox phones can only text or call one of your business's numbers.");
    const dial = await act(aToken, '+14155550777', 'dial', { to: '+14155550778' });
    expect(dial.statusCode).toBe(422);
  });

  it('needs the calls capability in a business: the agency reaches it by impersonating a business user', async () => {
    const agency = await login(tel.t.app, tel.seed.a.agencyAdmin.email);
    const res = await tel.t.app.inject({ url: '/api/v1/sandbox/phones', headers: bearer(agency) });
    expect(res.statusCode).toBe(403);
    const imp = await tel.t.app.inject({
      method: 'POST',
      url: `/api/v1/impersonate/${tel.seed.a.businessAdmin.id}`,
      headers: bearer(agency),
    });
    expect(imp.statusCode, imp.body).toBe(200);
    const asBusiness = imp.json().access_token as string;
    expect((await get(asBusiness)).map((p) => p.number)).toEqual(
      expect.arrayContaining([FRONT_DESK, DOCTOR]),
    );
    // A business user whose pages do not include calls may not play the phones either.
    const noCalls = await addBusinessUser(tel.t, tel.seed.a.business.id, 'nocalls@a.test', '4', [
      'contacts_page',
    ]);
    const denied = await tel.t.app.inject({
      method: 'POST',
      url: `/api/v1/sandbox/phones/${encodeURIComponent(FRONT_DESK)}/answer`,
      headers: bearer(await login(tel.t.app, noCalls.email)),
    });
    expect(denied.statusCode).toBe(403);
  });
});

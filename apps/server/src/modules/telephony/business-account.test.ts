// A business's own carrier account (issue 26, ADR 093): the agency admin gives one business its own
// account through PUT /v1/agencies/{business_id}/twilio-config (checked with the carrier before saving);
// that business's callbacks, texts and webhooks then go through it, its agency's other businesses keep the
// agency's account, and `{ inherit: true }` puts it back. The sandbox carrier records each call's and
// text's account.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, PASSWORD } from '../../../test/helpers.ts';
import { tenantContext } from '../../platform/tenancy/context.ts';
import { twilioSignature } from '../../platform/webhooks/tree.ts';
import { agencyCarrierAccount } from '../agencies/service.ts';
import { addDemoNumber } from './service.ts';
import { ALWAYS_OPEN, STAFF_1, STAFF_2, type Telephony, telephonyApp } from './testing.ts';

let h: Telephony;
let agencySid: string;
const PUBLIC = 'http://localhost:3000';

const rows = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;
const A = () => h.seed.a.business.id;

/** PUT /v1/agencies/{id}/twilio-config as a user (agency A's admin unless told). */
async function setAccount(businessId: number, body: Record<string, unknown>, email?: string) {
  return h.t.app.inject({
    method: 'PUT',
    url: `/api/v1/agencies/${businessId}/twilio-config`,
    headers: bearer(await h.token(email ?? h.seed.a.agencyAdmin.email)),
    payload: body,
  });
}

/** The business's stored carrier account (the token opened), or null. */
async function storedAccount(businessId: number) {
  const [row] = await rows('select twilio_config from businesses where id = $1', [businessId]);
  const cfg = row?.twilio_config as { accountSid: string; authToken: string; sandbox?: boolean } | null;
  return cfg && { ...cfg, authToken: h.t.app.deps.secrets.open(cfg.authToken) };
}

/** The accounts the sandbox placed a callback's legs under. */
async function accountsOfCall(callId: number): Promise<string[]> {
  const legs = await rows('select call_sid from call_legs where call_id = $1', [callId]);
  expect(legs.length).toBeGreaterThan(0);
  return [...new Set(legs.map((l) => h.sandbox.calls.get(l.call_sid as string)?.accountSid ?? 'unknown'))];
}

/** A widget callback on the install: it rings the staff phones. The call's id. */
async function callbackOn(key: string, visitor: string): Promise<number> {
  const res = await h.callback(key, { phone: visitor, name: 'Ann' });
  expect(res.statusCode, res.body).toBe(200);
  const callId = res.json().data.call_id as number;
  await h.run(1000);
  // Nobody answers: the staff legs end, the phones are free for the next test.
  await h.run(60_000);
  return callId;
}

/** A carrier webhook as an account posts it: form-encoded, its sid, signed with `token`. */
function webhook(path: string, accountSid: string, token: string, params: Record<string, string>) {
  const body = { AccountSid: accountSid, ...params };
  return h.t.app.inject({
    method: 'POST',
    url: path,
    headers: {
      host: 'localhost:3000',
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioSignature(token, `${PUBLIC}${path}`, body),
    },
    payload: new URLSearchParams(body).toString(),
  });
}

let installA: { id: number; key: string };
let numberA: string;
let other: { businessId: number; key: string };

beforeAll(async () => {
  h = await telephonyApp();
  const agency = await agencyCarrierAccount(h.t.app.deps, h.seed.a.agency.id);
  if (!agency) throw new Error('no agency account');
  agencySid = agency.accountSid;
  installA = await h.install();
  [{ phone_number: numberA }] = await rows('select phone_number from numbers where install_id = $1', [
    installA.id,
  ]);

  // The agency's other business, added by its admin, with an install of its own and a number.
  const admin = bearer(await h.token(h.seed.a.agencyAdmin.email));
  await h.t.pool.query('update agencies set properties = jsonb_set(properties, $1, $2) where id = $3', [
    '{installs}',
    '1000',
    h.seed.a.agency.id,
  ]);
  const created = await h.t.app.inject({
    method: 'POST',
    url: '/api/v1/business',
    headers: admin,
    payload: {
      name: 'Second Business',
      number_of_installs: 5,
      owner: { email: 'second@a.test', first_name: 'Sam', password: PASSWORD },
    },
  });
  expect(created.statusCode, created.body).toBe(200);
  const businessId = created.json().data.id as number;
  const install = await h.t.app.inject({
    method: 'POST',
    url: '/api/v1/installs',
    headers: bearer(await h.token('second@a.test')),
    payload: {
      name: 'Second Site',
      website: 'https://second.example.test',
      settings: { timezone: 'UTC', hours: ALWAYS_OPEN, phoneAgents: [{ name: 'Desk', phone: STAFF_2 }] },
    },
  });
  expect(install.statusCode, install.body).toBe(200);
  const { id: installId, key } = install.json().data as { id: number; key: string };
  await addDemoNumber(
    tenantContext(
      h.t.app.deps,
      { level: 'business', agencyId: h.seed.a.agency.id, businessId },
      { kind: 'system', source: 'seed', name: 'test number' },
    ),
    { agencyId: h.seed.a.agency.id, businessId, installId, phoneNumber: '+15005559901' },
  );
  other = { businessId, key };
});
afterAll(() => h?.close());

describe("a business's own carrier account", () => {
  it('starts on the agency account; a refused token is a 422 on the token and changes nothing', async () => {
    const business = await h.t.app.inject({
      url: `/api/v1/business/${A()}`,
      headers: bearer(await h.token(h.seed.a.agencyAdmin.email)),
    });
    expect(business.statusCode, business.body).toBe(200);
    expect(business.json().data.carrier_account).toBeNull();

    const own = h.t.app.deps.carrier.createSandboxAccount('Business A on Twilio');
    const refused = await setAccount(A(), { accountSid: own.sid, authToken: 'not-the-token' });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().errors.authToken[0]).toBe('The account SID or auth token was refused by Twilio.');
    expect(await storedAccount(A())).toBeNull();
  });

  it('another agency cannot set it (404, nothing saved); an agency user may not (403)', async () => {
    const own = h.t.app.deps.carrier.createSandboxAccount('Not yours');
    const cross = await setAccount(
      A(),
      { accountSid: own.sid, authToken: own.authToken },
      h.seed.b.agencyAdmin.email,
    );
    expect(cross.statusCode, cross.body).toBe(404);
    const sandbox = await setAccount(A(), { sandbox: true }, h.seed.b.agencyAdmin.email);
    expect(sandbox.statusCode, sandbox.body).toBe(404);
    const user = await setAccount(A(), { sandbox: true }, h.seed.a.agencyUser.email);
    expect(user.statusCode, user.body).toBe(403);
    expect(await storedAccount(A())).toBeNull();
  });

  it('a Twilio account of its own is checked and stored sealed; the business shows it masked, never the token', async () => {
    const own = h.t.app.deps.carrier.createSandboxAccount('Business A on Twilio');
    const res = await setAccount(A(), { accountSid: own.sid, authToken: own.authToken });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Telephony account saved successfully.');
    expect(res.body).not.toContain(own.authToken);
    expect(res.body).not.toContain(own.sid);
    const masked = `AC${'*'.repeat(28)}${own.sid.slice(-4)}`;
    expect(res.json().data).toMatchObject({
      id: A(),
      carrier_account: { accountSid: masked, sandbox: false },
    });
    const [raw] = await rows('select twilio_config from businesses where id = $1', [A()]);
    expect(raw.twilio_config.authToken).not.toBe(own.authToken);
    expect(await storedAccount(A())).toEqual({ accountSid: own.sid, authToken: own.authToken });
    // The agency's own account is untouched.
    expect((await agencyCarrierAccount(h.t.app.deps, h.seed.a.agency.id))?.accountSid).toBe(agencySid);
    const get = await h.t.app.inject({
      url: `/api/v1/business/${A()}`,
      headers: bearer(await h.token(h.seed.a.agencyAdmin.email)),
    });
    expect(get.json().data.carrier_account).toEqual({ accountSid: masked, sandbox: false });
    expect(get.body).not.toContain(own.authToken);
  });

  it("with a sandbox account of its own, A's callback is placed under A's account only; the other business's under the agency's", async () => {
    const res = await setAccount(A(), { sandbox: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(
      'Sandbox chosen: calls and texts are simulated on the Sandbox Phones screen.',
    );
    const own = await storedAccount(A());
    expect(own?.sandbox).toBe(true);
    expect(own?.accountSid).not.toBe(agencySid);
    expect(h.sandbox.accounts.get(own?.accountSid ?? '')?.authToken).toBe(own?.authToken);

    const callA = await callbackOn(installA.key, '+14155550401');
    expect(await accountsOfCall(callA)).toEqual([own?.accountSid]);
    const staffLegs = [...h.sandbox.calls.values()].filter(
      (c) => c.accountSid === agencySid && (c.to === STAFF_1 || c.to === STAFF_2),
    );
    expect(staffLegs).toEqual([]);

    const callOther = await callbackOn(other.key, '+14155550402');
    expect(await accountsOfCall(callOther)).toEqual([agencySid]);
  });

  it("the inbound webhook of A's account, signed with A's token, is accepted and lands at A", async () => {
    const own = await storedAccount(A());
    if (!own) throw new Error('no own account');
    const from = '+14155550403';
    const params = {
      MessageSid: `SM${crypto.randomBytes(16).toString('hex')}`,
      From: from,
      To: numberA,
      Body: 'Hello A',
      NumMedia: '0',
    };
    // Signed with the agency's token instead: refused, nothing recorded.
    const forged = await webhook(
      '/webhooks/twilio/sms-in',
      own.accountSid,
      (await agencyToken()) ?? '',
      params,
    );
    expect(forged.statusCode).toBe(403);
    // Under the agency's account, A's number is not the agency's any more: nothing lands.
    const agencyOne = await webhook('/webhooks/twilio/sms-in', agencySid, (await agencyToken()) ?? '', {
      ...params,
      MessageSid: `SM${crypto.randomBytes(16).toString('hex')}`,
    });
    expect(agencyOne.statusCode).toBe(200);
    expect(await rows('select * from messages where body = $1', ['Hello A'])).toHaveLength(0);

    const res = await webhook('/webhooks/twilio/sms-in', own.accountSid, own.authToken, params);
    expect(res.statusCode, res.body).toBe(200);
    const msgs = await rows('select * from messages where carrier_sid = $1', [params.MessageSid]);
    expect(msgs).toHaveLength(1);
    expect(msgs[0]).toMatchObject({ direction: 'in', business_id: A(), body: 'Hello A' });
  });

  it("an outbound text from A's inbox goes through A's account", async () => {
    const own = await storedAccount(A());
    if (!own) throw new Error('no own account');
    const [contact] = await rows('select id from contacts where business_id = $1 and phone = $2', [
      A(),
      '+14155550403',
    ]);
    const res = await h.t.app.inject({
      method: 'POST',
      url: `/api/v1/chats/contacts/${contact.id}/messages`,
      headers: bearer(await h.token(h.seed.a.businessAdmin.email)),
      payload: { body: 'Hi from A' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const sent = h.sandbox.sentMessages({ to: '+14155550403' });
    expect(sent.map((m) => [m.body, m.accountSid])).toEqual([['Hi from A', own.accountSid]]);
  });

  it("a number A buys is bought in A's own account", async () => {
    const own = await storedAccount(A());
    const install = await h.install({}, { number: null });
    const admin = bearer(await h.token(h.seed.a.businessAdmin.email));
    const found = await h.t.app.inject({
      method: 'POST',
      url: '/api/v1/installs/search-phonenumber',
      headers: admin,
      payload: { country: 'US', area_code: 212 },
    });
    expect(found.statusCode, found.body).toBe(200);
    const phone = (found.json().data as { phone_number: string }[])[0]?.phone_number ?? '';
    const bought = await h.t.app.inject({
      method: 'POST',
      url: `/api/v1/installs/${install.id}/purchase-phonenumber`,
      headers: admin,
      payload: { phone_number: phone },
    });
    expect(bought.statusCode, bought.body).toBe(200);
    const incoming = [...h.sandbox.incomingNumbers.values()].filter((n) => n.phoneNumber === phone);
    expect(incoming.map((n) => n.accountSid)).toEqual([own?.accountSid]);
  });

  it("inherit puts A back on the agency's account at once", async () => {
    const res = await setAccount(A(), { inherit: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe("The business now uses the agency's telephony account.");
    expect(res.json().data.carrier_account).toBeNull();
    expect(await storedAccount(A())).toBeNull();
    const callA = await callbackOn(installA.key, '+14155550404');
    expect(await accountsOfCall(callA)).toEqual([agencySid]);
  });

  it('a platform admin still sets an agency account by the agency id; inherit is for businesses only', async () => {
    const admin = h.seed.admin;
    const refused = await setAccount(h.seed.b.agency.id, { inherit: true }, admin.email);
    expect(refused.statusCode, refused.body).toBe(422);
    const res = await setAccount(h.seed.b.agency.id, { sandbox: true }, admin.email);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: h.seed.b.agency.id });
    expect(await storedAccount(h.seed.b.business.id)).toBeNull();
  });
});

async function agencyToken(): Promise<string | null> {
  return (await agencyCarrierAccount(h.t.app.deps, h.seed.a.agency.id))?.authToken ?? null;
}

// SMS registration's consequences for broadcasts (issue 26, ADR 092, 095): a business of an agency that has
// begun registering cannot start a broadcast from a number that is not on its approved campaign (422 naming
// the number and why, nothing written), a scheduled one that comes due fails with the reason, a text from
// that number fails at the carrier with 30034 and the inbox keeps the code; once the campaign is approved
// (the sandbox's clock moved past its decisions, sync-campaign) the broadcast starts, paced at the
// campaign's throughput. A business of an agency that never began is not held. Real PostgreSQL, the sandbox
// carrier on a ManualClock (time moves only when the test moves it).
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, snapshot } from '../../../test/helpers.ts';
import { REVIEW_MS } from '../../platform/carrier/sandbox/registration.ts';
import { agencyCarrierAccount } from '../agencies/service.ts';
import { sleepingWorkers } from './clock.ts';
import {
  addBroadcaster,
  addContacts,
  addTag,
  type Broadcasts,
  broadcastsApp,
  installWithNumber,
  statusOf,
  until,
} from './test-support.ts';

let h: Broadcasts;
let n1: { installId: number; phone: string; numberId: number };
let broadcaster: number;
let tag: number;
const base = '/api/v1/broadcasts';
const PUBLIC = 'http://localhost:3000';
const TABLES = ['broadcasts', 'broadcast_recipients', 'messages'];

const as = (email: string) => async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  h.t.app.inject({
    method,
    url,
    headers: bearer(await h.token(email)),
    ...(payload ? { payload } : {}),
  });
const business = (...a: Parameters<ReturnType<typeof as>>) => as(h.seed.a.businessAdmin.email)(...a);
const agency = (...a: Parameters<ReturnType<typeof as>>) => as(h.seed.a.agencyAdmin.email)(...a);

const broadcast = (over: Record<string, unknown> = {}) => ({
  name: 'Spring sale',
  body: 'Bright Dental: 20% off whitening this month!',
  audience: { tag_ids: [tag] },
  broadcaster_ids: [broadcaster],
  ...over,
});

const PROFILE = {
  friendly_name: 'Bright Dental',
  email: 'compliance@brightdental.test',
  business: {
    legal_name: 'Bright Dental LLC',
    business_type: 'Limited Liability Corporation',
    industry: 'HEALTHCARE',
    ein: '12-3456789',
    website: 'https://brightdental.test',
  },
  representative: {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@brightdental.test',
    phone: '+14155550199',
    business_title: 'Owner',
    job_position: 'CEO',
  },
  address: {
    street: '1 Main St',
    city: 'San Francisco',
    region: 'CA',
    postal_code: '94105',
    iso_country: 'US',
  },
};

const UNREGISTERED =
  "Not registered: US carriers block texts at volume from this number until the agency's SMS registration is approved.";

beforeAll(async () => {
  h = await broadcastsApp();
  n1 = await installWithNumber(h);
  // The install's number is a number of agency A's sandbox account (the carrier knows its sid).
  const account = await agencyCarrierAccount(h.t.app.deps, h.seed.a.agency.id);
  if (!account) throw new Error('no account');
  const sid = `PN${crypto.randomBytes(16).toString('hex')}`;
  h.sandbox.restoreIncomingNumber(account.accountSid, {
    sid,
    phoneNumber: n1.phone,
    voiceUrl: `${PUBLIC}/webhooks/twilio/voice`,
    smsUrl: `${PUBLIC}/webhooks/twilio/sms-in`,
  });
  await h.q('update numbers set carrier_sid = $1 where id = $2', [sid, n1.numberId]);
  // Ten messages a second allowed by the number's own setting: the campaign's throughput will be lower.
  broadcaster = await addBroadcaster(h, n1, 10);
  tag = await addTag(h, 'Patients');
  await addContacts(h, { count: 6, installId: n1.installId, tagId: tag, prefix: '+1415900' });
});
afterAll(async () => {
  for (let i = 0; i < 20 && sleepingWorkers() > 0; i++) await h.clock.advance(3_600_000);
  await h?.close();
});

describe('an agency that has begun registering', () => {
  let draft = 0;
  let profileId = 0;

  it('is held once it has a customer profile', async () => {
    // Before: not held (a draft is saved either way).
    const saved = await business('POST', base, broadcast());
    expect(saved.statusCode, saved.body).toBe(200);
    draft = saved.json().data.id;
    const created = await agency('POST', '/api/v1/twilio/profiles', PROFILE);
    expect(created.statusCode, created.body).toBe(200);
    profileId = created.json().data.id;
    const status = await agency('GET', '/api/v1/twilio/campaign');
    expect(status.json().data).toMatchObject({
      required: true,
      registration: null,
      numbers: [{ phone_number: n1.phone, registered: false, reason: 'registration.number_unregistered' }],
    });
  });

  it('cannot start a broadcast from its unregistered number: 422 naming the number and why, nothing written', async () => {
    const before = await snapshot(h.t.pool, TABLES);
    const started = await business('POST', base, broadcast({ start: true }));
    expect(started.statusCode, started.body).toBe(422);
    expect(started.json()).toMatchObject({
      code: 'VALIDATION',
      message: `This broadcast cannot start: ${n1.phone} is not registered for texting. ${UNREGISTERED}`,
      reason: 'registration.number_unregistered',
      data: { number: n1.phone, reason: 'registration.number_unregistered' },
    });
    // The saved draft started: refused, and still a draft as it was.
    const put = await business('PUT', `${base}/${draft}`, broadcast({ start: true }));
    expect(put.statusCode, put.body).toBe(422);
    expect(put.json().message).toBe(
      `This broadcast cannot start: ${n1.phone} is not registered for texting. ${UNREGISTERED}`,
    );
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
    expect((await business('GET', `${base}/${draft}`)).json().data).toMatchObject({
      status: 'draft',
      failure: null,
    });
    // In the user's language (es): the reason too.
    const es = await h.t.app.inject({
      method: 'POST',
      url: base,
      headers: { ...bearer(await h.token(h.seed.a.businessAdmin.email)), 'accept-language': 'es' },
      payload: broadcast({ start: true }),
    });
    expect(es.statusCode).toBe(422);
    expect(es.json().message).toContain(n1.phone);
    expect(es.json().message).not.toContain('Not registered');
    expect(es.json().message).not.toContain('registration.');
    expect(h.sandbox.sentMessages({ from: n1.phone })).toEqual([]);
  });

  it('fails a scheduled broadcast that comes due from the unregistered number, with the reason', async () => {
    // In a second and a half (the start job waits as long on the wall clock).
    const at = new Date(h.clock.now() + 1500).toISOString();
    const res = await business('POST', base, broadcast({ name: 'Later', start: true, send_at: at }));
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.id as number;
    expect(res.json().data.status).toBe('scheduled');
    await until(async () => (await statusOf(h, id)) === 'failed', 20_000, 'the scheduled broadcast failed');
    expect((await business('GET', `${base}/${id}`)).json().data).toMatchObject({
      status: 'failed',
      failure: 'registration.number_unregistered',
      counts: { total: 0 },
    });
    // Re-run (with the audience's members) is a start too: refused the same way, nothing written.
    const before = await snapshot(h.t.pool, TABLES);
    const rerun = await business('POST', `${base}/${id}/rerun`, { include_new: true });
    expect(rerun.statusCode, rerun.body).toBe(422);
    expect(rerun.json()).toMatchObject({
      message: `This broadcast cannot start: ${n1.phone} is not registered for texting. ${UNREGISTERED}`,
      reason: 'registration.number_unregistered',
    });
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
    expect(h.sandbox.sentMessages({ from: n1.phone })).toEqual([]);
  });

  it("has a one-off text from the number failed by the carrier with 30034, kept on the inbox's message", async () => {
    const [contact] = await h.q<{ id: number }>(
      "select id from contacts where phone = '+14159000000' and business_id = $1",
      [h.seed.a.business.id],
    );
    const sent = await business('POST', `/api/v1/chats/contacts/${contact?.id}/messages`, { body: 'Hello' });
    expect(sent.statusCode, sent.body).toBe(200);
    const messageId = sent.json().data.id as number;
    await h.run(5_000);
    await until(
      async () =>
        (await h.q<{ status: string }>('select status from messages where id = $1', [messageId]))[0]
          ?.status === 'failed',
      20_000,
      'the message failed',
    );
    const [row] = await h.q('select status, error_code from messages where id = $1', [messageId]);
    expect(row).toEqual({ status: 'failed', error_code: 30034 });
    const conversation = await business('GET', `/api/v1/chats/contacts/${contact?.id}/messages`);
    expect(conversation.statusCode, conversation.body).toBe(200);
    const shown = (conversation.json().data as { id: number; status: string; error_code: number }[]).find(
      (m) => m.id === messageId,
    );
    expect(shown).toMatchObject({ status: 'failed', error_code: 30034 });
  });

  it('starts once the campaign is approved, paced at the campaign throughput', async () => {
    const submitted = await agency('POST', `/api/v1/twilio/profiles/${profileId}/register`, {});
    expect(submitted.statusCode, submitted.body).toBe(200);
    const registered = await agency('POST', '/api/v1/twilio/register-campaign', {
      profile_id: profileId,
      // A low-volume brand: the sandbox's campaign allows 4 messages a second.
      brand: {
        email: 'compliance@brightdental.test',
        company_type: 'private',
        brand_type: 'LOW_VOLUME_STANDARD',
      },
      campaign: {
        use_case: 'MIXED',
        description: 'Appointment reminders and occasional offers for the patients of Bright Dental LLC.',
        sample_messages: [
          'Bright Dental LLC: your cleaning is tomorrow at 10am. Reply STOP to opt out.',
          'Bright Dental LLC: 20% off whitening this month. Reply STOP to opt out.',
        ],
        message_flow:
          'Patients opt in on the booking form at https://brightdental.test/book by ticking a box.',
      },
    });
    expect(registered.statusCode, registered.body).toBe(200);
    // The profile's and the brand's decisions, then the campaign filed by the sync, then its decision.
    await h.run(REVIEW_MS + 2 * 60_000);
    const filed = await agency('POST', '/api/v1/twilio/sync-campaign', {});
    expect(filed.statusCode, filed.body).toBe(200);
    expect(filed.json().data.registration).toMatchObject({ status: 'campaign-pending' });
    // In review: still refused.
    expect((await business('PUT', `${base}/${draft}`, broadcast({ start: true }))).statusCode).toBe(422);
    await h.run(REVIEW_MS);
    const approved = await agency('POST', '/api/v1/twilio/sync-campaign', {});
    expect(approved.json().data).toMatchObject({
      registration: { status: 'approved', campaign: { status: 'VERIFIED', throughput_mps: 4 } },
      numbers: [{ phone_number: n1.phone, registered: true, reason: null }],
    });

    // The broadcast's pace: each worker wait is one interval; the clock moves a quarter second at a time.
    const t0 = h.clock.now();
    const res = await business('PUT', `${base}/${draft}`, broadcast({ start: true }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.status).toBe('sending');
    await until(() => sleepingWorkers() === 1, 20_000, 'the worker waiting for its next slot');
    for (let i = 0; i < 20 && (await statusOf(h, draft)) !== 'completed'; i++) {
      await h.clock.advance(250);
      await until(
        async () => sleepingWorkers() === 1 || (await statusOf(h, draft)) === 'completed',
        20_000,
        'the worker waiting again',
      );
    }
    await until(async () => (await statusOf(h, draft)) === 'completed', 20_000, 'completed');
    const taken = h.sandbox.sentMessages({ from: n1.phone }).filter((m) => m.dateCreated >= t0);
    const times = taken.filter((m) => m.body.startsWith('Bright Dental: 20%')).map((m) => m.dateCreated - t0);
    // Four a second (the campaign's), not ten (the number's own setting).
    expect(times).toEqual([0, 250, 500, 750, 1000, 1250]);
    await h.run(5_000);
    expect(
      h.sandbox
        .sentMessages({ from: n1.phone })
        .filter((m) => m.dateCreated >= t0)
        .map((m) => [m.status, m.errorCode]),
    ).toEqual(Array(6).fill(['delivered', null]));
  });
});

describe('an agency that never began registering', () => {
  it("starts its business's broadcast from its number as before", async () => {
    const b = h.seed.b;
    const install = await h.install({}, { tenant: 'b' });
    const [t] = await h.q<{ id: number }>(
      'insert into tags (business_id, name) values ($1, $2) returning id',
      [b.business.id, 'B patients'],
    );
    for (const phone of ['+14159100000', '+14159100001']) {
      const [c] = await h.q<{ id: number }>(
        "insert into contacts (agency_id, business_id, phone, first_name, install_id, time_zone) values ($1, $2, $3, 'Bo', $4, 'UTC') returning id",
        [b.agency.id, b.business.id, phone, install.id],
      );
      await h.q('insert into contact_tags (contact_id, tag_id) values ($1, $2)', [c?.id, t?.id]);
    }
    const status = await as(b.agencyAdmin.email)('GET', '/api/v1/twilio/campaign');
    expect(status.json().data.required).toBe(false);
    const res = await as(b.businessAdmin.email)('POST', base, {
      name: 'B sale',
      body: 'Sale at B',
      audience: { tag_ids: [t?.id] },
      start: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.status).toBe('sending');
    const id = res.json().data.id as number;
    // One a second from the install's number: the clock moves until both are sent, and they go as before.
    for (let i = 0; i < 5 && (await statusOf(h, id)) !== 'completed'; i++) {
      await until(
        async () => sleepingWorkers() === 1 || (await statusOf(h, id)) === 'completed',
        20_000,
        'the worker waiting',
      );
      await h.clock.advance(1000);
    }
    await until(async () => (await statusOf(h, id)) === 'completed', 20_000, 'completed');
    const [row] = await h.q<{ phone_number: string }>(
      'select phone_number from numbers where install_id = $1',
      [install.id],
    );
    await h.run(5_000);
    expect(
      h.sandbox.sentMessages({ from: row?.phone_number }).map((m) => [m.to, m.status, m.errorCode]),
    ).toEqual([
      ['+14159100000', 'delivered', null],
      ['+14159100001', 'delivered', null],
    ]);
  });
});

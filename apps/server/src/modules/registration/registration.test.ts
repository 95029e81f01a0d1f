// SMS registration (issue 26, ADR 092): every catalogue call of the area through the HTTP API, against the
// sandbox carrier's emulation of TrustHub, A2P 10DLC and toll-free verification, on its manual clock. The
// carrier decides 3 minutes (of its clock) after a submission; the status webhooks and the sync follow it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../../test/helpers.ts';
import {
  FAILING_EIN,
  REJECTED_WEBSITE,
  REVIEW_MS,
  SAMPLE_FAILURE_CODE,
} from '../../platform/carrier/sandbox/registration.ts';
import { platformSystemContext } from '../../platform/tenancy/context.ts';
import { restoreSandboxNumbers } from '../telephony/service.ts';
import { type Telephony, telephonyApp } from '../telephony/testing.ts';
import { registrationSyncJob } from './jobs.ts';

let h: Telephony;
let agencyA: string;
let agencyB: string;
let bizA: string;
let bizUserA: string;

const TOLLFREE = '+18005550142';
let localInstall: { id: number };
let tollfreeInstall: { id: number };

beforeAll(async () => {
  h = await telephonyApp({ LOG_LEVEL: process.env.TEST_LOG ?? 'silent' });
  agencyA = await h.token(h.seed.a.agencyAdmin.email);
  agencyB = await h.token(h.seed.b.agencyAdmin.email);
  bizA = await h.token(h.seed.a.businessAdmin.email);
  bizUserA = await h.token(h.seed.a.businessUser.email);
  localInstall = await h.install({}, { number: '+14155550161' });
  tollfreeInstall = await h.install({}, { number: TOLLFREE });
  // The numbers as the sandbox knows them after a start (a seeded number's derived sid).
  await restoreSandboxNumbers(platformSystemContext(h.t.app.deps, 'job', 'test numbers'));
}, 120_000);
afterAll(() => h?.close());

const call = (tok: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
  h.t.app.inject({
    method,
    url: `/api${url}`,
    headers: bearer(tok),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const profile = (over: { ein?: string; legal?: string; postal?: string; name?: string } = {}) => ({
  friendly_name: over.name ?? 'Acme Callbacks LLC',
  email: 'compliance@acme.test',
  business: {
    legal_name: over.legal ?? 'Acme Callbacks LLC',
    business_type: 'Limited Liability Corporation',
    industry: 'PROFESSIONAL_SERVICES',
    ein: over.ein ?? '12-3456789',
    website: 'https://acme.test',
  },
  representative: {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@acme.test',
    phone: '+14155550199',
    business_title: 'Owner',
    job_position: 'CEO',
  },
  address: {
    street: '1 Main St',
    city: 'San Francisco',
    region: 'CA',
    postal_code: over.postal ?? '94105',
    iso_country: 'us',
  },
});

const campaign = (profileId: number, samples?: string[]) => ({
  profile_id: profileId,
  brand: { email: 'compliance@acme.test', company_type: 'private' },
  campaign: {
    use_case: 'MIXED',
    description:
      'Appointment reminders and replies to callback requests for the clients of Acme Callbacks LLC.',
    sample_messages: samples ?? [
      'Acme Callbacks LLC: your appointment is tomorrow at 10am. Reply STOP to opt out.',
      'Acme Callbacks LLC: thanks for your callback request, we will call you shortly.',
    ],
    message_flow:
      'Visitors ask for a callback or text us on the website widget, which says they agree to receive texts.',
    has_embedded_links: false,
    has_embedded_phone: false,
  },
});

const agencyProps = async (agencyId: number) =>
  (await h.t.pool.query('select properties from agencies where id = $1', [agencyId])).rows[0]
    .properties as Record<string, unknown>;

/** Moves the sandbox's clock past its review time and lets what fell due (webhooks included) run. */
async function decide(): Promise<void> {
  await h.clock.advance(REVIEW_MS + 1_000);
  await h.clock.settle();
}

/** Waits (by state, not by time) until the agency's profile of that id has the status. */
async function profileStatus(tok: string, id: number, status: string) {
  for (let i = 0; i < 200; i++) {
    const res = await call(tok, 'GET', `/v1/twilio/profiles/${id}`);
    if (res.json().data.status === status) return res.json().data;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`profile ${id} never became ${status}`);
}

describe('customer profiles', () => {
  let draftId = 0;

  it('refuses bad input with the field messages and writes nothing', async () => {
    const res = await call(agencyA, 'POST', '/v1/twilio/profiles', profile({ ein: '12345' }));
    expect(res.statusCode, res.body).toBe(422);
    expect(JSON.stringify(res.json())).toContain('12-3456789');
    const list = await call(agencyA, 'GET', '/v1/twilio/profiles');
    expect(list.json().data).toEqual([]);
  });

  it('creates a draft at the carrier, lists it, reads it, changes it while a draft', async () => {
    const res = await call(agencyA, 'POST', '/v1/twilio/profiles', profile({ name: 'Acme first' }));
    expect(res.statusCode, res.body).toBe(200);
    const p = res.json().data;
    expect(p.sid).toMatch(/^BU[0-9a-f]{32}$/);
    expect(p.status).toBe('draft');
    expect(p.address.iso_country).toBe('US');
    draftId = p.id;
    const list = await call(agencyA, 'GET', '/v1/twilio/profiles');
    expect(list.json().data.map((x: { id: number }) => x.id)).toEqual([draftId]);
    const changed = await call(agencyA, 'POST', '/v1/twilio/profiles', {
      ...profile({ name: 'Acme renamed' }),
      id: draftId,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await call(agencyA, 'GET', `/v1/twilio/profiles/${draftId}`)).json().data.friendly_name).toBe(
      'Acme renamed',
    );
    // The first banner stays until a profile is submitted.
    expect((await agencyProps(h.seed.a.agency.id)).twProfileSid).toBeUndefined();
  });

  it('keeps each agency to its own profiles and the agency admin only', async () => {
    expect((await call(agencyB, 'GET', `/v1/twilio/profiles/${draftId}`)).statusCode).toBe(404);
    expect((await call(agencyB, 'POST', `/v1/twilio/profiles/${draftId}/register`)).statusCode).toBe(404);
    expect((await call(agencyB, 'DELETE', `/v1/twilio/profiles/${draftId}`)).statusCode).toBe(404);
    expect((await call(bizA, 'GET', '/v1/twilio/profiles')).statusCode).toBe(403);
    expect((await call(bizA, 'POST', '/v1/twilio/register-campaign', campaign(draftId))).statusCode).toBe(
      403,
    );
  });

  it('validates, submits (the first banner goes), then refuses changes; set-mian marks the primary', async () => {
    const v = await call(agencyA, 'POST', `/v1/twilio/profiles/${draftId}/validate`);
    expect(v.statusCode, v.body).toBe(200);
    expect(v.json().data.compliant).toBe(true);
    expect(v.json().data.problems).toEqual([]);
    const sid = v.json().data.profile.sid as string;
    const reg = await call(agencyA, 'POST', `/v1/twilio/profiles/${sid}/register`);
    expect(reg.statusCode, reg.body).toBe(200);
    expect(['pending-review', 'in-review']).toContain(reg.json().data.status);
    expect((await agencyProps(h.seed.a.agency.id)).twProfileSid).toBe(sid);
    const again = await call(agencyA, 'POST', `/v1/twilio/profiles/${draftId}/register`);
    expect(again.statusCode).toBe(409);
    const change = await call(agencyA, 'POST', '/v1/twilio/profiles', { ...profile(), id: draftId });
    expect(change.statusCode).toBe(409);
    const main = await call(agencyA, 'POST', `/v1/twilio/profiles/${draftId}/set-mian`);
    expect(main.statusCode, main.body).toBe(200);
    expect(main.json().data.is_primary).toBe(true);
    expect((await agencyProps(h.seed.a.agency.id)).twPrimaryProfileSid).toBe(sid);
    // The carrier decides on its clock; its signed status webhook brings the decision in.
    await decide();
    await profileStatus(agencyA, draftId, 'twilio-approved');
  });

  it("shows a rejected profile with the carrier's reasons, and lets it be fixed and submitted again", async () => {
    const res = await call(
      agencyA,
      'POST',
      '/v1/twilio/profiles',
      profile({ name: 'Bad address', postal: '00000' }),
    );
    const id = res.json().data.id as number;
    expect((await call(agencyA, 'POST', `/v1/twilio/profiles/${id}/register`)).statusCode).toBe(200);
    await decide();
    const rejected = await profileStatus(agencyA, id, 'twilio-rejected');
    expect(rejected.reasons.join(' ')).toMatch(/address/i);
    const fixed = await call(agencyA, 'POST', '/v1/twilio/profiles', {
      ...profile({ name: 'Bad address' }),
      id,
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json().data.status).toBe('draft');
    expect((await call(agencyA, 'POST', `/v1/twilio/profiles/${id}/register`)).statusCode).toBe(200);
    await decide();
    await profileStatus(agencyA, id, 'twilio-approved');
    // Not in use: it can go.
    const del = await call(agencyA, 'DELETE', `/v1/twilio/profiles/${id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect((await call(agencyA, 'GET', `/v1/twilio/profiles/${id}`)).statusCode).toBe(404);
  });
});

describe('brand and campaign', () => {
  it('refuses a draft profile and a campaign with one sample, writing nothing', async () => {
    const draft = await call(agencyB, 'POST', '/v1/twilio/profiles', profile({ name: 'B draft' }));
    const id = draft.json().data.id as number;
    const res = await call(agencyB, 'POST', '/v1/twilio/register-campaign', campaign(id));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().fields?.profile_id ?? res.body).toBeTruthy();
    const one = await call(
      agencyB,
      'POST',
      '/v1/twilio/register-campaign',
      campaign(id, ['Only one sample message here.']),
    );
    expect(one.statusCode).toBe(422);
    expect((await call(agencyB, 'GET', '/v1/twilio/campaign')).json().data.registration).toBeNull();
  });

  it("registers brand then campaign on the carrier's clock; approved: the second banner goes, numbers registered", async () => {
    const [p] = (await call(agencyA, 'GET', '/v1/twilio/profiles')).json().data as { id: number }[];
    const before = await call(agencyA, 'GET', '/v1/twilio/campaign');
    expect(before.json().data.registration).toBeNull();
    expect(before.json().data.required).toBe(true);
    const local = before
      .json()
      .data.numbers.find((n: { phone_number: string }) => n.phone_number === '+14155550161');
    expect(local).toMatchObject({
      registered: false,
      reason: 'registration.number_unregistered',
      toll_free: false,
    });

    const res = await call(
      agencyA,
      'POST',
      '/v1/twilio/register-campaign',
      campaign(p?.id ?? 0, [
        'Your appointment is tomorrow at 10am. Reply STOP to opt out.',
        'Thanks for your callback request, we will call you shortly.',
      ]),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.registration.status).toBe('brand-pending');
    expect(res.json().data.registration.brand.sid).toMatch(/^BN/);
    expect((await agencyProps(h.seed.a.agency.id)).sendRegistration).toBe(true);
    // Twice while the carrier decides: refused.
    expect(
      (await call(agencyA, 'POST', '/v1/twilio/register-campaign', campaign(p?.id ?? 0))).statusCode,
    ).toBe(409);

    await decide();
    const brand = await call(agencyA, 'POST', '/v1/twilio/sync-campaign');
    expect(brand.statusCode, brand.body).toBe(200);
    const r1 = brand.json().data.registration;
    expect(r1.brand.status).toBe('APPROVED');
    expect(r1.status).toBe('campaign-pending');
    expect(r1.messaging_service_sid).toMatch(/^MG/);
    expect(r1.campaign.sid).toMatch(/^QE/);
    expect((await agencyProps(h.seed.a.agency.id)).twCampaignSid).toBeUndefined();

    // The samples do not name the business: the campaign fails with the carrier's code and reason.
    await decide();
    const failed = (await call(agencyA, 'POST', '/v1/twilio/sync-campaign')).json().data;
    expect(failed.registration.status).toBe('failed');
    expect(failed.registration.campaign.failures[0].code).toBe(SAMPLE_FAILURE_CODE);

    // Fixed and filed again on the same brand and Messaging Service.
    const fix = await call(agencyA, 'POST', '/v1/twilio/register-campaign', campaign(p?.id ?? 0));
    expect(fix.statusCode, fix.body).toBe(200);
    const r2 = fix.json().data.registration;
    expect(r2.status).toBe('campaign-pending');
    expect(r2.brand.sid).toBe(r1.brand.sid);
    expect(r2.messaging_service_sid).toBe(r1.messaging_service_sid);
    expect(r2.campaign.sid).not.toBe(r1.campaign.sid);

    await decide();
    // The per-minute job's work, as the job runs it (the route is the same function).
    const done = (await call(agencyA, 'POST', '/v1/twilio/sync-campaign')).json().data;
    expect(done.registration.status).toBe('approved');
    expect(done.registration.campaign.status).toBe('VERIFIED');
    expect(done.registration.campaign.throughput_mps).toBeGreaterThan(0);
    expect(done.registration.campaign.campaign_id).toBeTruthy();
    expect((await agencyProps(h.seed.a.agency.id)).twCampaignSid).toBe(r2.campaign.sid);
    const n = done.numbers.find((x: { phone_number: string }) => x.phone_number === '+14155550161');
    expect(n).toMatchObject({ registered: true, reason: null });
    // The toll-free number is not covered by the campaign.
    const tf = done.numbers.find((x: { phone_number: string }) => x.phone_number === TOLLFREE);
    expect(tf).toMatchObject({
      registered: false,
      toll_free: true,
      reason: 'registration.number_tollfree_unverified',
    });
    // An approved registration is not registered twice; the profile under it cannot go.
    expect(
      (await call(agencyA, 'POST', '/v1/twilio/register-campaign', campaign(p?.id ?? 0))).statusCode,
    ).toBe(409);
    expect((await call(agencyA, 'DELETE', `/v1/twilio/profiles/${p?.id}`)).statusCode).toBe(422);
  });

  it("shows a business its own numbers and the agency's registration; other business roles are refused", async () => {
    const res = await call(bizA, 'GET', '/v1/twilio/campaign');
    expect(res.statusCode, res.body).toBe(200);
    const phones = res
      .json()
      .data.numbers.map((n: { phone_number: string }) => n.phone_number)
      .sort();
    expect(phones).toEqual(['+14155550161', TOLLFREE].sort());
    expect(res.json().data.registration.status).toBe('approved');
    const other = await call(await h.token(h.seed.b.businessAdmin.email), 'GET', '/v1/twilio/campaign');
    expect(other.json().data.registration).toBeNull();
    expect((await call(bizUserA, 'GET', '/v1/twilio/campaign')).statusCode).toBe(403);
  });

  it("does not hold a business on its own carrier account to the agency's campaign, and holds it again after", async () => {
    const url = `/v1/agencies/${h.seed.a.business.id}/twilio-config`;
    const local = async () =>
      (await call(agencyA, 'GET', '/v1/twilio/campaign'))
        .json()
        .data.numbers.find((n: { phone_number: string }) => n.phone_number === '+14155550161');
    const own = await h.t.app.inject({
      method: 'PUT',
      url: `/api${url}`,
      headers: bearer(agencyA),
      payload: { sandbox: true },
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(await local()).toMatchObject({ registered: false, reason: 'registration.number_own_account' });
    const back = await h.t.app.inject({
      method: 'PUT',
      url: `/api${url}`,
      headers: bearer(agencyA),
      payload: { inherit: true },
    });
    expect(back.statusCode, back.body).toBe(200);
    expect(await local()).toMatchObject({ registered: true, reason: null });
  });

  it('fails a brand whose EIN the registry cannot match, and takes a new profile to fix it', async () => {
    const bad = await call(
      agencyB,
      'POST',
      '/v1/twilio/profiles',
      profile({ name: 'B bad EIN', ein: FAILING_EIN }),
    );
    const badId = bad.json().data.id as number;
    expect((await call(agencyB, 'POST', `/v1/twilio/profiles/${badId}/register`)).statusCode).toBe(200);
    // Pressed twice at the same moment: one registration, the other press told it is with the carrier.
    const both = await Promise.all([
      call(agencyB, 'POST', '/v1/twilio/register-campaign', campaign(badId)),
      call(agencyB, 'POST', '/v1/twilio/register-campaign', campaign(badId)),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const rows = await h.t.pool.query('select brand_sid from carrier_campaigns where agency_id = $1', [
      h.seed.b.agency.id,
    ]);
    expect(rows.rows).toHaveLength(1);
    await decide();
    const failed = (await call(agencyB, 'POST', '/v1/twilio/sync-campaign')).json().data.registration;
    expect(failed.status).toBe('failed');
    expect(failed.brand.status).toBe('FAILED');
    expect(failed.brand.reasons.join(' ')).toMatch(/EIN/);

    const good = await call(agencyB, 'POST', '/v1/twilio/profiles', profile({ name: 'B good' }));
    const goodId = good.json().data.id as number;
    expect((await call(agencyB, 'POST', `/v1/twilio/profiles/${goodId}/register`)).statusCode).toBe(200);
    const fix = await call(agencyB, 'POST', '/v1/twilio/register-campaign', campaign(goodId));
    expect(fix.statusCode, fix.body).toBe(200);
    expect(fix.json().data.registration.brand.sid).not.toBe(failed.brand.sid);
    expect(fix.json().data.registration.status).toBe('brand-pending');
    await decide();
    await call(agencyB, 'POST', '/v1/twilio/sync-campaign');
    await decide();
    const done = (await call(agencyB, 'POST', '/v1/twilio/sync-campaign')).json().data.registration;
    expect(done.status).toBe('approved');
  });
});

describe('toll-free verification', () => {
  const verification = (website = 'https://acme.test') => ({
    business_name: 'Acme Callbacks LLC',
    business_website: website,
    notification_email: 'compliance@acme.test',
    use_case_categories: ['APPOINTMENTS'],
    use_case_summary: 'Appointment reminders for the clients who asked for them.',
    production_message_sample: 'Acme Callbacks LLC: your appointment is tomorrow at 10am.',
    opt_in_image_urls: ['https://acme.test/opt-in.png'],
    opt_in_type: 'WEB_FORM',
    message_volume: '1,000',
  });

  it("reads the install's number, refuses bad input and a local number", async () => {
    const none = await call(bizA, 'GET', `/v1/installs/${tollfreeInstall.id}/tollfree-verification`);
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json().data).toMatchObject({
      number: { phone_number: TOLLFREE, toll_free: true },
      verification: null,
    });
    const bad = await call(bizA, 'POST', `/v1/installs/${tollfreeInstall.id}/tollfree-verification`, {
      ...verification(),
      use_case_categories: [],
    });
    expect(bad.statusCode).toBe(422);
    const local = await call(
      bizA,
      'POST',
      `/v1/installs/${localInstall.id}/tollfree-verification`,
      verification(),
    );
    expect(local.statusCode).toBe(422);
    expect(local.json().message).toMatch(/toll-free/i);
    const other = await call(
      await h.token(h.seed.b.businessAdmin.email),
      'GET',
      `/v1/installs/${tollfreeInstall.id}/tollfree-verification`,
    );
    expect(other.statusCode).toBe(404);
  });

  it("is rejected with the carrier's reason and code, fixed, approved: the number is registered", async () => {
    const res = await call(
      bizA,
      'POST',
      `/v1/installs/${tollfreeInstall.id}/tollfree-verification`,
      verification(REJECTED_WEBSITE),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.verification.sid).toMatch(/^HH/);
    expect(
      (await call(bizA, 'POST', `/v1/installs/${tollfreeInstall.id}/tollfree-verification`, verification()))
        .statusCode,
    ).toBe(409);
    await decide();
    await call(agencyA, 'POST', '/v1/twilio/sync-campaign');
    const rejected = (
      await call(bizA, 'GET', `/v1/installs/${tollfreeInstall.id}/tollfree-verification`)
    ).json().data;
    expect(rejected.verification.status).toBe('TWILIO_REJECTED');
    expect(rejected.verification.rejection_reason).toBeTruthy();
    expect(rejected.verification.error_code).toBeGreaterThan(0);

    const fix = await call(
      bizA,
      'POST',
      `/v1/installs/${tollfreeInstall.id}/tollfree-verification`,
      verification(),
    );
    expect(fix.statusCode, fix.body).toBe(200);
    await decide();
    // This time the per-minute job finds it (no one pressed Refresh status).
    await registrationSyncJob.handler(h.t.app.deps, {}, undefined as never);
    const ok = (await call(bizA, 'GET', `/v1/installs/${tollfreeInstall.id}/tollfree-verification`)).json()
      .data;
    expect(ok.verification.status).toBe('TWILIO_APPROVED');
    const nums = (await call(bizA, 'GET', '/v1/twilio/campaign')).json().data.numbers;
    expect(nums.find((n: { phone_number: string }) => n.phone_number === TOLLFREE).registered).toBe(true);
  });
});

// Registration (issue 26, first part): the production adapter (the `twilio` SDK) against the sandbox's
// emulation of TrustHub, A2P brand and campaign registration and toll-free verification, in process and
// through the remote sandbox's HTTP forwarding (ADR 063). Time moves only on the sandbox's manual clock.
import Fastify, { type FastifyInstance } from 'fastify';
import twilio from 'twilio';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type Carrier,
  CarrierError,
  type CarrierValidationError,
  type CustomerProfileInput,
} from './carrier.ts';
import { RemoteSandboxCarrier, sandboxRestRoutes } from './remote-sandbox.ts';
import { ManualClock } from './sandbox/clock.ts';
import {
  EIN_FAILURE,
  REVIEW_MS,
  SAMPLE_FAILURE,
  TOLLFREE_REJECTION,
  TOLLFREE_REJECTION_CODE,
} from './sandbox/registration.ts';
import { type SandboxAccount, sandboxSid, TwilioSandbox } from './sandbox/sandbox.ts';

let clock: ManualClock;
let sandbox: TwilioSandbox;
let account: SandboxAccount;
let carrier: Carrier;

const LOCAL = '+14155550123';
const TOLLFREE = '+18005550100';
let localSid = '';
let tollfreeSid = '';

beforeEach(() => {
  clock = new ManualClock();
  sandbox = new TwilioSandbox({ clock });
  account = sandbox.createAccount({ friendlyName: 'Agency A' });
  carrier = sandbox.carrier(account.sid);
  localSid = sandbox.restoreIncomingNumber(account.sid, { sid: sandboxSid('PN'), phoneNumber: LOCAL }).sid;
  tollfreeSid = sandbox.restoreIncomingNumber(account.sid, {
    sid: sandboxSid('PN'),
    phoneNumber: TOLLFREE,
  }).sid;
});

const profileInput = (over: Partial<CustomerProfileInput> = {}): CustomerProfileInput => ({
  friendlyName: 'Bright Dental',
  email: 'compliance@brightdental.test',
  business: {
    legalName: 'Bright Dental LLC',
    businessType: 'Limited Liability Corporation',
    industry: 'HEALTHCARE',
    registrationNumber: '12-3456789',
    website: 'https://brightdental.test',
  },
  representative: {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@brightdental.test',
    phoneNumber: '+14155550199',
    businessTitle: 'Owner',
    jobPosition: 'CEO',
  },
  address: {
    street: '1 Main St',
    city: 'San Francisco',
    region: 'CA',
    postalCode: '94105',
    isoCountry: 'US',
  },
  ...over,
});

const campaignInput = (messagingServiceSid: string, brandRegistrationSid: string, samples?: string[]) => ({
  messagingServiceSid,
  brandRegistrationSid,
  useCase: 'MIXED',
  description: 'Appointment reminders and occasional offers for the patients of Bright Dental LLC.',
  sampleMessages: samples ?? [
    'Bright Dental LLC: your cleaning is tomorrow at 10am. Reply STOP to opt out.',
    'Bright Dental LLC: 20% off whitening this month. Reply STOP to opt out.',
  ],
  messageFlow: 'Patients opt in on the booking form at https://brightdental.test/book by ticking a box.',
  hasEmbeddedLinks: false,
  hasEmbeddedPhone: false,
  optInKeywords: ['START'],
  optInMessage: 'Bright Dental LLC: you are subscribed. Reply STOP to opt out.',
  optOutKeywords: ['STOP'],
  optOutMessage: 'Bright Dental LLC: you are unsubscribed.',
  helpKeywords: ['HELP'],
  helpMessage: 'Bright Dental LLC: call +14155550123 for help.',
});

const tollfreeInput = (website = 'https://brightdental.test') => ({
  tollfreePhoneNumberSid: tollfreeSid,
  businessName: 'Bright Dental LLC',
  businessWebsite: website,
  notificationEmail: 'compliance@brightdental.test',
  useCaseCategories: ['APPOINTMENTS'],
  useCaseSummary: 'Appointment reminders for patients who booked online.',
  productionMessageSample: 'Bright Dental LLC: your cleaning is tomorrow at 10am.',
  optInImageUrls: ['https://brightdental.test/opt-in.png'],
  optInType: 'WEB_FORM' as const,
  messageVolume: '1,000',
});

async function failure<T extends Error = CarrierError>(promise: Promise<unknown>): Promise<T> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CarrierError);
  return error as T;
}

/** A profile created, submitted and approved (three minutes of sandbox time). */
async function approvedProfile(c: Carrier = carrier, input = profileInput()) {
  const created = await c.createCustomerProfile(input);
  const { profile } = await c.submitCustomerProfile(created.sid);
  expect(profile.status).toBe('pending-review');
  await clock.advance(REVIEW_MS);
  return c.fetchCustomerProfile(created.sid);
}

describe('registration through the adapter on the sandbox', () => {
  it('takes a profile, a brand and a campaign from draft to approved as the clock moves', async () => {
    const created = await carrier.createCustomerProfile(profileInput());
    expect(created.sid).toMatch(/^BU[0-9a-f]{32}$/);
    expect(created).toMatchObject({
      friendlyName: 'Bright Dental',
      email: 'compliance@brightdental.test',
      status: 'draft',
      rejectionReasons: [],
      business: {
        legalName: 'Bright Dental LLC',
        businessType: 'Limited Liability Corporation',
        industry: 'HEALTHCARE',
        registrationNumber: '12-3456789',
        registrationIdentifier: 'EIN',
        website: 'https://brightdental.test',
        regionsOfOperation: 'USA_AND_CANADA',
      },
      representative: profileInput().representative,
      address: profileInput().address,
    });
    // The sandbox holds what Twilio would: the bundle, its end users, the address document.
    const bundle = sandbox.registration.bundles.get(created.sid);
    expect(bundle?.assignments).toHaveLength(3);

    const evaluation = await carrier.evaluateCustomerProfile(created.sid);
    expect(evaluation).toMatchObject({ compliant: true, problems: [] });
    expect(evaluation.sid).toMatch(/^EL/);

    const submitted = await carrier.submitCustomerProfile(created.sid);
    expect(submitted.profile.status).toBe('pending-review');
    await clock.settle();
    expect((await carrier.fetchCustomerProfile(created.sid)).status).toBe('in-review');
    await clock.advance(REVIEW_MS - 1);
    expect((await carrier.fetchCustomerProfile(created.sid)).status).toBe('in-review');

    // A brand may be registered while its profile is in review: it waits for the profile's decision.
    const brand = await carrier.createBrandRegistration({
      customerProfileSid: created.sid,
      email: 'compliance@brightdental.test',
      companyType: 'private',
    });
    expect(brand.sid).toMatch(/^BN[0-9a-f]{32}$/);
    expect(brand).toMatchObject({
      customerProfileSid: created.sid,
      brandType: 'STANDARD',
      status: 'PENDING',
      failureReasons: [],
      tcrId: null,
    });
    expect(brand.a2pProfileSid).toMatch(/^BU/);
    expect(sandbox.registration.bundles.get(brand.a2pProfileSid)?.status).toBe('pending-review');

    await clock.advance(1);
    expect((await carrier.fetchCustomerProfile(created.sid)).status).toBe('twilio-approved');
    expect((await carrier.fetchBrandRegistration(brand.sid)).status).toBe('PENDING');
    await clock.advance(REVIEW_MS);
    const approved = await carrier.fetchBrandRegistration(brand.sid);
    expect(approved).toMatchObject({ status: 'APPROVED', failureReasons: [], brandScore: 75 });
    expect(approved.tcrId).toMatch(/^B[0-9A-F]{6}$/);

    const service = await carrier.createMessagingService({ friendlyName: 'Bright Dental texts' });
    expect(service).toMatchObject({ friendlyName: 'Bright Dental texts', inboundRequestUrl: null });
    expect(service.sid).toMatch(/^MG[0-9a-f]{32}$/);
    await carrier.addNumberToMessagingService(service.sid, localSid);
    expect(sandbox.registration.services.get(service.sid)?.phoneNumberSids.has(localSid)).toBe(true);

    const campaign = await carrier.createCampaign(campaignInput(service.sid, brand.sid));
    expect(campaign.sid).toMatch(/^QE[0-9a-f]{32}$/);
    expect(campaign).toMatchObject({
      messagingServiceSid: service.sid,
      brandRegistrationSid: brand.sid,
      status: 'IN_PROGRESS',
      campaignId: null,
      useCase: 'MIXED',
      throughputMps: null,
      failures: [],
    });
    expect(campaign.sampleMessages).toHaveLength(2);
    const kept = sandbox.registration.campaigns.get(campaign.sid);
    expect(kept).toMatchObject({
      optInKeywords: ['START'],
      optOutKeywords: ['STOP'],
      helpKeywords: ['HELP'],
      helpMessage: 'Bright Dental LLC: call +14155550123 for help.',
    });
    await clock.advance(REVIEW_MS - 1);
    expect((await carrier.fetchCampaign(service.sid, campaign.sid)).status).toBe('IN_PROGRESS');
    await clock.advance(1);
    const verified = await carrier.fetchCampaign(service.sid, campaign.sid);
    expect(verified).toMatchObject({ status: 'VERIFIED', throughputMps: 75, failures: [] });
    expect(verified.campaignId).toMatch(/^C[0-9A-F]{6}$/);
  });

  it('evaluates what a profile lacks, refuses to submit it, and submits it once fixed', async () => {
    const input = profileInput();
    const created = await carrier.createCustomerProfile({
      ...input,
      business: { ...input.business, industry: '', website: '' },
      representative: { ...input.representative, phoneNumber: '' },
    });
    const evaluation = await carrier.evaluateCustomerProfile(created.sid);
    expect(evaluation.compliant).toBe(false);
    expect(evaluation.problems).toEqual(
      expect.arrayContaining([
        { part: 'business', field: 'industry', reason: 'business_industry is required' },
        { part: 'business', field: 'website', reason: 'website_url is required' },
        { part: 'representative', field: 'phoneNumber', reason: 'phone_number is required' },
      ]),
    );
    expect(evaluation.problems).toHaveLength(3);
    const refused = await carrier.submitCustomerProfile(created.sid);
    expect(refused.evaluation.compliant).toBe(false);
    expect(refused.profile.status).toBe('draft');
    await clock.advance(REVIEW_MS);
    expect((await carrier.fetchCustomerProfile(created.sid)).status).toBe('draft');

    // Submitting it anyway (the raw API) answers Twilio's 400.
    const raw = twilio(account.sid, account.authToken, { httpClient: sandbox.httpClient });
    const e = await raw.trusthub.v1
      .customerProfiles(created.sid)
      .update({ status: 'pending-review' })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(twilio.RestException);
    expect(e).toMatchObject({ status: 400, code: 20001 });

    const fixed = await carrier.updateCustomerProfile(created.sid, {
      business: input.business,
      representative: input.representative,
    });
    expect(fixed.business?.website).toBe('https://brightdental.test');
    expect(fixed.representative?.phoneNumber).toBe('+14155550199');
    const submitted = await carrier.submitCustomerProfile(created.sid);
    expect(submitted.evaluation.compliant).toBe(true);
    expect(submitted.profile.status).toBe('pending-review');
    await clock.advance(REVIEW_MS);
    expect((await carrier.fetchCustomerProfile(created.sid)).status).toBe('twilio-approved');
  });

  it('rejects a profile whose address cannot be verified, with the reason, and takes it again once fixed', async () => {
    const input = profileInput({ address: { ...profileInput().address, postalCode: '00000' } });
    const rejected = await approvedProfile(carrier, input);
    expect(rejected.status).toBe('twilio-rejected');
    expect(rejected.rejectionReasons).toEqual([
      'The business address could not be verified: the postal code does not exist',
    ]);
    // A profile in review cannot be changed; a rejected one is edited as a draft again.
    const fixed = await carrier.updateCustomerProfile(rejected.sid, {
      address: { ...input.address, postalCode: '94105' },
    });
    expect(fixed).toMatchObject({ status: 'draft', rejectionReasons: [] });
    expect(fixed.address?.postalCode).toBe('94105');
    await carrier.submitCustomerProfile(rejected.sid);
    await clock.settle();
    const inReview = await failure<CarrierValidationError>(
      carrier.updateCustomerProfile(rejected.sid, { friendlyName: 'Renamed' }),
    );
    expect(inReview).toMatchObject({ status: 400, kind: 'invalid-request', param: 'Status' });
    const addressInReview = await failure<CarrierValidationError>(
      carrier.updateCustomerProfile(rejected.sid, { address: { ...input.address, postalCode: '00000' } }),
    );
    expect(addressInReview.param).toBe('Status');
    expect((await carrier.fetchCustomerProfile(rejected.sid)).address?.postalCode).toBe('94105');
    // The API itself refuses changes in review too (Twilio's 400).
    const raw = twilio(account.sid, account.authToken, { httpClient: sandbox.httpClient });
    await expect(
      raw.trusthub.v1.customerProfiles(rejected.sid).update({ friendlyName: 'x' }),
    ).rejects.toMatchObject({
      status: 400,
      code: 20001,
    });
    await clock.advance(REVIEW_MS);
    expect((await carrier.fetchCustomerProfile(rejected.sid)).status).toBe('twilio-approved');
  });

  it('fails a brand whose EIN does not match, and a brand whose profile was rejected', async () => {
    const input = profileInput();
    const profile = await approvedProfile(
      carrier,
      profileInput({ business: { ...input.business, registrationNumber: '00-0000000' } }),
    );
    expect(profile.status).toBe('twilio-approved');
    const brand = await carrier.createBrandRegistration({
      customerProfileSid: profile.sid,
      email: 'compliance@brightdental.test',
      companyType: 'private',
    });
    await clock.advance(REVIEW_MS);
    const failed = await carrier.fetchBrandRegistration(brand.sid);
    expect(failed).toMatchObject({ status: 'FAILED', failureReasons: [EIN_FAILURE], tcrId: null });
    expect(EIN_FAILURE).toBe('TCR: the EIN does not match the legal name');

    // A campaign needs an approved brand.
    const service = await carrier.createMessagingService({ friendlyName: 'texts' });
    const refused = await failure<CarrierValidationError>(
      carrier.createCampaign(campaignInput(service.sid, brand.sid)),
    );
    expect(refused).toMatchObject({
      name: 'CarrierValidationError',
      param: 'BrandRegistrationSid',
      status: 400,
    });

    // A profile submitted, a brand registered in its review, the profile rejected: the brand fails too.
    const bad = await carrier.createCustomerProfile(
      profileInput({ address: { ...input.address, postalCode: '00000' } }),
    );
    await carrier.submitCustomerProfile(bad.sid);
    const second = await carrier.createBrandRegistration({
      customerProfileSid: bad.sid,
      email: 'compliance@brightdental.test',
      companyType: 'private',
      brandType: 'LOW_VOLUME_STANDARD',
    });
    await clock.advance(REVIEW_MS);
    expect((await carrier.fetchCustomerProfile(bad.sid)).status).toBe('twilio-rejected');
    const secondFailed = await carrier.fetchBrandRegistration(second.sid);
    expect(secondFailed.status).toBe('FAILED');
    expect(secondFailed.failureReasons[0]).toMatch(/was not approved/);
    // A brand on a draft profile is refused at once.
    const draft = await carrier.createCustomerProfile(profileInput());
    const early = await failure<CarrierValidationError>(
      carrier.createBrandRegistration({
        customerProfileSid: draft.sid,
        email: 'compliance@brightdental.test',
        companyType: 'private',
      }),
    );
    expect(early).toMatchObject({ param: 'CustomerProfileBundleSid', code: 20001 });
  });

  it('fails a campaign whose samples do not name the brand (30896); another one on the service can follow', async () => {
    const profile = await approvedProfile();
    const brand = await carrier.createBrandRegistration({
      customerProfileSid: profile.sid,
      email: 'compliance@brightdental.test',
      companyType: 'private',
      brandType: 'LOW_VOLUME_STANDARD',
    });
    await clock.advance(REVIEW_MS);
    expect((await carrier.fetchBrandRegistration(brand.sid)).status).toBe('APPROVED');
    const service = await carrier.createMessagingService({ friendlyName: 'texts' });
    const anonymous = await carrier.createCampaign(
      campaignInput(service.sid, brand.sid, [
        'Your cleaning is tomorrow at 10am. Reply STOP to opt out.',
        'Bright Dental LLC: 20% off whitening this month. Reply STOP to opt out.',
      ]),
    );
    // One campaign per service while it is being reviewed.
    const twice = await failure(carrier.createCampaign(campaignInput(service.sid, brand.sid)));
    expect(twice).toMatchObject({ status: 409 });
    await clock.advance(REVIEW_MS);
    const failed = await carrier.fetchCampaign(service.sid, anonymous.sid);
    expect(failed).toMatchObject({
      status: 'FAILED',
      campaignId: null,
      throughputMps: null,
      failures: [{ code: 30896, reason: SAMPLE_FAILURE }],
    });
    const again = await carrier.createCampaign(campaignInput(service.sid, brand.sid));
    await clock.advance(REVIEW_MS);
    // A low-volume brand's campaign gets a low throughput.
    expect(await carrier.fetchCampaign(service.sid, again.sid)).toMatchObject({
      status: 'VERIFIED',
      throughputMps: 4,
    });
  });

  it('verifies a toll-free number, and rejects one whose website cannot be verified', async () => {
    const v = await carrier.createTollfreeVerification(tollfreeInput());
    expect(v.sid).toMatch(/^HH[0-9a-f]{32}$/);
    expect(v).toMatchObject({
      tollfreePhoneNumberSid: tollfreeSid,
      businessName: 'Bright Dental LLC',
      status: 'PENDING_REVIEW',
      rejectionReason: null,
      errorCode: null,
    });
    await clock.settle();
    expect((await carrier.fetchTollfreeVerification(v.sid)).status).toBe('IN_REVIEW');
    await clock.advance(REVIEW_MS);
    expect((await carrier.fetchTollfreeVerification(v.sid)).status).toBe('TWILIO_APPROVED');

    // A second number, with the website reviewers cannot verify.
    const other = sandbox.restoreIncomingNumber(account.sid, {
      sid: sandboxSid('PN'),
      phoneNumber: '+18885550111',
    });
    const r = await carrier.createTollfreeVerification({
      ...tollfreeInput('https://rejected.example'),
      tollfreePhoneNumberSid: other.sid,
    });
    await clock.advance(REVIEW_MS);
    expect(await carrier.fetchTollfreeVerification(r.sid)).toMatchObject({
      status: 'TWILIO_REJECTED',
      rejectionReason: TOLLFREE_REJECTION,
      errorCode: TOLLFREE_REJECTION_CODE,
    });
    // A local number is not toll-free.
    const local = await failure<CarrierValidationError>(
      carrier.createTollfreeVerification({ ...tollfreeInput(), tollfreePhoneNumberSid: localSid }),
    );
    expect(local).toMatchObject({ param: 'TollfreePhoneNumberSid', status: 400 });
    expect(local.message).toMatch(/not a toll-free number/);
  });

  it('answers missing and invalid fields as Twilio does, as typed validation errors', async () => {
    // The API's 400 with code 20001, as the SDK sees it.
    const raw = twilio(account.sid, account.authToken, { httpClient: sandbox.httpClient });
    const e = (await raw.trusthub.v1.customerProfiles
      .create({ friendlyName: 'x', email: '', policySid: 'RNdfbf3fae0e1107f8aded0e7cead80bf5' })
      .catch((x: unknown) => x)) as InstanceType<typeof twilio.RestException>;
    expect(e).toBeInstanceOf(twilio.RestException);
    expect(e).toMatchObject({
      status: 400,
      code: 20001,
      message: 'Missing required parameter Email in the post body',
      moreInfo: 'https://www.twilio.com/docs/errors/20001',
    });
    // The adapter's typed error.
    const email = await failure<CarrierValidationError>(
      carrier.createCustomerProfile(profileInput({ email: '' })),
    );
    expect(email).toMatchObject({
      name: 'CarrierValidationError',
      kind: 'invalid-request',
      param: 'Email',
      status: 400,
      code: 20001,
    });
    // A missing address field (the Addresses API).
    const street = await failure<CarrierValidationError>(
      carrier.createCustomerProfile(profileInput({ address: { ...profileInput().address, street: '' } })),
    );
    expect(street).toMatchObject({ param: 'Street', status: 400 });

    const profile = await approvedProfile();
    const brand = await carrier.createBrandRegistration({
      customerProfileSid: profile.sid,
      email: 'compliance@brightdental.test',
      companyType: 'private',
    });
    await clock.advance(REVIEW_MS);
    const service = await carrier.createMessagingService({ friendlyName: 'texts' });
    const one = await failure<CarrierValidationError>(
      carrier.createCampaign(
        campaignInput(service.sid, brand.sid, ['Bright Dental LLC: one sample only here.']),
      ),
    );
    expect(one).toMatchObject({ param: 'MessageSamples', status: 400, code: 20001 });
    expect(one.message).toMatch(/at least 2 sample messages/);
    const noDescription = await failure<CarrierValidationError>(
      carrier.createCampaign({ ...campaignInput(service.sid, brand.sid), description: '' }),
    );
    expect(noDescription).toMatchObject({ param: 'Description' });
    // A required parameter left out altogether is caught by the SDK before any request.
    const { businessName: _, ...noName } = tollfreeInput();
    const sdkSide = await failure<CarrierValidationError>(
      carrier.createTollfreeVerification(noName as ReturnType<typeof tollfreeInput>),
    );
    expect(sdkSide).toMatchObject({ name: 'CarrierValidationError', param: 'BusinessName', status: 400 });
    expect(sandbox.registration.tollfree.size).toBe(0);
    // Nothing of one account is another's.
    const other = sandbox.createAccount({ friendlyName: 'Agency B' });
    const notFound = await failure(sandbox.carrier(other.sid).fetchCustomerProfile(profile.sid));
    expect(notFound).toMatchObject({ status: 404, kind: 'not-found' });
    const brandNotFound = await failure(sandbox.carrier(other.sid).fetchBrandRegistration(brand.sid));
    expect(brandNotFound.status).toBe(404);
  });

  it("posts a signed status callback on each of a profile's status changes", async () => {
    const server = Fastify();
    const seen: { status: string; signature: unknown; body: Record<string, string> }[] = [];
    server.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_r, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    server.post('/profile-status', async (request) => {
      const body = request.body as Record<string, string>;
      seen.push({ status: body.Status ?? '', signature: request.headers['x-twilio-signature'], body });
      return '';
    });
    await server.listen({ host: '127.0.0.1', port: 0 });
    try {
      const address = server.server.address();
      if (!address || typeof address === 'string') throw new Error('no port');
      const url = `http://127.0.0.1:${address.port}/profile-status`;
      const profile = await approvedProfile(carrier, profileInput({ statusCallback: url }));
      await clock.settle();
      expect(profile.status).toBe('twilio-approved');
      expect(seen.map((s) => s.status)).toEqual(['pending-review', 'in-review', 'twilio-approved']);
      for (const s of seen) {
        expect(s.body).toMatchObject({ AccountSid: account.sid, BundleSid: profile.sid });
        expect(twilio.validateRequest(account.authToken, String(s.signature), url, s.body)).toBe(true);
      }
    } finally {
      await server.close();
    }
  });
});

describe('registration through the remote sandbox (ADR 063)', () => {
  let app: FastifyInstance;
  let base = '';
  beforeAll(async () => {
    app = Fastify();
    // The routes read the sandbox when asked: each test's own.
    const holder = {
      get sandbox() {
        return sandbox;
      },
    };
    await app.register(async (scope) => {
      await sandboxRestRoutes(scope, {
        sandbox: new Proxy({} as TwilioSandbox, {
          get: (_t, key) => {
            const value = Reflect.get(holder.sandbox, key);
            return typeof value === 'function' ? value.bind(holder.sandbox) : value;
          },
        }),
      });
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    base = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('registers a profile, brand, campaign and toll-free number over HTTP with the same results', async () => {
    const remote = new RemoteSandboxCarrier(base, account.sid, account.authToken, []);
    const profile = await approvedProfile(remote);
    expect(profile).toMatchObject({
      status: 'twilio-approved',
      business: { legalName: 'Bright Dental LLC' },
    });
    const brand = await remote.createBrandRegistration({
      customerProfileSid: profile.sid,
      email: 'compliance@brightdental.test',
      companyType: 'private',
    });
    await clock.advance(REVIEW_MS);
    expect((await remote.fetchBrandRegistration(brand.sid)).status).toBe('APPROVED');
    const service = await remote.createMessagingService({ friendlyName: 'texts' });
    await remote.addNumberToMessagingService(service.sid, localSid);
    // Arrays (sample messages, keywords) survive the form encoding.
    const campaign = await remote.createCampaign(campaignInput(service.sid, brand.sid));
    expect(campaign.sampleMessages).toHaveLength(2);
    expect(sandbox.registration.campaigns.get(campaign.sid)?.optOutKeywords).toEqual(['STOP']);
    await clock.advance(REVIEW_MS);
    expect(await remote.fetchCampaign(service.sid, campaign.sid)).toMatchObject({
      status: 'VERIFIED',
      throughputMps: 75,
    });
    const v = await remote.createTollfreeVerification(tollfreeInput('https://rejected.example'));
    await clock.advance(REVIEW_MS);
    expect(await remote.fetchTollfreeVerification(v.sid)).toMatchObject({
      status: 'TWILIO_REJECTED',
      errorCode: TOLLFREE_REJECTION_CODE,
    });
    const invalid = await failure<CarrierValidationError>(
      remote.createCampaign(
        campaignInput(service.sid, brand.sid, ['Bright Dental LLC: one sample only here.']),
      ),
    );
    expect(invalid).toMatchObject({ name: 'CarrierValidationError', param: 'MessageSamples', status: 400 });
    const wrong = await failure(
      new RemoteSandboxCarrier(base, account.sid, 'not-the-token', []).fetchCustomerProfile(profile.sid),
    );
    expect(wrong).toMatchObject({ status: 401, code: 20003 });
  });
});

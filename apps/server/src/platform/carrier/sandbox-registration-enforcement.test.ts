// The sandbox's treatment of unregistered traffic (issue 26, ADR 092): once an account has begun registering
// (a customer profile or a brand in the sandbox's registry), a text from a US 10DLC number off a verified
// campaign's sender pool is accepted (201, queued) and then fails with 30034, and one from a toll-free number
// without an approved verification with 30032, reported through the status callback as Twilio does. An
// account that never began registering texts as before (ADR 092's grandfathering). In process, through the
// production adapter (the `twilio` SDK); time moves only on the sandbox's manual clock.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Carrier, CustomerProfileInput } from './carrier.ts';
import { ManualClock } from './sandbox/clock.ts';
import { REVIEW_MS } from './sandbox/registration.ts';
import { type SandboxAccount, sandboxSid, TwilioSandbox } from './sandbox/sandbox.ts';
import { twilioWebhooks } from './twilio-webhooks.ts';

const LOCAL = '+14155550123';
const OTHER_LOCAL = '+14155550124';
const TOLLFREE = '+18445550100';
const INTERNATIONAL = '+442071838750';
const TO = '+14155559876';
const CALLBACK = 'https://app.test/webhooks/twilio/text-status';

let clock: ManualClock;
let sandbox: TwilioSandbox;
let account: SandboxAccount;
let carrier: Carrier;
let posts: Record<string, string>[];
let localSid = '';
let tollfreeSid = '';

beforeEach(() => {
  clock = new ManualClock();
  posts = [];
  sandbox = new TwilioSandbox({
    clock,
    transport: async (url, _headers, body) => {
      if (url === CALLBACK) posts.push(Object.fromEntries(new URLSearchParams(body)));
      return { status: 204, body: '' };
    },
  });
  account = sandbox.createAccount({ friendlyName: 'Agency A' });
  carrier = sandbox.carrier(account.sid);
  const own = (phoneNumber: string) =>
    sandbox.restoreIncomingNumber(account.sid, { sid: sandboxSid('PN'), phoneNumber }).sid;
  localSid = own(LOCAL);
  own(OTHER_LOCAL);
  tollfreeSid = own(TOLLFREE);
  own(INTERNATIONAL);
});

const profileInput: CustomerProfileInput = {
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
};

/** A text from `from`, taken by the carrier, then everything its clock does for it: its end state. */
async function text(from: string) {
  const taken = await carrier.createMessage({ to: TO, from, body: 'Hello', statusCallback: CALLBACK });
  await clock.advance(5_000);
  return { taken, now: await carrier.fetchMessage(taken.sid) };
}

/** What the product's status webhook makes of the sandbox's last callback about `sid`. */
function lastCallback(sid: string) {
  const form = posts.filter((p) => p.MessageSid === sid).at(-1);
  if (!form) throw new Error(`no status callback for ${sid}`);
  return twilioWebhooks.parse('text-progress', { body: form, url: CALLBACK, headers: {} });
}

/** The texts the phone TO received: from whom. */
const received = () =>
  sandbox.phones
    .get(TO)
    .texts.filter((t) => t.direction === 'in')
    .map((t) => t.other);

/** The account begins registering: a customer profile, submitted and approved (three minutes). */
async function beginRegistration(): Promise<string> {
  const profile = await carrier.createCustomerProfile(profileInput);
  await carrier.submitCustomerProfile(profile.sid);
  await clock.advance(REVIEW_MS);
  return profile.sid;
}

describe("an account that never began registering (ADR 092's grandfathering)", () => {
  it('texts from a 10DLC and a toll-free number as before', async () => {
    for (const from of [LOCAL, TOLLFREE]) {
      const { taken, now } = await text(from);
      expect(taken.status).toBe('queued');
      expect(now).toMatchObject({ status: 'delivered', errorCode: null });
      expect(lastCallback(taken.sid)).toMatchObject({ status: 'delivered', errorCode: null });
    }
    expect(received()).toEqual([LOCAL, TOLLFREE]);
  });
});

describe('an account that has begun registering', () => {
  it('fails a 10DLC text with 30034 until the number is on a verified campaign, then delivers it', async () => {
    const profileSid = await beginRegistration();
    const refused = await text(LOCAL);
    // Accepted by the API as Twilio does (201, queued), then failed unsent.
    expect(refused.taken.status).toBe('queued');
    expect(refused.now).toMatchObject({
      status: 'failed',
      errorCode: 30034,
      errorMessage: 'Message from an unregistered number',
      errorKind: 'unregistered-sender',
    });
    expect(lastCallback(refused.taken.sid)).toMatchObject({
      messageSid: refused.taken.sid,
      status: 'failed',
      errorCode: 30034,
      errorKind: 'unregistered-sender',
    });
    expect(posts.filter((p) => p.MessageSid === refused.taken.sid).map((p) => p.MessageStatus)).toEqual([
      'queued',
      'failed',
    ]);
    expect(received()).toHaveLength(0);

    // The brand, the Messaging Service with LOCAL in its sender pool, the campaign: still 30034 in review.
    const brand = await carrier.createBrandRegistration({
      customerProfileSid: profileSid,
      email: 'compliance@brightdental.test',
      companyType: 'private',
    });
    await clock.advance(REVIEW_MS);
    expect((await carrier.fetchBrandRegistration(brand.sid)).status).toBe('APPROVED');
    const service = await carrier.createMessagingService({ friendlyName: 'Bright Dental texts' });
    await carrier.addNumberToMessagingService(service.sid, localSid);
    const campaign = await carrier.createCampaign({
      messagingServiceSid: service.sid,
      brandRegistrationSid: brand.sid,
      useCase: 'MIXED',
      description: 'Appointment reminders and occasional offers for the patients of Bright Dental LLC.',
      sampleMessages: [
        'Bright Dental LLC: your cleaning is tomorrow at 10am. Reply STOP to opt out.',
        'Bright Dental LLC: 20% off whitening this month. Reply STOP to opt out.',
      ],
      messageFlow: 'Patients opt in on the booking form at https://brightdental.test/book by ticking a box.',
      hasEmbeddedLinks: false,
      hasEmbeddedPhone: false,
      optInKeywords: [],
      optOutKeywords: ['STOP'],
      helpKeywords: ['HELP'],
    });
    expect((await text(LOCAL)).now).toMatchObject({ status: 'failed', errorCode: 30034 });

    await clock.advance(REVIEW_MS);
    expect((await carrier.fetchCampaign(service.sid, campaign.sid)).status).toBe('VERIFIED');
    const sent = await text(LOCAL);
    expect(sent.now).toMatchObject({ status: 'delivered', errorCode: null });
    expect(lastCallback(sent.taken.sid)).toMatchObject({ status: 'delivered', errorCode: null });
    expect(received()).toEqual([LOCAL]);

    // A number of the account outside the sender pool is still unregistered; a non-US one is not held.
    expect((await text(OTHER_LOCAL)).now).toMatchObject({ status: 'failed', errorCode: 30034 });
    expect((await text(INTERNATIONAL)).now).toMatchObject({ status: 'delivered', errorCode: null });
  });

  it('fails a toll-free text with 30032 until its verification is approved, then delivers it', async () => {
    await beginRegistration();
    const refused = await text(TOLLFREE);
    expect(refused.taken.status).toBe('queued');
    expect(refused.now).toMatchObject({
      status: 'failed',
      errorCode: 30032,
      errorMessage: 'Toll-Free Number Has Not Been Verified',
    });
    expect(lastCallback(refused.taken.sid)).toMatchObject({ status: 'failed', errorCode: 30032 });

    const verification = await carrier.createTollfreeVerification({
      tollfreePhoneNumberSid: tollfreeSid,
      businessName: 'Bright Dental LLC',
      businessWebsite: 'https://brightdental.test',
      notificationEmail: 'compliance@brightdental.test',
      useCaseCategories: ['APPOINTMENTS'],
      useCaseSummary: 'Appointment reminders for patients who booked online.',
      productionMessageSample: 'Bright Dental LLC: your cleaning is tomorrow at 10am.',
      optInImageUrls: ['https://brightdental.test/opt-in.png'],
      optInType: 'WEB_FORM',
      messageVolume: '1,000',
    });
    // In review: still 30032.
    expect((await text(TOLLFREE)).now).toMatchObject({ status: 'failed', errorCode: 30032 });
    await clock.advance(REVIEW_MS);
    expect((await carrier.fetchTollfreeVerification(verification.sid)).status).toBe('TWILIO_APPROVED');
    const sent = await text(TOLLFREE);
    expect(sent.now).toMatchObject({ status: 'delivered', errorCode: null });
    expect(received()).toEqual([TOLLFREE]);
  });

  it("holds only the account that began: another account's texts from its numbers go as before", async () => {
    await beginRegistration();
    const other = sandbox.createAccount({ friendlyName: 'Agency B' });
    const otherCarrier = sandbox.carrier(other.sid);
    const taken = await otherCarrier.createMessage({ to: TO, from: '+14155550777', body: 'Hi' });
    await clock.advance(5_000);
    expect(await otherCarrier.fetchMessage(taken.sid)).toMatchObject({
      status: 'delivered',
      errorCode: null,
    });
  });
});

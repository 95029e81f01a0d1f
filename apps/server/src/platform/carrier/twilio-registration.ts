import type twilio from 'twilio';
import type {
  AuthorizedRepresentative,
  BrandRegistration,
  BrandRegistrationInput,
  BrandStatus,
  BusinessInformation,
  BusinessType,
  Campaign,
  CampaignInput,
  CampaignStatus,
  CustomerProfile,
  CustomerProfileInput,
  MessagingService,
  MessagingServiceInput,
  PostalAddress,
  ProfileEvaluation,
  ProfileStatus,
  TollfreeStatus,
  TollfreeVerification,
  TollfreeVerificationInput,
} from './carrier.ts';
import { CarrierValidationError } from './carrier.ts';

/**
 * Registration through the `twilio` SDK (issue 26): TrustHub customer profiles (a bundle with its end users
 * and a supporting document for the address), the A2P messaging profile (a TrustHub trust product), brand
 * registrations, Messaging Services and their US A2P campaigns, toll-free verifications. Each function
 * answers in the carrier port's terms; errors are turned into CarrierErrors by the adapter's `guarded`.
 */

/** Twilio's policy of a Secondary Customer Profile (ISV), and of the A2P messaging profile trust product. */
export const SECONDARY_PROFILE_POLICY_SID = 'RNdfbf3fae0e1107f8aded0e7cead80bf5';
export const A2P_PROFILE_POLICY_SID = 'RNb0d4771c2c98518d916a3d4cd70a8f8b';

/** TrustHub's object types of a customer profile's parts. */
export const BUSINESS_INFO_TYPE = 'customer_profile_business_information';
export const REPRESENTATIVE_TYPE = 'authorized_representative_1';
export const ADDRESS_DOCUMENT_TYPE = 'customer_profile_address';
export const A2P_PROFILE_TYPE = 'us_a2p_messaging_profile_information';

/** Our field name of each of TrustHub's attributes (business information and representative). */
export const BUSINESS_ATTRIBUTES = {
  legalName: 'business_name',
  businessType: 'business_type',
  industry: 'business_industry',
  registrationNumber: 'business_registration_number',
  registrationIdentifier: 'business_registration_identifier',
  website: 'website_url',
  regionsOfOperation: 'business_regions_of_operation',
  socialMediaProfileUrls: 'social_media_profile_urls',
} as const satisfies Record<keyof BusinessInformation, string>;

export const REPRESENTATIVE_ATTRIBUTES = {
  firstName: 'first_name',
  lastName: 'last_name',
  email: 'email',
  phoneNumber: 'phone_number',
  businessTitle: 'business_title',
  jobPosition: 'job_position',
} as const satisfies Record<keyof AuthorizedRepresentative, string>;

const PARTS: Record<string, string> = {
  [BUSINESS_INFO_TYPE]: 'business',
  [REPRESENTATIVE_TYPE]: 'representative',
  [ADDRESS_DOCUMENT_TYPE]: 'address',
  [A2P_PROFILE_TYPE]: 'a2p-profile',
};

const ATTRIBUTE_FIELDS: Record<string, string> = Object.fromEntries(
  [...Object.entries(BUSINESS_ATTRIBUTES), ...Object.entries(REPRESENTATIVE_ATTRIBUTES)].map(
    ([ours, theirs]) => [theirs, ours],
  ),
);

type Client = twilio.Twilio;

function businessAttributes(b: BusinessInformation): Record<string, string> {
  return {
    business_name: b.legalName,
    business_identity: 'direct_customer',
    business_type: b.businessType,
    business_industry: b.industry,
    business_registration_identifier: b.registrationIdentifier ?? 'EIN',
    business_registration_number: b.registrationNumber,
    business_regions_of_operation: b.regionsOfOperation ?? 'USA_AND_CANADA',
    website_url: b.website,
    ...(b.socialMediaProfileUrls ? { social_media_profile_urls: b.socialMediaProfileUrls } : {}),
  };
}

function representativeAttributes(r: AuthorizedRepresentative): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [ours, theirs] of Object.entries(REPRESENTATIVE_ATTRIBUTES))
    out[theirs] = r[ours as keyof AuthorizedRepresentative];
  return out;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v == null ? '' : String(v));

function businessFrom(a: Record<string, unknown>): BusinessInformation {
  return {
    legalName: str(a.business_name),
    businessType: str(a.business_type) as BusinessType,
    industry: str(a.business_industry),
    registrationNumber: str(a.business_registration_number),
    registrationIdentifier: (str(a.business_registration_identifier) ||
      'EIN') as BusinessInformation['registrationIdentifier'],
    website: str(a.website_url),
    regionsOfOperation: str(a.business_regions_of_operation),
    ...(a.social_media_profile_urls ? { socialMediaProfileUrls: str(a.social_media_profile_urls) } : {}),
  };
}

function representativeFrom(a: Record<string, unknown>): AuthorizedRepresentative {
  return {
    firstName: str(a.first_name),
    lastName: str(a.last_name),
    email: str(a.email),
    phoneNumber: str(a.phone_number),
    businessTitle: str(a.business_title),
    jobPosition: str(a.job_position),
  };
}

const attributesOf = (v: unknown): Record<string, unknown> => {
  if (typeof v === 'string') {
    try {
      return JSON.parse(v) as Record<string, unknown>;
    } catch {
      return {};
    }
  }
  return (v ?? {}) as Record<string, unknown>;
};

/** Twilio's rejection errors of a bundle, as reasons. */
const reasons = (errors: unknown): string[] =>
  (Array.isArray(errors) ? errors : []).map((e) => {
    const r = (e ?? {}) as Record<string, unknown>;
    return str(r.message ?? r.failure_reason ?? r.description ?? r.reason ?? JSON.stringify(e));
  });

/** The parts a customer profile's entity assignments point to. */
async function parts(client: Client, profileSid: string) {
  const assigned = await client.trusthub.v1
    .customerProfiles(profileSid)
    .customerProfilesEntityAssignments.list({ pageSize: 100 });
  let business: { sid: string; attributes: Record<string, unknown> } | null = null;
  let representative: { sid: string; attributes: Record<string, unknown> } | null = null;
  let address: { documentSid: string; addressSid: string } | null = null;
  for (const a of assigned) {
    if (a.objectSid.startsWith('IT')) {
      const u = await client.trusthub.v1.endUsers(a.objectSid).fetch();
      if (u.type === BUSINESS_INFO_TYPE) business = { sid: u.sid, attributes: attributesOf(u.attributes) };
      if (u.type === REPRESENTATIVE_TYPE)
        representative = { sid: u.sid, attributes: attributesOf(u.attributes) };
    } else if (a.objectSid.startsWith('RD')) {
      const d = await client.trusthub.v1.supportingDocuments(a.objectSid).fetch();
      const sids = attributesOf(d.attributes).address_sids;
      const addressSid = str(Array.isArray(sids) ? sids[0] : sids);
      if (d.type === ADDRESS_DOCUMENT_TYPE && addressSid) address = { documentSid: d.sid, addressSid };
    }
  }
  return { business, representative, address };
}

export async function fetchCustomerProfile(client: Client, sid: string): Promise<CustomerProfile> {
  const p = await client.trusthub.v1.customerProfiles(sid).fetch();
  const found = await parts(client, sid);
  let address: PostalAddress | null = null;
  if (found.address) {
    const a = await client.addresses(found.address.addressSid).fetch();
    address = {
      street: a.street,
      ...(a.streetSecondary ? { streetSecondary: a.streetSecondary } : {}),
      city: a.city,
      region: a.region,
      postalCode: a.postalCode,
      isoCountry: a.isoCountry,
    };
  }
  return {
    sid: p.sid,
    friendlyName: p.friendlyName,
    email: p.email,
    status: p.status as ProfileStatus,
    rejectionReasons: p.status === 'twilio-rejected' ? reasons(p.errors) : [],
    business: found.business ? businessFrom(found.business.attributes) : null,
    representative: found.representative ? representativeFrom(found.representative.attributes) : null,
    address,
    dateCreated: p.dateCreated ?? null,
    dateUpdated: p.dateUpdated ?? null,
  };
}

async function createAddress(client: Client, name: string, a: PostalAddress): Promise<string> {
  const created = await client.addresses.create({
    customerName: name,
    street: a.street,
    ...(a.streetSecondary ? { streetSecondary: a.streetSecondary } : {}),
    city: a.city,
    region: a.region,
    postalCode: a.postalCode,
    isoCountry: a.isoCountry,
  });
  return created.sid;
}

export async function createCustomerProfile(
  client: Client,
  input: CustomerProfileInput,
): Promise<CustomerProfile> {
  const hub = client.trusthub.v1;
  const profile = await hub.customerProfiles.create({
    friendlyName: input.friendlyName,
    email: input.email,
    policySid: SECONDARY_PROFILE_POLICY_SID,
    ...(input.statusCallback ? { statusCallback: input.statusCallback } : {}),
  });
  const assign = (objectSid: string) =>
    hub.customerProfiles(profile.sid).customerProfilesEntityAssignments.create({ objectSid });
  const business = await hub.endUsers.create({
    friendlyName: `${input.friendlyName}: business information`,
    type: BUSINESS_INFO_TYPE,
    attributes: businessAttributes(input.business),
  });
  await assign(business.sid);
  const representative = await hub.endUsers.create({
    friendlyName: `${input.friendlyName}: authorized representative`,
    type: REPRESENTATIVE_TYPE,
    attributes: representativeAttributes(input.representative),
  });
  await assign(representative.sid);
  const addressSid = await createAddress(client, input.business.legalName, input.address);
  const document = await hub.supportingDocuments.create({
    friendlyName: `${input.friendlyName}: address`,
    type: ADDRESS_DOCUMENT_TYPE,
    attributes: { address_sids: addressSid },
  });
  await assign(document.sid);
  if (input.primaryProfileSid) await assign(input.primaryProfileSid);
  return fetchCustomerProfile(client, profile.sid);
}

export async function updateCustomerProfile(
  client: Client,
  sid: string,
  input: Partial<CustomerProfileInput>,
): Promise<CustomerProfile> {
  const hub = client.trusthub.v1;
  const current = await hub.customerProfiles(sid).fetch();
  // Nothing of a profile in review changes (its address and end users included): Twilio reviews what it got.
  if (current.status === 'pending-review' || current.status === 'in-review')
    throw new CarrierValidationError(
      `The customer profile ${sid} is ${current.status} and cannot be changed`,
      'Status',
    );
  // A rejected profile is edited as a draft again (Twilio's way back to a new review).
  const reopen = current.status === 'twilio-rejected';
  if (
    input.friendlyName !== undefined ||
    input.email !== undefined ||
    input.statusCallback !== undefined ||
    reopen
  )
    await hub.customerProfiles(sid).update({
      ...(input.friendlyName !== undefined ? { friendlyName: input.friendlyName } : {}),
      ...(input.email !== undefined ? { email: input.email } : {}),
      ...(input.statusCallback !== undefined ? { statusCallback: input.statusCallback } : {}),
      ...(reopen ? { status: 'draft' as const } : {}),
    });
  const found = await parts(client, sid);
  const name = input.friendlyName ?? current.friendlyName;
  const assign = (objectSid: string) =>
    hub.customerProfiles(sid).customerProfilesEntityAssignments.create({ objectSid });
  if (input.business) {
    const attributes = businessAttributes(input.business);
    if (found.business) await hub.endUsers(found.business.sid).update({ attributes });
    else
      await assign(
        (
          await hub.endUsers.create({
            friendlyName: `${name}: business information`,
            type: BUSINESS_INFO_TYPE,
            attributes,
          })
        ).sid,
      );
  }
  if (input.representative) {
    const attributes = representativeAttributes(input.representative);
    if (found.representative) await hub.endUsers(found.representative.sid).update({ attributes });
    else
      await assign(
        (
          await hub.endUsers.create({
            friendlyName: `${name}: authorized representative`,
            type: REPRESENTATIVE_TYPE,
            attributes,
          })
        ).sid,
      );
  }
  if (input.address) {
    const a = input.address;
    if (found.address)
      await client.addresses(found.address.addressSid).update({
        street: a.street,
        streetSecondary: a.streetSecondary ?? '',
        city: a.city,
        region: a.region,
        postalCode: a.postalCode,
      });
    else {
      const legalName = input.business?.legalName ?? name;
      const addressSid = await createAddress(client, legalName, a);
      const document = await hub.supportingDocuments.create({
        friendlyName: `${name}: address`,
        type: ADDRESS_DOCUMENT_TYPE,
        attributes: { address_sids: addressSid },
      });
      await assign(document.sid);
    }
  }
  return fetchCustomerProfile(client, sid);
}

type EvaluationResult = {
  object_type?: string;
  passed?: boolean;
  failure_reason?: string;
  invalid?: { object_field?: string; failure_reason?: string }[];
};

function evaluation(e: { sid: string; status: string; results: unknown }): ProfileEvaluation {
  const results = (Array.isArray(e.results) ? e.results : []) as EvaluationResult[];
  const problems = results
    .filter((r) => r.passed === false)
    .flatMap((r) => {
      const part = PARTS[r.object_type ?? ''] ?? r.object_type ?? 'profile';
      const invalid = r.invalid ?? [];
      if (invalid.length === 0) return [{ part, field: null, reason: r.failure_reason ?? 'Missing' }];
      return invalid.map((i) => ({
        part,
        field: i.object_field ? (ATTRIBUTE_FIELDS[i.object_field] ?? i.object_field) : null,
        reason: i.failure_reason ?? r.failure_reason ?? 'Invalid',
      }));
    });
  return { sid: e.sid, compliant: e.status === 'compliant', problems };
}

export async function evaluateCustomerProfile(client: Client, sid: string): Promise<ProfileEvaluation> {
  const e = await client.trusthub.v1
    .customerProfiles(sid)
    .customerProfilesEvaluations.create({ policySid: SECONDARY_PROFILE_POLICY_SID });
  return evaluation(e);
}

export async function submitCustomerProfile(
  client: Client,
  sid: string,
): Promise<{ profile: CustomerProfile; evaluation: ProfileEvaluation }> {
  const result = await evaluateCustomerProfile(client, sid);
  if (result.compliant) await client.trusthub.v1.customerProfiles(sid).update({ status: 'pending-review' });
  return { profile: await fetchCustomerProfile(client, sid), evaluation: result };
}

type TwilioBrand = {
  sid: string;
  customerProfileBundleSid: string;
  a2pProfileBundleSid: string;
  brandType: string;
  status: string;
  failureReason: string | null;
  errors: unknown[];
  tcrId: string | null;
  brandScore: number | null;
  dateCreated: Date;
  dateUpdated: Date;
};

function brand(b: TwilioBrand): BrandRegistration {
  const failureReasons =
    b.status === 'FAILED'
      ? [...new Set([...(b.failureReason ? [b.failureReason] : []), ...reasons(b.errors)])]
      : [];
  return {
    sid: b.sid,
    customerProfileSid: b.customerProfileBundleSid,
    a2pProfileSid: b.a2pProfileBundleSid,
    brandType: b.brandType,
    status: b.status as BrandStatus,
    failureReasons,
    tcrId: b.tcrId || null,
    brandScore: b.brandScore ?? null,
    dateCreated: b.dateCreated ?? null,
    dateUpdated: b.dateUpdated ?? null,
  };
}

export async function createBrandRegistration(
  client: Client,
  input: BrandRegistrationInput,
): Promise<BrandRegistration> {
  const hub = client.trusthub.v1;
  // The A2P messaging profile: a trust product with the company's type, and the customer profile.
  const product = await hub.trustProducts.create({
    friendlyName: `A2P messaging profile of ${input.customerProfileSid}`,
    email: input.email,
    policySid: A2P_PROFILE_POLICY_SID,
  });
  const info = await hub.endUsers.create({
    friendlyName: `A2P messaging profile of ${input.customerProfileSid}`,
    type: A2P_PROFILE_TYPE,
    attributes: {
      company_type: input.companyType,
      ...(input.stockExchange ? { stock_exchange: input.stockExchange } : {}),
      ...(input.stockTicker ? { stock_ticker: input.stockTicker } : {}),
    },
  });
  const assignments = hub.trustProducts(product.sid).trustProductsEntityAssignments;
  await assignments.create({ objectSid: info.sid });
  await assignments.create({ objectSid: input.customerProfileSid });
  const checked = await hub
    .trustProducts(product.sid)
    .trustProductsEvaluations.create({ policySid: A2P_PROFILE_POLICY_SID });
  if (checked.status === 'compliant')
    await hub.trustProducts(product.sid).update({ status: 'pending-review' });
  const b = await client.messaging.v1.brandRegistrations.create({
    customerProfileBundleSid: input.customerProfileSid,
    a2PProfileBundleSid: product.sid,
    ...(input.brandType ? { brandType: input.brandType } : {}),
  });
  return brand(b);
}

export async function fetchBrandRegistration(client: Client, sid: string): Promise<BrandRegistration> {
  return brand(await client.messaging.v1.brandRegistrations(sid).fetch());
}

export async function createMessagingService(
  client: Client,
  input: MessagingServiceInput,
): Promise<MessagingService> {
  const s = await client.messaging.v1.services.create({
    friendlyName: input.friendlyName,
    ...(input.inboundRequestUrl ? { inboundRequestUrl: input.inboundRequestUrl } : {}),
    ...(input.statusCallback ? { statusCallback: input.statusCallback } : {}),
  });
  return {
    sid: s.sid,
    friendlyName: s.friendlyName,
    inboundRequestUrl: s.inboundRequestUrl || null,
    statusCallback: s.statusCallback || null,
  };
}

export async function addNumberToMessagingService(
  client: Client,
  serviceSid: string,
  phoneNumberSid: string,
): Promise<void> {
  await client.messaging.v1.services(serviceSid).phoneNumbers.create({ phoneNumberSid });
}

type RateLimits = Record<string, { mps?: unknown; [key: string]: unknown } | undefined>;

/** The lowest messages-per-second limit the carriers state (AT&T's mps, ...), or null. */
function throughput(limits: unknown): number | null {
  const values = Object.values((limits ?? {}) as RateLimits)
    .map((l) => Number(l?.mps))
    .filter((n) => Number.isFinite(n) && n > 0);
  return values.length ? Math.min(...values) : null;
}

type TwilioCampaign = {
  sid: string;
  messagingServiceSid: string;
  brandRegistrationSid: string;
  campaignId: string | null;
  campaignStatus: string;
  usAppToPersonUsecase: string;
  description: string;
  messageSamples: string[];
  messageFlow: string;
  errors: unknown[];
  rateLimits: unknown;
  dateCreated: Date;
  dateUpdated: Date;
};

function campaign(c: TwilioCampaign): Campaign {
  const failures = (Array.isArray(c.errors) ? c.errors : []).map((e) => {
    const r = (e ?? {}) as Record<string, unknown>;
    const code = Number(r.error_code ?? r.code);
    return {
      code: Number.isFinite(code) ? code : null,
      reason: str(r.description ?? r.message ?? r.reason),
    };
  });
  const status = c.campaignStatus as CampaignStatus;
  return {
    sid: c.sid,
    messagingServiceSid: c.messagingServiceSid,
    brandRegistrationSid: c.brandRegistrationSid,
    campaignId: c.campaignId || null,
    status,
    useCase: c.usAppToPersonUsecase,
    description: c.description,
    sampleMessages: c.messageSamples ?? [],
    messageFlow: c.messageFlow,
    failures: status === 'FAILED' ? failures : [],
    throughputMps: status === 'VERIFIED' ? throughput(c.rateLimits) : null,
    dateCreated: c.dateCreated ?? null,
    dateUpdated: c.dateUpdated ?? null,
  };
}

export async function createCampaign(client: Client, input: CampaignInput): Promise<Campaign> {
  const c = await client.messaging.v1.services(input.messagingServiceSid).usAppToPerson.create({
    brandRegistrationSid: input.brandRegistrationSid,
    description: input.description,
    messageFlow: input.messageFlow,
    messageSamples: input.sampleMessages,
    usAppToPersonUsecase: input.useCase,
    hasEmbeddedLinks: input.hasEmbeddedLinks,
    hasEmbeddedPhone: input.hasEmbeddedPhone,
    ageGated: false,
    directLending: false,
    ...(input.optInKeywords ? { optInKeywords: input.optInKeywords } : {}),
    ...(input.optInMessage ? { optInMessage: input.optInMessage } : {}),
    ...(input.optOutKeywords ? { optOutKeywords: input.optOutKeywords } : {}),
    ...(input.optOutMessage ? { optOutMessage: input.optOutMessage } : {}),
    ...(input.helpKeywords ? { helpKeywords: input.helpKeywords } : {}),
    ...(input.helpMessage ? { helpMessage: input.helpMessage } : {}),
  });
  return campaign(c);
}

export async function fetchCampaign(client: Client, serviceSid: string, sid: string): Promise<Campaign> {
  return campaign(await client.messaging.v1.services(serviceSid).usAppToPerson(sid).fetch());
}

type TwilioTollfree = {
  sid: string;
  tollfreePhoneNumberSid: string;
  businessName: string;
  businessWebsite: string;
  status: string;
  rejectionReason: string | null;
  errorCode: number | null;
  dateCreated: Date;
  dateUpdated: Date;
};

function tollfree(v: TwilioTollfree): TollfreeVerification {
  return {
    sid: v.sid,
    tollfreePhoneNumberSid: v.tollfreePhoneNumberSid,
    businessName: v.businessName,
    businessWebsite: v.businessWebsite,
    status: v.status as TollfreeStatus,
    rejectionReason: v.rejectionReason || null,
    errorCode: v.errorCode ?? null,
    dateCreated: v.dateCreated ?? null,
    dateUpdated: v.dateUpdated ?? null,
  };
}

export async function createTollfreeVerification(
  client: Client,
  input: TollfreeVerificationInput,
): Promise<TollfreeVerification> {
  const a = input.businessAddress;
  const c = input.businessContact;
  const v = await client.messaging.v1.tollfreeVerifications.create({
    tollfreePhoneNumberSid: input.tollfreePhoneNumberSid,
    ...(input.customerProfileSid ? { customerProfileSid: input.customerProfileSid } : {}),
    businessName: input.businessName,
    businessWebsite: input.businessWebsite,
    notificationEmail: input.notificationEmail,
    useCaseCategories: input.useCaseCategories,
    useCaseSummary: input.useCaseSummary,
    productionMessageSample: input.productionMessageSample,
    optInImageUrls: input.optInImageUrls,
    optInType: input.optInType,
    messageVolume: input.messageVolume,
    ...(a
      ? {
          businessStreetAddress: a.street,
          ...(a.streetSecondary ? { businessStreetAddress2: a.streetSecondary } : {}),
          businessCity: a.city,
          businessStateProvinceRegion: a.region,
          businessPostalCode: a.postalCode,
          businessCountry: a.isoCountry,
        }
      : {}),
    ...(c
      ? {
          businessContactFirstName: c.firstName,
          businessContactLastName: c.lastName,
          businessContactEmail: c.email,
          businessContactPhone: c.phone,
        }
      : {}),
    ...(input.additionalInformation ? { additionalInformation: input.additionalInformation } : {}),
  });
  return tollfree(v);
}

export async function fetchTollfreeVerification(client: Client, sid: string): Promise<TollfreeVerification> {
  return tollfree(await client.messaging.v1.tollfreeVerifications(sid).fetch());
}

import type { Readable } from 'node:stream';
import { DELIVERY_STATUSES } from '@stn/contracts/chats';
import { PROFILE_BUSINESS_TYPES, PROFILE_STATUSES } from '@stn/contracts/registration';
import type { CallInstructions } from './instructions.ts';
import { twilioErrorKind } from './twilio-errors.ts';
/**
 * The carrier: what the product asks of a telephony provider, in our own terms (E.164 strings, sids,
 * status enums), so that modules never see an SDK type. The production adapter is TwilioCarrier (the
 * official `twilio` SDK on an agency's own account); the sandbox is the same adapter whose SDK talks to
 * the in-process emulator in ./sandbox (ADR 026).
 */

/** A phone number in E.164 form, e.g. +15550001111. */
export type E164 = string;

export const E164_PATTERN = /^\+[1-9]\d{6,14}$/;
export const isE164 = (value: string): value is E164 => E164_PATTERN.test(value);

export const CALL_STATUSES = [
  'queued',
  'initiated',
  'ringing',
  'in-progress',
  'completed',
  'busy',
  'failed',
  'no-answer',
  'canceled',
] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

export const MESSAGE_STATUSES = ['accepted', ...DELIVERY_STATUSES, 'receiving', 'received'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** The status-callback events a call can report (Twilio's StatusCallbackEvent). */
export type CallEvent = 'initiated' | 'ringing' | 'answered' | 'completed';

export type CarrierAccount = {
  sid: string;
  friendlyName: string;
  status: 'active' | 'suspended' | 'closed';
  type: 'Trial' | 'Full';
};

export type CreateCallInput = {
  to: E164;
  from: E164;
  /** Where the carrier fetches the call's TwiML once answered (or `twiml` inline). */
  url?: string;
  method?: 'GET' | 'POST';
  statusCallback?: string;
  statusCallbackEvents?: CallEvent[];
  /** Seconds to let the call ring before giving up. */
  timeout?: number;
  record?: boolean;
  machineDetection?: 'Enable' | 'DetectMessageEnd';
  /** Where the recording callback goes when `record` is true. */
  recordingStatusCallback?: string;
  /** Inline TwiML instead of `url`. */
  twiml?: string;
  /**
   * What the call does once answered, in our own terms, instead of `url` (the adapter renders it in its
   * language): a call that only says or plays something (an automation's call, a voicemail drop).
   */
  instructions?: CallInstructions;
};

export type UpdateCallInput = {
  status?: 'canceled' | 'completed';
  url?: string;
  twiml?: string;
};

export type CarrierCall = {
  sid: string;
  accountSid: string;
  to: E164;
  from: E164;
  status: CallStatus;
  direction: string;
  parentCallSid: string | null;
  duration: number | null;
  /** human, machine_start, machine_end_beep, ... when machine detection was asked. */
  answeredBy: string | null;
};

/** A recording's audio as a stream (up to 160 MiB: piped to storage, never whole in memory; ADR 049). */
export type RecordingAudio = { contentType: string; body: Readable };
/** A received MMS's file, as the carrier keeps it. */
export type CarrierMedia = { contentType: string; body: Buffer };

/** A recording's sid (Twilio's form): recordings are fetched by sid from the carrier, never by a URL. */
export const RECORDING_SID_PATTERN = /^RE[0-9a-fA-F]{32}$/;

export type CreateMessageInput = {
  to: E164;
  from: E164;
  body: string;
  statusCallback?: string;
  /** Public URLs of images sent with the message (MMS). */
  mediaUrl?: string[];
};

export type CarrierMessage = {
  sid: string;
  accountSid: string;
  to: E164;
  from: E164;
  body: string;
  status: MessageStatus;
  numSegments: number;
};

/**
 * Which of the account's messages to list: those from `from` to `to` the carrier took at or after
 * `sentAfter` (sent then, or still in its queue since then: a message waiting for the number's rate has no
 * send time yet, and is listed by the time the carrier accepted it).
 */
export type ListMessagesInput = { to: E164; from: E164; sentAfter: Date };

/** Which of the account's calls to list: from `from` to `to`, created at or after `createdAfter`. */
export type ListCallsInput = { to: E164; from: E164; createdAfter: Date };

/** A message as the carrier has it now, with its error (the inbox's refresh). */
export type FetchedMessage = CarrierMessage & {
  errorCode: number | null;
  errorMessage: string | null;
  errorKind: CarrierErrorKind | null;
};

export type AvailableNumberSearch = {
  country: string;
  areaCode?: number;
  voiceEnabled?: boolean;
  smsEnabled?: boolean;
  limit?: number;
};

export type AvailableNumber = {
  phoneNumber: E164;
  friendlyName: string;
  locality: string | null;
  region: string | null;
  country: string;
  capabilities: { voice: boolean; sms: boolean; mms: boolean };
};

/** A monthly price as the carrier states it: a decimal string in its unit (USD...). */
export type NumberPrice = { monthly: string; unit: string };

export type IncomingNumberInput = {
  voiceUrl?: string;
  voiceMethod?: 'GET' | 'POST';
  statusCallback?: string;
  smsUrl?: string;
  smsMethod?: 'GET' | 'POST';
  friendlyName?: string;
};

export type IncomingNumber = {
  sid: string;
  phoneNumber: E164;
  friendlyName: string;
  voiceUrl: string | null;
  smsUrl: string | null;
  capabilities: { voice: boolean; sms: boolean; mms: boolean };
};

export type OutgoingCallerId = { sid: string; phoneNumber: E164; friendlyName: string };

export type CallerIdValidation = {
  phoneNumber: E164;
  /** The code the person types on the carrier's validation call. */
  validationCode: string;
  callSid: string;
};

// ---- Registration: TrustHub customer profiles, A2P 10DLC brands and campaigns, toll-free verification -----

/** A customer profile's (TrustHub bundle's) status, as Twilio names it; the business types TrustHub takes. */
export { PROFILE_BUSINESS_TYPES as BUSINESS_TYPES, PROFILE_STATUSES };
export type ProfileStatus = (typeof PROFILE_STATUSES)[number];

export type BusinessType = (typeof PROFILE_BUSINESS_TYPES)[number];

/** The business as TrustHub asks for it (end user `customer_profile_business_information`). */
export type BusinessInformation = {
  /** The legal name, exactly as registered with the tax authority (the EIN's name). */
  legalName: string;
  businessType: BusinessType;
  /** Twilio's industry key, e.g. HEALTHCARE, RETAIL, PROFESSIONAL_SERVICES. */
  industry: string;
  /** EIN in the US, e.g. 12-3456789. */
  registrationNumber: string;
  registrationIdentifier?: 'EIN' | 'CBN' | 'CRN' | 'VAT' | 'Other';
  website: string;
  /** Twilio's region key, e.g. USA_AND_CANADA. */
  regionsOfOperation?: string;
  socialMediaProfileUrls?: string;
};

/** The person who answers for the business (end user `authorized_representative_1`). */
export type AuthorizedRepresentative = {
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: E164;
  /** e.g. Owner, CEO. */
  businessTitle: string;
  /** Twilio's keys: Director, GM, VP, CEO, CFO, General Counsel, Other. */
  jobPosition: string;
};

export type PostalAddress = {
  street: string;
  streetSecondary?: string;
  city: string;
  /** State or region, e.g. CA. */
  region: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2, e.g. US. */
  isoCountry: string;
};

export type CustomerProfileInput = {
  friendlyName: string;
  /** Where Twilio writes about the profile's review. */
  email: string;
  /** Twilio posts each status change here. */
  statusCallback?: string;
  business: BusinessInformation;
  representative: AuthorizedRepresentative;
  address: PostalAddress;
  /** The account's primary customer profile (BU…) a secondary one is attached to, when there is one. */
  primaryProfileSid?: string;
};

export type CustomerProfile = {
  /** BU… */
  sid: string;
  friendlyName: string;
  email: string;
  status: ProfileStatus;
  /** Twilio's reasons when rejected (empty otherwise). */
  rejectionReasons: string[];
  business: BusinessInformation | null;
  representative: AuthorizedRepresentative | null;
  address: PostalAddress | null;
  dateCreated: Date | null;
  dateUpdated: Date | null;
};

/** Twilio's evaluation of a profile against its policy: what is missing before it can be submitted. */
export type ProfileEvaluation = {
  /** EL… */
  sid: string;
  compliant: boolean;
  /** What is missing or invalid: the part (business, representative, address...) and Twilio's field. */
  problems: { part: string; field: string | null; reason: string }[];
};

export const BRAND_STATUSES = ['PENDING', 'APPROVED', 'FAILED', 'IN_REVIEW', 'DELETED', 'SUSPENDED'] as const;
export type BrandStatus = (typeof BRAND_STATUSES)[number];

/** What the A2P messaging profile (TrustHub's A2P trust product) says of the company. */
export type A2pCompanyType = 'private' | 'public' | 'non-profit' | 'government';

export type BrandRegistrationInput = {
  /** The approved (or submitted) customer profile, BU… */
  customerProfileSid: string;
  /** For the A2P messaging profile the adapter creates and submits with the brand. */
  email: string;
  companyType: A2pCompanyType;
  stockExchange?: string;
  stockTicker?: string;
  /** STANDARD (the default) or LOW_VOLUME_STANDARD (fewer than 6,000 segments a day). */
  brandType?: 'STANDARD' | 'LOW_VOLUME_STANDARD';
};

export type BrandRegistration = {
  /** BN… */
  sid: string;
  customerProfileSid: string;
  a2pProfileSid: string;
  brandType: string;
  status: BrandStatus;
  /** Twilio's (TCR's) reasons when FAILED (empty otherwise). */
  failureReasons: string[];
  /** The Campaign Registry's brand id once approved. */
  tcrId: string | null;
  brandScore: number | null;
  dateCreated: Date | null;
  dateUpdated: Date | null;
};

export type MessagingServiceInput = {
  friendlyName: string;
  /** Where texts to the service's numbers go (else each number's own SmsUrl). */
  inboundRequestUrl?: string;
  statusCallback?: string;
};

export type MessagingService = {
  /** MG… */
  sid: string;
  friendlyName: string;
  inboundRequestUrl: string | null;
  statusCallback: string | null;
};

export const CAMPAIGN_STATUSES = ['PENDING', 'IN_PROGRESS', 'VERIFIED', 'FAILED'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export type CampaignInput = {
  /** The Messaging Service (MG…) the campaign is registered on. */
  messagingServiceSid: string;
  /** The approved brand, BN… */
  brandRegistrationSid: string;
  /** Twilio's use case, e.g. MIXED, MARKETING, ACCOUNT_NOTIFICATION, CUSTOMER_CARE, LOW_VOLUME. */
  useCase: string;
  description: string;
  /** At least 2, each naming the brand. */
  sampleMessages: string[];
  /** How people opt in (Twilio's MessageFlow). */
  messageFlow: string;
  hasEmbeddedLinks: boolean;
  hasEmbeddedPhone: boolean;
  optInKeywords?: string[];
  optInMessage?: string;
  optOutKeywords?: string[];
  optOutMessage?: string;
  helpKeywords?: string[];
  helpMessage?: string;
};

export type Campaign = {
  /** QE… (the use-case registration on the Messaging Service). */
  sid: string;
  messagingServiceSid: string;
  brandRegistrationSid: string;
  /** The Campaign Registry's campaign id once verified. */
  campaignId: string | null;
  status: CampaignStatus;
  useCase: string;
  description: string;
  sampleMessages: string[];
  messageFlow: string;
  /** Twilio's reasons when FAILED, with their error codes (e.g. 30896). */
  failures: { code: number | null; reason: string }[];
  /** Messages per second the carriers allow once verified (the lowest of their limits), null before. */
  throughputMps: number | null;
  dateCreated: Date | null;
  dateUpdated: Date | null;
};

export const TOLLFREE_STATUSES = [
  'PENDING_REVIEW',
  'IN_REVIEW',
  'TWILIO_APPROVED',
  'TWILIO_REJECTED',
] as const;
export type TollfreeStatus = (typeof TOLLFREE_STATUSES)[number];

export type TollfreeVerificationInput = {
  /** The toll-free number's sid, PN… */
  tollfreePhoneNumberSid: string;
  /** The approved customer profile, when there is one (its business then needs not be repeated). */
  customerProfileSid?: string;
  businessName: string;
  businessWebsite: string;
  notificationEmail: string;
  /** Twilio's keys, e.g. APPOINTMENTS, MARKETING, CUSTOMER_CARE. */
  useCaseCategories: string[];
  useCaseSummary: string;
  productionMessageSample: string;
  /** Pictures (public URLs) of where people opt in. */
  optInImageUrls: string[];
  optInType: 'VERBAL' | 'WEB_FORM' | 'PAPER_FORM' | 'VIA_TEXT' | 'MOBILE_QR_CODE';
  /** Twilio's volume bands, e.g. '10', '1,000', '10,000'. */
  messageVolume: string;
  businessAddress?: PostalAddress;
  businessContact?: { firstName: string; lastName: string; email: string; phone: E164 };
  additionalInformation?: string;
};

export type TollfreeVerification = {
  /** HH… */
  sid: string;
  tollfreePhoneNumberSid: string;
  businessName: string;
  businessWebsite: string;
  status: TollfreeStatus;
  /** Twilio's reason when rejected, with its error code. */
  rejectionReason: string | null;
  errorCode: number | null;
  dateCreated: Date | null;
  dateUpdated: Date | null;
};

export interface Carrier {
  fetchAccount(): Promise<CarrierAccount>;
  createCall(input: CreateCallInput): Promise<CarrierCall>;
  fetchCall(callSid: string): Promise<CarrierCall>;
  /**
   * The account's calls from one number to another created since a time, newest first (the latest 50):
   * whether a call whose placing got no clear answer (a 5xx, no answer) was placed after all.
   */
  listCalls(input: ListCallsInput): Promise<CarrierCall[]>;
  /** Status canceled (not answered yet) or completed (hang up), or new TwiML (url/twiml) for a live call. */
  updateCall(callSid: string, input: UpdateCallInput): Promise<CarrierCall>;
  /** A recording's audio (a WAV file) by its sid (RE...); anything else is a 404 CarrierError. */
  fetchRecordingAudio(recordingSid: string): Promise<RecordingAudio>;
  /**
   * A received MMS's media URL, fetched only from the carrier's own hosts (with the account's credentials
   * where the carrier wants them), through the outbound guard; at most `maxBytes`. A URL elsewhere is a
   * 403 CarrierError, fetched from nowhere.
   */
  fetchMedia(url: string, opts: { maxBytes: number }): Promise<CarrierMedia>;
  createMessage(input: CreateMessageInput): Promise<CarrierMessage>;
  fetchMessage(sid: string): Promise<FetchedMessage>;
  /**
   * The account's messages from one number to another since a time, newest first (all pages): whether a
   * message a crashed worker was sending reached the carrier.
   */
  listMessages(input: ListMessagesInput): Promise<CarrierMessage[]>;
  searchAvailableNumbers(search: AvailableNumberSearch): Promise<AvailableNumber[]>;
  /** What a local number of the country costs a month (Twilio's Pricing API), or null when not listed. */
  localNumberPrice(country: string): Promise<NumberPrice | null>;
  purchaseNumber(phoneNumber: E164, input?: IncomingNumberInput): Promise<IncomingNumber>;
  listIncomingNumbers(): Promise<IncomingNumber[]>;
  updateIncomingNumber(sid: string, input: IncomingNumberInput): Promise<IncomingNumber>;
  releaseNumber(sid: string): Promise<void>;
  listOutgoingCallerIds(): Promise<OutgoingCallerId[]>;
  requestCallerIdValidation(input: {
    phoneNumber: E164;
    friendlyName?: string;
    statusCallback?: string;
  }): Promise<CallerIdValidation>;
  deleteOutgoingCallerId(sid: string): Promise<void>;

  // Registration (issue 26). A profile is created as a draft with its business, representative and address.
  createCustomerProfile(input: CustomerProfileInput): Promise<CustomerProfile>;
  fetchCustomerProfile(sid: string): Promise<CustomerProfile>;
  /** A draft's or a rejected profile's changes (a rejected one goes back to draft). */
  updateCustomerProfile(sid: string, input: Partial<CustomerProfileInput>): Promise<CustomerProfile>;
  /** What the profile lacks before submission (Twilio's evaluation against its policy). */
  evaluateCustomerProfile(sid: string): Promise<ProfileEvaluation>;
  /** Evaluates, and submits for review (pending-review) only when compliant. */
  submitCustomerProfile(sid: string): Promise<{ profile: CustomerProfile; evaluation: ProfileEvaluation }>;
  /** Creates and submits the A2P messaging profile, then registers the brand (PENDING). */
  createBrandRegistration(input: BrandRegistrationInput): Promise<BrandRegistration>;
  fetchBrandRegistration(sid: string): Promise<BrandRegistration>;
  createMessagingService(input: MessagingServiceInput): Promise<MessagingService>;
  /** Puts a number (PN…) of the account into the Messaging Service's sender pool. */
  addNumberToMessagingService(messagingServiceSid: string, phoneNumberSid: string): Promise<void>;
  createCampaign(input: CampaignInput): Promise<Campaign>;
  fetchCampaign(messagingServiceSid: string, campaignSid: string): Promise<Campaign>;
  createTollfreeVerification(input: TollfreeVerificationInput): Promise<TollfreeVerification>;
  fetchTollfreeVerification(sid: string): Promise<TollfreeVerification>;
}

/**
 * What a carrier's refusal means to us, whatever the carrier's own code (the adapter maps its codes:
 * ./twilio-webhooks.ts for Twilio's). Null when the product does not tell it apart.
 */
export type CarrierErrorKind =
  | 'authentication'
  | 'not-found'
  /** The recipient opted out of texts at the carrier (replied STOP). */
  | 'opted-out'
  /** The number cannot be bought or verified (not available, not in the carrier's inventory). */
  | 'number-unavailable'
  /** The caller id is already verified on the account. */
  | 'already-verified'
  /** The sending number is not registered for texting (US A2P 10DLC 30034, toll-free unverified 30032). */
  | 'unregistered-sender'
  /** A request the carrier refused as invalid: a required field missing or a value it does not take. */
  | 'invalid-request';

/**
 * The carrier refused a request. `code` is the carrier's own error code, `status` the HTTP status it
 * answered, `kind` what the code means to us (set by the adapter that knows the carrier's codes).
 */
export class CarrierError extends Error {
  readonly kind: CarrierErrorKind | null;
  constructor(
    message: string,
    readonly code: number | null,
    readonly status: number,
    readonly moreInfo: string | null = null,
    kind?: CarrierErrorKind | null,
  ) {
    super(message);
    this.name = 'CarrierError';
    this.kind = kind === undefined ? twilioErrorKind(code) : kind;
  }
  get isAuthentication(): boolean {
    return this.kind === 'authentication' || this.status === 401;
  }
  /** A refusal for a moment (our account, the carrier's rate limit): nothing was done, worth a retry. */
  get refusedForNow(): boolean {
    return this.status === 401 || this.status === 429;
  }
  /** No answer, or the carrier's own failure (a 5xx): it may have done the work (ADR 128). */
  get unclear(): boolean {
    return this.status === 0 || this.status >= 500;
  }
}

/**
 * The carrier refused a request's content (Twilio's 400 with code 20001, or the SDK's own check of a
 * required parameter): `param` is the carrier's parameter name (e.g. Email, MessageSamples) when known.
 */
export class CarrierValidationError extends CarrierError {
  constructor(
    message: string,
    readonly param: string | null,
    code: number | null = 20001,
    moreInfo: string | null = null,
  ) {
    super(message, code, 400, moreInfo, 'invalid-request');
    this.name = 'CarrierValidationError';
  }
}

import twilio from 'twilio';
import { createOutbound, hostAllowed, type Outbound, OutboundError } from '../outbound/guard.ts';
import type {
  AvailableNumber,
  BrandRegistration,
  BrandRegistrationInput,
  CallStatus,
  Campaign,
  CampaignInput,
  Carrier,
  CarrierAccount,
  CarrierCall,
  CarrierMedia,
  CarrierMessage,
  CustomerProfile,
  CustomerProfileInput,
  FetchedMessage,
  IncomingNumber,
  IncomingNumberInput,
  ListCallsInput,
  ListMessagesInput,
  MessageStatus,
  MessagingService,
  MessagingServiceInput,
  NumberPrice,
  ProfileEvaluation,
  RecordingAudio,
  TollfreeVerification,
  TollfreeVerificationInput,
} from './carrier.ts';
import { CarrierError, CarrierValidationError, RECORDING_SID_PATTERN } from './carrier.ts';
import { twilioErrorKind } from './twilio-errors.ts';
import * as registration from './twilio-registration.ts';
import { renderTwiml } from './twilio-webhooks.ts';

/** Where Twilio's media come from: its API (MediaUrl) and its media CDN; redirects from there are followed
 * under the guard's address rules (ADR 049). Https only. */
export const TWILIO_MEDIA_HOSTS = ['api.twilio.com', '*.twiliocdn.com'] as const;
const TWILIO_API_HOST = 'api.twilio.com';
/** A recording (WAV, 8 kHz, two channels) of about an hour and a half. */
export const RECORDING_MAX_BYTES = 160 * 1024 * 1024;
const RECORDING_TIMEOUT_MS = 60_000;
const MEDIA_TIMEOUT_MS = 15_000;

/** The process's guard for the adapter's own fetches (recordings, media) unless one is given. */
let sharedOutbound: Outbound | undefined;

/** The SDK's pluggable HTTP client (its RequestClient interface); the sandbox provides one. */
export type TwilioHttpClient = NonNullable<twilio.ClientOpts['httpClient']>;

export type TwilioCarrierOptions = {
  accountSid: string;
  authToken: string;
  /** Where the SDK's requests go; the real Twilio API when absent. */
  httpClient?: TwilioHttpClient;
  /** The outbound guard recordings and media are fetched through (the platform's; tests give a spy). */
  outbound?: Outbound;
};

/** Turn the SDK's RestException (and any other failure) into our CarrierError. */
function carrierError(error: unknown): Error {
  if (error instanceof twilio.RestException) {
    // A request Twilio refused as invalid (a required parameter missing, a value it does not take).
    if (error.code === 20001 && error.status === 400) {
      const param = /parameter:? '?([A-Za-z0-9]+)'?/.exec(error.message)?.[1] ?? null;
      return new CarrierValidationError(error.message, param, error.code, error.moreInfo ?? null);
    }
    return new CarrierError(error.message, error.code ?? null, error.status, error.moreInfo ?? null);
  }
  if (error instanceof CarrierError) return error;
  if (error instanceof OutboundError)
    return new CarrierError(
      `The carrier's file could not be fetched: ${error.message}`,
      null,
      error.reason === 'too-large' ? 413 : 502,
    );
  // The SDK's own check of a required parameter, before any request.
  const required =
    error instanceof Error ? /^Required parameter "params\['(\w+)'\]" missing\.$/.exec(error.message) : null;
  if (required?.[1]) {
    const param = required[1].charAt(0).toUpperCase() + required[1].slice(1);
    return new CarrierValidationError(`Missing required parameter ${param}`, param, null);
  }
  // No answer at all (network, DNS, timeout): the carrier is unreachable.
  const message = error instanceof Error ? error.message : String(error);
  return new CarrierError(`The carrier could not be reached: ${message}`, null, 502);
}

async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw carrierError(error);
  }
}

type CapabilityRecord = { voice?: boolean; sms?: boolean; mms?: boolean; SMS?: boolean; MMS?: boolean };
const capabilities = (c: unknown) => {
  const r = (c ?? {}) as CapabilityRecord;
  return { voice: Boolean(r.voice), sms: Boolean(r.sms ?? r.SMS), mms: Boolean(r.mms ?? r.MMS) };
};

/** A twilio message as the carrier port's message. */
type TwilioMessage = Pick<CarrierMessage, 'sid' | 'accountSid' | 'to' | 'from' | 'body'> & {
  status: string;
  numSegments: string | null;
};
const carrierMessage = (m: TwilioMessage): CarrierMessage => ({
  sid: m.sid,
  accountSid: m.accountSid,
  to: m.to,
  from: m.from,
  body: m.body,
  status: m.status as MessageStatus,
  numSegments: Number(m.numSegments ?? 1),
});

/** The production carrier: the official `twilio` SDK on one account (an agency's own). */
export class TwilioCarrier implements Carrier {
  readonly client: twilio.Twilio;
  private readonly outbound: Outbound;

  constructor(readonly options: TwilioCarrierOptions) {
    this.client = twilio(options.accountSid, options.authToken, {
      ...(options.httpClient ? { httpClient: options.httpClient } : {}),
    });
    sharedOutbound ??= createOutbound();
    this.outbound = options.outbound ?? sharedOutbound;
  }

  private basicAuth(): Record<string, string> {
    const { accountSid, authToken } = this.options;
    return { authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}` };
  }

  fetchAccount(): Promise<CarrierAccount> {
    return guarded(async () => {
      const a = await this.client.api.v2010.accounts(this.options.accountSid).fetch();
      return {
        sid: a.sid,
        friendlyName: a.friendlyName,
        status: a.status as CarrierAccount['status'],
        type: a.type as CarrierAccount['type'],
      };
    });
  }

  private call(c: {
    sid: string;
    accountSid: string;
    to: string;
    from: string;
    status: string;
    direction: string;
    parentCallSid: string | null;
    duration: string | null;
    answeredBy?: string | null;
  }): CarrierCall {
    return {
      sid: c.sid,
      accountSid: c.accountSid,
      to: c.to,
      from: c.from,
      status: c.status as CallStatus,
      direction: c.direction,
      parentCallSid: c.parentCallSid ?? null,
      duration: c.duration == null ? null : Number(c.duration),
      answeredBy: c.answeredBy ?? null,
    };
  }

  createCall(input: Parameters<Carrier['createCall']>[0]): Promise<CarrierCall> {
    return guarded(async () =>
      this.call(
        await this.client.calls.create({
          to: input.to,
          from: input.from,
          ...(input.url ? { url: input.url } : {}),
          ...(input.twiml ? { twiml: input.twiml } : {}),
          ...(input.instructions ? { twiml: renderTwiml(input.instructions) } : {}),
          ...(input.method ? { method: input.method } : {}),
          ...(input.statusCallback ? { statusCallback: input.statusCallback } : {}),
          ...(input.statusCallbackEvents ? { statusCallbackEvent: input.statusCallbackEvents } : {}),
          ...(input.timeout !== undefined ? { timeout: input.timeout } : {}),
          ...(input.record !== undefined ? { record: input.record } : {}),
          ...(input.machineDetection ? { machineDetection: input.machineDetection } : {}),
          ...(input.recordingStatusCallback
            ? { recordingStatusCallback: input.recordingStatusCallback }
            : {}),
        }),
      ),
    );
  }

  fetchCall(callSid: string): Promise<CarrierCall> {
    return guarded(async () => this.call(await this.client.calls(callSid).fetch()));
  }

  listCalls(input: ListCallsInput): Promise<CarrierCall[]> {
    return guarded(async () => {
      // By creation, not StartTime: a call still queued has no start time yet.
      const list = await this.client.calls.list({ to: input.to, from: input.from, pageSize: 50, limit: 50 });
      const since = input.createdAfter.getTime();
      return list.filter((c) => c.dateCreated && c.dateCreated.getTime() >= since).map((c) => this.call(c));
    });
  }

  updateCall(callSid: string, input: Parameters<Carrier['updateCall']>[1]): Promise<CarrierCall> {
    return guarded(async () => this.call(await this.client.calls(callSid).update(input)));
  }

  /**
   * The recording's WAV, from the account's Recordings on Twilio's API by its sid, with the account's
   * credentials. A sid is never a URL: whatever else is given is a 404, fetched from nowhere (ADR 049).
   */
  fetchRecordingAudio(recordingSid: string): Promise<RecordingAudio> {
    return guarded(async () => {
      if (!RECORDING_SID_PATTERN.test(recordingSid))
        throw new CarrierError('The requested resource was not found', 20404, 404);
      const { accountSid } = this.options;
      const url = `https://${TWILIO_API_HOST}/2010-04-01/Accounts/${accountSid}/Recordings/${recordingSid}.wav`;
      // Streamed: the caller pipes it to storage; the guard cuts it at the limit while it flows.
      const res = await this.outbound.stream(url, {
        maxBytes: RECORDING_MAX_BYTES,
        timeoutMs: RECORDING_TIMEOUT_MS,
        allowHosts: [TWILIO_API_HOST],
        credentials: this.basicAuth(),
      });
      if (res.status < 200 || res.status >= 300) {
        res.body.destroy();
        throw new CarrierError(
          `The recording could not be fetched (HTTP ${res.status})`,
          res.status === 404 ? 20404 : null,
          res.status,
        );
      }
      return { contentType: String(res.headers['content-type'] ?? 'audio/wav'), body: res.body };
    });
  }

  /** A MediaUrl of an inbound MMS: from Twilio's hosts only, the credentials to its API only. */
  fetchMedia(url: string, opts: { maxBytes: number }): Promise<CarrierMedia> {
    return guarded(async () => {
      const u = URL.canParse(url) ? new URL(url) : null;
      if (u?.protocol !== 'https:' || !hostAllowed(u.hostname, TWILIO_MEDIA_HOSTS))
        throw new CarrierError(
          `Media must come from the carrier's own hosts, not ${u?.host ?? url}`,
          null,
          403,
        );
      const res = await this.outbound.fetch(u.toString(), {
        maxBytes: opts.maxBytes,
        timeoutMs: MEDIA_TIMEOUT_MS,
        allowHosts: TWILIO_MEDIA_HOSTS,
        ...(u.hostname === TWILIO_API_HOST ? { credentials: this.basicAuth() } : {}),
      });
      if (res.status < 200 || res.status >= 300)
        throw new CarrierError(`The media could not be fetched (HTTP ${res.status})`, null, res.status);
      return { contentType: String(res.headers['content-type'] ?? ''), body: res.body };
    });
  }

  createMessage(input: Parameters<Carrier['createMessage']>[0]): Promise<CarrierMessage> {
    return guarded(async () => {
      const m = await this.client.messages.create({
        to: input.to,
        from: input.from,
        body: input.body,
        ...(input.statusCallback ? { statusCallback: input.statusCallback } : {}),
        ...(input.mediaUrl?.length ? { mediaUrl: input.mediaUrl } : {}),
      });
      return carrierMessage(m);
    });
  }

  fetchMessage(sid: string): Promise<FetchedMessage> {
    return guarded(async () => {
      const m = await this.client.messages(sid).fetch();
      return {
        ...carrierMessage(m),
        errorCode: m.errorCode ?? null,
        errorKind: twilioErrorKind(m.errorCode ?? null),
        errorMessage: m.errorMessage ?? null,
      };
    });
  }

  listMessages(input: ListMessagesInput): Promise<CarrierMessage[]> {
    return guarded(async () => {
      const list = await this.client.messages.list({
        to: input.to,
        from: input.from,
        dateSentAfter: input.sentAfter,
        pageSize: 1000,
      });
      return list.map(carrierMessage);
    });
  }

  searchAvailableNumbers(
    search: Parameters<Carrier['searchAvailableNumbers']>[0],
  ): Promise<AvailableNumber[]> {
    return guarded(async () => {
      const list = await this.client.availablePhoneNumbers(search.country).local.list({
        ...(search.areaCode !== undefined ? { areaCode: search.areaCode } : {}),
        ...(search.voiceEnabled !== undefined ? { voiceEnabled: search.voiceEnabled } : {}),
        ...(search.smsEnabled !== undefined ? { smsEnabled: search.smsEnabled } : {}),
        limit: search.limit ?? 20,
      });
      return list.map((n) => ({
        phoneNumber: n.phoneNumber,
        friendlyName: n.friendlyName,
        locality: n.locality ?? null,
        region: n.region ?? null,
        country: n.isoCountry,
        capabilities: capabilities(n.capabilities),
      }));
    });
  }

  localNumberPrice(country: string): Promise<NumberPrice | null> {
    return guarded(async () => {
      const c = await this.client.pricing.v1.phoneNumbers.countries(country.toUpperCase()).fetch();
      const local = (c.phoneNumberPrices ?? []).find((p) => p.numberType === 'local');
      if (local?.currentPrice === undefined || local.currentPrice === null || !c.priceUnit) return null;
      return { monthly: Number(local.currentPrice).toFixed(2), unit: c.priceUnit.toUpperCase() };
    });
  }

  private incoming(n: {
    sid: string;
    phoneNumber: string;
    friendlyName: string;
    voiceUrl: string | null;
    smsUrl: string | null;
    capabilities: unknown;
  }): IncomingNumber {
    return {
      sid: n.sid,
      phoneNumber: n.phoneNumber,
      friendlyName: n.friendlyName,
      voiceUrl: n.voiceUrl || null,
      smsUrl: n.smsUrl || null,
      capabilities: capabilities(n.capabilities),
    };
  }

  purchaseNumber(phoneNumber: string, input: IncomingNumberInput = {}): Promise<IncomingNumber> {
    return guarded(async () =>
      this.incoming(await this.client.incomingPhoneNumbers.create({ phoneNumber, ...input })),
    );
  }

  listIncomingNumbers(): Promise<IncomingNumber[]> {
    return guarded(async () => (await this.client.incomingPhoneNumbers.list()).map((n) => this.incoming(n)));
  }

  updateIncomingNumber(sid: string, input: IncomingNumberInput): Promise<IncomingNumber> {
    return guarded(async () => this.incoming(await this.client.incomingPhoneNumbers(sid).update(input)));
  }

  releaseNumber(sid: string): Promise<void> {
    return guarded(async () => {
      await this.client.incomingPhoneNumbers(sid).remove();
    });
  }

  listOutgoingCallerIds() {
    return guarded(async () =>
      (await this.client.outgoingCallerIds.list()).map((c) => ({
        sid: c.sid,
        phoneNumber: c.phoneNumber,
        friendlyName: c.friendlyName,
      })),
    );
  }

  requestCallerIdValidation(input: Parameters<Carrier['requestCallerIdValidation']>[0]) {
    return guarded(async () => {
      const v = await this.client.validationRequests.create({
        phoneNumber: input.phoneNumber,
        ...(input.friendlyName ? { friendlyName: input.friendlyName } : {}),
        ...(input.statusCallback ? { statusCallback: input.statusCallback } : {}),
      });
      return { phoneNumber: v.phoneNumber, validationCode: v.validationCode, callSid: v.callSid };
    });
  }

  deleteOutgoingCallerId(sid: string): Promise<void> {
    return guarded(async () => {
      await this.client.outgoingCallerIds(sid).remove();
    });
  }
  // ---- Registration (issue 26): ./twilio-registration.ts ----

  createCustomerProfile(input: CustomerProfileInput): Promise<CustomerProfile> {
    return guarded(() => registration.createCustomerProfile(this.client, input));
  }

  fetchCustomerProfile(sid: string): Promise<CustomerProfile> {
    return guarded(() => registration.fetchCustomerProfile(this.client, sid));
  }

  updateCustomerProfile(sid: string, input: Partial<CustomerProfileInput>): Promise<CustomerProfile> {
    return guarded(() => registration.updateCustomerProfile(this.client, sid, input));
  }

  evaluateCustomerProfile(sid: string): Promise<ProfileEvaluation> {
    return guarded(() => registration.evaluateCustomerProfile(this.client, sid));
  }

  submitCustomerProfile(sid: string): Promise<{ profile: CustomerProfile; evaluation: ProfileEvaluation }> {
    return guarded(() => registration.submitCustomerProfile(this.client, sid));
  }

  createBrandRegistration(input: BrandRegistrationInput): Promise<BrandRegistration> {
    return guarded(() => registration.createBrandRegistration(this.client, input));
  }

  fetchBrandRegistration(sid: string): Promise<BrandRegistration> {
    return guarded(() => registration.fetchBrandRegistration(this.client, sid));
  }

  createMessagingService(input: MessagingServiceInput): Promise<MessagingService> {
    return guarded(() => registration.createMessagingService(this.client, input));
  }

  addNumberToMessagingService(messagingServiceSid: string, phoneNumberSid: string): Promise<void> {
    return guarded(() =>
      registration.addNumberToMessagingService(this.client, messagingServiceSid, phoneNumberSid),
    );
  }

  createCampaign(input: CampaignInput): Promise<Campaign> {
    return guarded(() => registration.createCampaign(this.client, input));
  }

  fetchCampaign(messagingServiceSid: string, campaignSid: string): Promise<Campaign> {
    return guarded(() => registration.fetchCampaign(this.client, messagingServiceSid, campaignSid));
  }

  createTollfreeVerification(input: TollfreeVerificationInput): Promise<TollfreeVerification> {
    return guarded(() => registration.createTollfreeVerification(this.client, input));
  }

  fetchTollfreeVerification(sid: string): Promise<TollfreeVerification> {
    return guarded(() => registration.fetchTollfreeVerification(this.client, sid));
  }
}

import twilio from 'twilio';
import type {
  AvailableNumber,
  CallStatus,
  Carrier,
  CarrierAccount,
  CarrierCall,
  CarrierMessage,
  FetchedMessage,
  IncomingNumber,
  IncomingNumberInput,
  MessageStatus,
  NumberPrice,
  RecordingAudio,
} from './carrier.ts';
import { CarrierError } from './carrier.ts';

/** The SDK's pluggable HTTP client (its RequestClient interface); the sandbox provides one. */
export type TwilioHttpClient = NonNullable<twilio.ClientOpts['httpClient']>;

export type TwilioCarrierOptions = {
  accountSid: string;
  authToken: string;
  /** Where the SDK's requests go; the real Twilio API when absent. */
  httpClient?: TwilioHttpClient;
};

/** Turn the SDK's RestException (and any other failure) into our CarrierError. */
function carrierError(error: unknown): Error {
  if (error instanceof twilio.RestException) {
    return new CarrierError(error.message, error.code ?? null, error.status, error.moreInfo ?? null);
  }
  if (error instanceof CarrierError) return error;
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

/** The production carrier: the official `twilio` SDK on one account (an agency's own). */
export class TwilioCarrier implements Carrier {
  readonly client: twilio.Twilio;

  constructor(readonly options: TwilioCarrierOptions) {
    this.client = twilio(options.accountSid, options.authToken, {
      ...(options.httpClient ? { httpClient: options.httpClient } : {}),
    });
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

  updateCall(callSid: string, input: Parameters<Carrier['updateCall']>[1]): Promise<CarrierCall> {
    return guarded(async () => this.call(await this.client.calls(callSid).update(input)));
  }

  /**
   * The recording's WAV: `<RecordingUrl>.wav` (or the recording's media URL from its sid), fetched with
   * the account's credentials.
   */
  fetchRecordingAudio(recording: string): Promise<RecordingAudio> {
    return guarded(async () => {
      const { accountSid, authToken } = this.options;
      const base = /^https?:\/\//.test(recording)
        ? recording.replace(/\.(wav|mp3|json)$/, '')
        : `https://api.twilio.com/2010-04-01/Accounts/${accountSid}/Recordings/${recording}`;
      const res = await fetch(`${base}.wav`, {
        headers: { authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}` },
        signal: AbortSignal.timeout(30_000),
      });
      if (!res.ok) {
        throw new CarrierError(
          `The recording could not be fetched (HTTP ${res.status})`,
          res.status === 404 ? 20404 : null,
          res.status,
        );
      }
      return {
        contentType: res.headers.get('content-type') ?? 'audio/wav',
        body: Buffer.from(await res.arrayBuffer()),
      };
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
      return {
        sid: m.sid,
        accountSid: m.accountSid,
        to: m.to,
        from: m.from,
        body: m.body,
        status: m.status as MessageStatus,
        numSegments: Number(m.numSegments ?? 1),
      };
    });
  }

  fetchMessage(sid: string): Promise<FetchedMessage> {
    return guarded(async () => {
      const m = await this.client.messages(sid).fetch();
      return {
        sid: m.sid,
        accountSid: m.accountSid,
        to: m.to,
        from: m.from,
        body: m.body,
        status: m.status as MessageStatus,
        numSegments: Number(m.numSegments ?? 1),
        errorCode: m.errorCode ?? null,
        errorMessage: m.errorMessage ?? null,
      };
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
}

import type { Readable } from 'node:stream';
import { DELIVERY_STATUSES } from '@stn/contracts/chats';
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

export interface Carrier {
  fetchAccount(): Promise<CarrierAccount>;
  createCall(input: CreateCallInput): Promise<CarrierCall>;
  fetchCall(callSid: string): Promise<CarrierCall>;
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
  | 'already-verified';

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
}

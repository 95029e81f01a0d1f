import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import {
  type CallEvent,
  type CallStatus,
  CarrierError,
  type CarrierMedia,
  isE164,
  type MessageStatus,
  RECORDING_SID_PATTERN,
  type RecordingAudio,
} from '../carrier.ts';
import { TwilioCarrier, type TwilioHttpClient } from '../twilio-carrier.ts';
import { recordingWav } from './audio.ts';
import { realClock, type SandboxClock } from './clock.ts';
import { availableNumbers, numberPricing } from './numbers.ts';
import { SandboxPhones } from './phones.ts';
import { RegistrationFault, SandboxRegistry } from './registration.ts';
import { type DialState, type GatherState, type RecordWait, TwimlInterpreter } from './twiml.ts';
import { WebhookCaller, type WebhookTransport } from './webhook-caller.ts';

/**
 * The sandbox carrier: an in-process emulator of the part of Twilio's REST API the product uses, with
 * simulated phones and a TwiML interpreter (ADR 026). The official `twilio` SDK talks to it through its
 * `httpClient` option (no network hop), so the code path from an SDK call to a signed webhook is the
 * production one.
 */

export const API_VERSION = '2010-04-01';
/** The number the sandbox's own caller-id validation calls come from. */
export const VALIDATION_CALLER = '+15005550006';

export type SandboxAccount = {
  sid: string;
  authToken: string;
  friendlyName: string;
  status: 'active' | 'suspended' | 'closed';
  dateCreated: number;
};

export type SandboxMessage = {
  sid: string;
  accountSid: string;
  to: string;
  from: string;
  body: string;
  /** The MediaUrl of an outgoing MMS (what the phone receives with the text). */
  media: string[];
  direction: 'outbound-api' | 'inbound';
  status: MessageStatus;
  statusCallback: string | null;
  dateCreated: number;
  dateUpdated: number;
  dateSent: number | null;
  /** A delivery error (failNumber): set when the message moves to undelivered or failed. */
  errorCode: number | null;
  errorMessage: string | null;
};

/** A message as the sandbox's record keeps it (tests count what the carrier really took). */
export type SentMessage = {
  sid: string;
  accountSid: string;
  to: string;
  from: string;
  body: string;
  status: MessageStatus;
  /** When the carrier took it (sandbox clock, ms). */
  dateCreated: number;
  /** When it left the carrier's queue at its number's rate (null: still queued, or failed unsent). */
  dateSent: number | null;
  errorCode: number | null;
};

/** A message the sandbox refused at create (a number made to fail with a refusal code). */
export type RefusedMessage = { to: string; from: string; body: string; code: number; at: number };

/**
 * The Twilio errors a destination can be made to fail with (failNumber). Codes below 30000 refuse the
 * message at create (HTTP 400, nothing is sent); 30001 and 30002 accept it then fail it unsent; the other
 * 300xx codes accept it, send it, and report it undelivered, as Twilio's do.
 */
export const SANDBOX_ERROR_MESSAGES: Record<number, string> = {
  21211: "Invalid 'To' Phone Number",
  21408: 'Permission to send an SMS has not been enabled for the region indicated by the To number',
  21610: 'Attempt to send to unsubscribed recipient',
  21612: "The 'To' phone number is not currently reachable via SMS",
  21614: "'To' number is not a valid mobile number",
  30001: 'Queue overflow',
  30002: 'Account suspended',
  30003: 'Unreachable destination handset',
  30004: 'Message blocked',
  30005: 'Unknown destination handset',
  30006: 'Landline or unreachable carrier',
  30007: 'Message filtered',
  30008: 'Unknown error',
  // The sender's registration (ADR 092), not the destination: a text from an unregistered number fails.
  30032: 'Toll-Free Number Has Not Been Verified',
  30034: 'Message from an unregistered number',
};
export const isDeliveryError = (code: number) => code >= 30000 && code < 31000;

export type CallDirection = 'outbound-api' | 'outbound-dial' | 'inbound';

export type SandboxCall = {
  sid: string;
  accountSid: string;
  to: string;
  from: string;
  /** Where the call's TwiML comes from (empty for inline Twiml or the sandbox's own programs). */
  url: string;
  method: 'GET' | 'POST';
  twiml: string | null;
  direction: CallDirection;
  parentCallSid: string | null;
  /** The simulated phone on this leg: `to` for outbound legs, `from` for inbound calls. */
  phone: string;
  status: CallStatus;
  statusCallback: string | null;
  statusCallbackMethod: 'GET' | 'POST';
  statusCallbackEvents: Set<CallEvent>;
  timeoutSeconds: number;
  machineDetection: string | null;
  answeredBy: string | null;
  /** Answered by a voicemail box (machine): it hears, and presses only what its greeting's tones register as. */
  voicemail: boolean;
  /** The digits a voicemail's greeting registers as (tones in the greeting), pressed into any <Gather>. */
  greetingTones?: string;
  record: boolean;
  recordingStatusCallback: string | null;
  dateCreated: number;
  dateUpdated: number;
  startTime: number | null;
  answerTime: number | null;
  endTime: number | null;
  sequence: number;
  /** What the phone heard, newest last. */
  heard: string[];
  gather: GatherState | null;
  recording: RecordWait | null;
  /** The call sid this leg is bridged with. */
  bridgedWith: string | null;
  /** The <Dial> this (parent) call is running, or the one this child leg belongs to. */
  dial: DialState | null;
  childOf: DialState | null;
  /** Bumped when the call's TwiML is replaced or the call ends: older work stops at its next step. */
  generation: number;
  wakers: Set<() => void>;
  /** A program of the sandbox's own instead of a fetched URL (caller-id validation calls). */
  program: ((call: SandboxCall) => Promise<void>) | null;
  phoneNumberSid: string | null;
};

export type SandboxIncomingNumber = {
  sid: string;
  accountSid: string;
  phoneNumber: string;
  friendlyName: string;
  voiceUrl: string;
  voiceMethod: 'GET' | 'POST';
  smsUrl: string;
  smsMethod: 'GET' | 'POST';
  statusCallback: string;
  statusCallbackMethod: 'GET' | 'POST';
  dateCreated: number;
  dateUpdated: number;
};

export type SandboxCallerId = {
  sid: string;
  accountSid: string;
  phoneNumber: string;
  friendlyName: string;
  dateCreated: number;
};

export type SandboxRecording = {
  sid: string;
  accountSid: string;
  callSid: string;
  duration: number;
  channels: 1 | 2;
  source: 'DialVerb' | 'RecordVerb' | 'OutboundAPI';
  dateCreated: number;
};

/** The time, in sandbox milliseconds, between the steps the sandbox plays out on its own. */
export type SandboxTimings = {
  messageQueued: number;
  messageSent: number;
  messageDelivered: number;
  callInitiated: number;
  callRinging: number;
  /** Per word of a <Say>. */
  sayWord: number;
  /** One loop of a <Play>. */
  play: number;
};

export const DEFAULT_TIMINGS: SandboxTimings = {
  messageQueued: 0,
  messageSent: 300,
  messageDelivered: 1200,
  callInitiated: 0,
  callRinging: 150,
  sayWord: 60,
  play: 1000,
};

export type SandboxOptions = {
  clock?: SandboxClock;
  transport?: WebhookTransport;
  timings?: Partial<SandboxTimings>;
  /** Scheme and host recordings are served at (`${publicBase}/sandbox/recordings/RE...`). */
  publicBase?: string;
  /** Told of every failure kept in `errors` (the platform logs them). */
  onError?: (error: unknown) => void;
  /**
   * Where recordings' WAV files are kept (the platform's file store), so that a restarted process still
   * plays the recordings and voicemails its lists link; in memory only when absent.
   */
  store?: RecordingStore;
};

/** What the sandbox needs of the platform's file store. */
export type RecordingStore = {
  put(key: string, bytes: Buffer, contentType: string): Promise<unknown>;
  readStream(key: string): Promise<Readable | null>;
};

/** The file store's key of a sandbox recording (per account, so one account never reads another's). */
export const recordingKey = (accountSid: string, sid: string) =>
  `sandbox/recordings/${accountSid}/${sid}.wav`;

/** What the SDK's RequestClient.request() receives (see twilio/lib/base/RequestClient.d.ts). */
type SdkRequest = {
  method: string;
  uri: string;
  username?: string;
  password?: string;
  authStrategy?: { getAuthString(): Promise<string> };
  params?: Record<string, unknown>;
  data?: Record<string, unknown>;
};

export type SandboxResponse = { statusCode: number; body: string; headers: Record<string, string> };
type Form = Record<string, string | string[]>;

export const sandboxSid = (prefix: string) => prefix + crypto.randomBytes(16).toString('hex');

/** Twilio's date format: RFC 2822 in UTC. */
export const rfc2822 = (ms: number | null) =>
  ms === null ? null : new Date(ms).toUTCString().replace('GMT', '+0000');

/**
 * An error the REST API answers instead of its work (see `TwilioSandbox.fault`); with `after`, answered
 * after the work is done (a carrier that took the request but whose answer was lost or broke).
 */
export type SandboxFault = { status: number; code: number; message: string; after?: boolean };

class TwilioError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

const badRequest = (code: number, message: string) => new TwilioError(400, code, message);

/** Finished calls and messages kept in memory (the oldest are forgotten beyond this). */
const MAX_KEPT = 5000;
/** Messages kept (a broadcast of tens of thousands is read back by sid) and the record of sent ones. */
const MAX_KEPT_MESSAGES = 50_000;
const MAX_RECORD = 200_000;

function one(form: Form, key: string): string | undefined {
  const v = form[key];
  return Array.isArray(v) ? v[0] : v;
}

function many(form: Form, key: string): string[] {
  const v = form[key];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

const httpMethod = (v: string | undefined): 'GET' | 'POST' => (v?.toUpperCase() === 'GET' ? 'GET' : 'POST');

/** The SDK hands over its form as an object of strings, numbers, booleans and arrays. */
function toForm(data: Record<string, unknown> | undefined): Form {
  const form: Form = {};
  for (const [key, value] of Object.entries(data ?? {})) {
    if (value === undefined || value === null) continue;
    form[key] = Array.isArray(value) ? value.map(String) : String(value);
  }
  return form;
}

export const FINAL_CALL_STATUSES: ReadonlySet<CallStatus> = new Set([
  'completed',
  'busy',
  'failed',
  'no-answer',
  'canceled',
]);
export const isLive = (call: SandboxCall) => !FINAL_CALL_STATUSES.has(call.status);

/** The sandbox's answer to a phone action that cannot happen (no call ringing, nothing to hang up). */
export class SandboxPhoneError extends Error {
  constructor(
    readonly reason: 'no-ringing-call' | 'no-call' | 'not-in-service' | 'not-a-number',
    message: string,
  ) {
    super(message);
    this.name = 'SandboxPhoneError';
  }
}

/** The production adapter on the sandbox: recordings are served in process. */
class SandboxTwilioCarrier extends TwilioCarrier {
  constructor(
    private readonly sandbox: TwilioSandbox,
    accountSid: string,
    authToken: string,
  ) {
    super({ accountSid, authToken, httpClient: sandbox.httpClient });
  }

  override async fetchRecordingAudio(recordingSid: string): Promise<RecordingAudio> {
    const sid = RECORDING_SID_PATTERN.test(recordingSid) ? recordingSid : '';
    const notFound = () =>
      new CarrierError(`The requested resource ${sid || 'recording'} was not found`, 20404, 404);
    const account = this.sandbox.accounts.get(this.options.accountSid);
    if (!sid || account?.authToken !== this.options.authToken) throw notFound();
    const rec = this.sandbox.recordings.get(sid);
    if (rec) {
      if (rec.accountSid !== this.options.accountSid) throw notFound();
      return {
        contentType: 'audio/wav',
        body: Readable.from([this.sandbox.recordingAudio(sid) ?? Buffer.alloc(0)]),
      };
    }
    // Recorded before this process started: kept in the file store.
    const kept = await this.sandbox.store?.readStream(recordingKey(this.options.accountSid, sid));
    if (!kept) throw notFound();
    return { contentType: 'audio/wav', body: kept };
  }

  /** The sandbox's own media URLs only, read in process (never a network fetch). */
  override async fetchMedia(url: string, opts: { maxBytes: number }): Promise<CarrierMedia> {
    const m = /^(.*)\/sandbox\/media\/(ME[0-9a-f]{32})$/.exec(url);
    if (!m || m[1] !== this.sandbox.publicBase)
      throw new CarrierError("Media must come from the carrier's own hosts", null, 403);
    const item = this.sandbox.media.get(m[2] ?? '');
    if (!item || item.accountSid !== this.options.accountSid)
      throw new CarrierError(`The requested resource ${m[2]} was not found`, 20404, 404);
    // A slow or failing carrier in tests: the bytes are produced when asked.
    const body = typeof item.body === 'function' ? await item.body() : item.body;
    if (body.length > opts.maxBytes) throw new CarrierError('The media is too large', null, 413);
    return { contentType: item.contentType, body };
  }
}

/** A sandbox phone's file: its bytes, or (tests) a function producing them when the product fetches it. */
export type SandboxMediaBody = Buffer | (() => Promise<Buffer>);

export class TwilioSandbox {
  readonly clock: SandboxClock;
  readonly webhooks: WebhookCaller;
  readonly timings: SandboxTimings;
  readonly publicBase: string;
  readonly accounts = new Map<string, SandboxAccount>();
  readonly messages = new Map<string, SandboxMessage>();
  readonly calls = new Map<string, SandboxCall>();
  readonly incomingNumbers = new Map<string, SandboxIncomingNumber>();
  readonly callerIds = new Map<string, SandboxCallerId>();
  readonly recordings = new Map<string, SandboxRecording>();
  /** Files of texts the sandbox's phones send (MMS), at `${publicBase}/sandbox/media/ME...`. */
  readonly media = new Map<string, { accountSid: string; contentType: string; body: SandboxMediaBody }>();
  readonly phones: SandboxPhones;
  readonly twiml: TwimlInterpreter;
  /** Customer profiles, brands, campaigns, toll-free verifications (issue 26; ./registration.ts). */
  readonly registration: SandboxRegistry;
  /**
   * What went wrong, newest last (the last 200): failures of the sandbox's background work, and the
   * product's answers it could not play (an error status, a document that is not TwiML).
   */
  readonly errors: unknown[] = [];
  /** The SDK's RequestClient, answered in process. */
  readonly httpClient: TwilioHttpClient;
  /**
   * Makes the REST API fail as Twilio's can (an outage, a rate limit, a call it no longer knows): asked
   * for each authenticated request, an error it answers is the response. Tests set it; null lets all
   * through.
   */
  fault: ((req: { method: string; path: string }) => SandboxFault | undefined) | null = null;

  /**
   * Makes the next `times` creations of a message or a call (POST Messages.json, Calls.json) answer `fault`
   * (with `after`, once created), every one by default: a `fault` of its own; `fault = null` ends it.
   */
  failCreations(resource: 'Messages' | 'Calls', fault: SandboxFault, times = Number.POSITIVE_INFINITY): void {
    let left = times;
    this.fault = ({ method, path }) =>
      method === 'POST' && path.endsWith(`/${resource}.json`) && left-- > 0 ? fault : undefined;
  }
  private readonly onError: ((error: unknown) => void) | undefined;
  readonly store: RecordingStore | undefined;
  /** Messages per second each sending number leaves the sandbox at (none: at once). */
  private readonly rates = new Map<string, number>();
  /** When each rate-limited number may send its next message (sandbox clock). */
  private readonly nextSlot = new Map<string, number>();
  /** The Twilio error code each failing destination answers (failNumber). */
  private readonly failing = new Map<string, number>();
  /** Every outgoing message the sandbox took, oldest first (bounded at MAX_RECORD). */
  private readonly record: SandboxMessage[] = [];
  private readonly refused: RefusedMessage[] = [];
  private listeners = new Set<() => void>();
  private changePending = false;

  constructor(options: SandboxOptions = {}) {
    this.clock = options.clock ?? realClock((e) => this.fail(e));
    this.webhooks = new WebhookCaller(options.transport);
    this.timings = { ...DEFAULT_TIMINGS, ...options.timings };
    this.publicBase = (options.publicBase ?? 'http://localhost:3000').replace(/\/+$/, '');
    this.onError = options.onError;
    this.store = options.store;
    this.phones = new SandboxPhones(this);
    this.twiml = new TwimlInterpreter(this);
    this.registration = new SandboxRegistry({
      clock: this.clock,
      incomingNumber: (accountSid, sid) => {
        const n = this.incomingNumbers.get(sid);
        return n && n.accountSid === accountSid ? n : undefined;
      },
      hook: (url, params, accountSid) => {
        void this.hook('POST', url, params, accountSid).catch(() => undefined);
      },
    });
    const client = { request: (opts: SdkRequest) => this.request(opts) };
    this.httpClient = client as unknown as TwilioHttpClient;
  }

  // ---- Accounts -------------------------------------------------------------------------------

  createAccount(
    input: Partial<Pick<SandboxAccount, 'sid' | 'authToken' | 'friendlyName'>> = {},
  ): SandboxAccount {
    const account: SandboxAccount = {
      sid: input.sid ?? sandboxSid('AC'),
      authToken: input.authToken ?? crypto.randomBytes(16).toString('hex'),
      friendlyName: input.friendlyName ?? 'Sandbox account',
      status: 'active',
      dateCreated: this.clock.now(),
    };
    this.accounts.set(account.sid, account);
    return account;
  }

  /** The account as the database knows it (a restarted process lost its memory): created or updated. */
  ensureAccount(input: { sid: string; authToken: string; friendlyName?: string }): SandboxAccount {
    const existing = this.accounts.get(input.sid);
    if (existing) {
      existing.authToken = input.authToken;
      if (input.friendlyName) existing.friendlyName = input.friendlyName;
      return existing;
    }
    return this.createAccount(input);
  }

  // ---- Sending rates, failing numbers, the record ---------------------------------------------------

  /**
   * Messages from `phone` leave the sandbox at most `perSecond` a second (Twilio's queue: taken at once,
   * queued, sent at the number's rate). Null: no rate (the default).
   */
  setSendingRate(phone: string, perSecond: number | null): void {
    if (perSecond === null) {
      this.rates.delete(phone);
      this.nextSlot.delete(phone);
    } else {
      if (!(perSecond > 0)) throw new RangeError('A sending rate is a number of messages a second above 0');
      this.rates.set(phone, perSecond);
    }
  }

  sendingRate(phone: string): number | null {
    return this.rates.get(phone) ?? null;
  }

  /**
   * Texts to `phone` fail with Twilio's error `code` (SANDBOX_ERROR_MESSAGES): refused at create, or
   * accepted and reported undelivered or failed with ErrorCode. Null: the number works again. With an
   * account, only that account's texts fail (the Sandbox Phones screen: one tenant's choice is its own).
   */
  failNumber(phone: string, code: number | null, opts: { accountSid?: string } = {}): void {
    const key = `${opts.accountSid ?? '*'}|${phone}`;
    if (code === null) this.failing.delete(key);
    else {
      if (!Number.isInteger(code) || code < 10000 || code > 99999)
        throw new RangeError(`Not a Twilio error code: ${code}`);
      this.failing.set(key, code);
    }
    this.changed();
  }

  clearFailingNumber(phone: string, opts: { accountSid?: string } = {}): void {
    this.failNumber(phone, null, opts);
  }

  /** The numbers made to fail (for every account, or for one account only), with their codes. */
  failingNumbers(opts: { accountSid?: string } = {}): { phone: string; code: number }[] {
    const prefix = `${opts.accountSid ?? '*'}|`;
    return [...this.failing]
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, code]) => ({ phone: key.slice(prefix.length), code }));
  }

  private failureOf(accountSid: string, to: string): number | undefined {
    return this.failing.get(`${accountSid}|${to}`) ?? this.failing.get(`*|${to}`);
  }

  /** The sandbox's own record of the outgoing messages it took, oldest first, optionally filtered. */
  sentMessages(filter: { to?: string; from?: string; accountSid?: string } = {}): SentMessage[] {
    return this.record
      .filter(
        (m) =>
          (filter.to === undefined || m.to === filter.to) &&
          (filter.from === undefined || m.from === filter.from) &&
          (filter.accountSid === undefined || m.accountSid === filter.accountSid),
      )
      .map((m) => ({
        sid: m.sid,
        accountSid: m.accountSid,
        to: m.to,
        from: m.from,
        body: m.body,
        status: m.status,
        dateCreated: m.dateCreated,
        dateSent: m.dateSent,
        errorCode: m.errorCode,
      }));
  }

  /** The messages refused at create because their number was made to fail, oldest first. */
  refusedMessages(): RefusedMessage[] {
    return this.refused.map((r) => ({ ...r }));
  }

  /** A number the database says the account owns, put back after a restart (same sid, same URLs). */
  restoreIncomingNumber(
    accountSid: string,
    input: { sid: string; phoneNumber: string; voiceUrl?: string | null; smsUrl?: string | null },
  ): SandboxIncomingNumber {
    const now = this.clock.now();
    const existing = this.incomingNumbers.get(input.sid);
    const n: SandboxIncomingNumber = existing ?? {
      sid: input.sid,
      accountSid,
      phoneNumber: input.phoneNumber,
      friendlyName: input.phoneNumber,
      voiceUrl: '',
      voiceMethod: 'POST',
      smsUrl: '',
      smsMethod: 'POST',
      statusCallback: '',
      statusCallbackMethod: 'POST',
      dateCreated: now,
      dateUpdated: now,
    };
    n.accountSid = accountSid;
    n.phoneNumber = input.phoneNumber;
    if (input.voiceUrl !== undefined) n.voiceUrl = input.voiceUrl ?? '';
    if (input.smsUrl !== undefined) n.smsUrl = input.smsUrl ?? '';
    this.incomingNumbers.set(n.sid, n);
    return n;
  }

  /** The production adapter, pointed at this sandbox. */
  carrier(accountSid: string, authToken = this.accounts.get(accountSid)?.authToken ?? ''): TwilioCarrier {
    return new SandboxTwilioCarrier(this, accountSid, authToken);
  }

  /** Keeps a failure for tests and the screen (bounded). */
  fail(error: unknown): void {
    this.onError?.(error);
    this.errors.push(error);
    if (this.errors.length > 200) this.errors.splice(0, this.errors.length - 200);
  }

  // ---- Change notification, recordings, helpers --------------------------------------------------

  /** Called (once per tick at most) after any phone, call or text change: the live Sandbox Phones screen. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  changed(): void {
    if (this.changePending || this.listeners.size === 0) return;
    this.changePending = true;
    queueMicrotask(() => {
      this.changePending = false;
      for (const l of [...this.listeners]) {
        try {
          l();
        } catch (error) {
          this.fail(error);
        }
      }
    });
  }

  /** The recording's audio: a real short WAV file, or null for an unknown sid. */
  recordingAudio(recordingSid: string): Buffer | null {
    const rec = this.recordings.get(recordingSid);
    if (!rec) return null;
    return recordingWav(rec.duration, rec.channels, rec.sid.charCodeAt(2));
  }

  /** Keeps a file a phone sends with a text (the oldest forgotten past MAX_KEPT) and answers its MediaUrl. */
  addMedia(accountSid: string, contentType: string, body: SandboxMediaBody): string {
    const sid = sandboxSid('ME');
    this.media.set(sid, { accountSid, contentType, body });
    if (this.media.size > MAX_KEPT) this.media.delete(this.media.keys().next().value as string);
    return `${this.publicBase}/sandbox/media/${sid}`;
  }

  recordingUrl(sid: string): string {
    return `${this.publicBase}/sandbox/recordings/${sid}`;
  }

  /**
   * Background work (a call's TwiML, which may wait on the clock for a long time): not tracked as a
   * whole, or a ManualClock could never settle; the webhooks it sends are (see hook()).
   */
  spawn(work: () => Promise<unknown>): void {
    work().catch((error: unknown) => {
      this.fail(error);
    });
  }

  /** A signed request to the product, tracked by the clock. */
  hook(method: 'GET' | 'POST', url: string, params: Record<string, string>, accountSid: string) {
    const account = this.accounts.get(accountSid);
    const p = this.webhooks.request(method, url, params, account?.authToken ?? '');
    this.clock.track(p);
    return p;
  }

  /** Resolves true after `ms` of sandbox time, false at once when the call moves on (ends or is redirected). */
  sleep(call: SandboxCall, ms: number): Promise<boolean> {
    const generation = call.generation;
    return new Promise<boolean>((resolve) => {
      let done = false;
      const finish = (value: boolean) => {
        if (done) return;
        done = true;
        call.wakers.delete(wake);
        resolve(value);
      };
      const wake = () => finish(false);
      call.wakers.add(wake);
      this.clock.schedule(ms, () => finish(call.generation === generation && isLive(call)));
    });
  }

  /** Stops whatever the call's TwiML is doing (an end, a redirect). */
  interrupt(call: SandboxCall): void {
    call.generation++;
    for (const wake of [...call.wakers]) wake();
  }

  findIncomingNumber(phoneNumber: string): SandboxIncomingNumber | undefined {
    for (const n of this.incomingNumbers.values()) if (n.phoneNumber === phoneNumber) return n;
    return undefined;
  }

  /** A long-running sandbox (the demo, a bench) forgets its oldest finished calls and messages. */
  private prune(): void {
    if (this.calls.size > MAX_KEPT) {
      for (const [sid, c] of this.calls) {
        if (this.calls.size <= MAX_KEPT * 0.9) break;
        if (!isLive(c)) this.calls.delete(sid);
      }
    }
    if (this.messages.size > MAX_KEPT_MESSAGES) {
      for (const sid of this.messages.keys()) {
        if (this.messages.size <= MAX_KEPT_MESSAGES * 0.9) break;
        this.messages.delete(sid);
      }
    }
  }

  // ---- REST ----------------------------------------------------------------------------------

  async request(opts: SdkRequest): Promise<SandboxResponse> {
    try {
      const url = new URL(opts.uri);
      const account = await this.authenticate(opts);
      const method = opts.method.toUpperCase();
      const form = toForm(method === 'GET' || method === 'DELETE' ? opts.params : opts.data);
      // A next page's URI carries its query (the SDK sends it as it got it).
      if (method === 'GET')
        for (const [key, value] of url.searchParams) if (form[key] === undefined) form[key] = value;
      const fault = this.fault?.({ method, path: url.pathname });
      if (fault && !fault.after) throw new TwilioError(fault.status, fault.code, fault.message);
      const answer = this.route(method, url.pathname, account, form);
      if (fault) throw new TwilioError(fault.status, fault.code, fault.message);
      return answer;
    } catch (error) {
      if (error instanceof TwilioError) return this.error(error);
      if (error instanceof RegistrationFault)
        return this.error(new TwilioError(error.status, error.code, error.message));
      throw error;
    }
  }

  private async authenticate(opts: SdkRequest): Promise<SandboxAccount> {
    let { username, password } = opts;
    if ((!username || !password) && opts.authStrategy) {
      const auth = await opts.authStrategy.getAuthString();
      const m = /^Basic (.+)$/.exec(auth);
      if (m?.[1]) [username, password] = Buffer.from(m[1], 'base64').toString('utf8').split(':');
    }
    const account = username ? this.accounts.get(username) : undefined;
    const given = Buffer.from(password ?? '');
    const expected = Buffer.from(account?.authToken ?? '');
    if (!account || given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
      throw new TwilioError(401, 20003, 'Authenticate', {
        detail: 'Your AccountSid or AuthToken was incorrect.',
      });
    }
    return account;
  }

  private route(method: string, path: string, account: SandboxAccount, form: Form): SandboxResponse {
    // TrustHub, A2P brands and campaigns, toll-free verification, the account's Addresses.
    const registered = this.registration.route(method, path, account.sid, form);
    if (registered) return this.json(registered[0], registered[1]);
    // Twilio's Pricing API (pricing.twilio.com): the monthly price of a country's numbers.
    const pricing = /^\/v1\/PhoneNumbers\/Countries\/([A-Za-z]{2})$/.exec(path);
    if (pricing?.[1] && method === 'GET') {
      const price = numberPricing(pricing[1]);
      if (!price) throw this.notFound(path);
      return this.json(200, price);
    }
    const m = /^\/2010-04-01\/Accounts\/(AC[0-9a-f]{32})(?:\/(.+))?\.json$/.exec(path);
    if (!m) throw this.notFound(path);
    // The credentials must be the account's own.
    if (m[1] !== account.sid) throw new TwilioError(401, 20003, 'Authenticate');
    const rest = m[2];
    const parts = rest === undefined ? [] : rest.split('/');
    const [resource, id, sub] = parts;
    const notAllowed = () => new TwilioError(405, 20004, 'Method not allowed');
    if (resource === undefined) {
      if (method === 'GET') return this.json(200, this.accountJson(account));
      throw notAllowed();
    }
    switch (resource) {
      case 'Messages':
        if (id === undefined && method === 'POST') return this.json(201, this.createMessage(account, form));
        if (id === undefined && method === 'GET')
          return this.json(200, this.listMessages(account, path, form));
        if (id !== undefined && method === 'GET')
          return this.json(200, this.messageJson(this.ownMessage(account, id)));
        throw id === undefined ? notAllowed() : this.notFound(path);
      case 'Calls': {
        if (id === undefined && method === 'POST') return this.json(201, this.createCall(account, form));
        if (id === undefined && method === 'GET') return this.json(200, this.listCalls(account, path, form));
        if (id === undefined) throw notAllowed();
        const call = this.calls.get(id);
        if (!call || call.accountSid !== account.sid || sub !== undefined) throw this.notFound(path);
        if (method === 'GET') return this.json(200, this.callJson(call));
        if (method === 'POST') return this.json(200, this.updateCall(call, form));
        throw notAllowed();
      }
      case 'AvailablePhoneNumbers': {
        if (
          id === undefined ||
          (sub !== 'Local' && sub !== 'Mobile' && sub !== 'TollFree') ||
          method !== 'GET'
        )
          throw this.notFound(path);
        return this.json(200, this.availableNumbersJson(path, id, form));
      }
      case 'IncomingPhoneNumbers': {
        if (id === undefined) {
          if (method === 'POST') return this.json(201, this.createIncomingNumber(account, form));
          if (method === 'GET') return this.json(200, this.listIncomingNumbers(account, path, form));
          throw notAllowed();
        }
        const n = this.incomingNumbers.get(id);
        if (!n || n.accountSid !== account.sid || sub !== undefined) throw this.notFound(path);
        if (method === 'GET') return this.json(200, this.incomingJson(n));
        if (method === 'POST') return this.json(200, this.updateIncomingNumber(n, form));
        if (method === 'DELETE') {
          this.incomingNumbers.delete(n.sid);
          return { statusCode: 204, body: '', headers: {} };
        }
        throw notAllowed();
      }
      case 'OutgoingCallerIds': {
        if (id === undefined) {
          if (method === 'POST') return this.json(201, this.requestValidation(account, form));
          if (method === 'GET') return this.json(200, this.listCallerIds(account, path, form));
          throw notAllowed();
        }
        const c = this.callerIds.get(id);
        if (!c || c.accountSid !== account.sid || sub !== undefined) throw this.notFound(path);
        if (method === 'GET') return this.json(200, this.callerIdJson(c));
        if (method === 'DELETE') {
          this.callerIds.delete(c.sid);
          return { statusCode: 204, body: '', headers: {} };
        }
        throw notAllowed();
      }
      case 'Recordings': {
        if (id === undefined || sub !== undefined) throw this.notFound(path);
        const r = this.recordings.get(id);
        if (!r || r.accountSid !== account.sid) throw this.notFound(path);
        if (method === 'GET') return this.json(200, this.recordingJson(r));
        if (method === 'DELETE') {
          this.recordings.delete(r.sid);
          return { statusCode: 204, body: '', headers: {} };
        }
        throw notAllowed();
      }
      default:
        throw this.notFound(path);
    }
  }

  private notFound(path: string) {
    return new TwilioError(404, 20404, `The requested resource ${path} was not found`);
  }

  private json(statusCode: number, body: unknown): SandboxResponse {
    return { statusCode, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
  }

  private error(e: TwilioError): SandboxResponse {
    return this.json(e.status, {
      code: e.code,
      message: e.message,
      more_info: `https://www.twilio.com/docs/errors/${e.code}`,
      status: e.status,
      ...e.extra,
    });
  }

  private page(path: string, key: string, items: unknown[]) {
    return {
      [key]: items,
      end: Math.max(0, items.length - 1),
      first_page_uri: `${path}?PageSize=50&Page=0`,
      next_page_uri: null,
      page: 0,
      page_size: 50,
      previous_page_uri: null,
      start: 0,
      uri: `${path}?PageSize=50&Page=0`,
    };
  }

  private accountJson(a: SandboxAccount) {
    const uri = `/${API_VERSION}/Accounts/${a.sid}`;
    return {
      auth_token: a.authToken,
      date_created: rfc2822(a.dateCreated),
      date_updated: rfc2822(a.dateCreated),
      friendly_name: a.friendlyName,
      owner_account_sid: a.sid,
      sid: a.sid,
      status: a.status,
      subresource_uris: {
        calls: `${uri}/Calls.json`,
        messages: `${uri}/Messages.json`,
        incoming_phone_numbers: `${uri}/IncomingPhoneNumbers.json`,
        outgoing_caller_ids: `${uri}/OutgoingCallerIds.json`,
        available_phone_numbers: `${uri}/AvailablePhoneNumbers.json`,
        recordings: `${uri}/Recordings.json`,
      },
      type: 'Full',
      uri: `${uri}.json`,
    };
  }

  // ---- Messages -----------------------------------------------------------------------------

  private checkNumbers(form: Form, kind: 'message' | 'call'): { to: string; from: string } {
    const to = one(form, 'To');
    const from = one(form, 'From');
    if (!to) throw badRequest(21604, "A 'To' phone number is required.");
    if (!isE164(to)) throw badRequest(21211, `Invalid 'To' Phone Number: ${to}`);
    if (!from) throw badRequest(21603, "A 'From' phone number is required.");
    if (!isE164(from))
      throw badRequest(
        21212,
        kind === 'call' ? `Invalid From Number (caller ID): ${from}` : `Invalid 'From' Phone Number: ${from}`,
      );
    return { to, from };
  }

  private ownMessage(account: SandboxAccount, sid: string): SandboxMessage {
    const m = this.messages.get(sid);
    if (!m || m.accountSid !== account.sid) throw this.notFound(sid);
    return m;
  }

  private createMessage(account: SandboxAccount, form: Form) {
    const { to, from } = this.checkNumbers(form, 'message');
    const body = one(form, 'Body') ?? '';
    const media = many(form, 'MediaUrl');
    // As Twilio: a Body, a MediaUrl or both (an image alone is an MMS).
    if (!body && media.length === 0) throw badRequest(21602, 'Message body is required.');
    if (media.length > 10) throw badRequest(21623, 'Number of media files exceeds allowed limit.');
    if (body.length > 1600)
      throw badRequest(21617, 'The concatenated message body exceeds the 1600 character limit.');
    const now = this.clock.now();
    const failure = this.failureOf(account.sid, to);
    if (failure !== undefined && !isDeliveryError(failure)) {
      this.refused.push({ to, from, body, code: failure, at: now });
      if (this.refused.length > MAX_RECORD) this.refused.splice(0, this.refused.length - MAX_RECORD);
      throw badRequest(failure, SANDBOX_ERROR_MESSAGES[failure] ?? `Error ${failure}`);
    }
    const message: SandboxMessage = {
      sid: sandboxSid('SM'),
      accountSid: account.sid,
      to,
      from,
      body,
      media,
      direction: 'outbound-api',
      status: 'queued',
      statusCallback: one(form, 'StatusCallback') ?? null,
      dateCreated: now,
      dateUpdated: now,
      dateSent: null,
      errorCode: null,
      errorMessage: null,
    };
    this.messages.set(message.sid, message);
    this.record.push(message);
    if (this.record.length > MAX_RECORD) this.record.splice(0, this.record.length - MAX_RECORD);
    this.prune();
    // Which of the account's numbers sent it, as it is now (the phone tells its holders apart by it).
    const sender = this.findIncomingNumber(from);
    const via =
      sender?.accountSid === account.sid ? { accountSid: account.sid, numberSid: sender.sid } : undefined;
    // It leaves the queue after messageSent, and no sooner than its number's rate allows (Twilio's queue).
    const queuedAt = now + this.timings.messageQueued;
    let sentAt = queuedAt + this.timings.messageSent;
    const rate = this.rates.get(from);
    if (rate) {
      sentAt = Math.max(sentAt, this.nextSlot.get(from) ?? 0);
      this.nextSlot.set(from, sentAt + 1000 / rate);
    }
    // The sender's registration (ADR 092): once the account has begun registering, a US 10DLC number off a
    // verified campaign's sender pool (30034) or a toll-free one without an approved verification (30032)
    // has its texts accepted, then failed unsent, as Twilio's.
    const unregistered = this.registration.senderRefusal(account.sid, from);
    const code = unregistered ?? failure;
    const fail = unregistered !== null || (failure !== undefined && failure <= 30002);
    const steps: [MessageStatus, number][] = fail
      ? [
          ['queued', queuedAt],
          ['failed', sentAt],
        ]
      : [
          ['queued', queuedAt],
          ['sent', sentAt],
          [failure === undefined ? 'delivered' : 'undelivered', sentAt + this.timings.messageDelivered],
        ];
    const next = (i: number) => {
      const step = steps[i];
      if (!step) return;
      this.clock.schedule(step[1] - this.clock.now(), async () => {
        if (step[0] === 'failed' || step[0] === 'undelivered') {
          message.errorCode = code ?? 30008;
          message.errorMessage = SANDBOX_ERROR_MESSAGES[message.errorCode] ?? null;
        }
        this.setMessageStatus(message, step[0]);
        // The phone shows the text once it is sent (a failing number's never does).
        if (step[0] === 'sent' && code === undefined) this.phones.receiveText(to, from, body, media, via);
        await this.messageCallback(message);
        next(i + 1);
      });
    };
    next(0);
    return this.messageJson(message);
  }

  /**
   * GET Messages.json: the account's messages, newest first, filtered by To, From and DateSent (`DateSent>`
   * on or after, `DateSent<` on or before, `DateSent` that day; a message still queued by its number's rate
   * counts from when it was accepted), in pages of PageSize (at most 1000) chained by next_page_uri with a
   * PageToken, as Twilio's.
   */
  private listMessages(account: SandboxAccount, path: string, form: Form) {
    const to = one(form, 'To');
    const from = one(form, 'From');
    const date = (key: string) => {
      const v = one(form, key);
      if (v === undefined) return undefined;
      const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v);
      if (Number.isNaN(ms)) throw badRequest(20001, `Invalid ${key}: ${v}`);
      return ms;
    };
    const after = date('DateSent>');
    const before = date('DateSent<');
    const on = date('DateSent');
    const DAY = 86_400_000;
    const list = [...this.messages.values()]
      .filter((m) => {
        if (m.accountSid !== account.sid) return false;
        if (to !== undefined && m.to !== to) return false;
        if (from !== undefined && m.from !== from) return false;
        const at = m.dateSent ?? m.dateCreated;
        if (after !== undefined && at < after) return false;
        if (before !== undefined && at > before) return false;
        if (on !== undefined && (at < on || at >= on + DAY)) return false;
        return true;
      })
      .reverse()
      .sort((a, b) => b.dateCreated - a.dateCreated);
    return this.pagedList(
      list,
      { path, form, keys: ['To', 'From', 'DateSent>', 'DateSent<', 'DateSent'] },
      (m) => ({
        messages: m.map((x) => this.messageJson(x)),
      }),
    );
  }

  /**
   * A list's page as Twilio answers it: PageSize (at most 1000) items from Page, or from after the item a
   * PageToken names (new items do not shift the pages), the URIs carrying the list's filters (`keys`).
   */
  private pagedList<T extends { sid: string }>(
    list: T[],
    at: { path: string; form: Form; keys: string[] },
    json: (items: T[]) => Record<string, unknown>,
  ) {
    const { path, form, keys } = at;
    const size = Math.min(1000, Math.max(1, Number(one(form, 'PageSize') ?? 50) || 50));
    const page = Math.max(0, Number(one(form, 'Page') ?? 0) || 0);
    const token = one(form, 'PageToken');
    let start = page * size;
    if (token?.startsWith('PA')) {
      const found = list.findIndex((x) => x.sid === token.slice(2));
      if (found >= 0) start = found + 1;
    }
    const items = list.slice(start, start + size);
    const query = (extra: Record<string, string>) => {
      const q = new URLSearchParams();
      for (const key of keys) {
        const v = one(form, key);
        if (v !== undefined) q.set(key, v);
      }
      for (const [k, v] of Object.entries(extra)) q.set(k, v);
      return `${path}?${q.toString()}`;
    };
    const last = items.at(-1);
    const more = start + size < list.length && last;
    return {
      ...json(items),
      end: start + Math.max(0, items.length - 1),
      first_page_uri: query({ PageSize: String(size), Page: '0' }),
      next_page_uri: more
        ? query({ PageSize: String(size), Page: String(page + 1), PageToken: `PA${last.sid}` })
        : null,
      page,
      page_size: size,
      previous_page_uri: null,
      start,
      uri: query({ PageSize: String(size), Page: String(page) }),
    };
  }

  /**
   * GET Calls.json: the account's calls, newest first (by creation), filtered by To and From, in pages as
   * Twilio's (`pagedList`).
   */
  private listCalls(account: SandboxAccount, path: string, form: Form) {
    const to = one(form, 'To');
    const from = one(form, 'From');
    const list = [...this.calls.values()]
      .filter(
        (c) =>
          c.accountSid === account.sid &&
          (to === undefined || c.to === to) &&
          (from === undefined || c.from === from),
      )
      .reverse()
      .sort((a, b) => b.dateCreated - a.dateCreated);
    return this.pagedList(list, { path, form, keys: ['To', 'From'] }, (c) => ({
      calls: c.map((x) => this.callJson(x)),
    }));
  }

  private setMessageStatus(message: SandboxMessage, status: MessageStatus) {
    message.status = status;
    message.dateUpdated = this.clock.now();
    if (status === 'sent') message.dateSent = message.dateUpdated;
  }

  private async messageCallback(message: SandboxMessage) {
    if (!message.statusCallback || !this.accounts.has(message.accountSid)) return;
    await this.hook(
      'POST',
      message.statusCallback,
      {
        AccountSid: message.accountSid,
        ApiVersion: API_VERSION,
        From: message.from,
        MessageSid: message.sid,
        MessageStatus: message.status,
        SmsSid: message.sid,
        SmsStatus: message.status,
        To: message.to,
        ...(message.errorCode !== null ? { ErrorCode: String(message.errorCode) } : {}),
      },
      message.accountSid,
    );
  }

  /** A simulated phone texts a number; an account's incoming number gets its SMS webhook. */
  inboundText(from: string, to: string, body: string): SandboxMessage | null {
    const number = this.findIncomingNumber(to);
    if (!number) return null;
    const now = this.clock.now();
    const message: SandboxMessage = {
      sid: sandboxSid('SM'),
      accountSid: number.accountSid,
      to,
      from,
      body,
      media: [],
      direction: 'inbound',
      status: 'received',
      statusCallback: null,
      dateCreated: now,
      dateUpdated: now,
      dateSent: now,
      errorCode: null,
      errorMessage: null,
    };
    this.messages.set(message.sid, message);
    if (number.smsUrl) {
      const params: Record<string, string> = {
        AccountSid: number.accountSid,
        ApiVersion: API_VERSION,
        Body: body,
        From: from,
        FromCity: '',
        FromCountry: countryOf(from),
        FromState: '',
        FromZip: '',
        MessageSid: message.sid,
        NumMedia: '0',
        NumSegments: String(Math.max(1, Math.ceil(body.length / 153))),
        SmsMessageSid: message.sid,
        SmsSid: message.sid,
        SmsStatus: 'received',
        To: to,
        ToCity: '',
        ToCountry: countryOf(to),
        ToState: '',
        ToZip: '',
      };
      const url = number.smsUrl;
      const method = number.smsMethod;
      this.clock.schedule(0, async () => {
        await this.hook(method, url, params, number.accountSid);
      });
    }
    return message;
  }

  private messageJson(m: SandboxMessage) {
    const uri = `/${API_VERSION}/Accounts/${m.accountSid}/Messages/${m.sid}`;
    return {
      account_sid: m.accountSid,
      api_version: API_VERSION,
      body: m.body,
      date_created: rfc2822(m.dateCreated),
      date_sent: rfc2822(m.dateSent),
      date_updated: rfc2822(m.dateUpdated),
      direction: m.direction,
      error_code: m.errorCode,
      error_message: m.errorMessage,
      from: m.from,
      messaging_service_sid: null,
      num_media: String(m.media.length),
      num_segments: String(Math.max(1, Math.ceil(m.body.length / 153))),
      price: null,
      price_unit: 'USD',
      sid: m.sid,
      status: m.status,
      subresource_uris: { media: `${uri}/Media.json` },
      to: m.to,
      uri: `${uri}.json`,
    };
  }

  // ---- Calls ----------------------------------------------------------------------------------

  private eventsOf(form: Form, fallback: CallEvent[]): Set<CallEvent> {
    const requested = many(form, 'StatusCallbackEvent').flatMap((e) => e.split(/\s+/));
    return new Set<CallEvent>(
      (requested.length ? requested : fallback).filter((e): e is CallEvent =>
        ['initiated', 'ringing', 'answered', 'completed'].includes(e),
      ),
    );
  }

  /** A new call leg in memory (nothing scheduled yet). */
  newCall(input: {
    accountSid: string;
    to: string;
    from: string;
    direction: CallDirection;
    url?: string;
    method?: 'GET' | 'POST';
    twiml?: string | null;
    parentCallSid?: string | null;
    statusCallback?: string | null;
    statusCallbackMethod?: 'GET' | 'POST';
    statusCallbackEvents?: Set<CallEvent>;
    timeoutSeconds?: number;
    machineDetection?: string | null;
    record?: boolean;
    recordingStatusCallback?: string | null;
    program?: SandboxCall['program'];
    phoneNumberSid?: string | null;
  }): SandboxCall {
    const now = this.clock.now();
    const call: SandboxCall = {
      sid: sandboxSid('CA'),
      accountSid: input.accountSid,
      to: input.to,
      from: input.from,
      url: input.url ?? '',
      method: input.method ?? 'POST',
      twiml: input.twiml ?? null,
      direction: input.direction,
      parentCallSid: input.parentCallSid ?? null,
      phone: input.direction === 'inbound' ? input.from : input.to,
      status:
        input.direction === 'outbound-api'
          ? 'queued'
          : input.direction === 'inbound'
            ? 'ringing'
            : 'initiated',
      statusCallback: input.statusCallback ?? null,
      statusCallbackMethod: input.statusCallbackMethod ?? 'POST',
      statusCallbackEvents: input.statusCallbackEvents ?? new Set(['completed']),
      timeoutSeconds: input.timeoutSeconds ?? 60,
      machineDetection: input.machineDetection ?? null,
      answeredBy: null,
      voicemail: false,
      record: input.record ?? false,
      recordingStatusCallback: input.recordingStatusCallback ?? null,
      dateCreated: now,
      dateUpdated: now,
      startTime: input.direction === 'outbound-api' ? null : now,
      answerTime: null,
      endTime: null,
      sequence: 0,
      heard: [],
      gather: null,
      recording: null,
      bridgedWith: null,
      dial: null,
      childOf: null,
      generation: 0,
      wakers: new Set(),
      program: input.program ?? null,
      phoneNumberSid: input.phoneNumberSid ?? null,
    };
    this.calls.set(call.sid, call);
    this.prune();
    this.phones.attach(call);
    this.changed();
    return call;
  }

  private createCall(account: SandboxAccount, form: Form) {
    const { to, from } = this.checkNumbers(form, 'call');
    const url = one(form, 'Url');
    const twiml = one(form, 'Twiml');
    if (!url && !twiml && !one(form, 'ApplicationSid')) throw badRequest(21205, 'Url parameter is required.');
    if (url && !/^https?:\/\//i.test(url)) throw badRequest(21205, `Url is not a valid URL: ${url}`);
    const timeout = Number(one(form, 'Timeout') ?? 60);
    const md = one(form, 'MachineDetection');
    const call = this.newCall({
      accountSid: account.sid,
      to,
      from,
      direction: 'outbound-api',
      url: url ?? '',
      method: httpMethod(one(form, 'Method')),
      twiml: url ? null : (twiml ?? null),
      statusCallback: one(form, 'StatusCallback') ?? null,
      statusCallbackMethod: httpMethod(one(form, 'StatusCallbackMethod')),
      statusCallbackEvents: this.eventsOf(form, ['completed']),
      timeoutSeconds: Number.isFinite(timeout) ? Math.min(600, Math.max(5, timeout)) : 60,
      machineDetection: md === 'Enable' || md === 'DetectMessageEnd' ? md : null,
      record: one(form, 'Record') === 'true',
      recordingStatusCallback: one(form, 'RecordingStatusCallback') ?? null,
    });
    this.startOutbound(call);
    return this.callJson(call);
  }

  /** Queued → initiated → ringing on the phone, and no-answer after the call's timeout. */
  startOutbound(call: SandboxCall): void {
    const afterInitiated = () => {
      this.clock.schedule(this.timings.callRinging, async () => {
        if (call.status !== 'initiated') return;
        await this.moveCall(call, 'ringing', 'ringing');
        this.phones.ringing(call);
        this.clock.schedule(call.timeoutSeconds * 1000, async () => {
          if (call.status !== 'ringing') return;
          await this.endCall(call, 'no-answer');
        });
      });
    };
    if (call.status === 'initiated') {
      // A <Dial> leg skips queued: initiated at once.
      this.clock.schedule(0, async () => {
        if (call.status !== 'initiated') return;
        await this.callback(call, 'initiated');
        afterInitiated();
      });
      return;
    }
    this.clock.schedule(this.timings.callInitiated, async () => {
      if (call.status !== 'queued') return;
      await this.moveCall(call, 'initiated', 'initiated');
      afterInitiated();
    });
  }

  /** A phone picks up a ringing call: in-progress, the answered callback, then the call's TwiML. */
  async answerCall(
    call: SandboxCall,
    as: 'human' | 'machine' = 'human',
    greetingTones?: string,
  ): Promise<void> {
    if (call.status !== 'ringing' || call.direction === 'inbound') return;
    call.voicemail = as === 'machine';
    if (call.voicemail && greetingTones) call.greetingTones = greetingTones;
    if (call.machineDetection) {
      call.answeredBy =
        as === 'human'
          ? 'human'
          : call.machineDetection === 'DetectMessageEnd'
            ? 'machine_end_beep'
            : 'machine_start';
    }
    call.answerTime = this.clock.now();
    if (as === 'machine') call.heard.push('[voicemail greeting]');
    await this.moveCall(call, 'in-progress', 'answered');
    if (call.childOf) {
      await this.twiml.childAnswered(call);
      return;
    }
    await this.twiml.start(call);
  }

  /** Ends a live call with a final status; a bridged partner and a running <Dial> follow. */
  async endCall(call: SandboxCall, status: CallStatus): Promise<void> {
    if (!isLive(call)) return;
    if (call.status !== 'in-progress' && status === 'completed') {
      status = call.direction === 'inbound' ? 'completed' : 'canceled';
    }
    // The parent of a <Dial> stops the legs still ringing or whispering: taken before the interrupt, which
    // wakes the <Dial> and lets it forget its state (a ringing leg then rang on after its caller was gone).
    const dial = call.dial;
    if (dial) this.twiml.parentEnded(dial);
    this.interrupt(call);
    call.gather = null;
    call.recording?.finish('hangup');
    call.recording = null;
    const partner = call.bridgedWith ? this.calls.get(call.bridgedWith) : undefined;
    await this.moveCall(call, status, 'completed');
    if (call.record && call.answerTime) this.recordWholeCall(call);
    // The caller hanging up ends the dialed leg; the dialed leg hanging up lets the caller's TwiML go on.
    if (partner && isLive(partner) && !call.childOf) {
      await this.endCall(partner, 'completed');
    }
    if (call.childOf) this.twiml.childEnded(call.childOf, call);
    this.phones.ended(call);
  }

  private recordWholeCall(call: SandboxCall): void {
    const end = call.endTime ?? this.clock.now();
    const rec = this.addRecording(
      call,
      Math.round((end - (call.answerTime ?? end)) / 1000),
      1,
      'OutboundAPI',
    );
    if (call.recordingStatusCallback) {
      const url = call.recordingStatusCallback;
      this.clock.schedule(0, async () => {
        await this.hook('POST', url, this.recordingParams(call, rec), call.accountSid);
      });
    }
  }

  addRecording(call: SandboxCall, duration: number, channels: 1 | 2, source: SandboxRecording['source']) {
    const rec: SandboxRecording = {
      sid: sandboxSid('RE'),
      accountSid: call.accountSid,
      callSid: call.sid,
      duration: Math.max(0, duration),
      channels,
      source,
      dateCreated: this.clock.now(),
    };
    this.recordings.set(rec.sid, rec);
    // Kept on the file store as well, for the process that starts after this one (tracked by the clock).
    const audio = this.store && this.recordingAudio(rec.sid);
    if (this.store && audio)
      this.clock.track(
        this.store.put(recordingKey(rec.accountSid, rec.sid), audio, 'audio/wav').catch((e) => this.fail(e)),
      );
    return rec;
  }

  /** The recording status callback's parameters (RecordingStatus completed). */
  recordingParams(call: SandboxCall, rec: SandboxRecording): Record<string, string> {
    return {
      AccountSid: call.accountSid,
      CallSid: call.sid,
      ErrorCode: '0',
      RecordingChannels: String(rec.channels),
      RecordingDuration: String(rec.duration),
      RecordingSid: rec.sid,
      RecordingSource: rec.source,
      RecordingStartTime: rfc2822(rec.dateCreated - rec.duration * 1000) ?? '',
      RecordingStatus: 'completed',
      RecordingTrack: 'both',
      RecordingUrl: this.recordingUrl(rec.sid),
    };
  }

  /** The parameters every voice request and status callback of this call carries. */
  callParams(call: SandboxCall): Record<string, string> {
    const params: Record<string, string> = {
      AccountSid: call.accountSid,
      ApiVersion: API_VERSION,
      CallSid: call.sid,
      CallStatus: call.status,
      Called: call.to,
      CalledCountry: countryOf(call.to),
      Caller: call.from,
      CallerCountry: countryOf(call.from),
      Direction: call.direction,
      From: call.from,
      FromCountry: countryOf(call.from),
      To: call.to,
      ToCountry: countryOf(call.to),
    };
    if (call.parentCallSid) params.ParentCallSid = call.parentCallSid;
    if (call.answeredBy) params.AnsweredBy = call.answeredBy;
    return params;
  }

  async moveCall(call: SandboxCall, status: CallStatus, event: CallEvent) {
    const now = this.clock.now();
    call.status = status;
    call.dateUpdated = now;
    if (status === 'initiated') call.startTime = now;
    if (event === 'completed') call.endTime = now;
    this.changed();
    await this.callback(call, event);
  }

  private async callback(call: SandboxCall, event: CallEvent) {
    if (!call.statusCallback || !call.statusCallbackEvents.has(event) || !this.accounts.has(call.accountSid))
      return;
    const now = this.clock.now();
    const params: Record<string, string> = {
      ...this.callParams(call),
      CallbackSource: 'call-progress-events',
      SequenceNumber: String(call.sequence++),
      Timestamp: rfc2822(now) ?? '',
    };
    if (event === 'completed') {
      const duration = this.durationOf(call);
      params.CallDuration = String(duration);
      params.Duration = String(Math.ceil(duration / 60));
    }
    await this.hook(call.statusCallbackMethod, call.statusCallback, params, call.accountSid);
  }

  durationOf(call: SandboxCall): number {
    if (!call.answerTime) return 0;
    return Math.round(((call.endTime ?? this.clock.now()) - call.answerTime) / 1000);
  }

  private updateCall(call: SandboxCall, form: Form) {
    const status = one(form, 'Status');
    const url = one(form, 'Url');
    const twiml = one(form, 'Twiml');
    if (status !== undefined && status !== 'canceled' && status !== 'completed')
      throw badRequest(21218, `Invalid Status: ${status}`);
    if (url && !/^https?:\/\//i.test(url)) throw badRequest(21205, `Url is not a valid URL: ${url}`);
    if (status) {
      // Canceling only stops a call that is not answered yet; completing ends it either way.
      let answer = call.status;
      if (status === 'canceled' && ['queued', 'initiated', 'ringing'].includes(call.status)) {
        this.spawn(() => this.endCall(call, 'canceled'));
        answer = 'canceled';
      } else if (status === 'completed' && isLive(call)) {
        answer = call.status === 'in-progress' ? 'completed' : 'canceled';
        this.spawn(() => this.endCall(call, 'completed'));
      }
      return { ...this.callJson(call), status: answer };
    }
    if ((url || twiml) && !isLive(call)) throw badRequest(21220, 'Call is not in-progress. Cannot redirect.');
    if (url || twiml) {
      if (url) {
        call.url = url;
        call.method = httpMethod(one(form, 'Method'));
        call.twiml = null;
      } else {
        call.twiml = twiml ?? null;
        call.url = '';
      }
      if (call.status === 'in-progress') this.spawn(() => this.twiml.redirect(call));
    }
    if (one(form, 'StatusCallback')) call.statusCallback = one(form, 'StatusCallback') ?? null;
    return this.callJson(call);
  }

  callJson(c: SandboxCall) {
    const uri = `/${API_VERSION}/Accounts/${c.accountSid}/Calls/${c.sid}`;
    return {
      account_sid: c.accountSid,
      annotation: null,
      answered_by: c.answeredBy,
      api_version: API_VERSION,
      caller_name: null,
      date_created: rfc2822(c.dateCreated),
      date_updated: rfc2822(c.dateUpdated),
      direction: c.direction,
      duration: isLive(c) ? null : String(this.durationOf(c)),
      end_time: rfc2822(c.endTime),
      forwarded_from: null,
      from: c.from,
      from_formatted: c.from,
      group_sid: null,
      parent_call_sid: c.parentCallSid,
      phone_number_sid: c.phoneNumberSid,
      price: null,
      price_unit: 'USD',
      queue_time: '0',
      sid: c.sid,
      start_time: rfc2822(c.startTime),
      status: c.status,
      subresource_uris: {
        notifications: `${uri}/Notifications.json`,
        recordings: `${uri}/Recordings.json`,
        events: `${uri}/Events.json`,
      },
      to: c.to,
      to_formatted: c.to,
      trunk_sid: null,
      uri: `${uri}.json`,
    };
  }

  /** A simulated phone calls an account's incoming number: an inbound call whose voice URL is fetched. */
  inboundCall(from: string, to: string): SandboxCall {
    const number = this.findIncomingNumber(to);
    if (!number)
      throw new SandboxPhoneError('not-in-service', `${to} is not a number of any sandbox account`);
    const call = this.newCall({
      accountSid: number.accountSid,
      to,
      from,
      direction: 'inbound',
      url: number.voiceUrl,
      method: number.voiceMethod,
      statusCallback: number.statusCallback || null,
      statusCallbackMethod: number.statusCallbackMethod,
      statusCallbackEvents: new Set(['completed']),
      phoneNumberSid: number.sid,
    });
    this.clock.schedule(0, () => {
      this.spawn(() => this.twiml.start(call));
    });
    return call;
  }

  // ---- Numbers --------------------------------------------------------------------------------

  private availableNumbersJson(path: string, country: string, form: Form) {
    const area = one(form, 'AreaCode');
    const limit = Math.min(50, Math.max(1, Number(one(form, 'PageSize') ?? 20) || 20));
    const owned = new Set([...this.incomingNumbers.values()].map((n) => n.phoneNumber));
    const list = availableNumbers(country, area, limit, owned);
    return this.page(
      path,
      'available_phone_numbers',
      list.map((n) => ({
        address_requirements: 'none',
        beta: false,
        capabilities: { voice: true, SMS: true, MMS: true, fax: false },
        friendly_name: n.friendlyName,
        iso_country: n.country,
        lata: null,
        latitude: null,
        locality: n.locality,
        longitude: null,
        phone_number: n.phoneNumber,
        postal_code: null,
        rate_center: null,
        region: n.region,
      })),
    );
  }

  private createIncomingNumber(account: SandboxAccount, form: Form) {
    let phoneNumber = one(form, 'PhoneNumber');
    const area = one(form, 'AreaCode');
    if (!phoneNumber && area) {
      const owned = new Set([...this.incomingNumbers.values()].map((n) => n.phoneNumber));
      phoneNumber = availableNumbers('US', area, 1, owned)[0]?.phoneNumber;
    }
    if (!phoneNumber) throw badRequest(21421, 'PhoneNumber or AreaCode is required.');
    if (!isE164(phoneNumber)) throw badRequest(21421, `PhoneNumber is invalid: ${phoneNumber}`);
    if (this.findIncomingNumber(phoneNumber))
      throw badRequest(21422, `PhoneNumber ${phoneNumber} is not available.`);
    const now = this.clock.now();
    const n: SandboxIncomingNumber = {
      sid: sandboxSid('PN'),
      accountSid: account.sid,
      phoneNumber,
      friendlyName: one(form, 'FriendlyName') ?? formatFriendly(phoneNumber),
      voiceUrl: one(form, 'VoiceUrl') ?? '',
      voiceMethod: httpMethod(one(form, 'VoiceMethod')),
      smsUrl: one(form, 'SmsUrl') ?? '',
      smsMethod: httpMethod(one(form, 'SmsMethod')),
      statusCallback: one(form, 'StatusCallback') ?? '',
      statusCallbackMethod: httpMethod(one(form, 'StatusCallbackMethod')),
      dateCreated: now,
      dateUpdated: now,
    };
    this.incomingNumbers.set(n.sid, n);
    return this.incomingJson(n);
  }

  private listIncomingNumbers(account: SandboxAccount, path: string, form: Form) {
    const filter = one(form, 'PhoneNumber');
    const list = [...this.incomingNumbers.values()].filter(
      (n) => n.accountSid === account.sid && (!filter || n.phoneNumber === filter),
    );
    return this.page(
      path,
      'incoming_phone_numbers',
      list.map((n) => this.incomingJson(n)),
    );
  }

  private updateIncomingNumber(n: SandboxIncomingNumber, form: Form) {
    const set = (key: string, apply: (v: string) => void) => {
      const v = one(form, key);
      if (v !== undefined) apply(v);
    };
    set('FriendlyName', (v) => {
      n.friendlyName = v;
    });
    set('VoiceUrl', (v) => {
      n.voiceUrl = v;
    });
    set('VoiceMethod', (v) => {
      n.voiceMethod = httpMethod(v);
    });
    set('SmsUrl', (v) => {
      n.smsUrl = v;
    });
    set('SmsMethod', (v) => {
      n.smsMethod = httpMethod(v);
    });
    set('StatusCallback', (v) => {
      n.statusCallback = v;
    });
    set('StatusCallbackMethod', (v) => {
      n.statusCallbackMethod = httpMethod(v);
    });
    n.dateUpdated = this.clock.now();
    return this.incomingJson(n);
  }

  private incomingJson(n: SandboxIncomingNumber) {
    return {
      account_sid: n.accountSid,
      address_requirements: 'none',
      api_version: API_VERSION,
      beta: false,
      capabilities: { voice: true, sms: true, mms: true, fax: false },
      date_created: rfc2822(n.dateCreated),
      date_updated: rfc2822(n.dateUpdated),
      friendly_name: n.friendlyName,
      origin: 'twilio',
      phone_number: n.phoneNumber,
      sid: n.sid,
      sms_method: n.smsMethod,
      sms_url: n.smsUrl,
      status: 'in-use',
      status_callback: n.statusCallback,
      status_callback_method: n.statusCallbackMethod,
      uri: `/${API_VERSION}/Accounts/${n.accountSid}/IncomingPhoneNumbers/${n.sid}.json`,
      voice_caller_id_lookup: false,
      voice_method: n.voiceMethod,
      voice_url: n.voiceUrl,
    };
  }

  // ---- Caller ids -------------------------------------------------------------------------------

  private listCallerIds(account: SandboxAccount, path: string, form: Form) {
    const filter = one(form, 'PhoneNumber');
    const list = [...this.callerIds.values()].filter(
      (c) => c.accountSid === account.sid && (!filter || c.phoneNumber === filter),
    );
    return this.page(
      path,
      'outgoing_caller_ids',
      list.map((c) => this.callerIdJson(c)),
    );
  }

  private callerIdJson(c: SandboxCallerId) {
    return {
      account_sid: c.accountSid,
      date_created: rfc2822(c.dateCreated),
      date_updated: rfc2822(c.dateCreated),
      friendly_name: c.friendlyName,
      phone_number: c.phoneNumber,
      sid: c.sid,
      uri: `/${API_VERSION}/Accounts/${c.accountSid}/OutgoingCallerIds/${c.sid}.json`,
    };
  }

  /**
   * The validation request: a 6-digit code to show the person, and a call to the number; the phone
   * that answers and presses the code makes the number a caller id of the account.
   */
  private requestValidation(account: SandboxAccount, form: Form) {
    const phoneNumber = one(form, 'PhoneNumber');
    if (!phoneNumber) throw badRequest(21604, "A 'PhoneNumber' is required.");
    if (!isE164(phoneNumber)) throw badRequest(21211, `Invalid 'PhoneNumber': ${phoneNumber}`);
    for (const c of this.callerIds.values()) {
      if (c.accountSid === account.sid && c.phoneNumber === phoneNumber)
        throw badRequest(21450, 'Phone number already verified for your account');
    }
    const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
    const friendlyName = one(form, 'FriendlyName') ?? formatFriendly(phoneNumber);
    const statusCallback = one(form, 'StatusCallback') ?? null;
    const statusCallbackMethod = httpMethod(one(form, 'StatusCallbackMethod'));
    let reported = false;
    const report = async (call: SandboxCall, ok: boolean, callerId: SandboxCallerId | null) => {
      if (reported || !statusCallback) return;
      reported = true;
      const params: Record<string, string> = {
        AccountSid: account.sid,
        CallSid: call.sid,
        FriendlyName: friendlyName,
        PhoneNumber: phoneNumber,
        VerificationStatus: ok ? 'success' : 'failed',
      };
      if (callerId) params.OutgoingCallerIdSid = callerId.sid;
      await this.hook(statusCallbackMethod, statusCallback, params, account.sid);
    };
    const call = this.newCall({
      accountSid: account.sid,
      to: phoneNumber,
      from: VALIDATION_CALLER,
      direction: 'outbound-api',
      timeoutSeconds: 60,
      program: async (c) => {
        await this.twiml.say(c, 'Please enter your validation code.');
        const digits = await this.twiml.collect(c, { numDigits: 6, timeout: 15, finishOnKey: '#' });
        if (digits === code) {
          const callerId: SandboxCallerId = {
            sid: sandboxSid('PN'),
            accountSid: account.sid,
            phoneNumber,
            friendlyName,
            dateCreated: this.clock.now(),
          };
          this.callerIds.set(callerId.sid, callerId);
          await this.twiml.say(c, 'Thank you. Your number is verified.');
          await report(c, true, callerId);
        } else {
          await this.twiml.say(c, 'Sorry, that code is not correct. Goodbye.');
          await report(c, false, null);
        }
      },
    });
    // An unanswered validation call fails the validation.
    call.statusCallbackEvents = new Set();
    const watch = () => {
      if (isLive(call)) {
        this.clock.schedule(1000, watch);
        return;
      }
      void report(call, false, null);
    };
    this.clock.schedule(1000, watch);
    this.startOutbound(call);
    return {
      account_sid: account.sid,
      call_sid: call.sid,
      friendly_name: friendlyName,
      phone_number: phoneNumber,
      validation_code: code,
    };
  }

  // ---- Recordings -----------------------------------------------------------------------------

  private recordingJson(r: SandboxRecording) {
    return {
      account_sid: r.accountSid,
      api_version: API_VERSION,
      call_sid: r.callSid,
      channels: r.channels,
      conference_sid: null,
      date_created: rfc2822(r.dateCreated),
      date_updated: rfc2822(r.dateCreated),
      duration: String(r.duration),
      error_code: null,
      price: null,
      price_unit: 'USD',
      sid: r.sid,
      source: r.source,
      start_time: rfc2822(r.dateCreated - r.duration * 1000),
      status: 'completed',
      uri: `/${API_VERSION}/Accounts/${r.accountSid}/Recordings/${r.sid}.json`,
    };
  }
}

/** An ISO country for the few calling codes the sandbox knows (Twilio sends FromCountry/ToCountry). */
export function countryOf(e164: string): string {
  if (e164.startsWith('+1')) return 'US';
  const table: [string, string][] = [
    ['+44', 'GB'],
    ['+61', 'AU'],
    ['+55', 'BR'],
    ['+34', 'ES'],
    ['+52', 'MX'],
    ['+49', 'DE'],
    ['+33', 'FR'],
  ];
  return table.find(([p]) => e164.startsWith(p))?.[1] ?? '';
}

function formatFriendly(e164: string): string {
  const m = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return m ? `(${m[1]}) ${m[2]}-${m[3]}` : e164;
}

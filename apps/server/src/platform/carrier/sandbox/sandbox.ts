import crypto from 'node:crypto';
import { type CallEvent, type CallStatus, isE164, type MessageStatus } from '../carrier.ts';
import { TwilioCarrier, type TwilioHttpClient } from '../twilio-carrier.ts';
import { realClock, type SandboxClock } from './clock.ts';
import { WebhookCaller, type WebhookTransport } from './webhook-caller.ts';

/**
 * The sandbox carrier: an in-process emulator of the part of Twilio's REST API the product uses.
 * The official `twilio` SDK talks to it through its `httpClient` option (no network hop), so the code
 * path from an SDK call to a signed webhook is the production one (ADR 026). Implemented so far:
 * account fetch, messages create (with the queued → sent → delivered status callbacks) and calls
 * create (initiated, ringing, and no-answer after the timeout while no simulated phone answers).
 */

const API_VERSION = '2010-04-01';

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
  status: MessageStatus;
  statusCallback: string | null;
  dateCreated: number;
  dateUpdated: number;
  dateSent: number | null;
};

export type SandboxCall = {
  sid: string;
  accountSid: string;
  to: string;
  from: string;
  url: string;
  method: string;
  status: CallStatus;
  statusCallback: string | null;
  statusCallbackMethod: string;
  statusCallbackEvents: Set<CallEvent>;
  timeoutSeconds: number;
  dateCreated: number;
  dateUpdated: number;
  startTime: number | null;
  endTime: number | null;
  sequence: number;
};

/** The time, in sandbox milliseconds, between the steps the sandbox plays out on its own. */
export type SandboxTimings = {
  messageQueued: number;
  messageSent: number;
  messageDelivered: number;
  callInitiated: number;
  callRinging: number;
};

export const DEFAULT_TIMINGS: SandboxTimings = {
  messageQueued: 0,
  messageSent: 300,
  messageDelivered: 1200,
  callInitiated: 0,
  callRinging: 400,
};

export type SandboxOptions = {
  clock?: SandboxClock;
  transport?: WebhookTransport;
  timings?: Partial<SandboxTimings>;
};

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
const rfc2822 = (ms: number | null) =>
  ms === null ? null : new Date(ms).toUTCString().replace('GMT', '+0000');

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

function one(form: Form, key: string): string | undefined {
  const v = form[key];
  return Array.isArray(v) ? v[0] : v;
}

function many(form: Form, key: string): string[] {
  const v = form[key];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** The SDK hands over its form as an object of strings, numbers, booleans and arrays. */
function toForm(data: Record<string, unknown> | undefined): Form {
  const form: Form = {};
  for (const [key, value] of Object.entries(data ?? {})) {
    if (value === undefined || value === null) continue;
    form[key] = Array.isArray(value) ? value.map(String) : String(value);
  }
  return form;
}

export class TwilioSandbox {
  readonly clock: SandboxClock;
  readonly webhooks: WebhookCaller;
  readonly timings: SandboxTimings;
  readonly accounts = new Map<string, SandboxAccount>();
  readonly messages = new Map<string, SandboxMessage>();
  readonly calls = new Map<string, SandboxCall>();
  /** The SDK's RequestClient, answered in process. */
  readonly httpClient: TwilioHttpClient;

  constructor(options: SandboxOptions = {}) {
    this.clock = options.clock ?? realClock();
    this.webhooks = new WebhookCaller(options.transport);
    this.timings = { ...DEFAULT_TIMINGS, ...options.timings };
    const client = { request: (opts: SdkRequest) => this.request(opts) };
    this.httpClient = client as unknown as TwilioHttpClient;
  }

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

  /** The production adapter, pointed at this sandbox. */
  carrier(accountSid: string, authToken = this.accounts.get(accountSid)?.authToken ?? ''): TwilioCarrier {
    return new TwilioCarrier({ accountSid, authToken, httpClient: this.httpClient });
  }

  async request(opts: SdkRequest): Promise<SandboxResponse> {
    try {
      const url = new URL(opts.uri);
      const account = await this.authenticate(opts);
      const form = toForm(opts.method.toLowerCase() === 'get' ? opts.params : opts.data);
      return this.route(opts.method.toUpperCase(), url.pathname, account, form);
    } catch (error) {
      if (error instanceof TwilioError) return this.error(error);
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
    const m = /^\/2010-04-01\/Accounts\/(AC[0-9a-f]{32})(?:\/([A-Za-z]+))?\.json$/.exec(path);
    if (!m) throw this.notFound(path);
    // The credentials must be the account's own.
    if (m[1] !== account.sid) throw new TwilioError(401, 20003, 'Authenticate');
    const resource = m[2];
    if (resource === undefined && method === 'GET') return this.json(200, this.accountJson(account));
    if (resource === 'Messages' && method === 'POST')
      return this.json(201, this.createMessage(account, form));
    if (resource === 'Calls' && method === 'POST') return this.json(201, this.createCall(account, form));
    if (resource === undefined || resource === 'Messages' || resource === 'Calls')
      throw new TwilioError(405, 20004, 'Method not allowed');
    throw this.notFound(path);
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

  private createMessage(account: SandboxAccount, form: Form) {
    const { to, from } = this.checkNumbers(form, 'message');
    const body = one(form, 'Body') ?? '';
    if (!body) throw badRequest(21602, 'Message body is required.');
    if (body.length > 1600)
      throw badRequest(21617, 'The concatenated message body exceeds the 1600 character limit.');
    const now = this.clock.now();
    const message: SandboxMessage = {
      sid: sandboxSid('SM'),
      accountSid: account.sid,
      to,
      from,
      body,
      status: 'queued',
      statusCallback: one(form, 'StatusCallback') ?? null,
      dateCreated: now,
      dateUpdated: now,
      dateSent: null,
    };
    this.messages.set(message.sid, message);
    const steps: [MessageStatus, number][] = [
      ['queued', this.timings.messageQueued],
      ['sent', this.timings.messageSent],
      ['delivered', this.timings.messageDelivered],
    ];
    const next = (i: number) => {
      const step = steps[i];
      if (!step) return;
      this.clock.schedule(step[1], async () => {
        this.setMessageStatus(message, step[0]);
        await this.messageCallback(message);
        next(i + 1);
      });
    };
    next(0);
    return this.messageJson(message);
  }

  private setMessageStatus(message: SandboxMessage, status: MessageStatus) {
    message.status = status;
    message.dateUpdated = this.clock.now();
    if (status === 'sent') message.dateSent = message.dateUpdated;
  }

  private async messageCallback(message: SandboxMessage) {
    const account = this.accounts.get(message.accountSid);
    if (!message.statusCallback || !account) return;
    await this.webhooks.post(
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
      },
      account.authToken,
    );
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
      direction: 'outbound-api',
      error_code: null,
      error_message: null,
      from: m.from,
      messaging_service_sid: null,
      num_media: '0',
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

  private createCall(account: SandboxAccount, form: Form) {
    const { to, from } = this.checkNumbers(form, 'call');
    const url = one(form, 'Url');
    if (!url && !one(form, 'Twiml') && !one(form, 'ApplicationSid'))
      throw badRequest(21205, 'Url parameter is required.');
    const statusCallback = one(form, 'StatusCallback') ?? null;
    const requested = many(form, 'StatusCallbackEvent').flatMap((e) => e.split(/\s+/));
    const events = new Set<CallEvent>(
      (requested.length ? requested : ['completed']).filter((e): e is CallEvent =>
        ['initiated', 'ringing', 'answered', 'completed'].includes(e),
      ),
    );
    const timeout = Number(one(form, 'Timeout') ?? 60);
    const now = this.clock.now();
    const call: SandboxCall = {
      sid: sandboxSid('CA'),
      accountSid: account.sid,
      to,
      from,
      url: url ?? '',
      method: (one(form, 'Method') ?? 'POST').toUpperCase(),
      status: 'queued',
      statusCallback,
      statusCallbackMethod: (one(form, 'StatusCallbackMethod') ?? 'POST').toUpperCase(),
      statusCallbackEvents: events,
      timeoutSeconds: Number.isFinite(timeout) ? Math.min(600, Math.max(5, timeout)) : 60,
      dateCreated: now,
      dateUpdated: now,
      startTime: null,
      endTime: null,
      sequence: 0,
    };
    this.calls.set(call.sid, call);
    this.clock.schedule(this.timings.callInitiated, async () => {
      if (call.status !== 'queued') return;
      await this.moveCall(call, 'initiated', 'initiated');
      this.clock.schedule(this.timings.callRinging, async () => {
        if (call.status !== 'initiated') return;
        await this.moveCall(call, 'ringing', 'ringing');
        // Nobody answers until simulated phones exist: the call gives up after its timeout.
        this.clock.schedule(call.timeoutSeconds * 1000, async () => {
          if (call.status !== 'ringing') return;
          await this.moveCall(call, 'no-answer', 'completed');
        });
      });
    });
    return this.callJson(call);
  }

  private async moveCall(call: SandboxCall, status: CallStatus, event: CallEvent) {
    const now = this.clock.now();
    call.status = status;
    call.dateUpdated = now;
    if (status === 'initiated') call.startTime = now;
    if (event === 'completed') call.endTime = now;
    const account = this.accounts.get(call.accountSid);
    if (!call.statusCallback || !call.statusCallbackEvents.has(event) || !account) return;
    if (call.statusCallbackMethod !== 'POST') return; // GET callbacks come with the TwiML interpreter.
    const params: Record<string, string> = {
      AccountSid: call.accountSid,
      ApiVersion: API_VERSION,
      CallSid: call.sid,
      CallStatus: status,
      Called: call.to,
      Caller: call.from,
      CallbackSource: 'call-progress-events',
      Direction: 'outbound-api',
      From: call.from,
      SequenceNumber: String(call.sequence++),
      Timestamp: rfc2822(now) ?? '',
      To: call.to,
    };
    if (event === 'completed') {
      const duration =
        status === 'completed' && call.startTime ? Math.round((now - call.startTime) / 1000) : 0;
      params.CallDuration = String(duration);
      params.Duration = String(Math.ceil(duration / 60));
    }
    await this.webhooks.post(call.statusCallback, params, account.authToken);
  }

  private callJson(c: SandboxCall) {
    const uri = `/${API_VERSION}/Accounts/${c.accountSid}/Calls/${c.sid}`;
    return {
      account_sid: c.accountSid,
      annotation: null,
      answered_by: null,
      api_version: API_VERSION,
      caller_name: null,
      date_created: rfc2822(c.dateCreated),
      date_updated: rfc2822(c.dateUpdated),
      direction: 'outbound-api',
      duration: null,
      end_time: rfc2822(c.endTime),
      forwarded_from: null,
      from: c.from,
      from_formatted: c.from,
      group_sid: null,
      parent_call_sid: null,
      phone_number_sid: null,
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
}

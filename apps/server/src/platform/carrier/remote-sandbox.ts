import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { CarrierError, type CarrierMedia, RECORDING_SID_PATTERN, type RecordingAudio } from './carrier.ts';
import type { TwilioSandbox } from './sandbox/sandbox.ts';
import { TwilioCarrier, type TwilioHttpClient } from './twilio-carrier.ts';

/**
 * The remote sandbox (ADR 063): a process started with CARRIER_SANDBOX_URL (a worker) has no sandbox of its
 * own; its carrier for a sandbox account is the production adapter whose SDK requests are forwarded over
 * HTTP to the process that holds the sandbox (the API server), which answers them at /sandbox/twilio/*
 * with the sandbox's REST emulation. So the sandbox's record (messages, calls, phones) is one.
 */

/** Where the sandbox's REST is served on the process that holds it. */
export const SANDBOX_REST_PREFIX = '/sandbox/twilio';
const FORWARD_TIMEOUT_MS = 30_000;

/** What the SDK's RequestClient.request() receives (twilio/lib/base/RequestClient.d.ts). */
type SdkRequest = {
  method: string;
  uri: string;
  username?: string;
  password?: string;
  authStrategy?: { getAuthString(): Promise<string> };
  params?: Record<string, unknown>;
  data?: Record<string, unknown>;
};

/** The SDK's form (strings, numbers, booleans, dates, arrays) as a query string, repeated keys for arrays. */
function encode(values: Record<string, unknown> | undefined): URLSearchParams {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(values ?? {})) {
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) q.append(key, String(v));
  }
  return q;
}

async function authorization(opts: SdkRequest): Promise<string | undefined> {
  if (opts.username && opts.password)
    return `Basic ${Buffer.from(`${opts.username}:${opts.password}`).toString('base64')}`;
  return opts.authStrategy ? opts.authStrategy.getAuthString() : undefined;
}

/** The SDK's HTTP client that sends each request to the remote sandbox instead of Twilio's hosts. */
export function remoteSandboxHttpClient(baseUrl: string): TwilioHttpClient {
  const base = baseUrl.replace(/\/+$/, '');
  const client = {
    async request(opts: SdkRequest) {
      const target = new URL(opts.uri);
      const method = opts.method.toUpperCase();
      const query = new URLSearchParams(target.search);
      if (method === 'GET' || method === 'DELETE')
        for (const [k, v] of encode(opts.params)) query.append(k, v);
      const qs = query.toString();
      const headers: Record<string, string> = {};
      const auth = await authorization(opts);
      if (auth) headers.authorization = auth;
      let body: string | undefined;
      if (method !== 'GET' && method !== 'DELETE') {
        body = encode(opts.data).toString();
        headers['content-type'] = 'application/x-www-form-urlencoded';
      }
      const res = await fetch(`${base}${SANDBOX_REST_PREFIX}${target.pathname}${qs ? `?${qs}` : ''}`, {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
        signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
      });
      // The body as text, as the sandbox's in-process client answers it (the SDK parses it).
      return { statusCode: res.status, body: await res.text(), headers: Object.fromEntries(res.headers) };
    },
  };
  return client as unknown as TwilioHttpClient;
}

/**
 * The production adapter on a remote sandbox: REST through the forwarding client; recordings and media,
 * which the in-process sandbox reads from memory, fetched from the sandbox's routes with the account's
 * credentials (never from Twilio's hosts).
 */
export class RemoteSandboxCarrier extends TwilioCarrier {
  private readonly base: string;
  constructor(
    baseUrl: string,
    accountSid: string,
    authToken: string,
    /** The origins the sandbox's media URLs may have (its public URL, the same on every process). */
    private readonly mediaOrigins: string[],
  ) {
    super({ accountSid, authToken, httpClient: remoteSandboxHttpClient(baseUrl) });
    this.base = `${baseUrl.replace(/\/+$/, '')}${SANDBOX_REST_PREFIX}`;
  }

  private auth(): Record<string, string> {
    const { accountSid, authToken } = this.options;
    return { authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}` };
  }

  private async get(path: string, timeoutMs = FORWARD_TIMEOUT_MS): Promise<Response> {
    try {
      return await fetch(`${this.base}${path}`, {
        headers: this.auth(),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new CarrierError(`The carrier could not be reached: ${message}`, null, 502);
    }
  }

  override async fetchRecordingAudio(recordingSid: string): Promise<RecordingAudio> {
    if (!RECORDING_SID_PATTERN.test(recordingSid))
      throw new CarrierError('The requested resource was not found', 20404, 404);
    const res = await this.get(
      `/2010-04-01/Accounts/${this.options.accountSid}/Recordings/${recordingSid}.wav`,
      60_000,
    );
    if (!res.ok || !res.body)
      throw new CarrierError(`The requested resource ${recordingSid} was not found`, 20404, res.status);
    return {
      contentType: res.headers.get('content-type') ?? 'audio/wav',
      body: Readable.fromWeb(res.body as import('node:stream/web').ReadableStream),
    };
  }

  override async fetchMedia(url: string, opts: { maxBytes: number }): Promise<CarrierMedia> {
    const u = URL.canParse(url) ? new URL(url) : null;
    const m = u ? /^\/sandbox\/media\/(ME[0-9a-f]{32})$/.exec(u.pathname) : null;
    if (!u || !m || !this.mediaOrigins.includes(u.origin))
      throw new CarrierError("Media must come from the carrier's own hosts", null, 403);
    const res = await this.get(`/media/${m[1]}?max=${opts.maxBytes}`);
    if (res.status === 413) throw new CarrierError('The media is too large', null, 413);
    if (!res.ok) throw new CarrierError(`The requested resource ${m[1]} was not found`, 20404, res.status);
    const body = Buffer.from(await res.arrayBuffer());
    if (body.length > opts.maxBytes) throw new CarrierError('The media is too large', null, 413);
    return { contentType: res.headers.get('content-type') ?? '', body };
  }
}

/** The account's credentials of a Basic authorization header. */
function basicCredentials(header: string | undefined): { username: string; password: string } | null {
  const m = /^Basic (.+)$/.exec(header ?? '');
  if (!m?.[1]) return null;
  const raw = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = raw.indexOf(':');
  if (colon < 0) return null;
  return { username: raw.slice(0, colon), password: raw.slice(colon + 1) };
}

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
};

export type SandboxRestOptions = {
  sandbox: TwilioSandbox | null;
  /**
   * The auth token the platform's database keeps for an account sid (a sandbox restarted with the API
   * process lost its accounts; the in-process carrier re-creates them from the database, as this does
   * when the caller's credentials are the database's).
   */
  knownToken?: (accountSid: string) => Promise<string | null>;
};

/**
 * /sandbox/twilio/*: the sandbox's REST emulation over HTTP for processes started with CARRIER_SANDBOX_URL
 * (only when this process holds a sandbox). Credentials are checked by the sandbox as for in-process
 * requests; also a recording's WAV and a phone's media file, with the account's credentials.
 */
export async function sandboxRestRoutes(app: FastifyInstance, opts: SandboxRestOptions): Promise<void> {
  const { sandbox } = opts;
  if (!sandbox) return;
  if (app.hasContentTypeParser('application/x-www-form-urlencoded'))
    app.removeContentTypeParser('application/x-www-form-urlencoded');
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 * 1024 },
    (_req, body, done) => {
      const form: Record<string, string | string[]> = {};
      for (const [k, v] of new URLSearchParams(String(body))) {
        const had = form[k];
        form[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
      }
      done(null, form);
    },
  );

  /** The caller's credentials, with the account put back from the database when the sandbox lost it. */
  const credentials = async (header: string | undefined) => {
    const c = basicCredentials(header);
    if (!c) return null;
    const held = sandbox.accounts.get(c.username);
    if ((!held || !sameSecret(held.authToken, c.password)) && opts.knownToken) {
      const token = await opts.knownToken(c.username).catch(() => null);
      if (token && sameSecret(token, c.password))
        sandbox.ensureAccount({ sid: c.username, authToken: token });
    }
    return c;
  };
  const refuse = (reply: import('fastify').FastifyReply, status: number, code: number, message: string) =>
    reply.status(status).type('application/json').send({ code, message, status });

  app.get(`${SANDBOX_REST_PREFIX}/media/:sid`, { schema: { hide: true } }, async (request, reply) => {
    const c = await credentials(request.headers.authorization);
    const account = c ? sandbox.accounts.get(c.username) : undefined;
    if (!c || !account || !sameSecret(account.authToken, c.password))
      return refuse(reply, 401, 20003, 'Authenticate');
    const sid = (request.params as { sid: string }).sid;
    const max = Number((request.query as { max?: string }).max ?? 5 * 1024 * 1024);
    try {
      const media = await sandbox
        .carrier(account.sid, account.authToken)
        .fetchMedia(`${sandbox.publicBase}/sandbox/media/${sid}`, { maxBytes: max });
      return reply.type(media.contentType || 'application/octet-stream').send(media.body);
    } catch (error) {
      const status = error instanceof CarrierError ? error.status : 500;
      return refuse(reply, status, status === 404 ? 20404 : 0, (error as Error).message);
    }
  });

  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: `${SANDBOX_REST_PREFIX}/*`,
    schema: { hide: true },
    async handler(request, reply) {
      const c = await credentials(request.headers.authorization);
      const raw = request.raw.url ?? '';
      const rest = raw.slice(raw.indexOf(SANDBOX_REST_PREFIX) + SANDBOX_REST_PREFIX.length);
      const url = new URL(rest, 'https://api.twilio.com');
      // A recording's audio (binary), read as the in-process adapter reads it.
      const wav = /^\/2010-04-01\/Accounts\/(AC[0-9a-f]{32})\/Recordings\/(RE[0-9a-f]{32})\.wav$/.exec(
        url.pathname,
      );
      if (wav && request.method === 'GET') {
        if (!c || c.username !== wav[1]) return refuse(reply, 401, 20003, 'Authenticate');
        try {
          const audio = await sandbox.carrier(c.username, c.password).fetchRecordingAudio(wav[2] ?? '');
          return reply.type(audio.contentType).send(audio.body);
        } catch (error) {
          const status = error instanceof CarrierError ? error.status : 500;
          return refuse(reply, status, 20404, (error as Error).message);
        }
      }
      const query: Record<string, string | string[]> = {};
      for (const [k, v] of url.searchParams) {
        const had = query[k];
        query[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
      }
      const res = await sandbox.request({
        method: request.method,
        uri: url.toString(),
        ...(c ? { username: c.username, password: c.password } : {}),
        params: query,
        data: (request.body as Record<string, unknown> | undefined) ?? {},
      });
      reply.status(res.statusCode);
      for (const [k, v] of Object.entries(res.headers)) reply.header(k, v);
      return reply.send(res.body);
    },
  });
}

/** The requests only the process holding the sandbox can answer: the Sandbox Phones API and recordings. */
export function isSandboxHolderPath(url: string): boolean {
  return /^\/api\/v1\/sandbox(\/|\?|$)/.test(url) || url.startsWith('/sandbox/recordings/');
}

/**
 * On an API process started with CARRIER_SANDBOX_URL (ADR 098): the Sandbox Phones API and the sandbox's
 * recordings are the sandbox's own, so such a request is passed on as it came (method, path, headers,
 * body) to the process that holds the sandbox, and its answer passed back. Behind a load balancer the
 * screens then work whichever API process a request lands on. The holder checks the session as usual.
 */
export function forwardToSandboxHolder(app: FastifyInstance, holderUrl: string): void {
  const target = new URL(holderUrl);
  const client = target.protocol === 'https:' ? https : http;
  const agent = new client.Agent({ keepAlive: true });
  const base = target.pathname.replace(/\/+$/, '');
  app.addHook('onRequest', (request, reply, done) => {
    const url = request.raw.url ?? '/';
    if (!isSandboxHolderPath(url)) return done();
    reply.hijack();
    const prior = request.headers['x-forwarded-for'];
    const upstream = client.request(
      {
        host: target.hostname,
        port: target.port || undefined,
        method: request.raw.method,
        path: `${base}${url}`,
        headers: {
          ...request.raw.headers,
          'x-forwarded-for': prior ? `${String(prior)}, ${request.ip}` : request.ip,
        },
        agent,
        timeout: 30_000,
      },
      (res) => {
        reply.raw.writeHead(res.statusCode ?? 502, res.headers);
        res.pipe(reply.raw);
      },
    );
    upstream.on('timeout', () => upstream.destroy(new Error('timed out')));
    upstream.on('error', (err) => {
      request.log.warn({ err }, 'the sandbox holder (CARRIER_SANDBOX_URL) did not answer');
      if (reply.raw.headersSent) return void reply.raw.destroy();
      reply.raw.writeHead(502, { 'content-type': 'application/json; charset=utf-8' });
      reply.raw.end(
        JSON.stringify({
          success: false,
          code: 'SANDBOX_UNREACHABLE',
          message: 'The sandbox carrier (CARRIER_SANDBOX_URL) did not answer.',
        }),
      );
    });
    request.raw.pipe(upstream);
    done();
  });
}

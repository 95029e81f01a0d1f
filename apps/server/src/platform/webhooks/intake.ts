// The direct intake (issue 27, ADR 116): the carrier's form webhooks (a text in, a message's or a call's
// progress, a call asking what to do) answered before Fastify. Each is the busiest request the platform
// serves, and the app's general path (routing, hooks, the content-type parser, the reply's serializers)
// cost more than twice a bare Node server's per request (ADR 114). The intake keeps the /webhooks tree's
// rules (ADR 015) with the tree's own parts: the same form parser and limit, the provider's signature check
// on the URL as the caller used it (X-Forwarded-* only from a trusted proxy, as Fastify reads them), a NUL
// byte refused, the provider's own error answers, the security headers and the request id of every answer,
// and the route's own answer, which its Fastify handler gives too. Whatever it does not take (another
// method or path, another content type, a body without a length or over the limit) goes to the app, which
// answers it as before; so does everything through `app.inject`.
import crypto from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { firstFlaw } from '../http/input-hygiene.ts';
import type { SecurityHeaders } from '../http/security-headers.ts';
import {
  errorAnswer,
  errorStatus,
  FORM_LIMIT,
  type FormBody,
  parseForm,
  type WebhookAnswer,
  type WebhookInput,
  type WebhookProvider,
  type WebhookRegistry,
} from './tree.ts';

/** A request as the intake reads it: from a socket, or from the platform's own sandbox in process. */
export type IntakeRequest = {
  method: string;
  /** The raw path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  remoteAddress: string | undefined;
  encrypted: boolean;
  /** The client's address for the request line (through trusted proxies); `remoteAddress` when absent. */
  ip?: string | undefined;
  /** When the request came (process.hrtime.bigint()), for the request line's time; now when absent. */
  started?: bigint;
};

export type IntakeAnswer = WebhookAnswer & { status: number; requestId: string };

type DirectRoute = {
  provider: WebhookProvider;
  verify: NonNullable<WebhookProvider['verifyForm']>;
  answer: (input: WebhookInput) => Promise<WebhookAnswer>;
};

export type Intake = {
  /** The route that answers this request directly, or null: the app answers it. */
  routeOf(request: { method?: string; url?: string; headers: IncomingHttpHeaders }): DirectRoute | null;
  /** A request whose body has been read, answered as the /webhooks tree would. */
  answer(route: DirectRoute, request: IntakeRequest, body: string): Promise<IntakeAnswer>;
  /** The HTTP server's handler: true when the intake took the request (and will answer it). */
  serve(req: IncomingMessage, res: ServerResponse): boolean;
};

/** Fastify's reading of `trustProxy` (lib/request.js): which peer's X-Forwarded-* headers are believed. */
function trustOf(trust: Config['trustProxy']): ((address: string, hop: number) => boolean) | null {
  if (trust === false) return null;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return proxyAddr.compile([...trust]);
}

/** The last value of a header a proxy may have appended to (Fastify's getLastEntryInMultiHeaderValue). */
const lastEntry = (value: string) => {
  const at = value.lastIndexOf(',');
  return at === -1 ? value.trim() : value.slice(at + 1).trim();
};

const FORM = 'application/x-www-form-urlencoded';

/** The query as Fastify's parser gives it: a name given twice is an array; no name is the object's own. */
function parseQuery(url: string): Record<string, string | string[]> {
  const at = url.indexOf('?');
  const out: Record<string, string | string[]> = Object.create(null);
  if (at < 0) return out;
  for (const [k, v] of new URLSearchParams(url.slice(at + 1))) {
    const prev = out[k];
    if (prev === undefined) out[k] = v;
    else out[k] = Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

export function createIntake(opts: {
  registry: WebhookRegistry;
  /** Where the tree is mounted. */
  prefix: string;
  trustProxy: Config['trustProxy'];
  securityHeaders: SecurityHeaders;
  log: FastifyBaseLogger;
}): Intake {
  const routes = new Map<string, DirectRoute>();
  for (const r of opts.registry.routes) {
    const provider = opts.registry.providers.get(r.provider);
    if (r.method !== 'POST' || !r.direct || !provider?.verifyForm || r.url.includes(':')) continue;
    routes.set(`${opts.prefix}${r.url}`, { provider, verify: provider.verifyForm, answer: r.direct });
  }
  const trust = trustOf(opts.trustProxy);
  const security = Object.fromEntries(opts.securityHeaders);
  const { log } = opts;
  const logsRequests =
    (log as unknown as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info') ?? true;

  const routeOf: Intake['routeOf'] = (request) => {
    if (request.method !== 'POST' || !request.url) return null;
    const q = request.url.indexOf('?');
    const route = routes.get(q < 0 ? request.url : request.url.slice(0, q));
    if (!route) return null;
    const type = request.headers['content-type'];
    if (!type) return null;
    const semi = type.indexOf(';');
    return (semi < 0 ? type : type.slice(0, semi)).trim().toLowerCase() === FORM ? route : null;
  };

  /**
   * Answers one webhook and writes its request line, as Fastify's would be (for the logs that keep them):
   * over HTTP and for the sandbox's webhooks answered in process alike.
   */
  async function answer(route: DirectRoute, request: IntakeRequest, raw: string): Promise<IntakeAnswer> {
    const started = request.started ?? process.hrtime.bigint();
    const a = await decide(route, request, raw);
    if (logsRequests)
      log.info(
        {
          reqId: a.requestId,
          req: {
            method: 'POST',
            url: request.url,
            host: request.headers.host,
            ip: request.ip ?? request.remoteAddress,
          },
          res: { statusCode: a.status },
          responseTime: Number(process.hrtime.bigint() - started) / 1e6,
        },
        'request completed',
      );
    return a;
  }

  async function decide(route: DirectRoute, request: IntakeRequest, raw: string): Promise<IntakeAnswer> {
    const given = request.headers['x-request-id'];
    const requestId = typeof given === 'string' && given ? given : crypto.randomUUID();
    const fail = (status: number, text: string): IntakeAnswer => ({
      status,
      requestId,
      ...errorAnswer(route.provider, text),
    });
    const { headers } = request;
    const trusted = trust !== null && request.remoteAddress !== undefined && trust(request.remoteAddress, 0);
    const forwardedProto = headers['x-forwarded-proto'];
    const forwardedHost = headers['x-forwarded-host'];
    const protocol =
      trusted && typeof forwardedProto === 'string' && forwardedProto
        ? lastEntry(forwardedProto)
        : request.encrypted
          ? 'https'
          : 'http';
    const host =
      trusted && typeof forwardedHost === 'string' && forwardedHost ? lastEntry(forwardedHost) : headers.host;
    const url = `${protocol}://${host ?? ''}${request.url}`;
    let body: FormBody;
    let query: Record<string, string | string[]>;
    try {
      body = parseForm(raw);
      query = parseQuery(request.url);
    } catch {
      return fail(400, 'Bad Request');
    }
    // A NUL byte, which no provider sends and PostgreSQL refuses in text, is a bad request (ADR 021).
    if (firstFlaw(query)?.kind === 'nul' || firstFlaw(body)?.kind === 'nul') return fail(400, 'Bad Request');
    let ok = false;
    try {
      ok = await route.verify(headers, url, body);
    } catch (err) {
      log.warn({ err, reqId: requestId, provider: route.provider.name }, 'webhook signature check failed');
    }
    if (!ok) {
      log.info(
        { reqId: requestId, provider: route.provider.name },
        'webhook refused: bad or missing signature',
      );
      return fail(403, 'Forbidden');
    }
    try {
      return { status: 200, requestId, ...(await route.answer({ body, url, headers, query })) };
    } catch (err) {
      const status = errorStatus(err);
      if (status === 500) log.error({ reqId: requestId, err }, 'webhook failed');
      return fail(status, status === 500 ? 'Error' : 'Bad Request');
    }
  }

  function serve(req: IncomingMessage, res: ServerResponse): boolean {
    const route = routeOf(req);
    if (!route) return false;
    // A body of a known length within the limit; anything else (chunked, too large) is the app's to refuse.
    const length = req.headers['content-length'];
    if (!length || !/^\d{1,7}$/.test(length) || Number(length) > FORM_LIMIT) return false;
    if (req.headers['transfer-encoding'] !== undefined) return false;
    const started = process.hrtime.bigint();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', () => res.destroy());
    req.on('end', () => {
      const request: IntakeRequest = {
        method: 'POST',
        url: req.url ?? '/',
        headers: req.headers,
        remoteAddress: req.socket.remoteAddress,
        encrypted: 'encrypted' in req.socket && Boolean(req.socket.encrypted),
        // The client's address as Fastify reads it, through the proxies TRUST_PROXY trusts.
        ip: logsRequests && trust ? proxyAddr(req, trust) : req.socket.remoteAddress,
        started,
      };
      answer(route, request, Buffer.concat(chunks).toString('utf8'))
        .then((a) => {
          res.writeHead(a.status, {
            ...security,
            'content-type': a.type,
            'content-length': Buffer.byteLength(a.body),
            'x-request-id': a.requestId,
          });
          res.end(a.body);
        })
        .catch((err: unknown) => {
          // An answer that could not be written (a body that is not text, a header Node refuses): a 500 as
          // Fastify's path would give, or the connection closed when it is too late for one.
          log.error({ err }, 'webhook failed');
          if (res.headersSent) return void res.destroy();
          const a = errorAnswer(route.provider, 'Error');
          res.writeHead(500, {
            ...security,
            'content-type': a.type,
            'content-length': Buffer.byteLength(a.body),
          });
          res.end(a.body);
        });
    });
    return true;
  }

  return { routeOf, answer, serve };
}

// The /webhooks tree: providers (the carrier, the payment provider) call it, never a browser. Bodies are
// form-encoded, the full URL as called is kept for the signature, every route names its provider and a
// hook checks that provider's signature before the handler runs: unsigned or badly signed is 403 and
// changes nothing. Errors never answer the API's JSON envelope: plain text, or an empty TwiML document
// for Twilio, which would otherwise read our JSON as instructions (ADR 015).
import crypto from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import twilio from 'twilio';
import { hasNul } from '../http/input-hygiene.ts';

export type FormBody = Record<string, string | string[]>;

export type WebhookProvider = {
  name: string;
  /** True when the request carries this provider's valid signature. */
  verify(request: FastifyRequest, fullUrl: string, body: FormBody): Promise<boolean>;
  /**
   * The same check from the headers alone, for a form the direct intake (./intake.ts) read: a provider
   * without it has its routes always answered through the app's path.
   */
  verifyForm?(headers: IncomingHttpHeaders, fullUrl: string, body: FormBody): Promise<boolean>;
  /** What an error answers: content type and body. */
  errorReply: { type: string; body: string };
};

export type WebhookRoute = {
  method: 'POST' | 'GET';
  /** Below /webhooks, e.g. `/twilio/sms`. */
  url: string;
  provider: string;
  handler: RouteHandlerMethod;
  /**
   * The same answer without Fastify, for the direct intake (./intake.ts): a form POST the provider has
   * signed, parsed; a route without it is always answered through the app's path.
   */
  direct?: (input: WebhookInput) => Promise<WebhookAnswer>;
};

/** A signed form webhook, as a route's direct answer reads it. */
export type WebhookInput = {
  body: FormBody;
  /** The URL the provider called (see fullUrlOf). */
  url: string;
  headers: IncomingHttpHeaders;
  query: Record<string, string | string[] | undefined>;
};
export type WebhookAnswer = { type: string; body: string };

export type WebhookRegistry = {
  provider(p: WebhookProvider): void;
  route(r: WebhookRoute): void;
  readonly providers: ReadonlyMap<string, WebhookProvider>;
  readonly routes: readonly WebhookRoute[];
};

export function createWebhookRegistry(): WebhookRegistry {
  const providers = new Map<string, WebhookProvider>();
  const routes: WebhookRoute[] = [];
  return {
    provider(p) {
      if (providers.has(p.name)) throw new Error(`webhooks: provider ${p.name} registered twice`);
      providers.set(p.name, p);
    },
    route(r) {
      routes.push(r);
    },
    providers,
    routes,
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The URL the provider called (scheme, host, path and query), as its signature covers it. */
    webhookUrl?: string;
    /** A JSON body exactly as sent (Stripe signs the raw bytes). */
    rawBody?: string;
  }
  interface FastifyContextConfig {
    webhookProvider?: string;
    /** A route that only answers 405 (a webhook path called with another method). */
    webhookWrongMethod?: boolean;
  }
}

/** Scheme and host as the caller used them (X-Forwarded-* only when TRUST_PROXY), then the raw path. */
export function fullUrlOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}${request.raw.url ?? request.url}`;
}

export function parseForm(raw: string): FormBody {
  // No name is the object's own (`__proto__`, `toString`...).
  const out: FormBody = Object.create(null);
  for (const [k, v] of new URLSearchParams(raw)) {
    const prev = out[k];
    if (prev === undefined) out[k] = v;
    else out[k] = Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

const PLAIN = { type: 'text/plain; charset=utf-8', body: '' };

/** An error's answer: the provider's own (Twilio's empty TwiML), else `text` as plain text. */
export function errorAnswer(provider: WebhookProvider | undefined, text: string): WebhookAnswer {
  const answer = provider?.errorReply ?? PLAIN;
  return { type: answer.type, body: answer.body || text };
}

/** The status an error thrown by a handler answers: its own 4xx, else 500. */
export function errorStatus(error: unknown): number {
  const code =
    error && typeof error === 'object' ? (error as { statusCode?: unknown }).statusCode : undefined;
  return typeof code === 'number' && code >= 400 && code < 500 ? code : 500;
}

/** The largest form body the tree reads (a larger one is 413). */
export const FORM_LIMIT = 256 * 1024;

export async function webhookTree(app: FastifyInstance, opts: { registry: WebhookRegistry }): Promise<void> {
  const { registry } = opts;
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_LIMIT },
    (_req, body, done) => {
      try {
        done(null, parseForm(body as string));
      } catch (err) {
        done(err as Error);
      }
    },
  );

  // JSON (Stripe): the raw text is kept for the signature, which covers the bytes as sent.
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: 1024 * 1024 },
    (req, body, done) => {
      req.rawBody = body as string;
      try {
        done(null, JSON.parse(body as string));
      } catch (err) {
        (err as { statusCode?: number }).statusCode = 400;
        done(err as Error);
      }
    },
  );

  const providerOf = (request: FastifyRequest) => {
    const name = request.routeOptions.config.webhookProvider;
    return name ? registry.providers.get(name) : undefined;
  };
  const fail = (request: FastifyRequest, reply: FastifyReply, status: number, text: string) => {
    const answer = errorAnswer(providerOf(request), text);
    return reply.status(status).type(answer.type).send(answer.body);
  };

  // A NUL byte, which no provider sends and PostgreSQL refuses in text, is a bad request (ADR 021).
  app.addHook('preValidation', async (request, reply) => {
    if (!request.is404 && hasNul(request)) return fail(request, reply, 400, 'Bad Request');
  });

  app.addHook('preHandler', async (request, reply) => {
    if (request.is404 || request.routeOptions.config.webhookWrongMethod) return;
    const provider = providerOf(request);
    request.webhookUrl = fullUrlOf(request);
    // A route without a known provider is a wiring mistake: refuse rather than run unverified.
    if (!provider) return fail(request, reply, 403, 'Forbidden');
    const body = (request.body && typeof request.body === 'object' ? request.body : {}) as FormBody;
    let ok = false;
    try {
      ok = await provider.verify(request, request.webhookUrl, body);
    } catch (err) {
      request.log.warn({ err, provider: provider.name }, 'webhook signature check failed');
    }
    if (!ok) {
      request.log.info({ provider: provider.name }, 'webhook refused: bad or missing signature');
      return fail(request, reply, 403, 'Forbidden');
    }
  });

  app.setErrorHandler((error: { statusCode?: number }, request, reply) => {
    const status = errorStatus(error);
    if (status === 500) request.log.error({ err: error }, 'webhook failed');
    return fail(request, reply, status, status === 500 ? 'Error' : 'Bad Request');
  });
  app.setNotFoundHandler((_request, reply) => reply.status(404).type(PLAIN.type).send('Not Found'));

  const methods = new Map<string, Set<string>>();
  for (const r of registry.routes) {
    if (!registry.providers.has(r.provider))
      throw new Error(`webhooks: ${r.url} names unknown provider ${r.provider}`);
    app.route({
      method: r.method,
      url: r.url,
      config: { webhookProvider: r.provider },
      schema: { hide: true },
      handler: r.handler,
    });
    const known = methods.get(r.url) ?? new Set<string>();
    known.add(r.method);
    methods.set(r.url, known);
  }
  // Providers POST (a few GET): any other method is a 405 naming the allowed ones, never the web app's
  // page (whose catch-all would otherwise answer a GET). Unknown paths are a plain 404 for every method.
  const wrongMethod = (allow: string) => (_request: FastifyRequest, reply: FastifyReply) =>
    reply.status(405).header('allow', allow).type(PLAIN.type).send('Method Not Allowed');
  for (const [url, known] of methods) {
    const others = ALL_METHODS.filter((m) => !known.has(m) && !(m === 'HEAD' && known.has('GET')));
    if (others.length === 0) continue;
    app.route({
      method: others,
      url,
      config: { webhookWrongMethod: true },
      schema: { hide: true },
      handler: wrongMethod([...known].join(', ')),
    });
  }
  app.route({
    method: ALL_METHODS.filter((m) => m !== 'POST'),
    url: '/*',
    config: { webhookWrongMethod: true },
    schema: { hide: true },
    handler: (_request, reply) => reply.status(404).type(PLAIN.type).send('Not Found'),
  });
}

const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Twilio's scheme: X-Twilio-Signature = base64(HMAC-SHA1(authToken, fullUrl + each POST parameter's
 * name and value, sorted by name)).
 */
export function twilioSignature(authToken: string, fullUrl: string, params: FormBody): string {
  let data = fullUrl;
  for (const key of Object.keys(params).sort()) {
    const value = params[key];
    // Each distinct value once, sorted, as the SDK signs (getExpectedTwilioSignature).
    for (const v of Array.isArray(value) ? [...new Set(value)].sort() : [value]) data += key + v;
  }
  return crypto.createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/**
 * The Twilio provider. The auth token is found by a resolver a module registers (by AccountSid, the
 * agency's own Twilio account); an unknown account is refused like a bad signature.
 */
export function twilioProvider(
  resolveAuthToken: (accountSid: string) => Promise<string | null>,
): WebhookProvider {
  const verifyForm = async (headers: IncomingHttpHeaders, fullUrl: string, body: FormBody) => {
    const given = headers['x-twilio-signature'];
    if (typeof given !== 'string' || !given) return false;
    const sid = typeof body.AccountSid === 'string' ? body.AccountSid : undefined;
    if (!sid) return false;
    const token = await resolveAuthToken(sid);
    if (!token) return false;
    // The SDK's own check (ADR 049): the URL with and without its port, as received and as normalized
    // (' or %27), repeated values once each. Behind a chain of proxies Twilio's scheme is the first of
    // X-Forwarded-Proto, Fastify's the last: each one listed is tried, the signature being the proof.
    // The common case first, one HMAC: the URL as received is one of the SDK's own first candidates (with
    // or without its port), so a match here is a match there; anything else gets the SDK's full check.
    if (signedAsReceived(token, given, fullUrl, body)) return true;
    return schemesOf(headers, fullUrl).some((url) => {
      try {
        return twilio.validateRequest(token, given, url, body);
      } catch {
        return false;
      }
    });
  };
  return {
    name: 'twilio',
    errorReply: {
      type: 'text/xml; charset=utf-8',
      body: '<?xml version="1.0" encoding="UTF-8"?><Response/>',
    },
    verify: (request, fullUrl, body) => verifyForm(request.headers, fullUrl, body),
    verifyForm,
  };
}

function signedAsReceived(token: string, given: string, url: string, body: Record<string, unknown>): boolean {
  try {
    const expected = Buffer.from(twilio.getExpectedTwilioSignature(token, url, body));
    const actual = Buffer.from(given);
    return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
  } catch {
    return false;
  }
}

/** The full URL with each scheme the request may have been made with (see twilioProvider). */
function schemesOf(headers: IncomingHttpHeaders, fullUrl: string): string[] {
  const header = headers['x-forwarded-proto'];
  const listed = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((p) => p.trim().toLowerCase())
    .filter((p) => p === 'http' || p === 'https');
  const rest = fullUrl.slice(fullUrl.indexOf('://'));
  return [fullUrl, ...listed.map((p) => `${p}${rest}`).filter((u) => u !== fullUrl)];
}

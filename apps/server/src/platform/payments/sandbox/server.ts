import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { billingRoutes } from './billing.ts';
import { StripeApiError, type StripeErrorBody } from './errors.ts';
import { list, type Params, parseForm } from './form.ts';
import { type Route, resourceRoutes } from './resources.ts';
import { type AccountCtx, API_VERSION, render, type StripeObject } from './store.ts';

// The HTTP face of the sandbox: what the official SDK talks to through its host/port/protocol options.
// Authenticates the key, parses the form body, runs the route in the account's transaction (with the
// Idempotency-Key's stored answer), expands, and answers JSON as Stripe does.

const ROUTES: Route[] = [...resourceRoutes, ...billingRoutes];

export type ApiAnswer = { status: number; body: unknown };

/** What the HTTP server needs of the sandbox. */
export interface SandboxCore {
  /** The account of a secret key (an unknown well-formed sandbox key makes one); null: refused. */
  accountIdForSecret(key: string): Promise<string | null>;
  /** Runs `fn` in the account's transaction, then queues its events' webhooks. */
  run(accountId: string, fn: (ctx: AccountCtx) => Promise<ApiAnswer>): Promise<ApiAnswer>;
}

export const errorAnswer = (status: number, error: StripeErrorBody): ApiAnswer => ({
  status,
  body: { error },
});

/** The key of an Authorization header: `Bearer sk_…` or basic auth with the key as the user. */
export function keyOf(header: string | undefined): string | null {
  if (!header) return null;
  const [scheme, value] = header.split(' ', 2);
  if (!value) return null;
  if (scheme?.toLowerCase() === 'bearer') return value.trim();
  if (scheme?.toLowerCase() === 'basic')
    return Buffer.from(value, 'base64').toString('utf8').split(':')[0] ?? null;
  return null;
}

const invalidKey = (key: string | null): ApiAnswer =>
  errorAnswer(401, {
    type: 'invalid_request_error',
    message: key
      ? `Invalid API Key provided: ${key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}` : key}`
      : "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
  });

/** Replaces ids by their objects along each `expand` path (`latest_invoice`, `data.default_payment_method`…). */
export async function expand(ctx: AccountCtx, value: unknown, paths: string[]): Promise<unknown> {
  let out = value;
  for (const path of paths) out = await expandPath(ctx, out, path.split('.'));
  return out;
}

async function expandPath(ctx: AccountCtx, target: unknown, segs: string[]): Promise<unknown> {
  if (segs.length === 0) return target;
  if (Array.isArray(target)) return Promise.all(target.map((t) => expandPath(ctx, t, segs)));
  if (typeof target !== 'object' || target === null) return target;
  const [head, ...rest] = segs as [string, ...string[]];
  const o = { ...(target as Record<string, unknown>) };
  const load = async (v: unknown) => (typeof v === 'string' ? ((await ctx.get(v)) ?? v) : v);
  let v = o[head];
  v = Array.isArray(v) ? await Promise.all(v.map(load)) : await load(v);
  o[head] = await expandPath(ctx, v, rest);
  return o;
}

/** Answers one API request (method, path, query, body, headers) for the HTTP server and tests. */
export async function handle(
  core: SandboxCore,
  method: string,
  url: string,
  headers: Record<string, string | string[] | undefined>,
  body: string,
): Promise<ApiAnswer> {
  const key = keyOf(typeof headers.authorization === 'string' ? headers.authorization : undefined);
  if (!key) return invalidKey(null);
  if (key.startsWith('pk_'))
    return errorAnswer(401, {
      type: 'invalid_request_error',
      message: 'This API call cannot be made with a publishable API key. Please use a secret API key.',
    });
  const accountId = await core.accountIdForSecret(key);
  if (!accountId) return invalidKey(key);

  const u = new URL(url, 'http://sandbox');
  const query = parseForm(u.search.slice(1));
  const params: Params = { ...query, ...parseForm(body) };
  const path = u.pathname.replace(/\/+$/, '');
  let match: { route: Route; args: string[] } | null = null;
  for (const r of ROUTES) {
    if (r.method !== method) continue;
    const m = r.path.exec(path);
    if (m) {
      match = { route: r, args: m.slice(1) };
      break;
    }
  }
  if (!match)
    return errorAnswer(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
    });
  const { route, args } = match;
  const idemHeader = headers['idempotency-key'];
  const idemKey = method === 'POST' && typeof idemHeader === 'string' && idemHeader ? idemHeader : null;
  const expandPaths = list(params.expand).map(String);
  delete params.expand;

  return core.run(accountId, async (ctx) => {
    ctx.idempotencyKey = idemKey;
    const idemId = idemKey
      ? `idem_${accountId}_${crypto.createHash('sha256').update(idemKey).digest('hex').slice(0, 32)}`
      : null;
    if (idemId) {
      const stored = await ctx.get(idemId);
      if (stored) {
        if (stored.path !== path || stored.body_hash !== hash(body))
          return errorAnswer(400, {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idemKey}' if you meant to execute a different request.`,
          });
        return { status: Number(stored.status), body: stored.answer };
      }
    }
    let answer: ApiAnswer;
    try {
      const result = await route.handler(ctx, params, args);
      answer = { status: 200, body: render(await expand(ctx, result, expandPaths)) };
    } catch (err) {
      if (!(err instanceof StripeApiError) || !err.keep) throw err;
      answer = errorAnswer(err.status, render(err.body));
    }
    if (idemId)
      await ctx.put(
        {
          id: idemId,
          object: 'idempotency',
          path,
          body_hash: hash(body),
          status: answer.status,
          answer: answer.body,
        } as StripeObject,
        'idempotency',
      );
    return answer;
  });
}

const hash = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

/** The node http listener on 127.0.0.1 (port 0: any free port). */
export function startServer(core: SandboxCore, onError: (err: unknown) => void): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      handle(core, req.method ?? 'GET', req.url ?? '/', req.headers, body)
        .catch((err: unknown): ApiAnswer => {
          if (err instanceof StripeApiError) return errorAnswer(err.status, render(err.body));
          onError(err);
          return errorAnswer(500, {
            type: 'api_error',
            message: 'An unknown error occurred in the Stripe sandbox.',
          });
        })
        .then((answer) => {
          const json = JSON.stringify(answer.body, null, 2);
          res.writeHead(answer.status, {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(json),
            'request-id': `req_${crypto.randomBytes(7).toString('hex')}`,
            'stripe-version': API_VERSION,
          });
          res.end(json);
        });
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

export const portOf = (server: http.Server) => (server.address() as AddressInfo).port;

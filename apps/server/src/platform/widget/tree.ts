// The /api/widget tree: the website widget calls it from other people's pages. Each request carries an
// install key (X-Install-Key header or `key` query), resolved by a resolver a module registers into the
// install's business tenant and a visitor actor. Only a valid key gets a CORS grant, for the requesting
// origin alone and never with credentials; requests are rate limited per address and per install
// (ADR 015).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import { AppError } from '../http/errors.ts';
import { checkApiInput } from '../http/input-hygiene.ts';
import { type Ctx, tenantContext } from '../tenancy/context.ts';

export type WidgetInstall = {
  id: number;
  name: string;
  agencyId: number;
  businessId: number;
  settings: Record<string, unknown>;
  updatedAt: Date;
};

/** Finds an active install by its key, or null. */
export type InstallResolver = (deps: Deps, key: string) => Promise<WidgetInstall | null>;

export type WidgetRoutes = (tree: FastifyInstance, deps: Deps) => Promise<void> | void;

declare module 'fastify' {
  interface FastifyRequest {
    /** The install and its visitor context, on /api/widget routes. */
    widget?: { install: WidgetInstall; ctx: Ctx };
  }
}

/** A token bucket per key: `perMinute` requests a minute, refilled continuously. In-process. */
export class RateLimiter {
  private buckets = new Map<string, { tokens: number; at: number }>();
  constructor(private perMinute: number) {}
  take(key: string, now = Date.now()): boolean {
    const b = this.buckets.get(key) ?? { tokens: this.perMinute, at: now };
    b.tokens = Math.min(this.perMinute, b.tokens + ((now - b.at) / 60_000) * this.perMinute);
    b.at = now;
    if (this.buckets.size > 50_000) this.sweep(now);
    if (b.tokens < 1) {
      this.buckets.set(key, b);
      return false;
    }
    b.tokens -= 1;
    this.buckets.set(key, b);
    return true;
  }
  /** Forgets full buckets, so that the map does not grow with every address ever seen. */
  private sweep(now: number) {
    for (const [k, b] of this.buckets)
      if (b.tokens + ((now - b.at) / 60_000) * this.perMinute >= this.perMinute) this.buckets.delete(k);
  }
}

/** The largest body a widget request may have, in bytes. */
export const WIDGET_BODY_LIMIT = 16 * 1024;

const ALLOWED_HEADERS = 'content-type, x-install-key, accept-language';

function keyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['x-install-key'];
  if (typeof header === 'string' && header) return header;
  const query = (request.query as { key?: unknown } | undefined)?.key;
  // A key with a NUL byte matches no install (and would make the database refuse the lookup).
  return typeof query === 'string' && query && !query.includes('\u0000') ? query : undefined;
}

function grant(request: FastifyRequest, reply: FastifyReply) {
  const origin = request.headers.origin;
  if (!origin) return;
  reply.header('access-control-allow-origin', origin);
  reply.header('vary', 'Origin');
}

export async function widgetTree(
  app: FastifyInstance,
  opts: { deps: Deps; resolve: InstallResolver; routes: WidgetRoutes[] },
): Promise<void> {
  const { deps } = opts;
  const perAddress = new RateLimiter(deps.config.widgetRatePerAddress);
  const perInstall = new RateLimiter(deps.config.widgetRatePerInstall);

  app.addHook('onRequest', async (request, reply) => {
    // A preflight cannot carry the header key, so it is answered for the header alone: it reveals
    // nothing, and the request that follows gets no grant unless its key is valid.
    if (request.method === 'OPTIONS') {
      grant(request, reply);
      reply.header('access-control-allow-methods', 'GET, POST');
      reply.header('access-control-allow-headers', ALLOWED_HEADERS);
      reply.header('access-control-max-age', '600');
      return reply.status(204).send();
    }
    if (!perAddress.take(request.ip)) {
      // The refusal is readable by the page, so the widget can say "too many requests" instead of failing
      // blind: it tells nothing about any install (the key is not even looked at).
      grant(request, reply);
      throw new AppError('TOO_MANY', undefined, undefined, {}, 'widget.rate_address');
    }
    const key = keyOf(request);
    const install = key && key.length <= 200 ? await opts.resolve(deps, key) : null;
    if (!install) throw new AppError('UNAUTHENTICATED', 'widget.invalid_key');
    if (!perInstall.take(`install:${install.id}`)) {
      grant(request, reply);
      throw new AppError('TOO_MANY', undefined, undefined, {}, 'widget.rate_install');
    }
    grant(request, reply);
    request.widget = {
      install,
      ctx: visitorContext(deps, install, { ip: request.ip, requestId: request.id }),
    };
  });

  // NUL bytes and ids beyond int4 are refused as on the API (ADR 021).
  app.addHook('preValidation', async (request) => checkApiInput(request));

  // A widget request is a form of a few short fields (a text is at most 1,600 characters): bodies larger
  // than this are refused (413) before they are parsed, whoever sends them.
  // Every route answers the visitor through a response schema (ADR 055): the serializer sends what the
  // contract names and nothing else, so an internal field added to a service's answer never reaches a page.
  app.addHook('onRoute', (route) => {
    route.bodyLimit ??= WIDGET_BODY_LIMIT;
    const response = route.schema?.response as Record<string, unknown> | undefined;
    if (route.method !== 'OPTIONS' && route.method !== 'HEAD' && !response?.[200])
      throw new Error(`${route.method} ${route.url}: a widget route declares its 200 response schema`);
  });

  // The browser's CORS preflight (OPTIONS with Origin, Access-Control-Request-*) comes before every call
  // from a business's site: X-Install-Key and a JSON body are not "simple". The onRequest hook above
  // answers it, but Fastify runs a tree's hooks only for a route it has: without this one the preflight
  // met the root's 404 and the browser blocked every call (issue 17).
  app.options('/*', { schema: { hide: true } }, (_request, reply) => reply.status(204).send());

  for (const routes of opts.routes) await routes(app, deps);
}

/**
 * The context of a visitor of an install: the install's business is the tenant; the visitor acts. Built by
 * the tree for each request, and by tests that sign a visitor's token.
 */
export function visitorContext(
  deps: Deps,
  install: Pick<WidgetInstall, 'id' | 'agencyId' | 'businessId'>,
  client?: { ip: string; requestId?: string },
): Ctx {
  const ctx = tenantContext(
    deps,
    { level: 'business', agencyId: install.agencyId, businessId: install.businessId },
    { kind: 'visitor', installId: install.id, ...(client ? { ip: client.ip } : {}) },
  );
  return client ? { ...ctx, client: { ip: client.ip, requestId: client.requestId ?? null } } : ctx;
}

/** The install of the visitor a context acts for (a widget context only). */
export function visitorInstall(ctx: Ctx): number {
  if (ctx.by.kind !== 'visitor') throw new AppError('UNAUTHENTICATED', 'widget.invalid_key');
  return ctx.by.installId;
}

/** The install and visitor context of a widget request (only on /api/widget routes). */
export function widgetOf(request: FastifyRequest): { install: WidgetInstall; ctx: Ctx } {
  if (!request.widget) throw new AppError('UNAUTHENTICATED', 'widget.invalid_key');
  return request.widget;
}

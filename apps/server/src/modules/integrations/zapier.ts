// Zapier (issue 25, ADR 089): the platform as a published Zapier app uses it. Zapier's app is an OAuth 2
// client of ours (authorization code): a business admin's consent on /auth/login gives a one-use code,
// the token endpoint turns it into an access token and a refresh token (our own table, not a user session:
// they reach `/v1/zapier/*` only). An API key (header X-Api-Key) is the alternative. Both act as the
// business. Everything is gated by the agency's Zapier switch and the business's plan.
import crypto from 'node:crypto';
import type { TApiKey, TOAuthLoginRequest, TZapierConnection, TZapierEvent } from '@stn/contracts/zapier';
import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import { hashToken, newToken } from '../../platform/auth/tokens.ts';
import { sharedCache } from '../../platform/cache.ts';
import type { Config } from '../../platform/config.ts';
import { prepared, slot } from '../../platform/db/prepared.ts';
import type { Deps } from '../../platform/deps.ts';
import { AppError, forbidden, invalid, notFound } from '../../platform/http/errors.ts';
import { isPublicAddress } from '../../platform/outbound/guard.ts';
import type { Secrets } from '../../platform/secrets.ts';
import { businessOf, type Ctx, found, inTransaction, tenantContext } from '../../platform/tenancy/context.ts';
import { agencyOfUser } from '../agencies/service.ts';
import { planOfAgency } from '../billing/service.ts';
import { businessAiAccess, businessNames, businessOfUser } from '../businesses/service.ts';
import { getUser, ownerSummaries } from '../users/service.ts';
import { zapierApiKeys, zapierCodes, zapierHooks, zapierTokens } from './tables.ts';

export const ZAPIER_APP_NAME = 'Zapier';
/** An authorization code lives ten minutes and is used once. */
export const CODE_TTL_MS = 10 * 60_000;
/** An access token lives an hour; Zapier refreshes it with the refresh token (which lives until revoked). */
export const ACCESS_TTL_S = 3600;

/**
 * Zapier's client secret: ZAPIER_CLIENT_SECRET, else derived from the secrets key (a laptop's default; the
 * operator reads it with `npm run cli -- zapier:client`).
 */
export function zapierSecretOf(config: Config, secrets: Pick<Secrets, 'derive'>): string {
  return config.zapier.clientSecret ?? secrets.derive('zapier-client-secret').toString('base64url');
}

export function zapierClientSecret(ctx: Ctx): string {
  return zapierSecretOf(ctx.deps.config, ctx.deps.secrets);
}

const sameText = (a: string, b: string) => {
  const x = crypto.createHash('sha256').update(a).digest();
  const y = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(x, y);
};

/** The business context Zapier's calls act in: a system actor named after the connection (ADR 089). */
function zapierContext(deps: Deps, who: { agencyId: number; businessId: number }): Ctx {
  return tenantContext(
    deps,
    { level: 'business', agencyId: who.agencyId, businessId: who.businessId },
    { kind: 'system', source: 'automation', name: 'zapier' },
  );
}

// ---------------------------------------------------------------- gating

/**
 * The context's business may use Zapier: its agency has Zapier switched on, and either gives it free or
 * the business's plan (when it has one) has the Zapier key. A 403 with the reason otherwise.
 */
export async function assertZapierAllowed(ctx: Ctx): Promise<{ agencyId: number; businessId: number }> {
  const b = await businessAiAccess(ctx);
  const agency = await agencyOfUser(ctx, { agencyId: b.agencyId });
  if (!agency?.agency.zapier_enabled) throw forbidden('zapier.disabled');
  if (!agency.agency.zapier_free && b.planId !== null) {
    const plan = await planOfAgency(ctx, { agencyId: b.agencyId, planId: b.planId });
    if (!plan?.features.Zapier) throw forbidden('zapier.not_in_plan');
  }
  return { agencyId: b.agencyId, businessId: b.businessId };
}

// ---------------------------------------------------------------- OAuth

function checkClient(ctx: Ctx, input: { client_id: string; redirect_uri: string }): void {
  const z = ctx.deps.config.zapier;
  if (!sameText(input.client_id, z.clientId)) throw invalid('client_id', 'zapier.client_unknown');
  if (!z.redirectUris.includes(input.redirect_uri)) throw invalid('redirect_uri', 'zapier.redirect_unknown');
}

function businessAdminOnly(actor: Actor): void {
  if (actor.role !== 'BusinessAdmin' || actor.businessId === null) throw forbidden('zapier.admin_only');
}

/** The consent step's text: the app's and the business's names, once every check passed. */
export async function oauthPreview(
  ctx: Ctx,
  actor: Actor,
  input: { client_id: string; redirect_uri: string },
) {
  checkClient(ctx, input);
  businessAdminOnly(actor);
  await assertZapierAllowed(ctx);
  const b = await businessOfUser(ctx, { businessId: actor.businessId });
  return { app: ZAPIER_APP_NAME, business: b?.business.name ?? '' };
}

/** The consent: a one-use code (10 minutes) and the redirect address that hands it to Zapier. */
export async function oauthLogin(ctx: Ctx, actor: Actor, input: TOAuthLoginRequest) {
  checkClient(ctx, input);
  businessAdminOnly(actor);
  const { agencyId, businessId } = await assertZapierAllowed(ctx);
  const code = newToken();
  await ctx.db.insert(zapierCodes).values({
    code_hash: hashToken(code),
    agency_id: agencyId,
    business_id: businessId,
    user_id: actor.userId,
    client_id: input.client_id,
    redirect_uri: input.redirect_uri,
    expires_at: new Date(Date.now() + CODE_TTL_MS),
  });
  const url = new URL(input.redirect_uri);
  url.searchParams.set('code', code);
  if (input.state !== undefined) url.searchParams.set('state', input.state);
  return { redirect: url.toString() };
}

/** An OAuth error answer of the token endpoint (RFC 6749 §5.2). */
export class OAuthError extends Error {
  constructor(
    readonly error: 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type',
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

export type TokenRequest = {
  grant_type?: string;
  code?: string;
  refresh_token?: string;
  redirect_uri?: string;
  client_id?: string;
  client_secret?: string;
};

async function issueTokens(ctx: Ctx, tokenId: number | null, row: typeof zapierCodes.$inferSelect | null) {
  const access = newToken();
  const refresh = newToken();
  const expiresAt = new Date(Date.now() + ACCESS_TTL_S * 1000);
  if (row) {
    await ctx.db.insert(zapierTokens).values({
      agency_id: row.agency_id,
      business_id: row.business_id,
      user_id: row.user_id,
      client_id: row.client_id,
      access_hash: hashToken(access),
      access_expires_at: expiresAt,
      refresh_hash: hashToken(refresh),
    });
  } else if (tokenId !== null) {
    await ctx.db
      .update(zapierTokens)
      .set({ access_hash: hashToken(access), refresh_hash: hashToken(refresh), access_expires_at: expiresAt })
      .where(eq(zapierTokens.id, tokenId));
  }
  return { access_token: access, token_type: 'Bearer', expires_in: ACCESS_TTL_S, refresh_token: refresh };
}

/** The token endpoint: a code or a refresh token for new tokens, the client authenticated. */
export async function oauthToken(ctx: Ctx, input: TokenRequest) {
  const z = ctx.deps.config.zapier;
  if (
    !input.client_id ||
    !input.client_secret ||
    !sameText(input.client_id, z.clientId) ||
    !sameText(input.client_secret, zapierClientSecret(ctx))
  )
    throw new OAuthError('invalid_client', 'The client id or secret is wrong.', 401);
  if (input.grant_type === 'authorization_code') {
    if (!input.code) throw new OAuthError('invalid_request', 'The code is missing.');
    const code = input.code;
    return inTransaction(ctx, async (tx) => {
      // Used once: the first exchange marks it, a second finds nothing.
      const [row] = await tx.db
        .update(zapierCodes)
        .set({ used_at: new Date() })
        .where(
          and(
            eq(zapierCodes.code_hash, hashToken(code)),
            isNull(zapierCodes.used_at),
            gt(zapierCodes.expires_at, new Date()),
          ),
        )
        .returning();
      if (!row) throw new OAuthError('invalid_grant', 'The code is unknown, used or expired.');
      if (input.redirect_uri !== undefined && input.redirect_uri !== row.redirect_uri)
        throw new OAuthError('invalid_grant', 'The redirect_uri is not the one the code was given for.');
      return issueTokens(tx, null, row);
    });
  }
  if (input.grant_type === 'refresh_token') {
    if (!input.refresh_token) throw new OAuthError('invalid_request', 'The refresh_token is missing.');
    const [row] = await ctx.db
      .select({ id: zapierTokens.id })
      .from(zapierTokens)
      .where(
        and(eq(zapierTokens.refresh_hash, hashToken(input.refresh_token)), isNull(zapierTokens.revoked_at)),
      );
    if (!row) throw new OAuthError('invalid_grant', 'The refresh token is unknown or revoked.');
    return issueTokens(ctx, row.id, null);
  }
  throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
}

// ---------------------------------------------------------------- Zapier's calls

export type ZapierCaller = {
  agencyId: number;
  businessId: number;
  auth: 'oauth' | 'api_key';
  tokenId: number | null;
  apiKeyId: number | null;
  userId: number;
};

/**
 * Who calls `/v1/zapier/*`: a live access token (Bearer) or API key (X-Api-Key), whose user is still
 * active and whose agency and business let it in; then the Zapier gate. 401 when none, 403 when gated.
 */
export async function zapierCaller(
  outer: Ctx,
  creds: { bearer?: string | undefined; apiKey?: string | undefined },
): Promise<{ caller: ZapierCaller; ctx: Ctx }> {
  const deps = outer.deps;
  let caller: ZapierCaller | null = null;
  const now = new Date();
  if (creds.bearer && creds.bearer.length <= 200) {
    const [row] = await deps.db
      .select()
      .from(zapierTokens)
      .where(
        and(
          eq(zapierTokens.access_hash, hashToken(creds.bearer)),
          isNull(zapierTokens.revoked_at),
          gt(zapierTokens.access_expires_at, now),
        ),
      );
    if (row) {
      caller = {
        agencyId: row.agency_id,
        businessId: row.business_id,
        auth: 'oauth',
        tokenId: row.id,
        apiKeyId: null,
        userId: row.user_id,
      };
      await deps.db.update(zapierTokens).set({ last_used_at: now }).where(eq(zapierTokens.id, row.id));
    }
  }
  if (!caller && creds.apiKey && creds.apiKey.length <= 200) {
    const [row] = await deps.db
      .select()
      .from(zapierApiKeys)
      .where(and(eq(zapierApiKeys.key_hash, hashToken(creds.apiKey)), isNull(zapierApiKeys.revoked_at)));
    if (row) {
      caller = {
        agencyId: row.agency_id,
        businessId: row.business_id,
        auth: 'api_key',
        tokenId: null,
        apiKeyId: row.id,
        userId: row.user_id,
      };
      await deps.db.update(zapierApiKeys).set({ last_used_at: now }).where(eq(zapierApiKeys.id, row.id));
    }
  }
  if (!caller) throw new AppError('UNAUTHENTICATED', 'zapier.unauthenticated');
  const ctx = zapierContext(deps, caller);
  const user = await getUser(ctx, caller.userId);
  const letsIn = await deps.ports.accounts.letsIn(ctx, {
    agencyId: caller.agencyId,
    businessId: caller.businessId,
  });
  if (!user?.active || !letsIn) throw new AppError('UNAUTHENTICATED', 'zapier.unauthenticated');
  await assertZapierAllowed(ctx);
  return { caller, ctx };
}

/** Zapier's connection test and label. */
export async function zapierMe(ctx: Ctx, caller: ZapierCaller) {
  const b = await businessOfUser(ctx, { businessId: caller.businessId });
  const name = b?.business.name ?? '';
  return { business_id: caller.businessId, business: name, label: name, auth: caller.auth };
}

// ---------------------------------------------------------------- API keys and connections

const keyOut = (r: typeof zapierApiKeys.$inferSelect): TApiKey => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  created_at: r.created_at.toISOString(),
  last_used_at: r.last_used_at?.toISOString() ?? null,
});

export async function listApiKeys(ctx: Ctx): Promise<TApiKey[]> {
  const { businessId } = businessOf(ctx);
  const rows = await ctx.db
    .select()
    .from(zapierApiKeys)
    .where(and(eq(zapierApiKeys.business_id, businessId), isNull(zapierApiKeys.revoked_at)))
    .orderBy(desc(zapierApiKeys.id));
  return rows.map(keyOut);
}

/** A new key: 'stn_' and 256 random bits, shown this once, stored hashed. */
export async function createApiKey(ctx: Ctx, actor: Actor, input: { name: string }) {
  const { agencyId, businessId } = await assertZapierAllowed(ctx);
  const key = `stn_${newToken()}`;
  const [row] = await ctx.db
    .insert(zapierApiKeys)
    .values({
      agency_id: agencyId,
      business_id: businessId,
      user_id: actor.userId,
      name: input.name,
      key_hash: hashToken(key),
      prefix: key.slice(0, 10),
    })
    .returning();
  return { ...keyOut(found(row)), key };
}

/** Revokes a key of the business; the hooks it subscribed go with it. */
export async function revokeApiKey(ctx: Ctx, input: { id: number }): Promise<void> {
  const { businessId } = businessOf(ctx);
  await inTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .update(zapierApiKeys)
      .set({ revoked_at: new Date() })
      .where(
        and(
          eq(zapierApiKeys.id, input.id),
          eq(zapierApiKeys.business_id, businessId),
          isNull(zapierApiKeys.revoked_at),
        ),
      )
      .returning({ id: zapierApiKeys.id });
    if (!row) throw notFound();
    await tx.db.delete(zapierHooks).where(eq(zapierHooks.api_key_id, row.id));
  });
}

export async function listConnections(ctx: Ctx): Promise<TZapierConnection[]> {
  const { businessId } = businessOf(ctx);
  const rows = await ctx.db
    .select({
      id: zapierTokens.id,
      user_id: zapierTokens.user_id,
      created_at: zapierTokens.created_at,
      last_used_at: zapierTokens.last_used_at,
      hooks: sql<number>`(select count(*)::int from zapier_hooks h where h.token_id = zapier_tokens.id)`,
    })
    .from(zapierTokens)
    .where(and(eq(zapierTokens.business_id, businessId), isNull(zapierTokens.revoked_at)))
    .orderBy(desc(zapierTokens.id));
  const owners = await ownerSummaries(ctx, { ids: [...new Set(rows.map((r) => r.user_id))] });
  return rows.map((r) => {
    const o = owners.get(r.user_id);
    return {
      id: r.id,
      user: o ? `${o.first_name} ${o.last_name}`.trim() || o.email : '',
      created_at: r.created_at.toISOString(),
      last_used_at: r.last_used_at?.toISOString() ?? null,
      hooks: Number(r.hooks),
    };
  });
}

/** Revokes a connection: its tokens stop working and its hooks go. */
export async function revokeConnection(ctx: Ctx, input: { id: number }): Promise<void> {
  const { businessId } = businessOf(ctx);
  await inTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .update(zapierTokens)
      .set({ revoked_at: new Date() })
      .where(
        and(
          eq(zapierTokens.id, input.id),
          eq(zapierTokens.business_id, businessId),
          isNull(zapierTokens.revoked_at),
        ),
      )
      .returning({ id: zapierTokens.id });
    if (!row) throw notFound();
    await tx.db.delete(zapierHooks).where(eq(zapierHooks.token_id, row.id));
  });
}

/** The agency's zapier screen: how to connect, and its businesses that have. */
export async function agencyZapier(ctx: Ctx, input: { agencyId: number }) {
  const agency = await agencyOfUser(ctx, { agencyId: input.agencyId });
  if (!agency) throw notFound();
  const base = ctx.deps.config.publicUrl.origin;
  const per = new Map<number, { connections: number; api_keys: number; hooks: number }>();
  const add = (id: number, k: 'connections' | 'api_keys' | 'hooks', n: number) => {
    const v = per.get(id) ?? { connections: 0, api_keys: 0, hooks: 0 };
    v[k] += n;
    per.set(id, v);
  };
  for (const r of await ctx.db
    .select({ id: zapierTokens.business_id, n: count() })
    .from(zapierTokens)
    .where(and(eq(zapierTokens.agency_id, input.agencyId), isNull(zapierTokens.revoked_at)))
    .groupBy(zapierTokens.business_id))
    add(r.id, 'connections', Number(r.n));
  for (const r of await ctx.db
    .select({ id: zapierApiKeys.business_id, n: count() })
    .from(zapierApiKeys)
    .where(and(eq(zapierApiKeys.agency_id, input.agencyId), isNull(zapierApiKeys.revoked_at)))
    .groupBy(zapierApiKeys.business_id))
    add(r.id, 'api_keys', Number(r.n));
  for (const r of await ctx.db
    .select({ id: zapierHooks.business_id, n: count() })
    .from(zapierHooks)
    .where(eq(zapierHooks.agency_id, input.agencyId))
    .groupBy(zapierHooks.business_id))
    if (per.has(r.id)) add(r.id, 'hooks', Number(r.n));
  const names = await businessNames(ctx, { ids: [...per.keys()] });
  return {
    client_id: ctx.deps.config.zapier.clientId,
    invite_url: ctx.deps.config.zapier.inviteUrl ?? null,
    authorize_url: `${base}/auth/login`,
    token_url: `${base}/oauth/token`,
    enabled: agency.agency.zapier_enabled,
    free: agency.agency.zapier_free,
    businesses: [...per.entries()]
      .map(([id, v]) => ({ id, name: names.get(id) ?? '', ...v }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

// ---------------------------------------------------------------- REST hooks

/**
 * The target must be an http(s) address without credentials; an address literal must be public unless it
 * is an origin the operator allowed (a test's receiver). Names are checked by the guard at each delivery.
 */
function checkTarget(ctx: Ctx, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('target_url', 'validation.url');
  }
  if (!/^https?:$/.test(url.protocol) || url.username || url.password)
    throw invalid('target_url', 'validation.url');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const allowed = ctx.deps.config.zapier.hookAllowOrigins.includes(url.origin);
  const literal = /^[0-9.]+$/.test(host) || host.includes(':');
  if (
    !allowed &&
    (host === 'localhost' || host.endsWith('.localhost') || (literal && !isPublicAddress(host)))
  )
    throw invalid('target_url', 'zapier.target_refused');
  return url.toString();
}

export async function subscribeHook(
  ctx: Ctx,
  caller: ZapierCaller,
  input: { event: TZapierEvent; target_url: string },
) {
  const target = checkTarget(ctx, input.target_url);
  const [row] = await ctx.db
    .insert(zapierHooks)
    .values({
      agency_id: caller.agencyId,
      business_id: caller.businessId,
      event: input.event,
      target_url: target,
      token_id: caller.tokenId,
      api_key_id: caller.apiKeyId,
    })
    .returning();
  hookEventsCache(ctx.deps).forget(caller.businessId);
  const r = found(row);
  return { id: r.id, event: r.event as TZapierEvent, target_url: r.target_url };
}

export async function unsubscribeHook(ctx: Ctx, caller: ZapierCaller, input: { id: number }) {
  const rows = await ctx.db
    .delete(zapierHooks)
    .where(and(eq(zapierHooks.id, input.id), eq(zapierHooks.business_id, caller.businessId)))
    .returning({ id: zapierHooks.id });
  if (rows.length === 0) throw notFound();
}

/** The business's hooks of an event. */
export async function hooksOf(ctx: Ctx, event: TZapierEvent) {
  const { businessId } = businessOf(ctx);
  return ctx.db
    .select({ id: zapierHooks.id, target_url: zapierHooks.target_url })
    .from(zapierHooks)
    .where(and(eq(zapierHooks.business_id, businessId), eq(zapierHooks.event, event)));
}

const hookEventsQuery = prepared((db) =>
  db
    .selectDistinct({ event: zapierHooks.event })
    .from(zapierHooks)
    .where(eq(zapierHooks.business_id, slot('business'))),
);

/**
 * Which events each business has hooks for, kept a few seconds (platform/cache.ts): every callback and
 * batch of texts asks. A new hook is announced at once (subscribeHook); a hook gone costs at most one
 * event's job that finds no hook to deliver to (zapierEventJob reads the hooks themselves).
 */
const HOOK_EVENTS_TTL_MS = 5_000;
const hookEventsCache = (deps: Deps) =>
  sharedCache<Set<string>>(deps, 'zapier-hook-events', HOOK_EVENTS_TTL_MS);

/** The events the context's business has hooks for (the listeners' one read for a batch of events). */
export async function hookEventsOf(ctx: Ctx): Promise<Set<string>> {
  const { businessId } = businessOf(ctx);
  return hookEventsCache(ctx.deps).get(businessId, async () => {
    const rows = await hookEventsQuery(ctx.db, { business: businessId });
    return new Set(rows.map((r) => r.event));
  });
}

export async function hookTarget(ctx: Ctx, id: number): Promise<string | null> {
  const { businessId } = businessOf(ctx);
  const [row] = await ctx.db
    .select({ target_url: zapierHooks.target_url })
    .from(zapierHooks)
    .where(and(eq(zapierHooks.id, id), eq(zapierHooks.business_id, businessId)));
  return row?.target_url ?? null;
}

export async function dropHook(ctx: Ctx, id: number): Promise<void> {
  await ctx.db.delete(zapierHooks).where(eq(zapierHooks.id, id));
}

/** How many hooks a business has (tests and the screens). */
export async function hookCount(ctx: Ctx): Promise<number> {
  const { businessId } = businessOf(ctx);
  const [row] = await ctx.db
    .select({ n: count() })
    .from(zapierHooks)
    .where(eq(zapierHooks.business_id, businessId));
  return Number(row?.n ?? 0);
}

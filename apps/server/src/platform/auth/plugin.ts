import type { TCapability } from '@stn/contracts/capabilities';
import type { TLanguage } from '@stn/contracts/constants';
import { isLanguage, languageFromHeader } from '@stn/contracts/i18n';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client.ts';
import { forbidden, unauthenticated } from '../http/errors.ts';
import { type Actor, actorCan } from './actor.ts';
import { authTokens } from './tables.ts';
import { hashToken } from './tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
    lang: TLanguage;
  }
  interface FastifyContextConfig {
    /** 'public': no sign-in. Without it a route needs a signed-in user. */
    access?: 'public';
    /** The capability of the rules table the caller needs (packages/contracts/src/capabilities.ts). */
    capability?: TCapability;
  }
}

// last_used_at is written at most this often per token, not on every request.
const TOUCH_EVERY_MS = 5 * 60_000;

/** The user a session belongs to, as the session check needs it. */
export type SessionUser = {
  id: number;
  role_group: Actor['roleGroup'];
  role: Actor['role'];
  user_type: Actor['userType'];
  agency_id: number | null;
  business_id: number | null;
  active: boolean;
  settings: { language?: string; custom_type_pages?: Actor['pages'] };
};

/**
 * A live session and who holds it, from the modules that own users, agencies and businesses (registered at
 * app build, as the platform imports no module), in one statement: the token by its hash (not revoked, not
 * expired) and whether the session it was started from is live; the user; whether its agency and business
 * (where it has them) are active; and whether the impersonator (if any) is still enabled. Undefined for an
 * unknown token or user.
 */
export type SessionHolder = (
  db: Db,
  input: { tokenHash: string; now: Date },
) => Promise<
  | {
      token: typeof authTokens.$inferSelect;
      parentLive: boolean;
      user: SessionUser;
      accountOk: boolean;
      impersonatorActive: boolean;
    }
  | undefined
>;

export async function resolveActor(
  db: Db,
  holder: SessionHolder,
  token: string,
): Promise<{ actor: Actor; language?: string } | null> {
  const now = new Date();
  const row = await holder(db, { tokenHash: hashToken(token), now });
  if (!row?.user.active || !row.accountOk) return null;
  // An impersonation lives only as long as the session it was started from.
  if (row.token.kind === 'impersonation' && !(row.parentLive && row.impersonatorActive)) return null;
  if (!row.token.last_used_at || now.getTime() - row.token.last_used_at.getTime() > TOUCH_EVERY_MS) {
    await db.update(authTokens).set({ last_used_at: now }).where(eq(authTokens.id, row.token.id));
  }
  return {
    actor: {
      userId: row.user.id,
      roleGroup: row.user.role_group,
      role: row.user.role,
      userType: row.user.user_type,
      agencyId: row.user.agency_id,
      businessId: row.user.business_id,
      tokenId: row.token.id,
      tokenKind: row.token.kind,
      impersonatorId: row.token.impersonator_id,
      expiresAt: row.token.expires_at,
      pages: row.user.role === 'BusinessUser' ? (row.user.settings.custom_type_pages ?? []) : [],
    },
    language: row.user.settings.language,
  };
}

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, value] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && value ? value.trim() : undefined;
}

/**
 * What every tree's requests carry (registered at the app's root): the caller's language from
 * Accept-Language, and no actor until a tree's own hook finds one (the /api tree's `bearerHooks`, the
 * socket tree's token).
 */
export const requestBasics = fp(async (app: FastifyInstance) => {
  app.decorateRequest('actor', null);
  app.decorateRequest('lang', 'en');
  app.addHook('onRequest', async (request) => {
    request.lang = languageFromHeader(request.headers['accept-language']);
  });
});

/**
 * The /api tree's own hooks (ADR 055), as the widget, webhook and socket trees own theirs: the bearer token
 * resolved into the Actor once per request, then each route's declared capability enforced. Registered
 * inside the /api tree only, so a widget call or a carrier's webhook never looks a token up.
 */
export function bearerHooks(api: FastifyInstance, opts: { db: Db; holder: SessionHolder }): void {
  api.addHook('onRequest', async (request) => {
    const token = bearer(request);
    if (!token || token.length > 200) return;
    const resolved = await resolveActor(opts.db, opts.holder, token);
    if (!resolved) return;
    request.actor = resolved.actor;
    // The language chosen in the profile wins over the browser's.
    if (isLanguage(resolved.language)) request.lang = resolved.language;
  });

  api.addHook('preValidation', async (request) => {
    // Only the API's own routes (/api/v1/...) are guarded.
    if (request.is404 || !request.routeOptions.url?.startsWith('/api/v')) return;
    const { access, capability } = request.routeOptions.config;
    if (access === 'public') return;
    if (!request.actor) throw unauthenticated();
    if (capability && !actorCan(request.actor, capability)) throw forbidden();
  });
}

/** The signed-in caller; only for routes whose access is not 'public'. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthenticated();
  return request.actor;
}

// Sessions (bearer tokens) live here, below every module: sign-in and impersonation (modules/auth) issue
// them, user management (modules/users) ends them, and neither has to import the other.
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { anyOf } from '../db/any-of.ts';
import type { Tx } from '../db/client.ts';
import { defineEvent, publish } from '../events/events.ts';
import { acrossTenants, type Ctx } from '../tenancy/context.ts';
import type { Actor } from './actor.ts';
import { authTokens } from './tables.ts';
import { hashToken, newToken } from './tokens.ts';

export type SessionClient = { ip: string; userAgent?: string };

export async function issueToken(
  db: Tx,
  opts: {
    userId: number;
    agencyId: number | null;
    businessId: number | null;
    ttlSeconds: number;
    client: SessionClient;
    impersonatorId?: number;
    parentTokenId?: number;
    notAfter?: Date;
  },
): Promise<{ token: string; expiresAt: Date; id: number }> {
  const token = newToken();
  let expiresAt = new Date(Date.now() + opts.ttlSeconds * 1000);
  if (opts.notAfter && opts.notAfter < expiresAt) expiresAt = opts.notAfter;
  const [row] = await db
    .insert(authTokens)
    .values({
      token_hash: hashToken(token),
      user_id: opts.userId,
      agency_id: opts.agencyId,
      business_id: opts.businessId,
      kind: opts.impersonatorId ? 'impersonation' : 'access',
      impersonator_id: opts.impersonatorId ?? null,
      parent_token_id: opts.parentTokenId ?? null,
      expires_at: expiresAt,
      ip: opts.client.ip,
      user_agent: opts.client.userAgent?.slice(0, 500) ?? null,
    })
    .returning({ id: authTokens.id });
  if (!row) throw new Error('token not stored');
  return { token, expiresAt, id: row.id };
}

/** When the session ends (undefined for an unknown one): an impersonation started from it ends no later. */
export async function sessionExpiresAt(db: Tx, tokenId: number): Promise<Date | undefined> {
  const [row] = await db
    .select({ expires_at: authTokens.expires_at })
    .from(authTokens)
    .where(eq(authTokens.id, tokenId));
  return row?.expires_at;
}

/**
 * Sessions ended (logout, password change, impersonation stopped, user disabled or deleted), published
 * after commit: the realtime hub closes the sockets opened with them, in every process (ADR 050).
 */
export const sessionsEnded = defineEvent('auth.sessions_ended', z.object({ tokenIds: z.array(z.number()) }));

function ended(ctx: Ctx, tokenIds: number[]): void {
  if (tokenIds.length > 0) publish(ctx, sessionsEnded, { tokenIds });
}

/** Ends the session; an impersonation's logout ends the session it was started from too. */
export async function logout(ctx: Ctx, actor: Actor): Promise<void> {
  const ids = [actor.tokenId];
  if (actor.tokenKind === 'impersonation') {
    // The impersonator's session belongs to another tenant (the platform's, or the agency's).
    ctx = acrossTenants(ctx, 'an impersonation ends the session it was started from');
    const [row] = await ctx.db
      .select({ parent: authTokens.parent_token_id })
      .from(authTokens)
      .where(eq(authTokens.id, actor.tokenId));
    if (row?.parent) ids.push(row.parent);
  }
  for (const id of ids) await revokeToken(ctx, id);
}

/** Ends one session and the impersonations started from it. */
export async function revokeToken(ctx: Ctx, tokenId: number): Promise<void> {
  const rows = await ctx.db
    .update(authTokens)
    .set({ revoked_at: new Date() })
    .where(
      and(
        or(eq(authTokens.id, tokenId), eq(authTokens.parent_token_id, tokenId)),
        isNull(authTokens.revoked_at),
      ),
    )
    .returning({ id: authTokens.id });
  ended(
    ctx,
    rows.map((r) => r.id),
  );
}

/**
 * Ends every session of these users, and every impersonation they started, optionally keeping one
 * session (the caller's own, after a password change from the profile).
 */
export async function revokeSessionsOf(ctx: Ctx, userIds: number[], keepTokenId?: number): Promise<number> {
  if (userIds.length === 0) return 0;
  const rows = await ctx.db
    .update(authTokens)
    .set({ revoked_at: new Date() })
    .where(
      and(
        or(anyOf(authTokens.user_id, userIds), anyOf(authTokens.impersonator_id, userIds)),
        isNull(authTokens.revoked_at),
        keepTokenId ? sql`${authTokens.id} <> ${keepTokenId}` : undefined,
      ),
    )
    .returning({ id: authTokens.id });
  ended(
    ctx,
    rows.map((r) => r.id),
  );
  return rows.length;
}

/**
 * How recently a session must have been used for its user to count as online (ADR 082): the web app's
 * auth ping (every minute) touches `last_used_at` at most every five minutes, so twice that.
 */
export const ONLINE_WINDOW_MS = 10 * 60_000;

/**
 * Which of these users are online: they hold a live session of their own (not an impersonation) that was
 * used, or started, within `ONLINE_WINDOW_MS`. Read from the database, so every process (a worker
 * too) answers the same, whichever process holds the user's socket.
 */
export async function usersOnline(db: Tx, userIds: number[], now = new Date()): Promise<number[]> {
  if (userIds.length === 0) return [];
  const since = new Date(now.getTime() - ONLINE_WINDOW_MS);
  const found = await db
    .selectDistinct({ userId: authTokens.user_id })
    .from(authTokens)
    .where(
      and(
        anyOf(authTokens.user_id, userIds),
        eq(authTokens.kind, 'access'),
        isNull(authTokens.revoked_at),
        gt(authTokens.expires_at, now),
        gt(sql`coalesce(${authTokens.last_used_at}, ${authTokens.created_at})`, since),
      ),
    );
  return found.map((r) => r.userId);
}

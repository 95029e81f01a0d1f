import type { TRoleGroup } from '@stn/contracts/roles';
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import { burnPasswordCheck, verifyPassword } from '../../platform/auth/passwords.ts';
import { accountActive } from '../../platform/auth/plugin.ts';
import { hashToken, newToken } from '../../platform/auth/tokens.ts';
import type { Tx } from '../../platform/db/client.ts';
import { agencies, authTokens, businesses, loginFailures, users } from '../../platform/db/schema.ts';
import type { Deps } from '../../platform/deps.ts';
import { AppError, invalid } from '../../platform/http/errors.ts';
import { findUserByEmail } from '../accounts/service.ts';

type Client = { ip: string; userAgent?: string };

export async function issueToken(
  db: Tx,
  opts: {
    userId: number;
    agencyId: number | null;
    businessId: number | null;
    ttlSeconds: number;
    client: Client;
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

/** Failed sign-ins inside the lock window, per account and per address. */
async function recentFailures(db: Tx, email: string, ip: string, windowSeconds: number) {
  const since = new Date(Date.now() - windowSeconds * 1000);
  const [row] = await db
    .select({
      account: sql<number>`count(*) filter (where ${loginFailures.email} = ${email})`.mapWith(Number),
      address: sql<number>`count(*) filter (where ${loginFailures.ip} = ${ip})`.mapWith(Number),
      oldest: sql<Date | null>`min(${loginFailures.created_at}) filter (where ${loginFailures.email} = ${email})`,
    })
    .from(loginFailures)
    .where(
      and(gt(loginFailures.created_at, since), or(eq(loginFailures.email, email), eq(loginFailures.ip, ip))),
    );
  return row ?? { account: 0, address: 0, oldest: null };
}

export async function login(
  deps: Deps,
  input: { email: string; password: string; client: Client },
): Promise<{ token: string; expiresAt: Date; roleGroup: TRoleGroup }> {
  const { db, config } = deps;
  const email = input.email.toLowerCase();
  const failures = await recentFailures(db, email, input.client.ip, config.loginLockSeconds);
  if (
    failures.account >= config.loginMaxFailuresPerAccount ||
    failures.address >= config.loginMaxFailuresPerAddress
  ) {
    const minutes = Math.max(1, Math.ceil(config.loginLockSeconds / 60));
    throw new AppError('TOO_MANY', 'auth.throttle', undefined, { minutes }, 'auth.throttle');
  }
  const user = await findUserByEmail(db, email);
  let ok = false;
  if (user) ok = await verifyPassword(user.password_hash, input.password);
  else await burnPasswordCheck(input.password);
  if (!user || !ok) {
    await db.insert(loginFailures).values({ email, ip: input.client.ip });
    throw invalid('email', 'auth.failed');
  }
  const [account] = await db
    .select({ ok: accountActive })
    .from(users)
    .leftJoin(agencies, eq(agencies.id, users.agency_id))
    .leftJoin(businesses, eq(businesses.id, users.business_id))
    .where(eq(users.id, user.id));
  if (!user.active || !account?.ok) throw invalid('email', 'auth.inactive');
  await db.delete(loginFailures).where(eq(loginFailures.email, email));
  const issued = await issueToken(db, {
    userId: user.id,
    agencyId: user.agency_id,
    businessId: user.business_id,
    ttlSeconds: config.accessTokenTtlSeconds,
    client: input.client,
  });
  return { token: issued.token, expiresAt: issued.expiresAt, roleGroup: user.role_group };
}

/** Ends the session; an impersonation's logout ends the session it was started from too. */
export async function logout(db: Tx, actor: Actor): Promise<void> {
  const ids = [actor.tokenId];
  if (actor.tokenKind === 'impersonation') {
    const [row] = await db
      .select({ parent: authTokens.parent_token_id })
      .from(authTokens)
      .where(eq(authTokens.id, actor.tokenId));
    if (row?.parent) ids.push(row.parent);
  }
  for (const id of ids) {
    await db
      .update(authTokens)
      .set({ revoked_at: new Date() })
      .where(
        and(or(eq(authTokens.id, id), eq(authTokens.parent_token_id, id)), isNull(authTokens.revoked_at)),
      );
  }
}

/** Revokes every session of a user (password change or reset), optionally keeping one. */
export async function revokeAllTokens(db: Tx, userId: number, keepTokenId?: number): Promise<number> {
  const rows = await db
    .update(authTokens)
    .set({ revoked_at: new Date() })
    .where(
      and(
        or(eq(authTokens.user_id, userId), eq(authTokens.impersonator_id, userId)),
        isNull(authTokens.revoked_at),
        keepTokenId ? sql`${authTokens.id} <> ${keepTokenId}` : undefined,
      ),
    )
    .returning({ id: authTokens.id });
  return rows.length;
}

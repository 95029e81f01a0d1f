// The links e-mailed to a user (password reset, invitation, e-mail verification, unsubscribe) live here,
// below every module, like the sessions: modules/auth issues and reads them, modules/users ends them when
// the e-mail or the password they were sent for changes, and neither imports the other (ADR 019).
import { and, desc, eq, gt, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { type LinkPurpose, userTokens } from './tables.ts';
import { hashToken, newToken } from './tokens.ts';

export type { LinkPurpose };
export type LinkRow = typeof userTokens.$inferSelect;

/** Issues a link token (only its hash is stored); `ttlSeconds` null for a standing link. */
export async function issueLink(
  db: Tx,
  input: {
    user: { id: number; agency_id: number | null; business_id: number | null };
    purpose: LinkPurpose;
    ttlSeconds: number | null;
    email?: string;
  },
): Promise<string> {
  const token = newToken();
  await db.insert(userTokens).values({
    token_hash: hashToken(token),
    user_id: input.user.id,
    agency_id: input.user.agency_id,
    business_id: input.user.business_id,
    purpose: input.purpose,
    email: input.email ?? null,
    expires_at: input.ttlSeconds === null ? null : new Date(Date.now() + input.ttlSeconds * 1000),
  });
  return token;
}

const usable = (token: string, purposes: LinkPurpose[]) =>
  and(
    eq(userTokens.token_hash, hashToken(token)),
    inArray(userTokens.purpose, purposes),
    isNull(userTokens.used_at),
    or(isNull(userTokens.expires_at), gt(userTokens.expires_at, sql`now()`)),
  );

/** A usable link of one of these purposes (not spent, not expired), without spending it. */
export async function findLink(db: Tx, token: string, purposes: LinkPurpose[]): Promise<LinkRow | undefined> {
  const [row] = await db.select().from(userTokens).where(usable(token, purposes)).limit(1);
  return row;
}

/**
 * Spends a link, atomically: of two requests with the same link at the same moment exactly one gets the
 * row (the other waits on the row lock, then finds it spent). Inside a transaction that later rolls back,
 * the link is not spent.
 */
export async function consumeLink(
  db: Tx,
  token: string,
  purposes: LinkPurpose[],
): Promise<LinkRow | undefined> {
  const [row] = await db
    .update(userTokens)
    .set({ used_at: new Date() })
    .where(usable(token, purposes))
    .returning();
  return row;
}

/** Spends every outstanding link of these purposes of a user (only the newest reset link works). */
export async function endLinks(db: Tx, userId: number, purposes: LinkPurpose[]): Promise<void> {
  await db
    .update(userTokens)
    .set({ used_at: new Date() })
    .where(
      and(eq(userTokens.user_id, userId), inArray(userTokens.purpose, purposes), isNull(userTokens.used_at)),
    );
}

/**
 * The user's e-mail or password changed: every outstanding one-time link (reset, invitation, verification)
 * ends, since it was sent for the old address or to replace the old password. The standing unsubscribe
 * link stays.
 */
export async function endCredentialLinks(db: Tx, userId: number): Promise<void> {
  await db
    .update(userTokens)
    .set({ used_at: new Date() })
    .where(
      and(eq(userTokens.user_id, userId), ne(userTokens.purpose, 'unsubscribe'), isNull(userTokens.used_at)),
    );
}

/** How many links of that purpose the user was sent since `since` (a cap on reset mails). */
export async function linksSentSince(db: Tx, userId: number, purpose: LinkPurpose, since: Date) {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(userTokens)
    .where(
      and(eq(userTokens.user_id, userId), eq(userTokens.purpose, purpose), gt(userTokens.created_at, since)),
    );
  return row?.n ?? 0;
}

/**
 * The address a user asked to change to and has not confirmed yet (the newest live `email_change` link),
 * or null (ADR 050).
 */
export async function pendingEmailOf(db: Tx, userId: number): Promise<string | null> {
  const [row] = await db
    .select({ email: userTokens.email })
    .from(userTokens)
    .where(
      and(
        eq(userTokens.user_id, userId),
        eq(userTokens.purpose, 'email_change'),
        isNull(userTokens.used_at),
        or(isNull(userTokens.expires_at), gt(userTokens.expires_at, sql`now()`)),
      ),
    )
    .orderBy(desc(userTokens.id))
    .limit(1);
  return row?.email ?? null;
}

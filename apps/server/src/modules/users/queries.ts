// Reads of the users table, internal to this module (other modules call service.ts).
import { eq, sql } from 'drizzle-orm';
import { pendingEmailOf } from '../../platform/auth/links.ts';
import { notFound } from '../../platform/http/errors.ts';
import { acrossTenants, type Ctx, scope } from '../../platform/tenancy/context.ts';
import { users } from './tables.ts';

export type UserRow = typeof users.$inferSelect;

/** The tenant columns of the users table, for `scope`. */
export const userCols = { agency_id: users.agency_id, business_id: users.business_id };

/** Whether any user (of any tenant: addresses are unique platform-wide) has the address, but `exceptUserId`. */
export async function emailTaken(
  ctx: Ctx,
  input: { email: string; exceptUserId?: number },
): Promise<boolean> {
  const { email, exceptUserId } = input;
  const rows = await acrossTenants(ctx, 'addresses are unique platform-wide')
    .db.select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(2);
  return rows.some((r) => r.id !== exceptUserId);
}

/** A user of the context's tenant (locked for the transaction when asked), or undefined. */
export async function findUserRow(ctx: Ctx, id: number, lock = false): Promise<UserRow | undefined> {
  const query = ctx.db
    .select()
    .from(users)
    .where(scope(ctx, userCols, eq(users.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** One of the agency's own staff (AgencyUser) in the context's tenant, or 404. */
export async function findAgencyUser(ctx: Ctx, id: number): Promise<UserRow> {
  const [row] = await ctx.db
    .select()
    .from(users)
    .where(scope(ctx, { agency_id: users.agency_id }, eq(users.role, 'AgencyUser'), eq(users.id, id)));
  if (!row) throw notFound();
  return row;
}

/**
 * A user answer of an edit screen (GET/PUT by id) with the address waiting for confirmation, so whoever
 * changed it sees it is pending (ADR 050); lists leave it out.
 */
export async function withPendingEmail<T extends { id: number }>(
  ctx: Ctx,
  user: T,
): Promise<T & { pending_email: string | null }> {
  return { ...user, pending_email: await pendingEmailOf(ctx.db, user.id) };
}

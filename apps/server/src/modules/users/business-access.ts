import type { TCapability } from '@stn/contracts/capabilities';
import type { TCustomTypePage } from '@stn/contracts/roles';
import { eq } from 'drizzle-orm';
import { type Actor, actorCan } from '../../platform/auth/actor.ts';
import type { Tx } from '../../platform/db/client.ts';
/** Request details kept in the audit trail. */
import type { Client } from '../../platform/http/client.ts';
import { forbidden, notFound } from '../../platform/http/errors.ts';
import { type Ctx, scope } from '../../platform/tenancy/context.ts';
import { users } from './tables.ts';

export type { Client };

export type BusinessScope = { agencyId: number; businessId: number };

/** The capability of the rules table behind each settings screen these services serve. */
const PAGE_CAPABILITY = {
  users_page: 'businessUsers.manage',
  departments_page: 'departments.manage',
  blacklist_page: 'blacklist.manage',
  whitelist_page: 'whitelist.manage',
} as const satisfies Partial<Record<TCustomTypePage, TCapability>>;

/** The caller's business, after checking that they may open `page`; 403 otherwise. */
export async function requireBusinessPage(
  _db: Tx,
  actor: Actor,
  page: keyof typeof PAGE_CAPABILITY,
): Promise<BusinessScope> {
  const scope = businessOf(actor);
  if (!actorCan(actor, PAGE_CAPABILITY[page])) throw forbidden();
  return scope;
}

/** The caller's business (any business user). */
export function businessOf(actor: Actor): BusinessScope {
  if (actor.roleGroup !== 'Business' || !actor.businessId || !actor.agencyId) throw forbidden();
  return { agencyId: actor.agencyId, businessId: actor.businessId };
}

/** Who is really acting (the impersonator when impersonating), for the audit trail. */
export const auditActor = (actor: Actor) => actor.impersonatorId ?? actor.userId;

/** A LIKE pattern that matches the keyword literally. */
export { likePattern } from '../../platform/http/pagination.ts';

/** The rights a business user holds: role, user type, and the custom type's pages. */
export type Rights = { role: string | null; userType: string | null; pages: readonly string[] };

/**
 * What a manager may give (ADR 009): a BusinessAdmin anything; AdminSupport (1) and MarketingUser (2)
 * SalesUsers (3) and custom users (4) with any pages; a custom user SalesUsers and custom users with
 * pages of its own only. Types 1 and 2 and the BusinessAdmin role are a BusinessAdmin's to give.
 */
export type Grant = { all: true } | { all: false; pages: readonly string[] | 'any' };

/** The caller's grant; the custom type's pages are read from its row. */
export async function grantOf(db: Tx, actor: Actor): Promise<Grant> {
  if (actor.role === 'BusinessAdmin') return { all: true };
  if (actor.userType === '1' || actor.userType === '2') return { all: false, pages: 'any' };
  if (actor.userType === '4') {
    const [row] = await db.select({ settings: users.settings }).from(users).where(eq(users.id, actor.userId));
    return { all: false, pages: row?.settings.custom_type_pages ?? [] };
  }
  return { all: false, pages: [] };
}

/** Whether `grant` covers `rights`: giving them, or managing a user who holds them. */
export function mayGive(grant: Grant, rights: Rights): boolean {
  if (grant.all) return true;
  if (rights.role !== 'BusinessUser') return false;
  if (rights.userType === '3') return true;
  if (rights.userType !== '4') return false;
  const allowed = grant.pages;
  return allowed === 'any' || rights.pages.every((p) => allowed.includes(p));
}

type UserRow = typeof users.$inferSelect;
const tenantCols = { agency_id: users.agency_id, business_id: users.business_id };

/** A user of the caller's business, or 404. */
export async function findBusinessUser(ctx: Ctx, id: number): Promise<UserRow> {
  const [row] = await ctx.db
    .select()
    .from(users)
    .where(scope(ctx, tenantCols, eq(users.id, id), eq(users.role_group, 'Business')));
  if (!row) throw notFound();
  return row;
}

/** Only a BusinessAdmin manages BusinessAdmins: the other managers cannot raise or touch an admin. */
function guardAdminTarget(actor: Actor, ...roles: (string | undefined)[]) {
  if (actor.role !== 'BusinessAdmin' && roles.includes('BusinessAdmin')) throw forbidden('users.admin_only');
}

export const rightsOf = (u: UserRow): Rights => ({
  role: u.role,
  userType: u.user_type,
  pages: u.settings.custom_type_pages ?? [],
});

/**
 * A manager gives only the rights it may grant, and manages only users whose rights it may grant
 * (ADR 009): the admin role first (its own message), then the user type and pages.
 */
export async function guardRights(db: Tx, actor: Actor, ...rights: Rights[]) {
  guardAdminTarget(actor, ...rights.map((r) => r.role ?? undefined));
  const grant = await grantOf(db, actor);
  if (!rights.every((r) => mayGive(grant, r))) throw forbidden('users.beyond_grant');
}

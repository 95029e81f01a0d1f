import type { TCapability } from '@stn/contracts/capabilities';
import type { TCustomTypePage } from '@stn/contracts/roles';
import { eq } from 'drizzle-orm';
import { type Actor, actorCan } from '../../platform/auth/actor.ts';
/** Request details kept in the audit trail. */
import type { Client } from '../../platform/http/client.ts';
import { forbidden, notFound } from '../../platform/http/errors.ts';
import { actingUser, businessOf, type Ctx, scope } from '../../platform/tenancy/context.ts';
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

/** The calling user's business, after checking that they may open `page`; 403 otherwise. */
export function requireBusinessPage(ctx: Ctx, input: { page: keyof typeof PAGE_CAPABILITY }): BusinessScope {
  const scope = businessUser(ctx);
  if (!actorCan(actingUser(ctx), PAGE_CAPABILITY[input.page])) throw forbidden();
  return scope;
}

/** The calling user's business (any business user); 403 for anyone else. */
export function businessUser(ctx: Ctx): BusinessScope {
  actingUser(ctx);
  return businessOf(ctx);
}

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

/** The calling user's grant; the custom type's pages are read from its row. */
export async function grantOf(ctx: Ctx): Promise<Grant> {
  const actor = actingUser(ctx);
  const { db } = ctx;
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
export async function guardRights(ctx: Ctx, input: { rights: Rights[] }) {
  guardAdminTarget(actingUser(ctx), ...input.rights.map((r) => r.role ?? undefined));
  const grant = await grantOf(ctx);
  const rights = input.rights;
  if (!rights.every((r) => mayGive(grant, r))) throw forbidden('users.beyond_grant');
}

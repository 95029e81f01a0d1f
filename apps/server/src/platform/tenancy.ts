import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Actor } from './auth/actor.ts';

type TenantColumns = { agency_id: PgColumn; business_id?: PgColumn };

/**
 * The filter that keeps a query inside the caller's tenant: nothing for platform admins, the agency for
 * agency users, the agency and business for business users. Every tenant query goes through it, so that
 * another tenant's row is simply not found (404), never shown.
 */
export function tenantWhere(actor: Actor, cols: TenantColumns): SQL | undefined {
  if (actor.roleGroup === 'Admin') return undefined;
  const agency = eq(cols.agency_id, actor.agencyId ?? -1);
  if (actor.roleGroup === 'Agency' || !cols.business_id) return agency;
  return and(agency, eq(cols.business_id, actor.businessId ?? -1));
}

/** Combines the tenant filter with a query's own conditions. */
export function inTenant(
  actor: Actor,
  cols: TenantColumns,
  ...conditions: (SQL | undefined)[]
): SQL | undefined {
  return and(tenantWhere(actor, cols), ...conditions);
}

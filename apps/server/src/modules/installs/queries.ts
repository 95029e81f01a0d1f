import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Ctx, found, scope } from '../../platform/tenancy/context.ts';
import { installs } from './tables.ts';

// Reads of the installs table (internal to the module), always through the tenant.

export type InstallRow = typeof installs.$inferSelect;
export const installCols = { agency_id: installs.agency_id, business_id: installs.business_id };

/** The install of that id in the context's tenant, or a 404; `lock` takes its row lock (in a transaction). */
export async function findInstall(ctx: Ctx, id: number, lock = false): Promise<InstallRow> {
  const query = ctx.db
    .select()
    .from(installs)
    .where(scope(ctx, installCols, eq(installs.id, id)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return found(row);
}

/** The installs of the context's tenant matching `where`, oldest first. */
export async function installRows(ctx: Ctx, where?: SQL): Promise<InstallRow[]> {
  return ctx.db
    .select()
    .from(installs)
    .where(scope(ctx, installCols, where))
    .orderBy(asc(installs.id));
}

/** How many installs of the business hold a place against its limit: the active and archived ones. */
export async function countedInstalls(ctx: Ctx, input: { businessId: number }): Promise<number> {
  const { businessId } = input;
  const [row] = await ctx.db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(installs)
    .where(and(eq(installs.business_id, businessId), inArray(installs.status, ['active', 'archived'])));
  return row?.n ?? 0;
}

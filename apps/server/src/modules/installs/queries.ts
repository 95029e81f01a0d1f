import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.ts';
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
export async function countedInstalls(db: Tx, businessId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(installs)
    .where(and(eq(installs.business_id, businessId), inArray(installs.status, ['active', 'archived'])));
  return row?.n ?? 0;
}

export type InstallNumber = { phone_number: string; voice: boolean; sms: boolean };

/**
 * The carrier number assigned to each install (the telephony module's `numbers`, a purchased or landline
 * number with install_id set and not released). A read of another module's table by plain SQL: the
 * telephony module imports this module's service (installForCalls), so importing its service here would
 * make a cycle; see ADR 027. A purchased number wins over a landline, then the newest.
 */
export async function installNumbers(db: Tx, installIds: number[]): Promise<Map<number, InstallNumber>> {
  const out = new Map<number, InstallNumber>();
  if (installIds.length === 0) return out;
  const result = await db.execute<{
    install_id: number;
    phone_number: string;
    voice: boolean | null;
    sms: boolean | null;
  }>(sql`
    select distinct on (install_id) install_id, phone_number,
      coalesce((capabilities->>'voice')::boolean, true) as voice,
      coalesce((capabilities->>'sms')::boolean, true) and sms_enabled as sms
    from numbers
    where install_id in ${sql`(${sql.join(
      installIds.map((id) => sql`${id}`),
      sql`, `,
    )})`}
      and released_at is null and kind <> 'caller_id'
    order by install_id, (kind = 'purchased') desc, id desc`);
  for (const r of result.rows)
    out.set(Number(r.install_id), {
      phone_number: r.phone_number,
      voice: Boolean(r.voice),
      sms: Boolean(r.sms),
    });
  return out;
}

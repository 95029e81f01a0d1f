import crypto from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import { notFound } from '../../platform/http/errors.ts';
import { type Ctx, scope } from '../../platform/tenancy/context.ts';
import type { WidgetInstall } from '../../platform/widget/tree.ts';
import { installs } from './tables.ts';

/** The active install with this key, with its business and agency still active; else null. */
export async function installByKey(deps: Deps, key: string): Promise<WidgetInstall | null> {
  const [row] = await deps.db
    .select()
    .from(installs)
    .where(and(eq(installs.key, key), eq(installs.status, 'active'), eq(installs.active, true)))
    .limit(1);
  if (!row) return null;
  return {
    id: row.id,
    agencyId: row.agency_id,
    businessId: row.business_id,
    settings: row.settings,
    updatedAt: row.updated_at,
  };
}

/** The staff phones (phoneAgents) of the business's installs not deleted, each with its agent's name. */
export async function staffPhonesOfBusiness(
  ctx: Ctx,
): Promise<{ installId: number; name: string; phone: string }[]> {
  const rows = await ctx.db
    .select({ id: installs.id, settings: installs.settings })
    .from(installs)
    .where(scope(ctx, installs, ne(installs.status, 'deleted')))
    .orderBy(installs.id);
  return rows.flatMap((r) =>
    (r.settings.phoneAgents ?? []).map((a) => ({ installId: r.id, name: a.name, phone: a.phone })),
  );
}

/** Whether the install is the context's (and not deleted): a 404 otherwise, as for any other tenant's id. */
export async function ownInstallId(ctx: Ctx, installId: number): Promise<number> {
  const [row] = await ctx.db
    .select({ id: installs.id })
    .from(installs)
    .where(scope(ctx, installs, eq(installs.id, installId), ne(installs.status, 'deleted')))
    .limit(1);
  if (!row) throw notFound();
  return row.id;
}

/** A fresh install key: long and random, as it is the only thing a widget request presents. */
export function newInstallKey(): string {
  return crypto.randomBytes(18).toString('base64url');
}

// What the numbers service needs from its neighbours, in one place: the agency's carrier (the telephony
// core's carrierFor), the installs service (an install of the business, and its landline settings), and
// the agency a carrier account belongs to. TEMPORARY private equivalents while those land on main (issue 9
// is built in parallel): each is replaced by the owner's function as soon as it exists.
import { and, eq, sql } from 'drizzle-orm';
import type { Carrier } from '../../platform/carrier/carrier.ts';
import { businessOf, type Ctx } from '../../platform/tenancy/context.ts';
import { agencyCarrierAccount, agencyIdByAccountSid } from '../agencies/service.ts';
import { installs } from '../installs/tables.ts';

/** The carrier of the context's agency (h-call's carrierFor), or null when the agency is not set up. */
export async function carrierOf(ctx: Ctx): Promise<Carrier | null> {
  const { agencyId } = businessOf(ctx);
  const account = await agencyCarrierAccount(ctx.deps, agencyId);
  if (!account) return null;
  return ctx.deps.carrier.forAccount(account);
}

export const agencyIdOfAccount = agencyIdByAccountSid;

/** An install of the context's business that is not deleted (h-inst's installForCalls), or null. */
export async function installOf(ctx: Ctx, installId: number): Promise<{ id: number; name: string } | null> {
  const { agencyId, businessId } = businessOf(ctx);
  const [row] = await ctx.db
    .select({ id: installs.id, name: installs.name, status: installs.status })
    .from(installs)
    .where(
      and(eq(installs.id, installId), eq(installs.agency_id, agencyId), eq(installs.business_id, businessId)),
    )
    .limit(1);
  return row && row.status !== 'deleted' ? { id: row.id, name: row.name } : null;
}

/** Names of the business's installs by id (h-inst's installsOfBusiness). */
export async function installNames(ctx: Ctx): Promise<Map<number, string>> {
  const { agencyId, businessId } = businessOf(ctx);
  const rows = await ctx.db
    .select({ id: installs.id, name: installs.name })
    .from(installs)
    .where(and(eq(installs.agency_id, agencyId), eq(installs.business_id, businessId)));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** The install's texting landline (settings landline_number / landline_enabled): h-inst's to write. */
export async function setInstallLandline(
  ctx: Ctx,
  installId: number,
  landline: { landline_number: string | null; landline_enabled: boolean },
): Promise<void> {
  const { businessId } = businessOf(ctx);
  await ctx.db
    .update(installs)
    .set({
      settings: sql`${installs.settings} || ${JSON.stringify(landline)}::jsonb`,
      updated_at: new Date(),
    })
    .where(and(eq(installs.id, installId), eq(installs.business_id, businessId)));
}

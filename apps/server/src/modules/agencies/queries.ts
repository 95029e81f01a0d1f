import type { TAgency } from '@stn/contracts/agencies';
import { eq, ne, type SQL } from 'drizzle-orm';
import { notFound } from '../../platform/http/errors.ts';
import { actingUser, type Ctx, scope } from '../../platform/tenancy/context.ts';
import { whitelabelsOf } from '../sites/service.ts';
import { agencyAdmins } from '../users/service.ts';
import { agencies } from './tables.ts';

export type AgencyRow = typeof agencies.$inferSelect;

/** The tenant filter on the agencies table itself: an agency user sees only its own agency. */
export const agencyScope = (ctx: Ctx, ...conditions: (SQL | undefined)[]) =>
  scope(ctx, { agency_id: agencies.id }, ne(agencies.status, 'deleted'), ...conditions);

/** An agency the caller may act on, or 404 (another agency's id, a deleted one, an unknown one). */
export async function findAgency(ctx: Ctx, input: { id: number }): Promise<AgencyRow> {
  const [row] = await ctx.db
    .select()
    .from(agencies)
    .where(agencyScope(ctx, eq(agencies.id, input.id)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** The agency of an agency user (routes without an id act on it). */
export async function ownAgency(ctx: Ctx): Promise<AgencyRow> {
  const { agencyId } = actingUser(ctx);
  if (!agencyId) throw notFound();
  return findAgency(ctx, { id: agencyId });
}

/** The agency's first AgencyAdmin: the user of the create form. */
export async function agencyAdminOf(ctx: Ctx, input: { agencyId: number }) {
  const [row] = await agencyAdmins(ctx, { agencyIds: [input.agencyId] });
  return row;
}

export const maskSid = (sid: string | undefined | null): string | null =>
  sid ? `${sid.slice(0, 2)}${'*'.repeat(Math.max(0, sid.length - 6))}${sid.slice(-4)}` : null;

export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** Agency rows as the API shows them, with their white-label entry and agency admin. */
export async function presentAgencies(ctx: Ctx, rows: AgencyRow[]): Promise<TAgency[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const wls = await whitelabelsOf(ctx, { agencyIds: ids });
  const admins = await agencyAdmins(ctx, { agencyIds: ids });
  return rows.map((a) => {
    const wl = wls.find((w) => w.agency_id === a.id);
    const admin = admins.find((u) => u.agency_id === a.id);
    return {
      id: a.id,
      name: a.name,
      email: a.email,
      domain: a.domain,
      subdomain: a.subdomain,
      is_main: a.is_main,
      active: a.active,
      status: a.status,
      free_fee: a.free_fee,
      is_template: a.is_template,
      zapier_enabled: a.zapier_enabled,
      zapier_free: a.zapier_free,
      department_enabled: a.department_enabled,
      remove_branding: a.remove_branding,
      profanity_enabled: a.profanity_enabled,
      branding: a.branding,
      properties: a.properties as Record<string, unknown>,
      settings: a.settings,
      allowed_countries: a.allowed_countries,
      stripeConfig: {
        publicKey: a.stripe_config.publicKey ?? null,
        secretKeySet: Boolean(a.stripe_config.secretKey),
      },
      twilioConfig: {
        accountSid: maskSid(a.twilio_config.accountSid),
        authTokenSet: Boolean(a.twilio_config.authToken),
      },
      whitelabel: wl ?? null,
      user: admin
        ? { id: admin.id, email: admin.email, first_name: admin.first_name, last_name: admin.last_name }
        : null,
      archived_at: iso(a.archived_at),
      created_at: a.created_at.toISOString(),
    };
  });
}

export async function presentAgency(ctx: Ctx, input: { id: number }): Promise<TAgency> {
  const [row] = await ctx.db.select().from(agencies).where(eq(agencies.id, input.id));
  if (!row) throw notFound();
  const [out] = await presentAgencies(ctx, [row]);
  if (!out) throw notFound();
  return out;
}

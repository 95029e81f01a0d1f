import type { TAgency } from '@stn/contracts/agencies';
import { eq, ne, type SQL } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import type { Tx } from '../../platform/db/client.ts';
import { notFound } from '../../platform/http/errors.ts';
import { inTenant } from '../../platform/tenancy.ts';
import { whitelabelsOf } from '../sites/service.ts';
import { agencyAdmins } from '../users/service.ts';
import { agencies } from './tables.ts';

export type AgencyRow = typeof agencies.$inferSelect;

/** The tenant filter on the agencies table itself: an agency user sees only its own agency. */
export const agencyScope = (actor: Actor, ...conditions: (SQL | undefined)[]) =>
  inTenant(actor, { agency_id: agencies.id }, ne(agencies.status, 'deleted'), ...conditions);

/** An agency the caller may act on, or 404 (another agency's id, a deleted one, an unknown one). */
export async function findAgency(db: Tx, actor: Actor, id: number): Promise<AgencyRow> {
  const [row] = await db
    .select()
    .from(agencies)
    .where(agencyScope(actor, eq(agencies.id, id)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** The agency of an agency user (routes without an id act on it). */
export async function ownAgency(db: Tx, actor: Actor): Promise<AgencyRow> {
  if (!actor.agencyId) throw notFound();
  return findAgency(db, actor, actor.agencyId);
}

/** The agency's first AgencyAdmin: the user of the create form. */
export async function agencyAdminOf(db: Tx, agencyId: number) {
  const [row] = await agencyAdmins({ db }, { agencyIds: [agencyId] });
  return row;
}

export const maskSid = (sid: string | undefined | null): string | null =>
  sid ? `${sid.slice(0, 2)}${'*'.repeat(Math.max(0, sid.length - 6))}${sid.slice(-4)}` : null;

export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** Agency rows as the API shows them, with their white-label entry and agency admin. */
export async function presentAgencies(db: Tx, rows: AgencyRow[]): Promise<TAgency[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const wls = await whitelabelsOf({ db }, { agencyIds: ids });
  const admins = await agencyAdmins({ db }, { agencyIds: ids });
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

export async function presentAgency(db: Tx, id: number): Promise<TAgency> {
  const [row] = await db.select().from(agencies).where(eq(agencies.id, id));
  if (!row) throw notFound();
  const [out] = await presentAgencies(db, [row]);
  if (!out) throw notFound();
  return out;
}

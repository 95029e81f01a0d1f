import type { TWhitelabel } from '@stn/contracts/agencies';
import type { TLandingTexts, TSiteData } from '@stn/contracts/site';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Config } from '../../platform/config.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';
import { whitelabels } from './tables.ts';

// Sites: what a host shows (site data), the white-label entries (an agency's host and its certificate),
// editable pages and release notes. The agencies module owns the agencies (and their domain and
// subdomain columns); it calls here to keep each agency's white-label entry, and this module never
// imports it, so the two do not depend on each other in a circle: the routes that need an agency for a
// host ask the agencies module and hand the answer in.

/** The database handle of a context: the calls agencies make from inside their own transactions. */
type DbCtx = Pick<Ctx, 'db'>;

export function normalizeHost(host: string): string {
  // Drop a port and a trailing dot; hosts compare case-insensitively.
  return host.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
}

/** Whether a host is the main domain's (and www.); 127.0.0.1 counts when the main domain is localhost. */
export function isMainDomainHost(config: Config, host: string): boolean {
  const main = config.mainDomain;
  return host === main || host === `www.${main}` || (main === 'localhost' && host === '127.0.0.1');
}

/** The agency fields a site shows. */
export type SiteAgency = {
  id: number;
  name: string;
  email: string | null;
  is_main: boolean;
  branding: {
    title?: string;
    headerLogo?: string | null;
    loginLogo?: string | null;
    favicon?: string | null;
    supportEmail?: string | null;
    address?: string | null;
    custom_script?: string | null;
    landingPage?: boolean;
    landingTexts?: TLandingTexts;
    marketingUrl?: string | null;
  };
};

/** What a site shows for a host, given the agency that owns it (none: not a valid domain). */
export function siteData(config: Config, input: { agency?: SiteAgency; isMainDomain: boolean }): TSiteData {
  const { agency, isMainDomain } = input;
  if (!agency) {
    return {
      validDomain: false,
      isMainAgency: false,
      isMainDomain,
      agency_id: null,
      title: '',
      headerLogo: null,
      loginLogo: null,
      favicon: null,
      supportEmail: null,
      address: null,
      custom_script: null,
      landingPage: false,
      landingTexts: {},
      marketingUrl: null,
      maintenance: config.maintenance,
    };
  }
  const b = agency.branding;
  return {
    validDomain: true,
    isMainAgency: agency.is_main,
    isMainDomain,
    agency_id: agency.id,
    title: b.title ?? agency.name,
    headerLogo: b.headerLogo ?? null,
    loginLogo: b.loginLogo ?? b.headerLogo ?? null,
    favicon: b.favicon ?? null,
    supportEmail: b.supportEmail ?? agency.email ?? null,
    address: b.address ?? null,
    custom_script: b.custom_script ?? null,
    landingPage: b.landingPage ?? false,
    landingTexts: b.landingPage ? (b.landingTexts ?? {}) : {},
    marketingUrl: agency.is_main ? (b.marketingUrl ?? null) : null,
    maintenance: config.maintenance,
  };
}

/** The address of an agency's own site, used in links sent by e-mail. */
export function agencySiteUrl(
  config: Config,
  agency: { domain: string | null; subdomain: string | null; is_main: boolean } | null | undefined,
): string {
  const base = config.publicUrl;
  let host = config.mainDomain;
  if (agency && !agency.is_main) {
    if (agency.domain) host = agency.domain;
    else if (agency.subdomain) host = `${agency.subdomain}.${config.mainDomain}`;
  }
  const port = base.port ? `:${base.port}` : '';
  return `${base.protocol}//${host}${port}`;
}

// ---------------------------------------------------------------------------------------------------
// White-label entries: one per agency, kept by the agencies module through these functions.

export type WhitelabelRow = typeof whitelabels.$inferSelect;

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function toWhitelabel(w: WhitelabelRow): TWhitelabel {
  return {
    id: w.id,
    agency_id: w.agency_id,
    domain: w.domain,
    type: w.type,
    cert_status: w.cert_status,
    cert_message: w.cert_message,
    cert_requested_at: iso(w.cert_requested_at),
  };
}

/** Whether another agency's white-label entry already has this host. */
export async function whitelabelHostTaken(ctx: DbCtx, input: { agencyId: number; host: string }) {
  const entries = await ctx.db
    .select({ id: whitelabels.id })
    .from(whitelabels)
    .where(and(ne(whitelabels.agency_id, input.agencyId), sql`lower(${whitelabels.domain}) = ${input.host}`))
    .limit(1);
  return entries.length > 0;
}

/** Points the agency's one entry at a host; a new host starts without a certificate. */
export async function setWhitelabel(
  ctx: DbCtx,
  input: { agencyId: number; host: string; type: 'domain' | 'subdomain' },
) {
  const { agencyId, host, type } = input;
  const [existing] = await ctx.db
    .select()
    .from(whitelabels)
    .where(eq(whitelabels.agency_id, agencyId))
    .limit(1);
  if (!existing) {
    await ctx.db.insert(whitelabels).values({ agency_id: agencyId, domain: host, type });
  } else if (existing.domain !== host || existing.type !== type) {
    // A new host needs its own certificate.
    await ctx.db
      .update(whitelabels)
      .set({
        domain: host,
        type,
        cert_status: 'none',
        cert_message: null,
        cert_requested_at: null,
        updated_at: new Date(),
      })
      .where(eq(whitelabels.id, existing.id));
    await ctx.db
      .delete(whitelabels)
      .where(and(eq(whitelabels.agency_id, agencyId), ne(whitelabels.id, existing.id)));
  }
}

/** Drops an agency's entries (a deleted agency gives up its host). */
export async function removeWhitelabels(ctx: DbCtx, input: { agencyId: number }) {
  await ctx.db.delete(whitelabels).where(eq(whitelabels.agency_id, input.agencyId));
}

/** The entries of some agencies, oldest first. */
export async function whitelabelsOf(ctx: DbCtx, input: { agencyIds: number[] }): Promise<TWhitelabel[]> {
  if (input.agencyIds.length === 0) return [];
  const rows = await ctx.db
    .select()
    .from(whitelabels)
    .where(inArray(whitelabels.agency_id, input.agencyIds))
    .orderBy(asc(whitelabels.id));
  return rows.map(toWhitelabel);
}

// What the agencies module's routes serve of this module (the routes that need an agency live there).
export { publicPage } from './pages.ts';
/** What's new (issue 23): the profile module reads release notes through here. */
export { releaseNotesAfter } from './release-notes.ts';
export { type AgencyDirectory, listWhitelabels, requestCertificate } from './whitelabels.ts';

import type { TSiteData } from '@stn/contracts/site';
import { and, eq, sql } from 'drizzle-orm';
import type { Config } from '../../platform/config.ts';
import type { Tx } from '../../platform/db/client.ts';
import { agencies } from '../../platform/db/schema.ts';

type AgencyRow = typeof agencies.$inferSelect;

export function normalizeHost(host: string): string {
  // Drop a port and a trailing dot; hosts compare case-insensitively.
  return host.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
}

/**
 * Which agency a host belongs to: the main domain (and www.) is the main agency's,
 * <subdomain>.<MAIN_DOMAIN> is that agency's white-label subdomain, anything else a custom domain.
 */
export async function agencyForHost(
  db: Tx,
  config: Config,
  rawHost: string,
): Promise<{ agency?: AgencyRow; isMainDomain: boolean }> {
  const host = normalizeHost(rawHost);
  const main = config.mainDomain;
  const isMainDomain =
    host === main || host === `www.${main}` || (main === 'localhost' && host === '127.0.0.1');
  const active = eq(agencies.status, 'active');
  if (isMainDomain) {
    const [agency] = await db
      .select()
      .from(agencies)
      .where(and(eq(agencies.is_main, true), active))
      .limit(1);
    return { agency, isMainDomain };
  }
  if (host.endsWith(`.${main}`)) {
    const sub = host.slice(0, -(main.length + 1));
    if (!sub.includes('.')) {
      const [agency] = await db
        .select()
        .from(agencies)
        .where(and(sql`lower(${agencies.subdomain}) = ${sub}`, active))
        .limit(1);
      if (agency) return { agency, isMainDomain };
    }
  }
  const [agency] = await db
    .select()
    .from(agencies)
    .where(and(sql`lower(${agencies.domain}) = ${host}`, active))
    .limit(1);
  return { agency, isMainDomain };
}

export async function siteData(db: Tx, config: Config, host: string): Promise<TSiteData> {
  const { agency, isMainDomain } = await agencyForHost(db, config, host);
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
    maintenance: config.maintenance,
  };
}

/** The address of an agency's own site, used in links sent by e-mail. */
export function agencySiteUrl(
  config: Config,
  agency: Pick<AgencyRow, 'domain' | 'subdomain' | 'is_main'> | null | undefined,
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

/** Whether a white-label domain (or a subdomain of the main domain) is still free. */
export async function domainAvailable(db: Tx, config: Config, raw: string): Promise<boolean> {
  const host = normalizeHost(raw);
  const main = config.mainDomain;
  if (host === main || host === `www.${main}`) return false;
  const sub = host.endsWith(`.${main}`)
    ? host.slice(0, -(main.length + 1))
    : host.includes('.')
      ? null
      : host;
  const [row] = await db
    .select({ id: agencies.id })
    .from(agencies)
    .where(
      sub !== null ? sql`lower(${agencies.subdomain}) = ${sub}` : sql`lower(${agencies.domain}) = ${host}`,
    )
    .limit(1);
  return !row;
}

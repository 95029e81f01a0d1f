// The sites module's routes that need an agency (ADR 054: sites rank below agencies, so the route that
// composes both lives here): a host's site data and public pages, and the white-label list with the
// agencies it names. Paths are the sites module's own.
import { ZWhitelabelList, ZWhitelabelMessageResponse } from '@stn/contracts/agencies';
import { ZErrorResponse, ZIdParams, ZListQuery } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import { showsLanding, type TSiteData, ZSiteDataResponse } from '@stn/contracts/site';
import { ZPageParams, ZPublicPageQuery, ZPublicPageResponse } from '@stn/contracts/users';
import { z } from '@stn/contracts/zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../platform/deps.ts';
import { clientOf } from '../../platform/http/client.ts';
import { errorResponses as errors } from '../../platform/http/replies.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import {
  type AgencyDirectory,
  listWhitelabels,
  publicPage,
  requestCertificate,
  siteData,
} from '../sites/service.ts';
import { agencyForHost, agencySummaries, liveAgencyIds } from './service.ts';

const agencies: AgencyDirectory = { liveIds: liveAgencyIds, summaries: agencySummaries };

/** A host's site data and public pages (public). */
export const siteDataRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  const ofHost = (host: string) => agencyForHost({ db: deps.db, deps }, { host });

  app.get(
    '/v1/settings/site-data/:domain',
    {
      config: { access: 'public' },
      schema: {
        tags: ['sites'],
        summary: 'Site data of the agency that owns a white-label domain or subdomain',
        params: z.object({ domain: z.string().min(1).max(253) }),
        response: { 200: ZSiteDataResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: siteData(deps.config, await ofHost(request.params.domain)),
    }),
  );

  app.get(
    '/v1/pages/:key/public',
    {
      config: { access: 'public' },
      schema: {
        tags: ['pages'],
        summary: "The terms or privacy page a site shows: its agency's own, else the platform's (data.data)",
        security: [],
        params: ZPageParams,
        querystring: ZPublicPageQuery,
        response: { 200: ZPublicPageResponse, 404: ZErrorResponse, 422: ZErrorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        data: await publicPage(deps, {
          key: request.params.key,
          agencyOfHost: async () => (await ofHost(request.query.domain)).agency?.id ?? null,
        }),
      },
    }),
  );
};

/** White-label entries and certificates (platform admins). */
export const whitelabelsRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/v1/whitelabels',
    {
      config: { capability: 'agencies.manage' },
      schema: {
        tags: ['whitelabels'],
        summary: 'White-label entries: domain, agency and certificate status',
        querystring: ZListQuery,
        response: { 200: ZWhitelabelList, ...errors },
      },
    },
    async (request) => listWhitelabels(ctxOf(deps, request), { query: request.query, agencies }),
  );

  app.post(
    '/v1/whitelabels/:id/cert',
    {
      config: { capability: 'agencies.manage' },
      schema: {
        tags: ['whitelabels'],
        summary: 'Request a certificate: marked pending; TLS is terminated at the proxy (decision 007)',
        params: ZIdParams,
        response: { 200: ZWhitelabelMessageResponse, ...errors },
      },
    },
    async (request) => {
      const data = await requestCertificate(ctxOf(deps, request), {
        id: request.params.id,
        client: clientOf(request),
        agencies,
      });
      return {
        success: true as const,
        message: translate('agencies.cert_pending', request.lang, { domain: data.domain }),
        data,
      };
    },
  );
};

/** The order pages' documents (spec 000 §2, the free-trial layout): they run the main agency's script. */
const ORDER_DOCUMENTS = new Set([
  '/register',
  '/order',
  '/trial',
  '/order-thankyou',
  '/business/register',
  '/business/order-thankyou',
  '/b/register',
  '/b/register-thankyou',
]);

/** What the document at a host and path needs of its site (ADR 079, 080). */
export type DocumentSite = {
  /** The site data (spec 000 §3), as GET /v1/settings/site-data answers it. */
  site: TSiteData;
  /** '/' on a site that shows a landing page: the light landing page is served (ADR 080). */
  landing: boolean;
  /** The document runs the agency's custom script: it gets a nonce (ADR 079). */
  customScript: boolean;
};

/**
 * The site behind a document that depends on it, looked up once per request: '/' (an agency's landing
 * page, with its custom script) and the main agency's order pages on the main domain (its script); null
 * for any other path. The landing rule is the contracts' `showsLanding` (validDomain, landingPage, not the
 * main agency).
 */
export async function documentSite(
  deps: Deps,
  input: { host: string; pathname: string },
): Promise<DocumentSite | null> {
  const { pathname } = input;
  if (pathname !== '/' && !ORDER_DOCUMENTS.has(pathname)) return null;
  const site = siteData(deps.config, await agencyForHost({ db: deps.db, deps }, { host: input.host }));
  const landing = pathname === '/' && showsLanding(site);
  const hasScript = site.validDomain && Boolean(site.custom_script?.trim());
  const customScript = hasScript && (pathname === '/' ? landing : site.isMainAgency && site.isMainDomain);
  return { site, landing, customScript };
}

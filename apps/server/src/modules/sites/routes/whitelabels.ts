import { ZWhitelabelList, ZWhitelabelMessageResponse } from '@stn/contracts/agencies';
import { ZIdParams, ZListQuery } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../../platform/auth/plugin.ts';
import type { Deps } from '../../../platform/deps.ts';
import { clientOf } from '../../../platform/http/client.ts';
import { errorResponses as errors } from '../../../platform/http/replies.ts';
import { userContext } from '../../../platform/tenancy/context.ts';
import { agencySummaries, liveAgencyIds } from '../../agencies/service.ts';
import { type AgencyDirectory, listWhitelabels, requestCertificate } from '../whitelabels.ts';

const agencies: AgencyDirectory = { liveIds: liveAgencyIds, summaries: agencySummaries };

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
    async (request) =>
      listWhitelabels(userContext(deps, actorOf(request)), { query: request.query, agencies }),
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
      const data = await requestCertificate(userContext(deps, actorOf(request)), {
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

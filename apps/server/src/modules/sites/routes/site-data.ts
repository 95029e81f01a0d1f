import { ZSiteDataResponse } from '@stn/contracts/site';
import { z } from '@stn/contracts/zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../../platform/deps.ts';
import { agencyForHost } from '../../agencies/service.ts';
import { siteData } from '../service.ts';

export const siteDataRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
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
      data: siteData(
        deps.config,
        await agencyForHost({ db: deps.db, deps }, { host: request.params.domain }),
      ),
    }),
  );
};

import { ZErrorResponse } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import { ZPageParams, ZPageRequest, ZPageResponse } from '@stn/contracts/users';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../../platform/auth/plugin.ts';
import type { Deps } from '../../../platform/deps.ts';
import { userContext } from '../../../platform/tenancy/context.ts';
import { getPage, putPage } from '../pages.ts';

const tags = ['pages'];
const errors = { 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse };

export const pagesRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/v1/pages/:key',
    {
      config: { capability: 'pages.read' },
      schema: {
        tags,
        summary:
          "A page (training, terms-of-services, privacy-policy): an agency sees its own terms/privacy if it wrote them, else the platform's",
        params: ZPageParams,
        response: { 200: ZPageResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getPage(userContext(deps, actorOf(request)), { key: request.params.key }),
    }),
  );

  app.put(
    '/v1/pages/:key',
    {
      config: {
        capability: 'pages.edit',
      },
      schema: {
        tags,
        summary:
          "Write a page: platform admins the platform's pages, an AgencyAdmin its own terms-of-services and privacy-policy",
        params: ZPageParams,
        body: ZPageRequest,
        response: { 200: ZPageResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('users.pages.updated', request.lang),
      data: await putPage(userContext(deps, actorOf(request)), {
        ...request.body,
        key: request.params.key,
      }),
    }),
  );
};

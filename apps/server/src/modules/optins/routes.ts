// The free-demo opt-in API (issue 23; spec 001 POST and GET /v1/agencies/optin-users): the landing page's
// public form answers for the agency whose site it is on (`domain`, else the request's Host), limited per
// caller address; the agency's list and its CSV under the capability landingPage.manage.
import { ZErrorResponse, ZSuccessMessage } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import {
  ZOptinUserExportQuery,
  ZOptinUserList,
  ZOptinUserListQuery,
  ZOptinUserRequest,
} from '@stn/contracts/optins';
import { z } from '@stn/contracts/zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../platform/deps.ts';
import { clientOf } from '../../platform/http/client.ts';
import { AppError } from '../../platform/http/errors.ts';
import { linkHolderContext } from '../../platform/tenancy/context.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import { RateLimiter } from '../../platform/widget/tree.ts';
import { createOptinUser, exportOptinUsers, listOptinUsers } from './service.ts';

const tags = ['optins'];
const denied = { 401: ZErrorResponse, 403: ZErrorResponse };
const config = { capability: 'landingPage.manage' } as const;

/** The host a public call is made on: the `domain` the page names, else the request's own. */
const hostOf = (request: FastifyRequest, named?: string) => named ?? request.host ?? request.hostname;

export const optinsRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  // A public write anyone may repeat: limited per caller address, in-process, like the other public
  // checks (ADR 019). Over the limit: 429, and nothing is stored or mailed.
  const perAddress = new RateLimiter(deps.config.publicCheckRatePerAddress);

  app.post(
    '/v1/agencies/optin-users',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          "A visitor of an agency's landing page asks for a free demo (the site in `domain`, else Host)",
        body: ZOptinUserRequest,
        response: { 200: ZSuccessMessage, 404: ZErrorResponse, 422: ZErrorResponse, 429: ZErrorResponse },
      },
    },
    async (request) => {
      if (!perAddress.take(request.ip))
        throw new AppError('TOO_MANY', 'optins.throttle', undefined, {}, 'optins.throttle');
      const { domain, ...person } = request.body;
      await createOptinUser(linkHolderContext(deps, 'optins.optin_user', clientOf(request)), {
        ...person,
        host: hostOf(request, domain),
      });
      return { success: true as const, message: translate('optins.submitted', request.lang) };
    },
  );

  app.get(
    '/v1/agencies/optin-users',
    {
      config,
      schema: {
        tags,
        summary: "The agency's demo requests, newest first (keyword; data, meta.total; Admin: ?agency_id=)",
        querystring: ZOptinUserListQuery,
        response: { 200: ZOptinUserList, ...denied, 404: ZErrorResponse, 422: ZErrorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await listOptinUsers(ctxOf(deps, request), request.query)),
    }),
  );

  app.get(
    '/v1/agencies/optin-users/export',
    {
      config,
      schema: {
        tags,
        summary: "CSV file of the agency's demo requests (keyword; Admin: ?agency_id=)",
        querystring: ZOptinUserExportQuery,
        produces: ['text/csv'],
        response: { 200: z.string(), ...denied, 404: ZErrorResponse, 422: ZErrorResponse },
      },
    },
    async (request, reply) => {
      const { csv, filename } = await exportOptinUsers(ctxOf(deps, request), request.query);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .send(csv);
    },
  );
};

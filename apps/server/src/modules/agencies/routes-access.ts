import {
  ZImpersonableUser,
  ZImpersonateResponse,
  ZUniqueDomainRequest,
  ZUniqueResponse,
} from '@stn/contracts/auth';
import { listOf, ZErrorResponse, ZIdParams, ZListQuery } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../platform/deps.ts';
import { clientOf } from '../../platform/http/client.ts';
import { listEnvelope } from '../../platform/http/pagination.ts';
import { linkHolderContext } from '../../platform/tenancy/context.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import { impersonableUsers, impersonate } from './impersonation.ts';
import { domainAvailable } from './service.ts';

const errors = { 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse };

/**
 * The sign-in screens' routes that need agencies (ADR 054): the white-label domain check of the sign-up
 * form and the impersonation drawer's list and start. Their paths and tags are the auth API's; stopping an
 * impersonation stays in the auth module.
 */
export const agencyAccessRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.post(
    '/v1/uniquedomain',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Is this white-label domain or subdomain free',
        body: ZUniqueDomainRequest,
        response: { 200: ZUniqueResponse, 422: ZErrorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        unique: await domainAvailable(linkHolderContext(deps, 'uniquedomain', clientOf(request)), {
          domain: request.body.domain,
        }),
      },
    }),
  );

  app.get(
    '/v1/impersonate/users',
    {
      config: { capability: 'impersonate' },
      schema: {
        tags: ['auth'],
        summary: 'Users the caller may impersonate (the impersonation drawer)',
        querystring: ZListQuery,
        response: { 200: listOf(ZImpersonableUser), 401: ZErrorResponse, 403: ZErrorResponse },
      },
    },
    async (request) => {
      const r = await impersonableUsers(ctxOf(deps, request), request.query);
      return listEnvelope(r.data, r.total, request.query);
    },
  );

  app.post(
    '/v1/impersonate/:id',
    {
      config: { capability: 'impersonate' },
      schema: {
        tags: ['auth'],
        summary: 'Start acting as another user',
        params: ZIdParams,
        response: { 200: ZImpersonateResponse, ...errors },
      },
    },
    async (request) => {
      const r = await impersonate(ctxOf(deps, request), { targetId: request.params.id });
      return {
        success: true as const,
        message: translate('impersonation.started', request.lang, { name: r.name }),
        access_token: r.token,
        token_type: 'Bearer' as const,
        expires_at: r.expiresAt.toISOString(),
        role_group: r.roleGroup,
        is_template: r.isTemplate,
      };
    },
  );
};

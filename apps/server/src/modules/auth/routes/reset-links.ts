import { ZErrorResponse, ZIdParams, ZSuccessMessage } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../../platform/deps.ts';
import { ctxOf } from '../../../platform/tenancy/request.ts';
import { resetLinkTarget } from '../../users/service.ts';
import { requestPasswordReset } from '../service.ts';

// A manager sends one of its users a reset link. The paths are the user screens' (agency users, business
// users); the routes live here because the link is this module's, and the users module does not import
// auth: users/service checks that the caller manages the user and logs it, this module sends the link.

const errors = { 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse };

export const resetLinkRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.post(
    '/v1/agency/users/:id/reset-password',
    {
      config: { capability: 'agencyUsers.manage' },
      schema: {
        tags: ['agency users'],
        summary: 'E-mail an agency user a password reset link',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const { email } = await resetLinkTarget(ctx, { id: request.params.id, kind: 'agency_user' });
      await requestPasswordReset(ctx, { email });
      return {
        success: true as const,
        message: translate('businesses.agency_users.reset_link_sent', request.lang),
      };
    },
  );

  app.post(
    '/v1/businesses/users/:id/reset-password',
    {
      config: { capability: 'businessUsers.manage' },
      schema: {
        tags: ['business users'],
        summary: 'E-mail the user a password reset link',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const { email } = await resetLinkTarget(ctx, { id: request.params.id, kind: 'business_user' });
      await requestPasswordReset(ctx, { email });
      return { success: true as const, message: translate('users.reset_link_sent', request.lang, { email }) };
    },
  );
};

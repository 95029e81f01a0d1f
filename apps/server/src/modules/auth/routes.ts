import {
  ZAuthCheckResponse,
  ZImpersonableUser,
  ZImpersonateResponse,
  ZLoginRequest,
  ZLoginResponse,
  ZPasswordEmailRequest,
  ZPasswordResetRequest,
  ZStopImpersonateResponse,
  ZTokenRequest,
  ZTokenVerifyRequest,
  ZUniqueDomainRequest,
  ZUniqueEmailRequest,
  ZUniqueResponse,
  ZUserInfoRequest,
  ZUserInfoResponse,
} from '@stn/contracts/auth';
import { listOf, ZErrorResponse, ZIdParams, ZListQuery, ZSuccessMessage } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../platform/auth/plugin.ts';
import type { Deps } from '../../platform/deps.ts';
import { clientOf } from '../../platform/http/client.ts';
import { listEnvelope } from '../../platform/http/pagination.ts';
import { emailTaken } from '../accounts/service.ts';
import { domainAvailable } from '../agencies/service.ts';
import {
  requestPasswordReset,
  resetPassword,
  unsubscribe,
  userInfo,
  verifyEmail,
  verifyResetToken,
} from './email-tokens.ts';
import { impersonableUsers, startImpersonation, stopImpersonation } from './impersonation.ts';
import { login, logout } from './service.ts';

const errors = { 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse };
const client = clientOf;
const ok = (request: FastifyRequest, key: string, params: Record<string, string | number> = {}) => ({
  success: true as const,
  message: translate(key, request.lang, params),
});

export const authRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  const { db } = deps;

  app.post(
    '/v1/login',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail and password',
        body: ZLoginRequest,
        response: { 200: ZLoginResponse, 422: ZErrorResponse, 429: ZErrorResponse },
      },
    },
    async (request) => {
      const result = await login(deps, { ...request.body, client: client(request) });
      return {
        success: true as const,
        access_token: result.token,
        token_type: 'Bearer' as const,
        expires_at: result.expiresAt.toISOString(),
        role_group: result.roleGroup,
      };
    },
  );

  app.post(
    '/v1/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'End the current session',
        response: { 200: ZSuccessMessage, 401: ZErrorResponse },
      },
    },
    async (request) => {
      await logout(db, actorOf(request));
      return ok(request, 'auth.logged_out');
    },
  );

  app.get(
    '/v1/auth/check',
    {
      schema: {
        tags: ['auth'],
        summary: 'Keep-alive: is the token still valid',
        response: { 200: ZAuthCheckResponse, 401: ZErrorResponse },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return {
        success: true as const,
        data: {
          valid: true as const,
          expires_at: actor.expiresAt.toISOString(),
          impersonating: actor.tokenKind === 'impersonation',
        },
      };
    },
  );

  app.post(
    '/v1/password/email',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Send a password reset link (answers the same whether or not the address is known)',
        body: ZPasswordEmailRequest,
        response: { 200: ZSuccessMessage, 422: ZErrorResponse },
      },
    },
    async (request) => {
      await requestPasswordReset(deps, request.body.email);
      return ok(request, 'auth.reset_link_sent');
    },
  );

  app.post(
    '/v1/token/verify',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Check a password reset token',
        body: ZTokenVerifyRequest,
        response: { 200: ZSuccessMessage, 422: ZErrorResponse },
      },
    },
    async (request) => {
      await verifyResetToken(db, request.body.token, request.body.email);
      return ok(request, 'auth.token_valid');
    },
  );

  app.post(
    '/v1/password/reset',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Choose a new password with a reset token; ends every session of the account',
        body: ZPasswordResetRequest,
        response: { 200: ZSuccessMessage, 422: ZErrorResponse },
      },
    },
    async (request) => {
      await resetPassword(deps, request.body);
      return ok(request, 'auth.password_reset');
    },
  );

  app.post(
    '/v1/verify-email',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Confirm an e-mail address',
        body: ZTokenRequest,
        response: { 200: ZSuccessMessage, 422: ZErrorResponse },
      },
    },
    async (request) => {
      await verifyEmail(db, request.body.token);
      return ok(request, 'auth.email_verified');
    },
  );

  app.post(
    '/v1/uniquemailchk',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Is this e-mail free',
        body: ZUniqueEmailRequest,
        response: { 200: ZUniqueResponse, 422: ZErrorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: { unique: !(await emailTaken(db, request.body.email, request.body.id)) },
    }),
  );

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
      data: { unique: await domainAvailable({ db, deps }, { domain: request.body.domain }) },
    }),
  );

  app.post(
    '/v1/userinfo',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Who a reset or verification link belongs to',
        body: ZUserInfoRequest,
        response: { 200: ZUserInfoResponse, 422: ZErrorResponse },
      },
    },
    async (request) => ({ success: true as const, data: await userInfo(db, request.body.token) }),
  );

  app.post(
    '/v1/unsubscribe',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Stop notification e-mails',
        body: ZTokenRequest,
        response: { 200: ZSuccessMessage, 422: ZErrorResponse },
      },
    },
    async (request) => {
      await unsubscribe(db, request.body.token);
      return ok(request, 'auth.unsubscribed');
    },
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
      const r = await impersonableUsers(deps, actorOf(request), request.query);
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
      const r = await startImpersonation(deps, actorOf(request), request.params.id, client(request));
      return {
        ...ok(request, 'impersonation.started', { name: r.name }),
        access_token: r.token,
        token_type: 'Bearer' as const,
        expires_at: r.expiresAt.toISOString(),
        role_group: r.roleGroup,
        is_template: r.isTemplate,
      };
    },
  );

  app.delete(
    '/v1/impersonate',
    {
      schema: {
        tags: ['auth'],
        summary: 'Stop impersonating (called with the impersonation token)',
        response: { 200: ZStopImpersonateResponse, 400: ZErrorResponse, 401: ZErrorResponse },
      },
    },
    async (request) => {
      const r = await stopImpersonation(deps, actorOf(request), client(request));
      return { ...ok(request, 'impersonation.stopped'), role_group: r.roleGroup };
    },
  );
};

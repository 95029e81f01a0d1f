import {
  ZAuthCheckResponse,
  ZLoginRequest,
  ZLoginResponse,
  ZPasswordEmailRequest,
  ZPasswordResetRequest,
  ZStopImpersonateResponse,
  ZTokenRequest,
  ZTokenVerifyRequest,
  ZUniqueEmailRequest,
  ZUniqueResponse,
  ZUserInfoRequest,
  ZUserInfoResponse,
} from '@stn/contracts/auth';
import { ZErrorResponse, ZSuccessMessage } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../platform/auth/plugin.ts';
import { logout } from '../../platform/auth/sessions.ts';
import type { Deps } from '../../platform/deps.ts';
import { clientOf } from '../../platform/http/client.ts';
import { AppError, forbidden } from '../../platform/http/errors.ts';
import { enqueue } from '../../platform/queue/queue.ts';
import { inTransaction, linkHolderContext } from '../../platform/tenancy/context.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import { RateLimiter } from '../../platform/widget/tree.ts';
import { isEmailTaken } from '../users/service.ts';
import { stopImpersonation } from './impersonation.ts';
import { passwordResetRequestJob } from './jobs.ts';
import { resetLinkRoutes } from './routes/reset-links.ts';
import { login, resetPassword, unsubscribe, userInfo, verifyEmail, verifyResetToken } from './service.ts';

const _errors = { 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse };
const client = clientOf;
const ok = (request: FastifyRequest, key: string, params: Record<string, string | number> = {}) => ({
  success: true as const,
  message: translate(key, request.lang, params),
});

export const authRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  // Nobody is signed in on these routes: sign-in and the e-mailed links find their user themselves.
  const anonymous = (request: FastifyRequest, name: string) => linkHolderContext(deps, name, client(request));
  // The public credential routes (reset request, reset, e-mail confirmation) called with an impersonation
  // token are the impersonator's: an impersonation never touches credentials, not even by a link (ADR 050).
  const notImpersonating = (request: FastifyRequest) => {
    if (request.actor?.tokenKind === 'impersonation') throw forbidden('credentials.impersonation');
  };
  await app.register(resetLinkRoutes, deps);

  // The public checks that take an e-mail address (is it free; send it a reset link) would tell anyone
  // which addresses have accounts: limited per caller address and per checked address, in-process
  // (ADR 019). Over the limit: 429, and nothing is looked up.
  const perAddress = new RateLimiter(deps.config.publicCheckRatePerAddress);
  const perEmail = new RateLimiter(deps.config.publicCheckRatePerEmail);
  const throttle = (request: FastifyRequest, email: string) => {
    if (!perAddress.take(request.ip) || !perEmail.take(email.toLowerCase()))
      throw new AppError('TOO_MANY', 'credentials.checks_throttle', undefined, {}, 'auth.checks_throttle');
  };

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
      const result = await login(anonymous(request, 'login'), { ...request.body, client: client(request) });
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
      await inTransaction(ctxOf(deps, request), (ctx) => logout(ctx, actorOf(request)));
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
        summary:
          'Send a password reset link (answers the same, in the same time, whether or not the address is known)',
        body: ZPasswordEmailRequest,
        response: { 200: ZSuccessMessage, 403: ZErrorResponse, 422: ZErrorResponse, 429: ZErrorResponse },
      },
    },
    async (request) => {
      notImpersonating(request);
      throttle(request, request.body.email);
      // The same one insert for any address: the job does the lookup and the mail.
      await enqueue(anonymous(request, 'password.email'), passwordResetRequestJob, {
        email: request.body.email,
      });
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
      await verifyResetToken(anonymous(request, 'token.verify'), request.body);
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
        response: { 200: ZSuccessMessage, 403: ZErrorResponse, 422: ZErrorResponse },
      },
    },
    async (request) => {
      notImpersonating(request);
      await resetPassword(anonymous(request, 'password.reset'), request.body);
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
        response: { 200: ZSuccessMessage, 403: ZErrorResponse, 422: ZErrorResponse },
      },
    },
    async (request) => {
      notImpersonating(request);
      const { changedTo } = await verifyEmail(anonymous(request, 'verify-email'), request.body);
      return changedTo
        ? ok(request, 'auth.email_changed', { email: changedTo })
        : ok(request, 'auth.email_verified');
    },
  );

  app.post(
    '/v1/uniquemailchk',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Is this e-mail free (limited per caller address and per checked address)',
        body: ZUniqueEmailRequest,
        response: { 200: ZUniqueResponse, 422: ZErrorResponse, 429: ZErrorResponse },
      },
    },
    async (request) => {
      throttle(request, request.body.email);
      return {
        success: true as const,
        data: {
          unique: !(await isEmailTaken(anonymous(request, 'uniquemailchk'), {
            email: request.body.email,
            exceptUserId: request.body.id,
          })),
        },
      };
    },
  );

  app.post(
    '/v1/userinfo',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Who a reset, invitation or verification link belongs to (purpose says which)',
        body: ZUserInfoRequest,
        response: { 200: ZUserInfoResponse, 422: ZErrorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: await userInfo(anonymous(request, 'userinfo'), request.body),
    }),
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
      await unsubscribe(anonymous(request, 'unsubscribe'), request.body);
      return ok(request, 'auth.unsubscribed');
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
      const r = await stopImpersonation(ctxOf(deps, request));
      return { ...ok(request, 'impersonation.stopped'), role_group: r.roleGroup };
    },
  );
};

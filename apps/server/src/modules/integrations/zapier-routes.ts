import { ZContactListQuery } from '@stn/contracts/contacts';
import { ZErrorResponse, ZIdParams, ZSuccessMessage } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import {
  ZAgencyZapier,
  ZApiKeyCreate,
  ZApiKeyCreated,
  ZApiKeyList,
  ZHook,
  ZHookCreate,
  ZOAuthLoginPreview,
  ZOAuthLoginQuery,
  ZOAuthLoginRequest,
  ZOAuthLoginResponse,
  ZOAuthTokenRequest,
  ZSampleParams,
  ZSamples,
  ZZapierConnectionList,
  ZZapierContact,
  ZZapierMe,
  ZZapierResult,
  ZZapierSendText,
  ZZapierStartAutomation,
  ZZapierTag,
} from '@stn/contracts/zapier';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../platform/auth/plugin.ts';
import type { Deps } from '../../platform/deps.ts';
import { clientOf } from '../../platform/http/client.ts';
import { linkHolderContext, targetAgency } from '../../platform/tenancy/context.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import { listContacts } from '../contacts/service.ts';
import {
  agencyZapier,
  createApiKey,
  listApiKeys,
  listConnections,
  OAuthError,
  oauthLogin,
  oauthPreview,
  oauthToken,
  revokeApiKey,
  revokeConnection,
  subscribeHook,
  unsubscribeHook,
  type ZapierCaller,
  zapierCaller,
  zapierMe,
} from './zapier.ts';
import { zapierAddTag, zapierSaveContact, zapierSendText, zapierStartAutomation } from './zapier-actions.ts';
import { sampleOf } from './zapier-hooks.ts';

const tags = ['zapier'];
const errors = { 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse };

declare module 'fastify' {
  interface FastifyRequest {
    zapier?: { caller: ZapierCaller; ctx: import('../../platform/tenancy/context.ts').Ctx };
  }
}

function credentials(request: FastifyRequest) {
  const header = request.headers.authorization;
  const [scheme, value] = (header ?? '').split(' ');
  const key = request.headers['x-api-key'];
  return {
    bearer: scheme?.toLowerCase() === 'bearer' && value ? value.trim() : undefined,
    apiKey: typeof key === 'string' ? key.trim() : undefined,
  };
}

const zap = (request: FastifyRequest) => {
  if (!request.zapier) throw new Error('zapier caller missing');
  return request.zapier;
};

/**
 * Zapier's own calls (`/v1/zapier/*`): public to the API tree's session guard, authenticated here by
 * Zapier's access token or an API key (ADR 089), then gated.
 */
const zapierApi: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.decorateRequest('zapier', undefined);
  app.addHook('preHandler', async (request) => {
    request.zapier = await zapierCaller(
      linkHolderContext(deps, 'zapier caller', clientOf(request)),
      credentials(request),
    );
  });
  const config = { access: 'public' as const };

  app.get(
    '/v1/zapier/me',
    {
      config,
      schema: {
        tags,
        summary: "Zapier's connection test and label",
        response: { 200: ZZapierMe, ...errors },
      },
    },
    async (request) => {
      const { caller, ctx } = zap(request);
      return { success: true as const, data: await zapierMe(ctx, caller) };
    },
  );

  app.post(
    '/v1/zapier/hooks',
    {
      config,
      schema: {
        tags,
        summary: 'Subscribe a REST hook',
        body: ZHookCreate,
        response: { 200: ZHook, ...errors },
      },
    },
    async (request) => {
      const { caller, ctx } = zap(request);
      return { success: true as const, data: await subscribeHook(ctx, caller, request.body) };
    },
  );

  app.delete(
    '/v1/zapier/hooks/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Unsubscribe a REST hook',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      const { caller, ctx } = zap(request);
      await unsubscribeHook(ctx, caller, request.params);
      return { success: true as const, message: translate('zapier.unsubscribed', request.lang) };
    },
  );

  app.get(
    '/v1/zapier/samples/:event',
    {
      config,
      schema: {
        tags,
        summary: "A trigger's sample for Zapier's editor (the business's latest contacts for new_contact)",
        params: ZSampleParams,
        response: { 200: ZSamples, ...errors },
      },
    },
    async (request) => {
      const { ctx } = zap(request);
      const event = request.params.event;
      if (event === 'new_contact') {
        const rows = (await listContacts(ctx, ZContactListQuery.parse({ perPage: 3 }))).data;
        if (rows.length > 0)
          return {
            success: true as const,
            data: rows.map((c) => ({
              id: `contact-${c.id}`,
              contact_id: c.id,
              phone: c.phone,
              first_name: c.first_name,
              last_name: c.last_name,
              email: c.email,
              tags: c.tags.map((t) => t.name),
              occurred_at: c.created_at,
            })),
          };
      }
      return { success: true as const, data: [sampleOf(event)] };
    },
  );

  const action = <T>(summary: string, body: T) => ({
    config,
    schema: { tags, summary, body, response: { 200: ZZapierResult, ...errors, 429: ZErrorResponse } },
  });
  app.post(
    '/v1/zapier/actions/send-text',
    action('Send a text to a contact', ZZapierSendText),
    async (request) => ({
      success: true as const,
      data: await zapierSendText(zap(request).ctx, request.body),
    }),
  );
  app.post(
    '/v1/zapier/actions/contact',
    action('Create or update a contact by phone', ZZapierContact),
    async (request) => ({
      success: true as const,
      data: await zapierSaveContact(zap(request).ctx, request.body),
    }),
  );
  app.post(
    '/v1/zapier/actions/tag',
    action('Add a tag to a contact (by phone)', ZZapierTag),
    async (request) => ({
      success: true as const,
      data: await zapierAddTag(zap(request).ctx, request.body),
    }),
  );
  app.post(
    '/v1/zapier/actions/start-automation',
    action('Start an automation for a contact (by phone)', ZZapierStartAutomation),
    async (request) => ({
      success: true as const,
      data: await zapierStartAutomation(zap(request).ctx, request.body),
    }),
  );
};

/** The consent, the business's keys and connections, the agency's screen (signed-in users). */
export const zapierRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  await app.register(zapierApi, deps);

  app.get(
    '/v1/oauth-login',
    {
      schema: {
        tags,
        summary: 'The consent step of /auth/login: the app and the business it would act for',
        querystring: ZOAuthLoginQuery,
        response: { 200: ZOAuthLoginPreview, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await oauthPreview(ctxOf(deps, request), actorOf(request), request.query),
    }),
  );
  app.post(
    '/v1/oauth-login',
    {
      schema: {
        tags,
        summary: "A business admin's consent: a one-use code (10 minutes) in the redirect address",
        body: ZOAuthLoginRequest,
        response: { 200: ZOAuthLoginResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await oauthLogin(ctxOf(deps, request), actorOf(request), request.body),
    }),
  );

  const admin = { capability: 'businessSettings.manage' as const };
  app.get(
    '/v1/businesses/zapier/keys',
    {
      config: admin,
      schema: { tags, summary: "The business's API keys", response: { 200: ZApiKeyList, ...errors } },
    },
    async (request) => ({ success: true as const, data: await listApiKeys(ctxOf(deps, request)) }),
  );
  app.post(
    '/v1/businesses/zapier/keys',
    {
      config: admin,
      schema: {
        tags,
        summary: 'A new API key, shown once',
        body: ZApiKeyCreate,
        response: { 200: ZApiKeyCreated, ...errors },
      },
    },
    async (request, reply) =>
      reply.send({
        success: true as const,
        data: await createApiKey(ctxOf(deps, request), actorOf(request), request.body),
      }),
  );
  app.delete(
    '/v1/businesses/zapier/keys/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Revoke an API key',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await revokeApiKey(ctxOf(deps, request), request.params);
      return { success: true as const, message: translate('zapier.key_revoked', request.lang) };
    },
  );
  app.get(
    '/v1/businesses/zapier/connections',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Zapier connections of the business',
        response: { 200: ZZapierConnectionList, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await listConnections(ctxOf(deps, request)) }),
  );
  app.delete(
    '/v1/businesses/zapier/connections/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Revoke a Zapier connection',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await revokeConnection(ctxOf(deps, request), request.params);
      return { success: true as const, message: translate('zapier.connection_revoked', request.lang) };
    },
  );
  app.get(
    '/v1/agencies/zapier',
    {
      config: { capability: 'zapier.use' },
      schema: { tags, summary: "The agency's zapier screen", response: { 200: ZAgencyZapier, ...errors } },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      return { success: true as const, data: await agencyZapier(ctx, { agencyId: targetAgency(ctx) }) };
    },
  );
};

/**
 * The token endpoint at /oauth/token (outside the API tree, as OAuth clients expect): form-encoded or
 * JSON, the client by its id and secret in the body or HTTP Basic. Answers RFC 6749's shapes.
 */
export const zapierTokenRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 10_000 },
    (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
  app.post(
    '/oauth/token',
    {
      schema: {
        tags,
        summary: 'OAuth 2 token endpoint (authorization_code, refresh_token)',
        body: ZOAuthTokenRequest,
      },
    },
    async (request, reply) => {
      const input = { ...request.body };
      const basic = request.headers.authorization?.match(/^Basic\s+(.+)$/i)?.[1];
      if (basic) {
        const [id, ...secret] = Buffer.from(basic, 'base64').toString('utf8').split(':');
        input.client_id ??= decodeURIComponent(id ?? '');
        input.client_secret ??= decodeURIComponent(secret.join(':'));
      }
      reply.header('cache-control', 'no-store');
      try {
        return await oauthToken(linkHolderContext(deps, 'zapier token', clientOf(request)), input);
      } catch (err) {
        if (!(err instanceof OAuthError)) throw err;
        return reply.status(err.status).send({ error: err.error, error_description: err.description });
      }
    },
  );
};

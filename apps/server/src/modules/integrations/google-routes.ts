import {
  ZGoogleAccountLocationList,
  ZGoogleAuthorizeQuery,
  ZGoogleAuthorizeResponse,
  ZGoogleConnectRequest,
  ZGoogleIntegrationList,
  ZGoogleIntegrationResponse,
  ZGoogleLocationList,
  ZGoogleLocationRequest,
  ZGoogleLocationResponse,
} from '@stn/contracts/google';
import { ZErrorResponse, ZIdParams, ZSuccessMessage } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../platform/deps.ts';
import { GoogleUnavailableError, googleStandInFor, SANDBOX_PATH } from '../../platform/google/client.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import {
  connectGoogle,
  createGoogleLocation,
  deleteGoogleLocation,
  disconnectGoogle,
  getGoogleLocation,
  listGoogleIntegrations,
  listGoogleLocations,
  locationsByGoogle,
  startConnect,
  updateGoogleLocation,
} from './google-service.ts';

// Google Business locations (ADR 091): spec 001 "Integrations" google-integrations, locations-by-google and
// google-locations. The business's admins connect accounts and tie locations (the settings screen's card).
const tags = ['integrations'];
const config = { capability: 'businessSettings.manage' } as const;
const denied = { 401: ZErrorResponse, 403: ZErrorResponse };
const errors = {
  ...denied,
  404: ZErrorResponse,
  409: ZErrorResponse,
  422: ZErrorResponse,
  503: ZErrorResponse,
};

/** Google out of reach answers 503 with a plain message (Google's own text is logged, never shown). */
async function guarded<T>(request: FastifyRequest, reply: FastifyReply, work: () => Promise<T>) {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof GoogleUnavailableError)) throw err;
    request.log.warn({ err }, 'Google: the API failed');
    return reply.status(503).send({
      success: false as const,
      code: 'UNAVAILABLE' as const,
      message: translate('google.unavailable', request.lang),
    });
  }
}

export const googleRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/v1/google-integrations',
    {
      config,
      schema: {
        tags,
        summary: "The business's Google connections (account, e-mail; never a token)",
        response: { 200: ZGoogleIntegrationList, ...denied },
      },
    },
    async (request) => ({ success: true as const, data: await listGoogleIntegrations(ctxOf(deps, request)) }),
  );

  app.get(
    '/v1/google-integrations/authorize',
    {
      config,
      schema: {
        tags,
        summary: "Starts connecting Google: the consent page's address with a signed state",
        querystring: ZGoogleAuthorizeQuery,
        response: { 200: ZGoogleAuthorizeResponse, ...denied, 422: ZErrorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: startConnect(ctxOf(deps, request), request.query),
    }),
  );

  app.post(
    '/v1/google-integrations',
    {
      config,
      schema: {
        tags,
        summary: "Finishes connecting Google: Google's code exchanged, the refresh token kept sealed",
        body: ZGoogleConnectRequest,
        response: { 200: ZGoogleIntegrationResponse, ...errors },
      },
    },
    async (request, reply) =>
      guarded(request, reply, async () => ({
        success: true as const,
        message: translate('google.connected', request.lang),
        data: await connectGoogle(ctxOf(deps, request), request.body),
      })),
  );

  app.delete(
    '/v1/google-integrations/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Disconnects a Google account (its locations go with it)',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await disconnectGoogle(ctxOf(deps, request), request.params.id);
      return { success: true as const, message: translate('google.disconnected', request.lang) };
    },
  );

  app.get(
    '/v1/businesses/locations-by-google/:id',
    {
      config,
      schema: {
        tags,
        summary: "The locations of a connected Google account, with each one's review link",
        params: ZIdParams,
        response: { 200: ZGoogleAccountLocationList, ...errors },
      },
    },
    async (request, reply) =>
      guarded(request, reply, async () => ({
        success: true as const,
        data: await locationsByGoogle(ctxOf(deps, request), request.params.id),
      })),
  );

  app.get(
    '/v1/google-locations',
    {
      config,
      schema: {
        tags,
        summary: "The business's Google locations, each tied to an install",
        response: { 200: ZGoogleLocationList, ...denied },
      },
    },
    async (request) => ({ success: true as const, data: await listGoogleLocations(ctxOf(deps, request)) }),
  );

  app.get(
    '/v1/google-locations/:id',
    {
      config,
      schema: {
        tags,
        summary: 'One Google location',
        params: ZIdParams,
        response: { 200: ZGoogleLocationResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getGoogleLocation(ctxOf(deps, request), request.params.id),
    }),
  );

  app.post(
    '/v1/google-locations',
    {
      config,
      schema: {
        tags,
        summary:
          "Ties a location of a connected account to an install (one per install): the install's review link",
        body: ZGoogleLocationRequest,
        response: { 200: ZGoogleLocationResponse, ...errors },
      },
    },
    async (request, reply) =>
      guarded(request, reply, async () => ({
        success: true as const,
        message: translate('google.location_saved', request.lang),
        data: await createGoogleLocation(ctxOf(deps, request), request.body),
      })),
  );

  app.put(
    '/v1/google-locations/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Changes a Google location (its account, location or install)',
        params: ZIdParams,
        body: ZGoogleLocationRequest,
        response: { 200: ZGoogleLocationResponse, ...errors },
      },
    },
    async (request, reply) =>
      guarded(request, reply, async () => ({
        success: true as const,
        message: translate('google.location_saved', request.lang),
        data: await updateGoogleLocation(ctxOf(deps, request), { ...request.body, id: request.params.id }),
      })),
  );

  app.delete(
    '/v1/google-locations/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Deletes a Google location (the install has no review link any more)',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await deleteGoogleLocation(ctxOf(deps, request), request.params.id);
      return { success: true as const, message: translate('google.location_deleted', request.lang) };
    },
  );

  // The in-process stand-in's consent page (no GOOGLE_BASE_URL): what Google's would be, served here so that
  // a laptop user can click through. Outside /api/v1, so no session is asked (Google's page has none of ours).
  const standIn = googleStandInFor(deps.config);
  if (standIn) {
    const page = (answer: ReturnType<typeof standIn.consentPage>, reply: FastifyReply) => {
      reply.status(answer.status).headers(answer.headers);
      return reply.send(answer.body);
    };
    const query = (request: FastifyRequest) => new URL(request.url, 'http://x').searchParams;
    app.get(
      `${SANDBOX_PATH.replace(/^\/api/, '')}/o/oauth2/auth`,
      { schema: { hide: true } },
      (request, reply) => page(standIn.consentPage(query(request)), reply),
    );
    app.get(
      `${SANDBOX_PATH.replace(/^\/api/, '')}/o/oauth2/approve`,
      { schema: { hide: true } },
      (request, reply) => {
        // Back to a screen of this same host only: the page is no open redirect.
        const q = query(request);
        let host = '';
        try {
          host = new URL(q.get('redirect_uri') ?? '').host;
        } catch {}
        if (host !== request.headers.host)
          return reply.status(400).type('text/plain').send('invalid_request');
        return page(standIn.approve(q), reply);
      },
    );
  }
};

import { ZErrorResponse } from '@stn/contracts/http';
import { ZBeamsAuthRequest, ZBeamsAuthResponse, ZVapidKey } from '@stn/contracts/push';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../platform/deps.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import { registerSubscription, vapidPublicKey } from './service.ts';

// The spec's push sign-in path (spec 000 §8, spec 001): api/v1/pusher/beams-auth, served by our own Web
// Push registration (ADR 037). Business users with the inbox may register their browser.
export const pushRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/v1/pusher/vapid-key',
    {
      config: { capability: 'inbox.use' },
      schema: {
        tags: ['push'],
        summary: "The platform's VAPID public key, for the browser's push subscription",
        response: { 200: ZVapidKey, 401: ZErrorResponse, 403: ZErrorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: { public_key: await vapidPublicKey(ctxOf(deps, request)) },
    }),
  );

  app.post(
    '/v1/pusher/beams-auth',
    {
      config: { capability: 'inbox.use' },
      schema: {
        tags: ['push'],
        summary:
          "Registers the signed-in user's browser push subscription (desktop notifications of new texts)",
        body: ZBeamsAuthRequest,
        response: { 200: ZBeamsAuthResponse, 401: ZErrorResponse, 403: ZErrorResponse, 422: ZErrorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: await registerSubscription(ctxOf(deps, request), request.body),
    }),
  );
};

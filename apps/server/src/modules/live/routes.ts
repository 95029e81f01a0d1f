// GET /v1/live-data (spec 000 §7, ADR 083): the live view of a business (its dashboard) or of an agency
// across its businesses. HTTP only: the rules are in ./service.ts.
import { ZErrorResponse } from '@stn/contracts/http';
import { ZLiveDataResponse } from '@stn/contracts/live';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../platform/deps.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import { liveData } from './service.ts';

const errors = { 401: ZErrorResponse, 403: ZErrorResponse };

export const liveRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/v1/live-data',
    {
      config: { capability: 'liveData.view' },
      schema: {
        tags: ['analytics'],
        summary:
          'Calls ringing and in progress now, and visitors with the widget open (kept current by the realtime live_data message)',
        response: { 200: ZLiveDataResponse, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await liveData(ctxOf(deps, request)) }),
  );
};

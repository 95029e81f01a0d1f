// The widget's heartbeat (POST /api/widget/v1/presence, ADR 083) on the widget tree, which has found the
// install by its key (here in the query: navigator.sendBeacon sets no header), granted CORS and applied the
// per-address and per-install limits. HTTP only: the rules are in ./service.ts.
import { ZErrorResponse } from '@stn/contracts/http';
import { ZPresenceAnswer, ZPresenceQuery } from '@stn/contracts/live';
import { PRESENCE_PATH } from '@stn/contracts/presence';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { widgetOf } from '../../platform/widget/tree.ts';
import { recordPresence } from './service.ts';

const errors = { 401: ZErrorResponse, 422: ZErrorResponse, 429: ZErrorResponse };

export async function liveWidgetRoutes(tree: FastifyInstance): Promise<void> {
  tree.post(
    PRESENCE_PATH,
    {
      schema: {
        tags: ['widget'],
        summary:
          "The widget's panel is open (a beat every 30 s) or was closed (open=0): the live view's visitors",
        querystring: ZPresenceQuery,
        response: { 200: ZPresenceAnswer, ...errors },
      },
    },
    async (request, reply) => {
      const { install, ctx } = widgetOf(request);
      // The goodbye comes as a beacon, a no-cors request: without this the browser blocks its answer (the
      // platform's default is same-origin) and says so in the console of the business's page.
      reply.header('cross-origin-resource-policy', 'cross-origin');
      const query = request.query as z.infer<typeof ZPresenceQuery>;
      const data = await recordPresence(ctx, {
        installId: install.id,
        visitorId: query.visitor,
        open: query.open === '1',
      });
      return { success: true as const, data };
    },
  );
}

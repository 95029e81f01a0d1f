import { ZAiDraftRequest, ZAiDraftResponse } from '@stn/contracts/ai';
import { ZErrorResponse } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AiUnavailableError } from '../../platform/ai/client.ts';
import type { Deps } from '../../platform/deps.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import { generateDraft } from './service.ts';
import { zapierRoutes } from './zapier-routes.ts';

const tags = ['integrations'];

export const integrationsRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  // Zapier (ADR 089): the consent, keys and connections, and Zapier's own calls.
  await app.register(zapierRoutes, deps);
  app.post(
    '/v1/businesses/generate-ai-content',
    {
      // Drafts are written where templates are (the template editor); broadcasts' and texts' writers are
      // business managers too (ADR 086).
      config: { capability: 'templates.use' },
      schema: {
        tags,
        summary: 'An AI draft of a text, a template or a broadcast from a prompt (at most 1,600 characters)',
        body: ZAiDraftRequest,
        response: {
          200: ZAiDraftResponse,
          401: ZErrorResponse,
          403: ZErrorResponse,
          404: ZErrorResponse,
          422: ZErrorResponse,
          429: ZErrorResponse,
          503: ZErrorResponse,
        },
      },
    },
    async (request, reply) => {
      try {
        return { success: true as const, data: await generateDraft(ctxOf(deps, request), request.body) };
      } catch (err) {
        if (!(err instanceof AiUnavailableError)) throw err;
        request.log.warn({ err }, 'AI draft: the API failed');
        return reply.status(503).send({
          success: false as const,
          code: 'UNAVAILABLE' as const,
          message: translate('integrations.ai_failed', request.lang),
        });
      }
    },
  );
};

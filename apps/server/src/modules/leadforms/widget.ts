// The lead forms' calls in the website widget's tree (/api/widget/v1/..., issue 21, ADR 074): the install's
// lead form, an embedded form of the install, and a visitor's submission. The tree (platform/widget/tree.ts)
// has already found the install by its key, granted CORS to the page's origin and applied its per-address and
// per-install limits; each route answers through its response schema (ADR 055). HTTP only: the rules are in
// ./submit.ts.
import { ZErrorResponse } from '@stn/contracts/http';
import {
  ZLeadFormPublic,
  ZLeadLanguage,
  ZWidgetEmbeddedForm,
  ZWidgetLeadAnswer,
  ZWidgetLeadRequest,
} from '@stn/contracts/leadforms';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { widgetOf } from '../../platform/widget/tree.ts';
import { submitLead, widgetEmbeddedForm, widgetLeadForm } from './submit.ts';

const errors = {
  401: ZErrorResponse,
  403: ZErrorResponse,
  404: ZErrorResponse,
  422: ZErrorResponse,
  429: ZErrorResponse,
};
const tags = ['widget'];
const answer = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });
const ok = <T>(data: T) => ({ success: true as const, data });

/** The request without the language's default: absent, the browser's (Accept-Language) is used. */
const ZLeadBody = ZWidgetLeadRequest.extend({ language: ZLeadLanguage.optional() });

export async function leadformsWidgetRoutes(tree: FastifyInstance): Promise<void> {
  tree.get(
    '/v1/lead-form',
    {
      schema: {
        tags,
        summary:
          "The install's lead form (the LeadLabel trigger's), as the visitor sees it; 404 when none is on",
        querystring: z.object({ key: z.string().optional() }),
        response: { 200: answer(ZLeadFormPublic), ...errors },
      },
    },
    async (request, reply) => {
      const { install, ctx } = widgetOf(request);
      reply.header('cache-control', 'no-cache');
      return ok(await widgetLeadForm(ctx, { install }));
    },
  );

  tree.get(
    '/v1/forms/:id',
    {
      schema: {
        tags,
        summary:
          'An active embedded form of this install: its settings and its lead form in the look it takes',
        params: z.object({ id: z.coerce.number().int().positive() }),
        querystring: z.object({ key: z.string().optional() }),
        response: { 200: answer(ZWidgetEmbeddedForm), ...errors },
      },
    },
    async (request, reply) => {
      const { install, ctx } = widgetOf(request);
      reply.header('cache-control', 'no-cache');
      const { id } = request.params as { id: number };
      return ok(await widgetEmbeddedForm(ctx, { install, id }));
    },
  );

  tree.post(
    '/v1/lead',
    {
      schema: {
        tags,
        summary:
          "A visitor sends a lead form (the install's, or an embedded form's): the contact is found or made and tagged",
        body: ZLeadBody,
        response: { 200: answer(ZWidgetLeadAnswer), ...errors },
      },
    },
    async (request) => {
      const { install, ctx } = widgetOf(request);
      const body = request.body as z.infer<typeof ZLeadBody>;
      return ok(
        await submitLead(ctx, {
          install,
          body,
          lang: request.lang,
          userAgent: request.headers['user-agent'],
        }),
      );
    },
  );
}

// The website widget's public API (/api/widget/v1/..., issue 11, ADR 041): the install's config, the
// instant callback and a scheduled call, the bookable times, 'text us' and the visitor's conversation.
// The widget tree (platform/widget/tree.ts) has already found the install by its key, granted CORS to the
// page's origin, applied the per-address and per-install limits and built the visitor's context;
// `request.lang` follows Accept-Language (en, es, br). HTTP only (ADR 055): each route parses, calls the
// widget's service (./service.ts, the rules) and answers through its response schema, so the visitor gets
// what the contract names and nothing else.

import crypto from 'node:crypto';
import { ZErrorResponse } from '@stn/contracts/http';
import {
  widgetAnswer,
  ZWidgetCallbackAnswer,
  ZWidgetCallbackRequest,
  ZWidgetCodeAnswer,
  ZWidgetCodeRequest,
  ZWidgetConfig,
  ZWidgetConversation,
  ZWidgetMessage,
  ZWidgetReplyRequest,
  ZWidgetScheduleAnswer,
  ZWidgetScheduleRequest,
  ZWidgetSlots,
  ZWidgetTextAnswer,
  ZWidgetTextUsRequest,
  ZWidgetVerifyAnswer,
  ZWidgetVerifyRequest,
} from '@stn/contracts/widget';
import type { FastifyInstance } from 'fastify';
import * as zm from 'zod/mini';
import { widgetOf } from '../../platform/widget/tree.ts';
import { MAX_SLOT_DAYS } from '../telephony/service.ts';
import * as svc from './service.ts';

/** A field people leave empty and form-filling robots fill: a filled one is answered and ignored. */
const honeypot = { website: zm.optional(zm.string().check(zm.maxLength(500))) };
const ZCallbackBody = zm.object({ ...ZWidgetCallbackRequest.shape, ...honeypot });
const ZScheduleBody = zm.object({ ...ZWidgetScheduleRequest.shape, ...honeypot });
const ZTextBody = zm.object({ ...ZWidgetTextUsRequest.shape, ...honeypot });
const ZReplyBody = zm.object({ ...ZWidgetReplyRequest.shape, ...honeypot });

/** The refusals a visitor may meet, in the platform's error envelope (the one error handler writes them). */
export const widgetErrors = {
  401: ZErrorResponse,
  403: ZErrorResponse,
  422: ZErrorResponse,
  429: ZErrorResponse,
};
const tags = ['widget'];
const ok = <T>(data: T) => ({ success: true as const, data });

export async function widgetRoutes(tree: FastifyInstance): Promise<void> {
  tree.get(
    '/v1/config',
    {
      schema: {
        tags,
        summary: "The install's public widget configuration (ETag, cached 60 s)",
        response: { 200: widgetAnswer(ZWidgetConfig), ...widgetErrors },
      },
    },
    async (request, reply) => {
      const { install, ctx } = widgetOf(request);
      // Serialized through the route's response schema first, so that the ETag is that of what is sent.
      const body = reply.serialize(ok(await svc.widgetConfig(ctx, { install }))) as string;
      const etag = `"${crypto.createHash('sha1').update(body).digest('base64url')}"`;
      reply.header('etag', etag);
      // open_now moves with the clock: a minute of caching at most.
      reply.header('cache-control', 'public, max-age=60, must-revalidate');
      reply.header('vary', 'Origin, X-Install-Key');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );

  tree.post(
    '/v1/callback',
    {
      schema: {
        tags,
        summary: 'A visitor asks for an instant callback: staff phones ring, the visitor is connected',
        body: ZCallbackBody,
        response: { 200: widgetAnswer(ZWidgetCallbackAnswer), ...widgetErrors },
      },
    },
    async (request) => {
      const { install, ctx } = widgetOf(request);
      const body = request.body as zm.infer<typeof ZCallbackBody>;
      return ok(await svc.askCallback(ctx, { install, body }));
    },
  );

  tree.get(
    '/v1/slots',
    {
      schema: {
        tags,
        summary: "The install's bookable times (every 30 minutes inside its hours), the next `days` days",
        querystring: zm.object({
          days: zm._default(zm.coerce.number().check(zm.int(), zm.minimum(1), zm.maximum(MAX_SLOT_DAYS)), 7),
          key: zm.optional(zm.string()),
        }),
        response: { 200: widgetAnswer(ZWidgetSlots), ...widgetErrors },
      },
    },
    async (request) => {
      const { install, ctx } = widgetOf(request);
      const { days } = request.query as { days: number };
      return ok(svc.widgetSlots(ctx, { install, days }));
    },
  );

  tree.post(
    '/v1/schedule',
    {
      schema: {
        tags,
        summary: 'A visitor schedules a call for a later time, within the install hours',
        body: ZScheduleBody,
        response: { 200: widgetAnswer(ZWidgetScheduleAnswer), ...widgetErrors },
      },
    },
    async (request) => {
      const { install, ctx } = widgetOf(request);
      const body = request.body as zm.infer<typeof ZScheduleBody>;
      return ok(await svc.bookWidgetCall(ctx, { install, body }));
    },
  );

  tree.post(
    '/v1/text',
    {
      schema: {
        tags,
        summary: "'Text us': the visitor's text starts a conversation in the inbox that goes on by SMS",
        body: ZTextBody,
        response: { 200: widgetAnswer(ZWidgetTextAnswer), ...widgetErrors },
      },
    },
    async (request) => {
      const { install, ctx } = widgetOf(request);
      const body = request.body as zm.infer<typeof ZTextBody>;
      return ok(await svc.textUs(ctx, { install, lang: request.lang, body }));
    },
  );

  tree.post(
    '/v1/text/verify',
    {
      schema: {
        tags,
        summary: "The code texted to the visitor's phone: the token then shows the business's replies",
        body: ZWidgetVerifyRequest,
        response: { 200: widgetAnswer(ZWidgetVerifyAnswer), ...widgetErrors },
      },
    },
    async (request) => {
      const { install, ctx } = widgetOf(request);
      const body = request.body as zm.infer<typeof ZWidgetVerifyRequest>;
      return ok(await svc.verifyVisitorCode(ctx, { install, body }));
    },
  );

  tree.post(
    '/v1/text/code',
    {
      schema: {
        tags,
        summary: "The code texted to the visitor's phone again",
        body: ZWidgetCodeRequest,
        response: { 200: widgetAnswer(ZWidgetCodeAnswer), ...widgetErrors },
      },
    },
    async (request) => {
      const { install, ctx } = widgetOf(request);
      const body = request.body as zm.infer<typeof ZWidgetCodeRequest>;
      return ok(await svc.resendVisitorCode(ctx, { install, lang: request.lang, body }));
    },
  );

  tree.post(
    '/v1/text/reply',
    {
      schema: {
        tags,
        summary: 'The visitor writes again in the conversation their token names',
        body: ZReplyBody,
        response: { 200: widgetAnswer(ZWidgetMessage), ...widgetErrors },
      },
    },
    async (request) => {
      const { install, ctx } = widgetOf(request);
      const body = request.body as zm.infer<typeof ZReplyBody>;
      return ok(await svc.replyAsVisitor(ctx, { install, body }));
    },
  );

  tree.get(
    '/v1/conversation',
    {
      schema: {
        tags,
        summary:
          "The visitor's messages with this install since their first text, oldest first (the latest 100)",
        querystring: zm.object({
          token: zm.string().check(zm.maxLength(1000)),
          key: zm.optional(zm.string()),
        }),
        response: { 200: widgetAnswer(ZWidgetConversation), ...widgetErrors },
      },
    },
    async (request, reply) => {
      const { install, ctx } = widgetOf(request);
      // The visitor's own messages: kept by no cache on the way (the URL carries the token).
      reply.header('cache-control', 'no-store');
      const { token } = request.query as { token: string };
      return ok(await svc.visitorConversation(ctx, { install, token }));
    },
  );
}

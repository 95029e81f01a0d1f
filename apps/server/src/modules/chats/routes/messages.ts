// The inbox API's message actions (spec 001 "Chat"): send, resend, cancel a scheduled message, refresh
// the delivery statuses, send a calendar invitation. HTTP only: ../conversation-messages.ts (ADR 034).
import { ZInboxMessage, ZInboxSendInput, ZMessageIdInput, ZSendIcsInput } from '@stn/contracts/chats';
import { ZNoBody } from '@stn/contracts/contacts';
import { ZIdParams } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../../platform/deps.ts';
import { ctxOf } from '../../../platform/tenancy/request.ts';
import {
  cancelInConversation,
  refreshConversation,
  resendInConversation,
  sendIcs,
  sendToContact,
} from '../conversation-messages.ts';
import { inboxUse as config, inboxErrors as errors, inboxTags as tags } from './inbox.ts';

const answer = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.literal(true), message: z.string(), data });

export const inboxMessageRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.post(
    '/v1/chats/contacts/:id/messages',
    {
      config,
      schema: {
        tags,
        summary:
          'Send a text (body, images as data URLs, template_id, send_at to schedule); 422 when the contact may not be texted',
        params: ZIdParams,
        body: ZInboxSendInput,
        response: { 200: answer(ZInboxMessage), ...errors },
      },
    },
    async (request) => {
      const data = await sendToContact(ctxOf(deps, request), { ...request.body, id: request.params.id });
      const key = data.status === 'scheduled' ? 'inbox.message_scheduled' : 'inbox.message_sent';
      return { success: true as const, message: translate(key, request.lang), data };
    },
  );

  app.post(
    '/v1/chats/contacts/:id/resend-messages',
    {
      config,
      schema: {
        tags,
        summary: 'Send a failed message of the conversation again (as a new message)',
        params: ZIdParams,
        body: ZMessageIdInput,
        response: { 200: answer(ZInboxMessage), ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('inbox.resent', request.lang),
      data: await resendInConversation(ctxOf(deps, request), { ...request.body, id: request.params.id }),
    }),
  );

  app.post(
    '/v1/chats/contacts/:id/cancel-schedule',
    {
      config,
      schema: {
        tags,
        summary: 'Cancel a scheduled message of the conversation',
        params: ZIdParams,
        body: ZMessageIdInput,
        response: { 200: answer(ZInboxMessage), ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('inbox.schedule_canceled', request.lang),
      data: await cancelInConversation(ctxOf(deps, request), { ...request.body, id: request.params.id }),
    }),
  );

  app.post(
    '/v1/chats/contacts/:id/refresh',
    {
      config,
      schema: {
        tags,
        summary: "Re-read from the carrier the status of the conversation's messages still in flight",
        params: ZIdParams,
        body: ZNoBody,
        response: { 200: answer(z.array(ZInboxMessage)), ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('inbox.refreshed', request.lang),
      data: await refreshConversation(ctxOf(deps, request), request.params),
    }),
  );

  app.post(
    '/v1/chats/contacts/:id/send-ics',
    {
      config,
      schema: {
        tags,
        summary: 'Send a calendar invitation: a stored .ics file, texted to the contact as a link',
        params: ZIdParams,
        body: ZSendIcsInput,
        response: {
          200: answer(z.object({ ics_file: z.string(), message: ZInboxMessage })),
          ...errors,
        },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('inbox.ics_sent', request.lang),
      data: await sendIcs(ctxOf(deps, request), { ...request.body, id: request.params.id }),
    }),
  );
};

// The inbox API's contact actions (spec 001 "Chat"): start a conversation, e-mail the contact, block and
// unblock, edit and delete. HTTP only: the services are in ../conversations.ts (ADR 034).
import {
  ZContactEmailInput,
  ZInboxContact,
  ZInboxContactUpdate,
  ZInstallIdParams,
  ZStartConversationInput,
} from '@stn/contracts/chats';
import { ZNoBody } from '@stn/contracts/contacts';
import { ZIdParams, ZSuccessMessage } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../../platform/deps.ts';
import { ctxOf } from '../../../platform/tenancy/request.ts';
import {
  blockContact,
  editContact,
  emailContact,
  removeContact,
  startConversation,
} from '../conversations.ts';
import { inboxUse as config, inboxErrors as errors, inboxTags as tags } from './inbox.ts';

const answer = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.literal(true), message: z.string(), data });

export const inboxActionRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.post(
    '/v1/chats/installs/:installId/contacts',
    {
      config,
      schema: {
        tags,
        summary: 'Start a conversation with a new contact of the install (phone, name)',
        params: ZInstallIdParams,
        body: ZStartConversationInput,
        response: { 200: answer(ZInboxContact), ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('inbox.contact_created', request.lang),
      data: await startConversation(ctxOf(deps, request), {
        ...request.body,
        installId: request.params.installId,
      }),
    }),
  );

  app.post(
    '/v1/chats/contacts/:id/email',
    {
      config,
      schema: {
        tags,
        summary: "E-mail the contact (platform mail, sent with the business's name)",
        params: ZIdParams,
        body: ZContactEmailInput,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await emailContact(ctxOf(deps, request), { ...request.body, id: request.params.id });
      return { success: true as const, message: translate('inbox.email_sent', request.lang) };
    },
  );

  for (const [suffix, blocked, key] of [
    ['block', true, 'inbox.blocked'],
    ['unblock', false, 'inbox.unblocked'],
  ] as const) {
    app.post(
      `/v1/chats/contacts/:id/${suffix}`,
      {
        config,
        schema: {
          tags,
          summary: blocked ? 'Block the contact: it is never texted' : 'Unblock the contact',
          params: ZIdParams,
          body: ZNoBody,
          response: { 200: answer(ZInboxContact), ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        message: translate(key, request.lang),
        data: await blockContact(ctxOf(deps, request), { id: request.params.id, blocked }),
      }),
    );
  }

  app.put(
    '/v1/chats/contacts/:id',
    {
      config,
      schema: {
        tags,
        summary: "Edit the contact's name, e-mail, dates and custom fields",
        params: ZIdParams,
        body: ZInboxContactUpdate,
        response: { 200: answer(ZInboxContact), ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('inbox.contact_updated', request.lang),
      data: await editContact(ctxOf(deps, request), { ...request.body, id: request.params.id }),
    }),
  );

  app.delete(
    '/v1/chats/contacts/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete the contact and its conversation',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await removeContact(ctxOf(deps, request), request.params);
      return { success: true as const, message: translate('inbox.contact_deleted', request.lang) };
    },
  );
};

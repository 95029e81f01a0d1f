// The inbox API's reads (spec 001 "Chat"): the conversations of an install, one conversation, its files,
// its history and its messages. HTTP only: the services are in ../inbox.ts (ADR 034).
import {
  ZContactFile,
  ZContactMessageParams,
  ZConversationItem,
  ZInboxContact,
  ZInboxListResponse,
  ZInboxMessage,
  ZInboxQuery,
  ZInstallIdParams,
} from '@stn/contracts/chats';
import { dataOf, listOf, ZErrorResponse, ZIdParams, ZListQuery } from '@stn/contracts/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../../platform/deps.ts';
import { ctxOf } from '../../../platform/tenancy/request.ts';
import {
  contactFiles,
  contactHistory,
  contactMessage,
  contactMessages,
  type InboxList,
  listConversations,
  openConversation,
} from '../inbox.ts';

export const inboxErrors = {
  401: ZErrorResponse,
  403: ZErrorResponse,
  404: ZErrorResponse,
  422: ZErrorResponse,
};
export const inboxUse = { capability: 'inbox.use' as const };
export const inboxTags = ['chats'];
const errors = inboxErrors;
const config = inboxUse;
const tags = inboxTags;

const LISTS: [InboxList, string][] = [
  ['contacts', "The install's contacts (filter type all, sms, voice, cms; keyword; paged)"],
  ['inbox', "The install's conversations, on-top first, then by the last message (with unread counts)"],
  ['inbox-new', "The install's conversations with messages the caller has not seen"],
];

export const inboxReadRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  for (const [list, summary] of LISTS) {
    app.get(
      `/v1/chats/installs/:installId/${list}`,
      {
        config,
        schema: {
          tags,
          summary,
          params: ZInstallIdParams,
          querystring: ZInboxQuery,
          response: { 200: ZInboxListResponse, ...errors },
        },
      },
      async (request) =>
        listConversations(ctxOf(deps, request), {
          ...request.query,
          installId: request.params.installId,
          list,
        }),
    );
  }

  app.get(
    '/v1/chats/contacts/:id',
    {
      config,
      schema: {
        tags,
        summary: 'One conversation with its contact; opening it marks it read for the caller',
        params: ZIdParams,
        response: { 200: dataOf(ZInboxContact).extend({ success: z.literal(true) }), ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await openConversation(ctxOf(deps, request), request.params),
    }),
  );

  app.get(
    '/v1/chats/contacts/:id/files',
    {
      config,
      schema: {
        tags,
        summary: "The media of the conversation's messages, newest first",
        params: ZIdParams,
        response: { 200: dataOf(z.array(ZContactFile)).extend({ success: z.literal(true) }), ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await contactFiles(ctxOf(deps, request), request.params),
    }),
  );

  app.get(
    '/v1/chats/contacts/:id/conversations',
    {
      config,
      schema: {
        tags,
        summary: 'The history: messages and calls together, oldest first',
        params: ZIdParams,
        response: { 200: dataOf(z.array(ZConversationItem)).extend({ success: z.literal(true) }), ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await contactHistory(ctxOf(deps, request), request.params),
    }),
  );

  app.get(
    '/v1/chats/contacts/:id/conversation/:messageId',
    {
      config,
      schema: {
        tags,
        summary: 'One message of the conversation',
        params: ZContactMessageParams,
        response: { 200: dataOf(ZInboxMessage).extend({ success: z.literal(true) }), ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await contactMessage(ctxOf(deps, request), request.params),
    }),
  );

  app.get(
    '/v1/chats/contacts/:id/messages',
    {
      config,
      schema: {
        tags,
        summary: "The conversation's messages, newest first (paged)",
        params: ZIdParams,
        querystring: ZListQuery,
        response: { 200: listOf(ZInboxMessage), ...errors },
      },
    },
    async (request) => contactMessages(ctxOf(deps, request), { ...request.query, id: request.params.id }),
  );
};

import {
  ZAgentParams,
  ZAutomationParams,
  ZBulkResult,
  ZBulkTagRequest,
  ZContactCreate,
  ZContactIds,
  ZContactList,
  ZContactListQuery,
  ZContactResponse,
  ZContactTagRequest,
  ZContactUpdate,
  ZNoBody,
  ZOnTopRequest,
  ZOptOutRequest,
} from '@stn/contracts/contacts';
import { ZErrorResponse, ZIdParams, ZSuccessMessage } from '@stn/contracts/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../../platform/deps.ts';
import { ctxOf } from '../../../platform/tenancy/request.ts';
import {
  addToAutomation,
  bulkBlock,
  bulkDelete,
  bulkOptOut,
  bulkTag,
  createContact,
  deleteContact,
  getContact,
  listContacts,
  removeFromAutomation,
  setAgent,
  setOnTop,
  setOptOut,
  tagContact,
  toContacts,
  updateContact,
} from '../service.ts';
import { contactsAccess as config, denied, errors, t } from './common.ts';

const tags = ['contacts'];

export const contactRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/v1/contacts',
    {
      config,
      schema: {
        tags,
        summary:
          'The contacts, page 1, 10 per page; keyword, type (all, sms, voice, cms), tag_id, install_id, opted_out, blocked',
        querystring: ZContactListQuery,
        response: { 200: ZContactList, ...denied, 422: ZErrorResponse },
      },
    },
    async (request) => listContacts(ctxOf(deps, request), request.query),
  );

  app.post(
    '/v1/contacts',
    {
      config,
      schema: {
        tags,
        summary: 'Create a contact (phone required, unique in the business)',
        body: ZContactCreate,
        response: { 200: ZContactResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'contacts.created'),
      data: await createContact(ctxOf(deps, request), request.body),
    }),
  );

  const bulk = (path: string, summary: string, run: typeof bulkBlock, message: string) =>
    app.post(
      path,
      {
        config,
        schema: { tags, summary, body: ZContactIds, response: { 200: ZBulkResult, ...errors } },
      },
      async (request) => {
        const count = await run(ctxOf(deps, request), request.body);
        return { success: true as const, message: t(request, message, { count }), data: { count } };
      },
    );
  bulk(
    '/v1/contacts/bulk-block',
    'Block several contacts (ids; all must be contacts of the business)',
    bulkBlock,
    'contacts.bulk_blocked',
  );
  bulk('/v1/contacts/bulk-delete', 'Delete several contacts (ids)', bulkDelete, 'contacts.bulk_deleted');
  bulk(
    '/v1/contacts/bulk-optout',
    'Opt several contacts out of texts (ids)',
    bulkOptOut,
    'contacts.bulk_opted_out',
  );

  app.post(
    '/v1/contacts/tag',
    {
      config,
      schema: {
        tags,
        summary: 'Add tags to several contacts (ids, tag_ids)',
        body: ZBulkTagRequest,
        response: { 200: ZBulkResult, ...errors },
      },
    },
    async (request) => {
      const count = await bulkTag(ctxOf(deps, request), request.body);
      return {
        success: true as const,
        message: t(request, 'contacts.bulk_tagged', { count }),
        data: { count },
      };
    },
  );

  app.post(
    '/v1/contacts/bulk-automation/:id',
    {
      config,
      schema: {
        tags,
        summary:
          'Add several contacts to an automation of the business and start their journeys (404 for an automation that does not exist, 422 for one switched off)',
        params: ZIdParams,
        body: ZContactIds,
        response: { 200: ZBulkResult, ...errors },
      },
    },
    async (request) => {
      const count = await addToAutomation(ctxOf(deps, request), {
        ids: request.body.ids,
        automationId: request.params.id,
      });
      return {
        success: true as const,
        message: t(request, 'contacts.bulk_automation', { count }),
        data: { count },
      };
    },
  );

  app.get(
    '/v1/contacts/:id',
    {
      config,
      schema: {
        tags,
        summary: 'One contact',
        params: ZIdParams,
        response: { 200: ZContactResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getContact(ctxOf(deps, request), request.params),
    }),
  );

  app.put(
    '/v1/contacts/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Edit a contact (custom field values by key; an empty value removes one)',
        params: ZIdParams,
        body: ZContactUpdate,
        response: { 200: ZContactResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'contacts.updated'),
      data: await updateContact(ctxOf(deps, request), { ...request.body, id: request.params.id }),
    }),
  );

  app.delete(
    '/v1/contacts/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a contact',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await deleteContact(ctxOf(deps, request), request.params);
      return { success: true as const, message: t(request, 'contacts.deleted') };
    },
  );

  app.post(
    '/v1/contacts/:id/tag',
    {
      config,
      schema: {
        tags,
        summary: "Set a contact's tags (tag_ids; mode set, add or remove)",
        params: ZIdParams,
        body: ZContactTagRequest,
        response: { 200: ZContactResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'contacts.tagged'),
      data: await tagContact(ctxOf(deps, request), { ...request.body, id: request.params.id }),
    }),
  );

  app.post(
    '/v1/contacts/:id/set-on-top',
    {
      config,
      schema: {
        tags,
        summary: 'Pin a contact on top of the lists (on_top, default true; false unpins)',
        params: ZIdParams,
        body: ZOnTopRequest.nullish(),
        response: { 200: ZContactResponse, ...errors },
      },
    },
    async (request) => {
      const onTop = request.body?.on_top ?? true;
      return {
        success: true as const,
        message: t(request, onTop ? 'contacts.on_top' : 'contacts.off_top'),
        data: await setOnTop(ctxOf(deps, request), { id: request.params.id, onTop }),
      };
    },
  );

  app.post(
    '/v1/contacts/:id/opt-out',
    {
      config,
      schema: {
        tags,
        summary: 'Opt a contact out of texts (opted_out, default true; false opts back in)',
        params: ZIdParams,
        body: ZOptOutRequest.nullish(),
        response: { 200: ZContactResponse, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const optedOut = request.body?.opted_out ?? true;
      const row = await setOptOut(ctx, { contactId: request.params.id, optedOut });
      const [data] = await toContacts(ctx, [row]);
      return {
        success: true as const,
        message: t(request, optedOut ? 'contacts.opted_out' : 'contacts.opted_in'),
        data: data as NonNullable<typeof data>,
      };
    },
  );

  app.post(
    '/v1/contacts/:id/agent/:agent_id',
    {
      config,
      schema: {
        tags,
        summary: "Assign the contact's conversation to an agent (a user of the business)",
        params: ZAgentParams,
        body: ZNoBody,
        response: { 200: ZContactResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'contacts.agent_assigned'),
      data: await setAgent(ctxOf(deps, request), { id: request.params.id, agentId: request.params.agent_id }),
    }),
  );

  app.delete(
    '/v1/contacts/:id/delete-agent',
    {
      config,
      schema: {
        tags,
        summary: "Remove the contact's agent",
        params: ZIdParams,
        response: { 200: ZContactResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'contacts.agent_removed'),
      data: await setAgent(ctxOf(deps, request), { id: request.params.id, agentId: null }),
    }),
  );

  app.post(
    '/v1/contacts/:id/automation/:automation_id',
    {
      config,
      schema: {
        tags,
        summary:
          'Add a contact to an automation of the business and start its journey (404 for an automation that does not exist, 422 for one switched off)',
        params: ZAutomationParams,
        body: ZNoBody,
        response: { 200: ZContactResponse, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      await getContact(ctx, { id: request.params.id });
      await addToAutomation(ctx, { ids: [request.params.id], automationId: request.params.automation_id });
      return {
        success: true as const,
        message: t(request, 'contacts.automation_added'),
        data: await getContact(ctx, { id: request.params.id }),
      };
    },
  );

  app.delete(
    '/v1/contacts/:id/automation/:automation_id',
    {
      config,
      schema: {
        tags,
        summary:
          'Remove a contact from an automation and stop its journey there (404 for an automation that does not exist)',
        params: ZAutomationParams,
        response: { 200: ZContactResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'contacts.automation_removed'),
      data: await removeFromAutomation(ctxOf(deps, request), {
        id: request.params.id,
        automationId: request.params.automation_id,
      }),
    }),
  );
};

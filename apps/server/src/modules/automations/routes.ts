// The automations API (spec 001 "Automations", ADR 070): /v1/automations and the run views. Paths as the
// spec writes them; capability automations.use.
import {
  ZAutomationAll,
  ZAutomationList,
  ZAutomationListQuery,
  ZAutomationRequest,
  ZAutomationResponse,
  ZAutomationSharePreviewResponse,
  ZAutomationTemplates,
  ZAutomationTestEmail,
  ZAutomationTestSms,
  ZAutomationToggle,
  ZAutomationWebhookResponse,
  ZBlockCounts,
  ZRunList,
  ZRunListQuery,
  ZRunResponse,
  ZShareTokenParams,
} from '@stn/contracts/automations';
import { ZNoBody } from '@stn/contracts/contacts';
import { ZErrorResponse, ZIdParams, ZSuccessMessage } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../platform/deps.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import { blockCounts, getRun, listRuns } from './runs.ts';
import {
  allAutomations,
  automationWebhook,
  contactOfBusiness,
  createAutomation,
  deleteAutomation,
  duplicateAutomation,
  findAutomation,
  getAutomation,
  listAutomations,
  newWebhook,
  toggleAutomation,
  updateAutomation,
} from './service.ts';
import { cloneShared, getAutomationTemplate, listAutomationTemplates, sharedPreview } from './share.ts';
import { sendAutomationTestEmail, sendAutomationTestSms } from './test-sends.ts';

const denied = { 401: ZErrorResponse, 403: ZErrorResponse };
const errors = { ...denied, 404: ZErrorResponse, 422: ZErrorResponse };
const config = { capability: 'automations.use' } as const;
const tags = ['automations'];
const base = '/v1/automations';
const t = (request: FastifyRequest, key: string) => translate(key, request.lang);

export const automationsRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    base,
    {
      config,
      schema: {
        tags,
        summary:
          "The business's automations, newest first (search by name, status, trigger), with run counts",
        querystring: ZAutomationListQuery,
        response: { 200: ZAutomationList, ...denied, 422: ZErrorResponse },
      },
    },
    async (request) => listAutomations(ctxOf(deps, request), request.query),
  );

  app.get(
    `${base}/all`,
    {
      config,
      schema: {
        tags,
        summary: 'Every automation of the business by name: id, name, active (pickers)',
        response: { 200: ZAutomationAll, ...denied },
      },
    },
    async (request) => ({ success: true as const, data: await allAutomations(ctxOf(deps, request)) }),
  );

  app.post(
    base,
    {
      config,
      schema: {
        tags,
        summary:
          'Create an automation: a draft (may be incomplete), or with active: true checked and activated',
        body: ZAutomationRequest,
        response: { 200: ZAutomationResponse, ...errors },
      },
    },
    async (request) => {
      const data = await createAutomation(ctxOf(deps, request), request.body);
      return {
        success: true as const,
        message: t(request, data.active ? 'automations.created_active' : 'automations.created'),
        data,
      };
    },
  );

  app.get(
    `${base}/new-webhook`,
    {
      config,
      schema: {
        tags,
        summary: 'A fresh token and inbound URL for a webhook trigger (saved when the automation is)',
        response: { 200: ZAutomationWebhookResponse, ...denied },
      },
    },
    async (request) => ({ success: true as const, data: newWebhook(ctxOf(deps, request)) }),
  );

  app.get(
    `${base}/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'One automation',
        params: ZIdParams,
        response: { 200: ZAutomationResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getAutomation(ctxOf(deps, request), request.params.id),
    }),
  );

  app.put(
    `${base}/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'Save an automation (a new version); active: true checks and activates, false deactivates',
        params: ZIdParams,
        body: ZAutomationRequest,
        response: { 200: ZAutomationResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'automations.updated'),
      data: await updateAutomation(ctxOf(deps, request), request.params.id, request.body),
    }),
  );

  app.delete(
    `${base}/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'Delete an automation; its journeys in progress are stopped',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await deleteAutomation(ctxOf(deps, request), request.params.id);
      return { success: true as const, message: t(request, 'automations.deleted') };
    },
  );

  app.put(
    `${base}/:id/toggle`,
    {
      config,
      schema: {
        tags,
        summary: 'Activate (the check and the plan limit) or deactivate an automation',
        params: ZIdParams,
        body: ZAutomationToggle,
        response: { 200: ZAutomationResponse, ...errors },
      },
    },
    async (request) => {
      const data = await toggleAutomation(ctxOf(deps, request), request.params.id, request.body.active);
      return {
        success: true as const,
        message: t(request, data.active ? 'automations.activated' : 'automations.deactivated'),
        data,
      };
    },
  );

  app.post(
    `${base}/:id/duplicate`,
    {
      config,
      schema: {
        tags,
        summary: 'Copy an automation within the business (" (copy)", inactive)',
        params: ZIdParams,
        body: ZNoBody,
        response: { 200: ZAutomationResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'automations.duplicated'),
      data: await duplicateAutomation(ctxOf(deps, request), request.params.id),
    }),
  );

  app.get(
    `${base}/:id/unique-id`,
    {
      config,
      schema: {
        tags,
        summary: "The automation's inbound URL and its token (made when it had none)",
        params: ZIdParams,
        response: { 200: ZAutomationWebhookResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await automationWebhook(ctxOf(deps, request), request.params.id),
    }),
  );

  app.get(
    `${base}/templates`,
    {
      config,
      schema: {
        tags,
        summary: "The templates gallery: automations of the agency's and the platform's template businesses",
        response: { 200: ZAutomationTemplates, ...denied },
      },
    },
    async (request) => ({
      success: true as const,
      data: await listAutomationTemplates(ctxOf(deps, request)),
    }),
  );

  app.get(
    `${base}/template/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'One template, in full',
        params: ZIdParams,
        response: { 200: ZAutomationResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getAutomationTemplate(ctxOf(deps, request), request.params.id),
    }),
  );

  app.get(
    `${base}/shared/:token`,
    {
      config,
      schema: {
        tags,
        summary: "A share link's preview: name, trigger, block kinds and the business that shared it",
        params: z.object({ token: ZShareTokenParams.shape.id }),
        response: { 200: ZAutomationSharePreviewResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await sharedPreview(ctxOf(deps, request), request.params.token),
    }),
  );

  app.post(
    `${base}/:id/clone`,
    {
      config,
      schema: {
        tags,
        summary:
          "Import the automation of a share link (or a template's token) into the business, inactive; " +
          "the other business's ids mapped (tags by name) or dropped",
        params: ZShareTokenParams,
        body: ZNoBody,
        response: { 200: ZAutomationResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'automations.cloned'),
      data: await cloneShared(ctxOf(deps, request), request.params.id),
    }),
  );

  app.post(
    `${base}/test-sms`,
    {
      config,
      schema: {
        tags,
        summary:
          "Text a SendMessage's content to one phone now (merge fields filled for its contact or a sample)",
        body: ZAutomationTestSms,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await sendAutomationTestSms(ctxOf(deps, request), request.body);
      return { success: true as const, message: t(request, 'automations.test_sms_sent') };
    },
  );

  app.post(
    `${base}/test-email`,
    {
      config,
      schema: {
        tags,
        summary: "E-mail a SendEmail's content to one address now (merge fields filled for a sample)",
        body: ZAutomationTestEmail,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await sendAutomationTestEmail(ctxOf(deps, request), request.body);
      return { success: true as const, message: t(request, 'automations.test_email_sent') };
    },
  );

  // ---------------------------------------------------------------- runs (journeys), the engine's views

  app.get(
    `${base}/:id/runs`,
    {
      config,
      schema: {
        tags,
        summary: "An automation's journeys, newest first (filters: status, the block they are at)",
        params: ZIdParams,
        querystring: ZRunListQuery,
        response: { 200: ZRunList, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const a = await findAutomation(ctx, request.params.id);
      return listRuns(ctx, { ...request.query, automationId: a.id });
    },
  );

  app.get(
    `${base}/:id/blocks`,
    {
      config,
      schema: {
        tags,
        summary: 'Per block of an automation: contacts at it now and how many passed it',
        params: ZIdParams,
        response: { 200: ZBlockCounts, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const a = await findAutomation(ctx, request.params.id);
      return blockCounts(ctx, { automationId: a.id });
    },
  );

  app.get(
    `${base}/runs/:runId`,
    {
      config,
      schema: {
        tags,
        summary: 'One journey, step by step',
        params: z.object({ runId: z.coerce.number().int().positive() }),
        response: { 200: ZRunResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getRun(ctxOf(deps, request), { id: request.params.runId }),
    }),
  );

  app.get(
    `${base}/contact/:contactId/runs`,
    {
      config,
      schema: {
        tags,
        summary: "A contact's journeys in every automation, newest first (filter: status)",
        params: z.object({ contactId: z.coerce.number().int().positive() }),
        querystring: ZRunListQuery,
        response: { 200: ZRunList, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const contactId = await contactOfBusiness(ctx, request.params.contactId);
      return listRuns(ctx, { ...request.query, contactId });
    },
  );
};

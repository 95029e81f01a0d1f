// The automations API (spec 001 "Automations", ADR 070): /v1/automations and the run views. Paths as the
// spec writes them; capability automations.use.
import {
  ZAutomationAll,
  ZAutomationList,
  ZAutomationListQuery,
  ZAutomationRequest,
  ZAutomationResponse,
  ZAutomationToggle,
  ZAutomationWebhookResponse,
} from '@stn/contracts/automations';
import { ZErrorResponse, ZIdParams, ZSuccessMessage } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../platform/deps.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import {
  allAutomations,
  automationWebhook,
  createAutomation,
  deleteAutomation,
  duplicateAutomation,
  getAutomation,
  listAutomations,
  newWebhook,
  toggleAutomation,
  updateAutomation,
} from './service.ts';

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
};

// The lead forms API (spec 001 "Lead forms" and the Installs "Forms" calls; issue 21, ADR 074): paths as the
// spec writes them. Lead forms and their submissions under the capability leadForms.use; an install's
// embedded forms too (they place lead forms: not for AdminSupport and MarketingUser, spec 000 §2); a contact's
// leads also for those who see the contact or its conversation.
import { ZNoBody } from '@stn/contracts/contacts';
import { ZErrorResponse, ZIdParams, ZListQuery, ZSuccessMessage } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import {
  ZEmbeddedFormAnswer,
  ZEmbeddedFormList,
  ZEmbeddedFormRequest,
  ZLeadFormAnswer,
  ZLeadFormList,
  ZLeadFormListQuery,
  ZLeadFormRequest,
  ZLeadSubmissionAnswer,
  ZLeadSubmissionList,
  ZLeadSubmissionListQuery,
} from '@stn/contracts/leadforms';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../platform/deps.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import {
  contactLeadSubmissions,
  createEmbeddedForm,
  createLeadForm,
  deleteEmbeddedForm,
  deleteLeadForm,
  getEmbeddedForm,
  getLeadForm,
  getLeadSubmission,
  listEmbeddedForms,
  listLeadForms,
  listLeadSubmissions,
  toggleEmbeddedForm,
  toggleLeadForm,
  updateEmbeddedForm,
  updateLeadForm,
} from './service.ts';

const denied = { 401: ZErrorResponse, 403: ZErrorResponse };
const errors = { ...denied, 404: ZErrorResponse, 422: ZErrorResponse };
const config = { capability: 'leadForms.use' } as const;
const installsConfig = { capability: 'leadForms.use' } as const;
const tags = ['leadforms'];
const t = (request: FastifyRequest, key: string) => translate(key, request.lang);

const ZInstallParams = z.object({ install_id: z.coerce.number().int().positive() });
const ZEmbedParams = ZInstallParams.extend({ id: z.coerce.number().int().positive() });

export const leadformsRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/v1/allLeadForms',
    {
      config,
      schema: {
        tags,
        summary: "The business's lead forms, newest first (search by name, status), with counts and installs",
        querystring: ZLeadFormListQuery,
        response: { 200: ZLeadFormList, ...denied, 422: ZErrorResponse },
      },
    },
    async (request) => listLeadForms(ctxOf(deps, request), request.query),
  );

  app.post(
    '/v1/leadForm',
    {
      config,
      schema: {
        tags,
        summary: 'Create a lead form (steps of questions with a text per language, tags, styling, texts)',
        body: ZLeadFormRequest,
        response: { 200: ZLeadFormAnswer, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'leadforms.created'),
      data: await createLeadForm(ctxOf(deps, request), request.body),
    }),
  );

  app.get(
    '/v1/leadForm/:id',
    {
      config,
      schema: {
        tags,
        summary: 'One lead form',
        params: ZIdParams,
        response: { 200: ZLeadFormAnswer, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getLeadForm(ctxOf(deps, request), request.params.id),
    }),
  );

  app.put(
    '/v1/leadForm/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Save a lead form (the whole form)',
        params: ZIdParams,
        body: ZLeadFormRequest,
        response: { 200: ZLeadFormAnswer, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'leadforms.updated'),
      data: await updateLeadForm(ctxOf(deps, request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/v1/leadForm/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a lead form (kept with its submissions; installs stop showing it)',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await deleteLeadForm(ctxOf(deps, request), request.params.id);
      return { success: true as const, message: t(request, 'leadforms.deleted') };
    },
  );

  app.post(
    '/v1/leadForm/:id/toggle-active',
    {
      config,
      schema: {
        tags,
        summary: 'Switch a lead form on or off',
        params: ZIdParams,
        body: ZNoBody,
        response: { 200: ZLeadFormAnswer, ...errors },
      },
    },
    async (request) => {
      const data = await toggleLeadForm(ctxOf(deps, request), request.params.id);
      return {
        success: true as const,
        message: t(request, data.active ? 'leadforms.activated' : 'leadforms.deactivated'),
        data,
      };
    },
  );

  app.get(
    '/v1/leadSubmissions',
    {
      config,
      schema: {
        tags,
        summary: 'Submissions of lead forms, newest first (filters contact_id, lead_form_id, install_id)',
        querystring: ZLeadSubmissionListQuery,
        response: { 200: ZLeadSubmissionList, ...denied, 422: ZErrorResponse },
      },
    },
    async (request) => listLeadSubmissions(ctxOf(deps, request), request.query),
  );

  // A contact's leads for the users who see the contact (its page) or its conversation (the inbox) without
  // the lead forms page: an SMS agent sees the lead that started the conversation it works (ADR 074).
  for (const [path, capability, via] of [
    ['/v1/contacts/:id/leads', 'contacts.use', 'contact'],
    ['/v1/chats/contacts/:id/leads', 'inbox.use', 'conversation'],
  ] as const)
    app.get(
      path,
      {
        config: { capability },
        schema: {
          tags,
          summary:
            via === 'contact'
              ? "A contact's lead submissions, newest first (the contact's page)"
              : "The lead submissions of a conversation's contact, newest first (the inbox)",
          params: ZIdParams,
          querystring: ZListQuery,
          response: { 200: ZLeadSubmissionList, ...errors },
        },
      },
      async (request) =>
        contactLeadSubmissions(ctxOf(deps, request), {
          contactId: request.params.id,
          via,
          q: request.query,
        }),
    );

  app.get(
    '/v1/leadSubmissions/:id',
    {
      config,
      schema: {
        tags,
        summary: 'One submission: its answers and consents as the visitor saw them, and the tags it gave',
        params: ZIdParams,
        response: { 200: ZLeadSubmissionAnswer, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getLeadSubmission(ctxOf(deps, request), request.params.id),
    }),
  );

  // ---- an install's embedded forms

  const ftags = ['installs'];
  app.get(
    '/v1/installs/:install_id/forms',
    {
      config: installsConfig,
      schema: {
        tags: ftags,
        summary: "The install's embedded forms, newest first (keyword: name), each with its embed code",
        params: ZInstallParams,
        querystring: ZListQuery,
        response: { 200: ZEmbeddedFormList, ...errors },
      },
    },
    async (request) =>
      listEmbeddedForms(ctxOf(deps, request), { ...request.query, installId: request.params.install_id }),
  );

  app.get(
    '/v1/installs/:install_id/forms/:id',
    {
      config: installsConfig,
      schema: {
        tags: ftags,
        summary: 'One embedded form of the install',
        params: ZEmbedParams,
        response: { 200: ZEmbeddedFormAnswer, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getEmbeddedForm(ctxOf(deps, request), {
        installId: request.params.install_id,
        id: request.params.id,
      }),
    }),
  );

  app.post(
    '/v1/installs/:install_id/forms',
    {
      config: installsConfig,
      schema: {
        tags: ftags,
        summary: 'Place a lead form on a page of the install’s site (name, lead form, settings)',
        params: ZInstallParams,
        body: ZEmbeddedFormRequest,
        response: { 200: ZEmbeddedFormAnswer, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'leadforms.embed_created'),
      data: await createEmbeddedForm(ctxOf(deps, request), {
        ...request.body,
        installId: request.params.install_id,
      }),
    }),
  );

  app.put(
    '/v1/installs/:install_id/forms/:id',
    {
      config: installsConfig,
      schema: {
        tags: ftags,
        summary: 'Save an embedded form',
        params: ZEmbedParams,
        body: ZEmbeddedFormRequest,
        response: { 200: ZEmbeddedFormAnswer, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'leadforms.embed_updated'),
      data: await updateEmbeddedForm(ctxOf(deps, request), {
        ...request.body,
        installId: request.params.install_id,
        id: request.params.id,
      }),
    }),
  );

  app.delete(
    '/v1/installs/:install_id/forms/:id',
    {
      config: installsConfig,
      schema: {
        tags: ftags,
        summary: 'Delete an embedded form (its page placeholder then shows nothing)',
        params: ZEmbedParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await deleteEmbeddedForm(ctxOf(deps, request), {
        installId: request.params.install_id,
        id: request.params.id,
      });
      return { success: true as const, message: t(request, 'leadforms.embed_deleted') };
    },
  );

  app.post(
    '/v1/installs/:install_id/forms/:id/toggle-active',
    {
      config: installsConfig,
      schema: {
        tags: ftags,
        summary: 'Switch an embedded form on or off',
        params: ZEmbedParams,
        body: ZNoBody,
        response: { 200: ZEmbeddedFormAnswer, ...errors },
      },
    },
    async (request) => {
      const data = await toggleEmbeddedForm(ctxOf(deps, request), {
        installId: request.params.install_id,
        id: request.params.id,
      });
      return {
        success: true as const,
        message: t(request, data.active ? 'leadforms.embed_activated' : 'leadforms.embed_deactivated'),
        data,
      };
    },
  );
};

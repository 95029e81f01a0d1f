import { ZErrorResponse, ZIdParams, ZSuccessMessage } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import {
  ZMediaList,
  ZMediaListQuery,
  ZMediaResponse,
  ZMediaUploadRequest,
  ZTemplateAll,
  ZTemplateAllQuery,
  ZTemplateList,
  ZTemplateListQuery,
  ZTemplateRequest,
  ZTemplateResponse,
} from '@stn/contracts/templates';
import { ZToggleActiveRequest } from '@stn/contracts/users';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../platform/deps.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import {
  allTemplates,
  createTemplate,
  deleteMedia,
  deleteTemplate,
  getTemplate,
  listMedias,
  listTemplates,
  toggleTemplate,
  updateTemplate,
  uploadMedia,
} from './service.ts';

const tags = ['templates'];
const denied = { 401: ZErrorResponse, 403: ZErrorResponse };
const errors = { ...denied, 404: ZErrorResponse, 422: ZErrorResponse };
const config = { capability: 'templates.use' } as const;
// The media library is what the inbox attaches from: whoever may use the inbox may use it.
const mediaConfig = { capability: 'inbox.use' } as const;

export const templatesRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/v1/templates/all',
    {
      // The inbox's template picker reads the active templates.
      config: { capability: 'inbox.use' },
      schema: {
        tags,
        summary: 'The active templates of the business (provider: sms or email)',
        querystring: ZTemplateAllQuery,
        response: { 200: ZTemplateAll, ...denied, 422: ZErrorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: await allTemplates(ctxOf(deps, request), request.query.provider),
    }),
  );

  app.get(
    '/v1/templates',
    {
      config,
      schema: {
        tags,
        summary: "The business's templates (search, provider, status), newest first",
        querystring: ZTemplateListQuery,
        response: { 200: ZTemplateList, ...denied, 422: ZErrorResponse },
      },
    },
    async (request) => listTemplates(ctxOf(deps, request), request.query),
  );

  app.get(
    '/v1/templates/:id',
    {
      config,
      schema: {
        tags,
        summary: 'One template',
        params: ZIdParams,
        response: { 200: ZTemplateResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getTemplate(ctxOf(deps, request), request.params.id),
    }),
  );

  app.post(
    '/v1/templates',
    {
      config,
      schema: {
        tags,
        summary: 'Create a template (name, body, provider sms/email, active)',
        body: ZTemplateRequest,
        response: { 200: ZTemplateResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('templates.created', request.lang),
      data: await createTemplate(ctxOf(deps, request), request.body),
    }),
  );

  app.put(
    '/v1/templates/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Edit a template',
        params: ZIdParams,
        body: ZTemplateRequest,
        response: { 200: ZTemplateResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('templates.updated', request.lang),
      data: await updateTemplate(ctxOf(deps, request), request.params.id, request.body),
    }),
  );

  app.put(
    '/v1/templates/:id/toggle-active',
    {
      config,
      schema: {
        tags,
        summary: 'Activate or deactivate a template',
        params: ZIdParams,
        body: ZToggleActiveRequest,
        response: { 200: ZTemplateResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate(request.body.active ? 'templates.activated' : 'templates.deactivated', request.lang),
      data: await toggleTemplate(ctxOf(deps, request), request.params.id, request.body.active),
    }),
  );

  app.delete(
    '/v1/templates/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a template',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await deleteTemplate(ctxOf(deps, request), request.params.id);
      return { success: true as const, message: translate('templates.deleted', request.lang) };
    },
  );

  app.get(
    '/v1/medias',
    {
      config: mediaConfig,
      schema: {
        tags: ['medias'],
        summary: "The business's media library, newest first, 10 per page (the web app appends pages)",
        querystring: ZMediaListQuery,
        response: { 200: ZMediaList, ...denied, 422: ZErrorResponse },
      },
    },
    async (request) => listMedias(ctxOf(deps, request), request.query),
  );

  app.post(
    '/v1/medias',
    {
      config: mediaConfig,
      bodyLimit: 10 * 1024 * 1024,
      schema: {
        tags: ['medias'],
        summary: 'Upload an image to the media library (a data URL: png, jpg, gif or webp, up to 5 MB)',
        body: ZMediaUploadRequest,
        response: { 200: ZMediaResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('templates.media_uploaded', request.lang),
      data: await uploadMedia(ctxOf(deps, request), request.body),
    }),
  );

  app.delete(
    '/v1/medias/:id',
    {
      config: mediaConfig,
      schema: {
        tags: ['medias'],
        summary: 'Remove an image from the media library',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await deleteMedia(ctxOf(deps, request), request.params.id);
      return { success: true as const, message: translate('templates.media_deleted', request.lang) };
    },
  );
};

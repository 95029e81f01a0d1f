import { ZErrorResponse, ZIdParams } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import {
  ZCanCreateInstallRequest,
  ZCanCreateInstallResponse,
  ZEmbedCodeResponse,
  ZInstallAllResponse,
  ZInstallCreate,
  ZInstallImageRequest,
  ZInstallImageResponse,
  ZInstallListQuery,
  ZInstallListResponse,
  ZInstallResponse,
  ZInstallSettingRequest,
  ZInstallToggleActive,
  ZInstallTwilioStatusResponse,
  ZInstallUpdate,
} from '@stn/contracts/installs';
import { ZUserSummaryList } from '@stn/contracts/users';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../platform/deps.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import {
  allInstalls,
  canCreateInstall,
  createInstall,
  deleteInstallImage,
  embedCode,
  getInstall,
  type InstallImage,
  installSmsAgents,
  installTwilioStatus,
  listInstalls,
  moveInstall,
  toggleInstallActive,
  updateInstall,
  uploadInstallImage,
} from './service.ts';

// The installs screens of a business (spec 001 "Installs"): HTTP only. Business tenant only; an agency or
// an admin acts here by impersonating a business user.

const tags = ['installs'];
const access = { capability: 'installs.use' } as const;
/** The picker lists (every active install, an install's SMS agents): every business user (ADR 047). */
const pick = { capability: 'installs.pick' } as const;
const denied = { 401: ZErrorResponse, 403: ZErrorResponse };
const errors = { ...denied, 404: ZErrorResponse, 422: ZErrorResponse };

export const installsRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/v1/installs',
    {
      config: access,
      schema: {
        tags,
        summary: "The business's installs of one list (status: active, archived, deleted), by keyword",
        querystring: ZInstallListQuery,
        response: { 200: ZInstallListResponse, ...denied, 422: ZErrorResponse },
      },
    },
    async (request) => listInstalls(ctxOf(deps, request), request.query),
  );

  app.get(
    '/v1/installs/all',
    {
      config: pick,
      schema: {
        tags,
        summary: 'Every active install (id, name, website, active, number, widget key), for pickers',
        response: { 200: ZInstallAllResponse, ...denied },
      },
    },
    async (request) => ({ success: true as const, data: await allInstalls(ctxOf(deps, request)) }),
  );

  app.post(
    '/v1/business/can-create-install',
    {
      config: access,
      schema: {
        tags,
        summary: 'Whether the business may add an install: its limit, and its active and archived installs',
        body: ZCanCreateInstallRequest,
        response: { 200: ZCanCreateInstallResponse, ...denied, 422: ZErrorResponse },
      },
    },
    async (request) => ({ success: true as const, data: await canCreateInstall(ctxOf(deps, request)) }),
  );

  app.get(
    '/v1/installs/:id',
    {
      config: access,
      schema: {
        tags,
        summary: 'One install with all its settings',
        params: ZIdParams,
        response: { 200: ZInstallResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getInstall(ctxOf(deps, request), request.params),
    }),
  );

  app.post(
    '/v1/installs',
    {
      config: access,
      schema: {
        tags,
        summary:
          'Add an install (within the business limit): the spec defaults with the given settings on top',
        body: ZInstallCreate,
        response: { 200: ZInstallResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('installs.created', request.lang),
      data: await createInstall(ctxOf(deps, request), request.body),
    }),
  );

  app.put(
    '/v1/installs/:id',
    {
      config: access,
      schema: {
        tags,
        summary: 'Edit name, website and settings (deep-merged onto the current settings)',
        params: ZIdParams,
        body: ZInstallUpdate,
        response: { 200: ZInstallResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('installs.updated', request.lang),
      data: await updateInstall(ctxOf(deps, request), { ...request.body, id: request.params.id }),
    }),
  );

  app.put(
    '/v1/installs/:id/setting',
    {
      config: access,
      schema: {
        tags,
        summary: "Edit the install's settings only (deep-merged onto the current settings)",
        params: ZIdParams,
        body: ZInstallSettingRequest,
        response: { 200: ZInstallResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('installs.settings_updated', request.lang),
      data: await updateInstall(ctxOf(deps, request), {
        settings: request.body.settings,
        id: request.params.id,
      }),
    }),
  );

  for (const [method, suffix, to, message, summary] of [
    ['PUT', '/archive', 'archived', 'installs.archived', 'Move an active install to the archived list'],
    ['PUT', '/restore', 'active', 'installs.restored', 'Bring an archived or deleted install back to active'],
    ['DELETE', '', 'deleted', 'installs.deleted', 'Move an install to the deleted list'],
  ] as const) {
    app.route({
      method,
      url: `/v1/installs/:id${suffix}`,
      config: access,
      schema: { tags, summary, params: ZIdParams, response: { 200: ZInstallResponse, ...errors } },
      handler: async (request) => ({
        success: true as const,
        message: translate(message, request.lang),
        data: await moveInstall(ctxOf(deps, request), { id: request.params.id, to }),
      }),
    });
  }

  app.post(
    '/v1/installs/:id/toggle-active',
    {
      config: access,
      schema: {
        tags,
        summary: 'Switch an install on or off (off: its widget takes no requests)',
        params: ZIdParams,
        body: ZInstallToggleActive,
        response: { 200: ZInstallResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate(request.body.active ? 'installs.activated' : 'installs.deactivated', request.lang),
      data: await toggleInstallActive(ctxOf(deps, request), {
        id: request.params.id,
        active: request.body.active,
      }),
    }),
  );

  app.get(
    '/v1/installs/:id/embed-code',
    {
      config: access,
      schema: {
        tags,
        summary: 'The script tag a website pastes to show the widget',
        params: ZIdParams,
        response: { 200: ZEmbedCodeResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await embedCode(ctxOf(deps, request), request.params),
    }),
  );

  for (const type of ['widgetIcon', 'logo'] as const satisfies readonly InstallImage[]) {
    app.post(
      `/v1/installs/:id/${type}`,
      {
        config: access,
        schema: {
          tags,
          summary: `Upload the install's ${type === 'logo' ? 'logo' : 'widget icon'} (a data URL)`,
          params: ZIdParams,
          body: ZInstallImageRequest,
          response: { 200: ZInstallImageResponse, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        message: translate('installs.image_uploaded', request.lang),
        data: await uploadInstallImage(ctxOf(deps, request), {
          id: request.params.id,
          type,
          data: request.body.data,
        }),
      }),
    );
    app.delete(
      `/v1/installs/:id/${type}`,
      {
        config: access,
        schema: {
          tags,
          summary: `Remove the install's ${type === 'logo' ? 'logo' : 'widget icon'}`,
          params: ZIdParams,
          response: { 200: ZInstallImageResponse, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        message: translate('installs.image_removed', request.lang),
        data: await deleteInstallImage(ctxOf(deps, request), { id: request.params.id, type }),
      }),
    );
  }

  app.get(
    '/v1/installs/:id/sms-agents',
    {
      config: pick,
      schema: {
        tags,
        summary: "The install's SMS agents",
        params: ZIdParams,
        response: { 200: ZUserSummaryList, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await installSmsAgents(ctxOf(deps, request), request.params),
    }),
  );

  app.get(
    '/v1/installs/:id/twilio-status',
    {
      config: access,
      schema: {
        tags,
        summary:
          "Whether the install can call and text: the agency's telephony set-up and the install's number",
        params: ZIdParams,
        response: { 200: ZInstallTwilioStatusResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await installTwilioStatus(ctxOf(deps, request), request.params),
    }),
  );
};

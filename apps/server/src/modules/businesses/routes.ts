import {
  type TBusinessSettingRequest,
  ZActiveRequest,
  ZBusinessImageParams,
  ZBusinessImageRequest,
  ZBusinessInfoRequest,
  ZBusinessList,
  ZBusinessListQuery,
  ZBusinessNamesResponse,
  ZBusinessReportRequest,
  ZBusinessResetPasswordRequest,
  ZBusinessResponse,
  ZBusinessSettingRequest,
  ZCreateBusinessRequest,
  ZInstallStatsQuery,
  ZInstallStatsResponse,
  ZUpdateBusinessRequest,
} from '@stn/contracts/businesses';
import { ZIdParams, ZSuccessMessage } from '@stn/contracts/http';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../platform/deps.ts';
import { listEnvelope } from '../../platform/http/pagination.ts';
import { errorResponses as errors, okMessage } from '../../platform/http/replies.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import {
  businessNames,
  changeStatus,
  createBusiness,
  getBusiness,
  installStatsFor,
  listBusinesses,
  resetBusinessPassword,
  resetUsage,
  setBusinessActive,
  updateBusiness,
  verifyOwnerEmail,
} from './business-accounts.ts';
import {
  deleteImage,
  ownBusiness,
  updateInfo,
  updateNotificationSettings,
  updateReport,
  uploadImage,
} from './business-settings.ts';

const ok = (request: FastifyRequest, key: string, params: Record<string, string | number> = {}) =>
  okMessage(request, `businesses.${key}`, params);

const tags = ['businesses'];

/** The answer's message: what the request saved (notifications when several or none). */
function settingMessage(body: TBusinessSettingRequest): string {
  const saved = (['analytics', 'contacts', 'messages'] as const).filter((k) => body[k]);
  if (body.notifications || saved.length !== 1) return 'settings_updated';
  return `${saved[0]}_updated`;
}

export const businessesRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  // ---------------------------------------------------------------------------------------------------
  // The agency's business accounts

  app.get(
    '/v1/business',
    {
      config: { capability: 'businesses.view' },
      schema: {
        tags,
        summary: "The agency's business accounts (status tabs: active, archived, deleted; keyword)",
        querystring: ZBusinessListQuery,
        response: { 200: ZBusinessList, ...errors },
      },
    },
    async (request) => {
      const r = await listBusinesses(ctxOf(deps, request), request.query);
      return listEnvelope(r.data, r.total, request.query);
    },
  );

  app.get(
    '/v1/business/:id',
    {
      config: { capability: 'businesses.view' },
      schema: {
        tags,
        summary: 'One business account with its owner',
        params: ZIdParams,
        response: { 200: ZBusinessResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getBusiness(ctxOf(deps, request), { id: request.params.id }),
    }),
  );

  app.post(
    '/v1/business',
    {
      config: { capability: 'businesses.manage' },
      schema: {
        tags,
        summary:
          'Add a business and its owner (a BusinessAdmin); defaults of spec 001 §9; within the agency installs',
        body: ZCreateBusinessRequest,
        response: { 200: ZBusinessResponse, ...errors },
      },
    },
    async (request) => {
      const data = await createBusiness(ctxOf(deps, request), request.body);
      return { ...ok(request, 'created', { name: data.name }), data };
    },
  );

  app.put(
    '/v1/business/:id',
    {
      config: { capability: 'businesses.manage' },
      schema: {
        tags,
        summary: "Edit a business's limits, switches and owner",
        params: ZIdParams,
        body: ZUpdateBusinessRequest,
        response: { 200: ZBusinessResponse, ...errors },
      },
    },
    async (request) => {
      const data = await updateBusiness(ctxOf(deps, request), { ...request.body, id: request.params.id });
      return { ...ok(request, 'updated', { name: data.name }), data };
    },
  );

  for (const [method, url, transition, key, summary] of [
    ['PUT', '/v1/business/:id/archive', 'archive', 'archived', 'Archive a business'],
    ['PUT', '/v1/business/:id/restore', 'restore', 'restored', 'Restore an archived or deleted business'],
    [
      'DELETE',
      '/v1/business/:id',
      'delete',
      'deleted',
      'Delete a business (soft): its users can no longer sign in',
    ],
  ] as const) {
    app.route({
      method,
      url,
      config: { capability: 'businesses.manage' },
      schema: {
        tags,
        summary,
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
      handler: async (request) => {
        await changeStatus(ctxOf(deps, request), { id: request.params.id, transition });
        return ok(request, key);
      },
    });
  }

  for (const [path, how, summary, key] of [
    [
      'send-verification',
      'send',
      'E-mail the business admin a link to confirm their address',
      'verification_sent',
    ],
    ['verify-email', 'mark', "Mark the business admin's e-mail address as confirmed", 'email_verified'],
  ] as const) {
    app.post(
      `/v1/business/:id/${path}`,
      {
        config: { capability: 'businesses.manage' },
        schema: { tags, summary, params: ZIdParams, response: { 200: ZSuccessMessage, ...errors } },
      },
      async (request) => {
        await verifyOwnerEmail(ctxOf(deps, request), { id: request.params.id, how });
        return ok(request, key);
      },
    );
  }

  app.post(
    '/v1/business/:id/reset-password',
    {
      config: { capability: 'businesses.manage' },
      schema: {
        tags,
        summary:
          "E-mail the business admin a reset link, or set the given password (ends the admin's sessions)",
        params: ZIdParams,
        body: ZBusinessResetPasswordRequest.optional(),
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      const r = await resetBusinessPassword(ctxOf(deps, request), {
        ...(request.body ?? {}),
        id: request.params.id,
      });
      return ok(request, r === 'set' ? 'password_set' : 'reset_link_sent');
    },
  );

  app.put(
    '/v1/businesses/:id/reset-usage',
    {
      config: { capability: 'businesses.manage' },
      schema: {
        tags,
        summary: 'Set the calls and messages used this period back to 0',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await resetUsage(ctxOf(deps, request), { id: request.params.id });
      return ok(request, 'usage_reset');
    },
  );

  app.put(
    '/v1/businesses/:id/active',
    {
      config: { capability: 'businesses.manage' },
      schema: {
        tags,
        summary: 'Switch a business on or off',
        params: ZIdParams,
        body: ZActiveRequest,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await setBusinessActive(ctxOf(deps, request), { id: request.params.id, active: request.body.active });
      return ok(request, request.body.active ? 'activated' : 'deactivated');
    },
  );

  app.get(
    '/v1/agency/business/all',
    {
      config: { capability: 'businesses.view' },
      schema: {
        tags,
        summary: "id and name of all the agency's active businesses",
        response: { 200: ZBusinessNamesResponse, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await businessNames(ctxOf(deps, request)) }),
  );

  app.get(
    '/v1/businesses/install-stats',
    {
      config: { capability: 'businesses.view' },
      schema: {
        tags,
        summary: "The agency's installs: allowance, used by its businesses, available (admins: ?agency_id=)",
        querystring: ZInstallStatsQuery,
        response: { 200: ZInstallStatsResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await installStatsFor(ctxOf(deps, request), { agencyId: request.query.agency_id }),
    }),
  );

  // ---------------------------------------------------------------------------------------------------
  // The business's own settings

  app.get(
    '/v1/businesses/info',
    {
      config: { capability: 'businessSettings.manage' },
      schema: {
        tags,
        summary: "The business's own record: information, reports, notification settings and logo",
        response: { 200: ZBusinessResponse, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await ownBusiness(ctxOf(deps, request)) }),
  );

  app.put(
    '/v1/businesses/info',
    {
      config: { capability: 'businessSettings.manage' },
      schema: {
        tags,
        summary: "The business's name, opt-out message and contact details",
        body: ZBusinessInfoRequest,
        response: { 200: ZBusinessResponse, ...errors },
      },
    },
    async (request) => ({
      ...ok(request, 'info_updated'),
      data: await updateInfo(ctxOf(deps, request), request.body),
    }),
  );

  app.put(
    '/v1/businesses/report',
    {
      config: { capability: 'businessSettings.manage' },
      schema: {
        tags,
        summary: 'Report e-mails and schedules (daily, weekly, monthly)',
        body: ZBusinessReportRequest,
        response: { 200: ZBusinessResponse, ...errors },
      },
    },
    async (request) => ({
      ...ok(request, 'report_updated'),
      data: await updateReport(ctxOf(deps, request), request.body),
    }),
  );

  app.put(
    '/v1/businesses/setting',
    {
      config: { capability: 'businessSettings.manage' },
      schema: {
        tags,
        summary:
          'Notification settings, the analytics integration, the contacts and the messages settings of the business',
        body: ZBusinessSettingRequest,
        response: { 200: ZBusinessResponse, ...errors },
      },
    },
    async (request) => ({
      ...ok(request, settingMessage(request.body)),
      data: await updateNotificationSettings(ctxOf(deps, request), request.body),
    }),
  );

  app.post(
    '/v1/businesses/image',
    {
      config: { capability: 'businessSettings.manage' },
      schema: {
        tags,
        summary: 'Upload the business logo (a data URL: png, jpeg, gif or webp)',
        body: ZBusinessImageRequest,
        response: { 200: ZBusinessResponse, ...errors },
      },
    },
    async (request) => ({
      ...ok(request, 'image_uploaded'),
      data: await uploadImage(ctxOf(deps, request), request.body),
    }),
  );

  app.delete(
    '/v1/businesses/image/:type',
    {
      config: { capability: 'businessSettings.manage' },
      schema: {
        tags,
        summary: 'Remove the business logo',
        params: ZBusinessImageParams,
        response: { 200: ZBusinessResponse, ...errors },
      },
    },
    async (request) => ({
      ...ok(request, 'image_removed'),
      data: await deleteImage(ctxOf(deps, request), { type: request.params.type }),
    }),
  );
};

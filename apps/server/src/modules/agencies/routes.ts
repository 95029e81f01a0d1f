import {
  ZAgencyImageParams,
  ZAgencyImageRequest,
  ZAgencyImageResponse,
  ZAgencyList,
  ZAgencyListQuery,
  ZAgencyMessageResponse,
  ZAgencyResponse,
  ZAgencySettingsRequest,
  ZCarrierAccountInput,
  ZChangeAgencyPasswordRequest,
  ZCountResponse,
  ZCreateAgencyRequest,
  ZCustomScriptRequest,
  ZExportQuery,
  ZIdsRequest,
  ZInstallStatsResponse,
  ZInternationalRequest,
  ZInternationalResponse,
  ZLandingTextsRequest,
  ZPopupPaymentRequest,
  ZSendNotificationRequest,
  ZSendNotificationResponse,
  ZStripeSettingRequest,
  ZTwilioConfigResponse,
  ZTwilioSetupInput,
  ZTwilioStatusResponse,
  ZUpdateAgencyRequest,
} from '@stn/contracts/agencies';
import { ZErrorResponse, ZIdParams, ZSuccessMessage } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import { z } from '@stn/contracts/zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../platform/auth/plugin.ts';
import type { Deps } from '../../platform/deps.ts';
import { invalid } from '../../platform/http/errors.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import { exportBusinesses, exportUsers } from './exports.ts';
import { deleteAgencyImage, uploadAgencyImage } from './images.ts';
import * as svc from './service.ts';

// Who may call what is the capability each route declares (packages/contracts/src/capabilities.ts).
const errors = { 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse };
const tags = ['agencies'];
/** The caller's own agency, for the routes without an id (an agency user's; 0, so a 404, for others). */
const ownId = (request: FastifyRequest) => actorOf(request).agencyId ?? 0;

export const agenciesRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  const t = (r: FastifyRequest, key: string, params?: Record<string, string | number>) =>
    translate(key, r.lang, params);

  app.get(
    '/v1/agencies',
    {
      config: { capability: 'agencies.manage' },
      schema: {
        tags,
        summary: 'Agency accounts (active or archived), 10 per page, searchable',
        querystring: ZAgencyListQuery,
        response: { 200: ZAgencyList, ...errors },
      },
    },
    async (request) => svc.listAgencies(ctxOf(deps, request), request.query),
  );

  app.post(
    '/v1/agencies',
    {
      config: { capability: 'agencies.manage' },
      schema: {
        tags,
        summary: 'Create an agency with its agency admin, white-label host and telephony account',
        body: ZCreateAgencyRequest,
        response: { 200: ZAgencyMessageResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'agencies.created'),
      data: await svc.createAgency(ctxOf(deps, request), request.body),
    }),
  );

  // Static paths under /v1/agencies/ come before /v1/agencies/:id in the router, whatever the order here.
  app.put(
    '/v1/agencies/settings',
    {
      config: { capability: 'agencySettings.manage' },
      schema: {
        tags,
        summary: "The agency's own branding, notification and white-label settings",
        body: ZAgencySettingsRequest,
        response: { 200: ZAgencyMessageResponse, ...errors },
      },
    },
    async (request) => {
      return {
        success: true as const,
        message: t(request, 'agencies.settings_updated'),
        data: await svc.updateSettings(ctxOf(deps, request), { ...request.body, id: ownId(request) }),
      };
    },
  );

  app.put(
    '/v1/agencies/custom-script',
    {
      config: { capability: 'landingPage.manage' },
      schema: {
        tags,
        summary: "The agency's custom script, installed on its landing page",
        body: ZCustomScriptRequest,
        response: { 200: ZAgencyMessageResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'agencies.custom_script_updated'),
      data: await svc.updateCustomScript(ctxOf(deps, request), { script: request.body.custom_script }),
    }),
  );

  app.put(
    '/v1/agencies/landing-texts',
    {
      config: { capability: 'landingPage.manage' },
      schema: {
        tags,
        summary: "The agency's landing page texts per language (en, es, br), replaced as a whole",
        body: ZLandingTextsRequest,
        response: { 200: ZAgencyMessageResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'agencies.landing_texts_updated'),
      data: await svc.updateLandingTexts(ctxOf(deps, request), { texts: request.body.landingTexts }),
    }),
  );

  app.put(
    '/v1/agencies/twilio-config',
    {
      config: { capability: 'agencyTelephony.manage' },
      schema: {
        tags,
        summary:
          "Agency Setup: the agency's own Twilio account (checked with Twilio before saving; the token is never returned), or { sandbox: true }",
        body: ZTwilioSetupInput,
        response: { 200: ZAgencyMessageResponse, ...errors },
      },
    },
    async (request) => {
      return {
        success: true as const,
        message: t(request, request.body.sandbox ? 'agencies.sandbox_chosen' : 'agencies.twilio_updated'),
        data: await svc.updateTwilioConfig(ctxOf(deps, request), { ...request.body, id: ownId(request) }),
      };
    },
  );

  app.delete(
    '/v1/agencies/bulk-archive',
    {
      config: { capability: 'agencies.manage' },
      schema: {
        tags,
        summary: 'Archive several agencies',
        body: ZIdsRequest,
        response: { 200: ZCountResponse, ...errors },
      },
    },
    async (request) => {
      const count = await svc.archiveAgencies(ctxOf(deps, request), request.body);
      return {
        success: true as const,
        message: t(request, 'agencies.bulk_archived', { count }),
        data: { count },
      };
    },
  );

  app.post(
    '/v1/agencies/bulk-restore',
    {
      config: { capability: 'agencies.manage' },
      schema: {
        tags,
        summary: 'Restore several archived agencies',
        body: ZIdsRequest,
        response: { 200: ZCountResponse, ...errors },
      },
    },
    async (request) => {
      const count = await svc.restoreAgencies(ctxOf(deps, request), request.body);
      return {
        success: true as const,
        message: t(request, 'agencies.bulk_restored', { count }),
        data: { count },
      };
    },
  );

  app.delete(
    '/v1/agencies/bulk',
    {
      config: { capability: 'agencies.manage' },
      schema: {
        tags,
        summary: 'Delete archived agencies for good (status deleted; their domains become free)',
        body: ZIdsRequest,
        response: { 200: ZCountResponse, ...errors },
      },
    },
    async (request) => {
      const count = await svc.deleteAgencies(ctxOf(deps, request), request.body);
      return {
        success: true as const,
        message: t(request, 'agencies.bulk_deleted', { count }),
        data: { count },
      };
    },
  );

  app.get(
    '/v1/agencies/export-users',
    {
      config: { capability: 'agency.edit' },
      schema: {
        tags,
        summary: "CSV file of an agency's users (Admin: ?agency_id=)",
        querystring: ZExportQuery,
        produces: ['text/csv'],
        response: { 200: z.string(), ...errors },
      },
    },
    async (request, reply) => {
      const { csv, filename } = await exportUsers(ctxOf(deps, request), {
        agencyId: request.query.agency_id,
      });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .send(csv);
    },
  );

  app.get(
    '/v1/agencies/export-businesses',
    {
      config: { capability: 'agency.edit' },
      schema: {
        tags,
        summary: "CSV file of an agency's businesses (Admin: ?agency_id=)",
        querystring: ZExportQuery,
        produces: ['text/csv'],
        response: { 200: z.string(), ...errors },
      },
    },
    async (request, reply) => {
      const { csv, filename } = await exportBusinesses(ctxOf(deps, request), {
        agencyId: request.query.agency_id,
      });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .send(csv);
    },
  );

  app.post(
    '/v1/agencies/send-notification',
    {
      config: { capability: 'agencySettings.manage' },
      schema: {
        tags,
        summary: "E-mail the admins of the agency's businesses (all, or those named)",
        body: ZSendNotificationRequest,
        response: { 200: ZSendNotificationResponse, ...errors },
      },
    },
    async (request) => {
      const sent = await svc.sendNotification(ctxOf(deps, request), request.body);
      return {
        success: true as const,
        message: t(request, 'agencies.notification_sent', { count: sent }),
        data: { sent },
      };
    },
  );

  app.post(
    '/v1/agencies/image/:id',
    {
      config: { capability: 'agency.edit' },
      // A 1 MB image is about 1.4 MB as base64.
      bodyLimit: 1_600_000,
      schema: {
        tags,
        summary: 'Upload a header logo, login logo or favicon (data URL; PNG, JPEG, GIF, WEBP, SVG; 1 MB)',
        params: ZIdParams,
        body: ZAgencyImageRequest,
        response: { 200: ZAgencyImageResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'agencies.image_uploaded'),
      data: await uploadAgencyImage(ctxOf(deps, request), { ...request.body, id: request.params.id }),
    }),
  );

  app.delete(
    '/v1/agencies/image/:id/:type',
    {
      config: { capability: 'agency.edit' },
      schema: {
        tags,
        summary: 'Remove a header logo, login logo or favicon',
        params: ZAgencyImageParams,
        response: { 200: ZAgencyImageResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'agencies.image_removed'),
      data: await deleteAgencyImage(ctxOf(deps, request), request.params),
    }),
  );

  app.get(
    '/v1/agencies/:id',
    {
      config: { capability: 'agency.view' },
      schema: {
        tags,
        summary: 'One agency (an agency user: its own)',
        params: ZIdParams,
        response: { 200: ZAgencyResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await svc.getAgency(ctxOf(deps, request), request.params),
    }),
  );

  app.put(
    '/v1/agencies/:id',
    {
      config: { capability: 'agencies.manage' },
      schema: {
        tags,
        summary: 'Edit an agency (the fields of the create form, without the password)',
        params: ZIdParams,
        body: ZUpdateAgencyRequest,
        response: { 200: ZAgencyMessageResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'agencies.updated'),
      data: await svc.updateAgency(ctxOf(deps, request), { ...request.body, id: request.params.id }),
    }),
  );

  app.delete(
    '/v1/agencies/:id',
    {
      config: { capability: 'agencies.manage' },
      schema: {
        tags,
        summary: 'Archive an agency: its site stops answering and its users are signed out and disabled',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await svc.archiveAgencies(ctxOf(deps, request), { ids: [request.params.id], field: 'id' });
      return { success: true as const, message: t(request, 'agencies.archived') };
    },
  );

  app.post(
    '/v1/agencies/:id/restore',
    {
      config: { capability: 'agencies.manage' },
      schema: {
        tags,
        summary: 'Restore an archived agency and re-enable the users its archiving disabled',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await svc.restoreAgencies(ctxOf(deps, request), { ids: [request.params.id] });
      return { success: true as const, message: t(request, 'agencies.restored') };
    },
  );

  app.put(
    '/v1/agencies/:id/settings',
    {
      config: { capability: 'agencies.manage' },
      schema: {
        tags,
        summary: "An agency's branding, notification and white-label settings",
        params: ZIdParams,
        body: ZAgencySettingsRequest,
        response: { 200: ZAgencyMessageResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'agencies.settings_updated'),
      data: await svc.updateSettings(ctxOf(deps, request), { ...request.body, id: request.params.id }),
    }),
  );

  app.put(
    '/v1/agencies/:id/stripe-setting',
    {
      config: { capability: 'agency.edit' },
      schema: {
        tags,
        summary: 'Card payment configuration (the secret key is stored, never returned)',
        params: ZIdParams,
        body: ZStripeSettingRequest,
        response: { 200: ZAgencyMessageResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'agencies.stripe_updated'),
      data: await svc.updateStripeSetting(ctxOf(deps, request), { ...request.body, id: request.params.id }),
    }),
  );

  app.put(
    '/v1/agencies/:id/popup-payment',
    {
      config: { capability: 'popup.manage' },
      schema: {
        tags,
        summary: 'Popup (payment) settings, kept in agency.settings.popup',
        params: ZIdParams,
        body: ZPopupPaymentRequest,
        response: { 200: ZAgencyMessageResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'agencies.popup_updated'),
      data: await svc.updatePopup(ctxOf(deps, request), { ...request.body, id: request.params.id }),
    }),
  );

  app.put(
    '/v1/agencies/:id/change-password',
    {
      config: { capability: 'agencies.manage' },
      schema: {
        tags,
        summary: "Set the agency admin's password; every session of that user ends",
        params: ZIdParams,
        body: ZChangeAgencyPasswordRequest,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await svc.changeAgencyPassword(ctxOf(deps, request), {
        id: request.params.id,
        password: request.body.password,
      });
      return { success: true as const, message: t(request, 'agencies.password_changed') };
    },
  );

  app.put(
    '/v1/agencies/:business_id/twilio-config',
    {
      config: { capability: 'telephony.configure' },
      schema: {
        tags,
        summary:
          "An AgencyAdmin: one of its businesses' own telephony-provider account ({ inherit: true }: back to " +
          "the agency's). A platform admin: an agency's account, by the agency's id (ADR 093)",
        params: z.object({ business_id: z.coerce.number().int().positive() }),
        body: ZCarrierAccountInput,
        response: { 200: ZTwilioConfigResponse, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const body = request.body;
      const message = t(
        request,
        body.inherit
          ? 'agencies.business_carrier_inherited'
          : body.sandbox
            ? 'agencies.sandbox_chosen'
            : 'agencies.twilio_updated',
      );
      if (ctx.tenant.level === 'agency')
        return {
          success: true as const,
          message,
          data: await svc.updateBusinessTwilioConfig(ctx, { ...body, id: request.params.business_id }),
        };
      if (body.inherit) throw invalid('inherit', 'agencies.inherit_not_agency');
      return {
        success: true as const,
        message,
        data: await svc.updateTwilioConfig(ctx, { ...body, id: request.params.business_id }),
      };
    },
  );

  app.get(
    '/v1/agencies/:id/twilio-status',
    {
      config: { capability: 'agency.view' },
      schema: {
        tags,
        summary: 'Whether the telephony-provider account is set (the account SID masked)',
        params: ZIdParams,
        response: { 200: ZTwilioStatusResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await svc.twilioStatus(ctxOf(deps, request), request.params),
    }),
  );

  app.post(
    '/v1/agencies/:id/install-stats',
    {
      config: { capability: 'agency.view' },
      schema: {
        tags,
        summary: "The agency's installs: total, and still available to new businesses",
        params: ZIdParams,
        response: { 200: ZInstallStatsResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await svc.installStats(ctxOf(deps, request), request.params),
    }),
  );

  app.get(
    '/v1/internationals',
    {
      config: { capability: 'international.manage' },
      schema: {
        tags: ['internationals'],
        summary: "The countries the agency's businesses may text and call",
        response: { 200: ZInternationalResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: { allowed_countries: await svc.getInternationals(ctxOf(deps, request)) },
    }),
  );

  app.post(
    '/v1/internationals',
    {
      config: { capability: 'international.manage' },
      schema: {
        tags: ['internationals'],
        summary: 'Set the allowed countries (ISO 3166-1 alpha-2 codes)',
        body: ZInternationalRequest,
        response: { 200: ZInternationalResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'agencies.countries_updated'),
      data: {
        allowed_countries: await svc.setInternationals(ctxOf(deps, request), request.body),
      },
    }),
  );
};

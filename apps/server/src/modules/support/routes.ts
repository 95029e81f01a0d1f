import { ZErrorResponse, ZListQuery } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import {
  ZSupportInstallList,
  ZSupportWidgetSettingsRequest,
  ZSupportWidgetSettingsResponse,
  ZSupportWidgetSettingsSaved,
} from '@stn/contracts/support';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../platform/deps.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import { getSupportWidgetSettings, listSupportInstallChoices, setSupportWidgetSettings } from './service.ts';

const tags = ['support chat'];
// The platform's own settings: Admin and SuperAdmin only.
const config = { capability: 'supportWidget.manage' as const };
const denied = { 401: ZErrorResponse, 403: ZErrorResponse };

export const supportRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/v1/settings/support-widget',
    {
      config,
      schema: {
        tags,
        summary: 'The installs the support chat loads for agencies and for businesses under the main agency',
        response: { 200: ZSupportWidgetSettingsResponse, ...denied },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getSupportWidgetSettings(ctxOf(deps, request)),
    }),
  );

  app.put(
    '/v1/settings/support-widget',
    {
      config,
      schema: {
        tags,
        summary: 'Pick the support chat installs (null: none); each of a live business under the main agency',
        body: ZSupportWidgetSettingsRequest,
        response: { 200: ZSupportWidgetSettingsSaved, ...denied, 422: ZErrorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('support.saved', request.lang),
      data: await setSupportWidgetSettings(ctxOf(deps, request), request.body),
    }),
  );

  app.get(
    '/v1/settings/support-widget/installs',
    {
      config,
      schema: {
        tags,
        summary:
          'Installs the support chat may use (keyword: install, website or business name), 10 per page',
        querystring: ZListQuery,
        response: { 200: ZSupportInstallList, ...denied, 422: ZErrorResponse },
      },
    },
    async (request) => listSupportInstallChoices(ctxOf(deps, request), request.query),
  );
};

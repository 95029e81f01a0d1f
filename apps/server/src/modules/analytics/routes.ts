// The dashboards' API (issue 24; spec 001 POST /v1/business/analytics, GET /v1/business/analytics/export,
// POST /v1/agency/business/analytics): figures read from the daily rollups (ADR 081).
import {
  ZAgencyAnalytics,
  ZAgencyAnalyticsRequest,
  ZBusinessAnalytics,
  ZBusinessAnalyticsExportQuery,
  ZBusinessAnalyticsRequest,
} from '@stn/contracts/analytics';
import { ZErrorResponse } from '@stn/contracts/http';
import { z } from '@stn/contracts/zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../platform/deps.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import { agencyAnalytics, businessAnalytics, businessAnalyticsCsv } from './service.ts';

const tags = ['analytics'];
const errors = { 401: ZErrorResponse, 403: ZErrorResponse, 422: ZErrorResponse };

export const analyticsRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.post(
    '/v1/business/analytics',
    {
      config: { capability: 'analytics.view' },
      schema: {
        tags,
        summary: 'The business dashboard: a range of local days (from, to) and optionally some installs',
        body: ZBusinessAnalyticsRequest,
        response: { 200: z.object({ success: z.literal(true), data: ZBusinessAnalytics }), ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await businessAnalytics(ctxOf(deps, request), request.body),
    }),
  );

  app.get(
    '/v1/business/analytics/export',
    {
      config: { capability: 'analytics.view' },
      schema: {
        tags,
        summary:
          'CSV of the business dashboard: a line per day, then the totals (?from, to, install_ids=1,2)',
        querystring: ZBusinessAnalyticsExportQuery,
        produces: ['text/csv'],
        response: { 200: z.string(), ...errors },
      },
    },
    async (request, reply) => {
      const { install_ids, ...range } = request.query;
      const { csv, filename } = await businessAnalyticsCsv(ctxOf(deps, request), {
        ...range,
        ...(install_ids ? { install_ids: install_ids.split(',').map(Number) } : {}),
      });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .send(csv);
    },
  );

  app.post(
    '/v1/agency/business/analytics',
    {
      config: { capability: 'agencyDashboard.view' },
      schema: {
        tags,
        summary: "The agency dashboard: its businesses' figures together, ranked, with usage against caps",
        body: ZAgencyAnalyticsRequest,
        response: { 200: z.object({ success: z.literal(true), data: ZAgencyAnalytics }), ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await agencyAnalytics(ctxOf(deps, request), request.body),
    }),
  );
};

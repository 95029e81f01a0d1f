import {
  ZBroadcastBulkOptOutRequest,
  ZBroadcastBulkResult,
  ZBroadcastDownloadQuery,
  ZBroadcasterAll,
  ZBroadcasterList,
  ZBroadcasterRequest,
  ZBroadcasterResponse,
  ZBroadcasterUpdate,
  ZBroadcastList,
  ZBroadcastListQuery,
  ZBroadcastReportQuery,
  ZBroadcastReportResponse,
  ZBroadcastRequest,
  ZBroadcastRerunRequest,
  ZBroadcastResponse,
  ZBroadcastTagRequest,
  ZBroadcastTestRequest,
  ZMessageCreditRequest,
  ZMessageCreditResponse,
} from '@stn/contracts/broadcasts';
import { ZNoBody } from '@stn/contracts/contacts';
import { ZErrorResponse, ZIdParams, ZListQuery, ZSuccessMessage } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../platform/deps.ts';
import { AppError } from '../../platform/http/errors.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import {
  allBroadcasters,
  createBroadcaster,
  deleteBroadcaster,
  listBroadcasters,
  updateBroadcaster,
} from './broadcasters.ts';
import { SendingBlocked } from './engine.ts';
import { broadcastReport, reportCsv } from './report.ts';
import {
  bulkOptOutRecipients,
  createBroadcast,
  deleteBroadcast,
  getBroadcast,
  listBroadcasts,
  messageCredit,
  refreshBroadcast,
  rerunBroadcast,
  stopBroadcast,
  tagRecipients,
  testBroadcast,
  updateBroadcast,
} from './service.ts';

// The broadcasts calls of spec 001 "Tasks, tags, broadcasts" (/v1/broadcasts, /v1/broadcasters), paths as
// written there; methods as the contacts' actions have them (ADR 062): reads GET, a create and every action
// POST, an edit PUT, a delete DELETE. Capability broadcasts.use.

const denied = { 401: ZErrorResponse, 403: ZErrorResponse };
const errors = { ...denied, 404: ZErrorResponse, 422: ZErrorResponse };
const config = { capability: 'broadcasts.use' } as const;
const tags = ['broadcasts'];
const t = (request: FastifyRequest, key: string, params: Record<string, string | number> = {}) =>
  translate(key, request.lang, params);
/**
 * A broadcast refused for its number's SMS registration (ADR 092): the 422 names the number and the reason
 * in the caller's language ("This broadcast cannot start: +1… is not registered for texting. Not registered: …").
 */
const localized =
  (request: FastifyRequest) =>
  (err: unknown): never => {
    if (err instanceof SendingBlocked)
      throw new AppError(
        err.code,
        err.message,
        undefined,
        { number: err.number, reason: translate(err.refusal, request.lang) },
        err.reason,
        err.data,
      );
    throw err;
  };
/** A saved broadcast's message: a draft, started now, or scheduled. */
const savedKey = (status: string, fallback: string) =>
  status === 'sending' ? 'broadcasts.started' : status === 'scheduled' ? 'broadcasts.scheduled' : fallback;

export const broadcastsRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/v1/broadcasts',
    {
      config,
      schema: {
        tags,
        summary: "The business's broadcasts, newest first (search by name, status), with their counts",
        querystring: ZBroadcastListQuery,
        response: { 200: ZBroadcastList, ...denied, 422: ZErrorResponse },
      },
    },
    async (request) => listBroadcasts(ctxOf(deps, request), request.query),
  );

  app.post(
    '/v1/broadcasts',
    {
      config,
      schema: {
        tags,
        summary: 'Create a broadcast: a draft, or with start: true sending now or at send_at',
        body: ZBroadcastRequest,
        response: { 200: ZBroadcastResponse, ...errors },
      },
    },
    async (request) => {
      const data = await createBroadcast(ctxOf(deps, request), request.body).catch(localized(request));
      return {
        success: true as const,
        message: t(request, savedKey(data.status, 'broadcasts.created')),
        data,
      };
    },
  );

  app.post(
    '/v1/broadcasts/message-credit',
    {
      config,
      schema: {
        tags,
        summary:
          "The audience's recipients and the message credits it would use, against what is left this month",
        body: ZMessageCreditRequest,
        response: { 200: ZMessageCreditResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await messageCredit(ctxOf(deps, request), request.body),
    }),
  );

  app.post(
    '/v1/broadcasts/test',
    {
      config,
      schema: {
        tags,
        summary: 'Send the message now to one phone (merge fields filled for its contact, else a sample)',
        body: ZBroadcastTestRequest,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await testBroadcast(ctxOf(deps, request), request.body);
      return { success: true as const, message: t(request, 'broadcasts.tested') };
    },
  );

  app.get(
    '/v1/broadcasts/report/download',
    {
      config,
      schema: {
        tags,
        summary: "A broadcast's report as CSV: one row a recipient, the report's columns",
        querystring: ZBroadcastDownloadQuery,
        produces: ['text/csv'],
        response: { 200: z.string(), ...errors },
      },
    },
    async (request, reply) => {
      const { csv, filename } = await reportCsv(ctxOf(deps, request), request.query.id);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .send(csv);
    },
  );

  app.get(
    '/v1/broadcasts/:id',
    {
      config,
      schema: {
        tags,
        summary: 'One broadcast',
        params: ZIdParams,
        response: { 200: ZBroadcastResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getBroadcast(ctxOf(deps, request), request.params.id),
    }),
  );

  app.put(
    '/v1/broadcasts/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Edit a draft or scheduled broadcast (start: true starts it)',
        params: ZIdParams,
        body: ZBroadcastRequest,
        response: { 200: ZBroadcastResponse, ...errors },
      },
    },
    async (request) => {
      const data = await updateBroadcast(ctxOf(deps, request), request.params.id, request.body).catch(
        localized(request),
      );
      return {
        success: true as const,
        message: t(request, savedKey(data.status, 'broadcasts.updated')),
        data,
      };
    },
  );

  app.delete(
    '/v1/broadcasts/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a broadcast that is not sending (stop it first)',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await deleteBroadcast(ctxOf(deps, request), request.params.id);
      return { success: true as const, message: t(request, 'broadcasts.deleted') };
    },
  );

  const action = (path: string, summary: string, run: typeof stopBroadcast, message: string) =>
    app.post(
      path,
      {
        config,
        schema: {
          tags,
          summary,
          params: ZIdParams,
          body: ZNoBody,
          response: { 200: ZBroadcastResponse, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        message: t(request, message),
        data: await run(ctxOf(deps, request), request.params.id),
      }),
    );
  action(
    '/v1/broadcasts/:id/stop',
    'Stop a scheduled or sending broadcast: nothing more goes out',
    stopBroadcast,
    'broadcasts.stopped',
  );
  action(
    '/v1/broadcasts/:id/refresh',
    "Re-read the delivery statuses of the broadcast's messages from the carrier",
    refreshBroadcast,
    'broadcasts.refreshed',
  );

  app.post(
    '/v1/broadcasts/:id/rerun',
    {
      config,
      schema: {
        tags,
        summary:
          'Send again to recipients not yet sent or failed; include_new adds new members of the audience',
        params: ZIdParams,
        body: ZBroadcastRerunRequest,
        response: { 200: ZBroadcastResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'broadcasts.rerun'),
      data: await rerunBroadcast(ctxOf(deps, request), request.params.id, request.body).catch(
        localized(request),
      ),
    }),
  );

  app.post(
    '/v1/broadcasts/:id/tag',
    {
      config,
      schema: {
        tags,
        summary: 'Tag the recipients who were sent the message, or those who replied (who: replied)',
        params: ZIdParams,
        body: ZBroadcastTagRequest,
        response: { 200: ZBroadcastBulkResult, ...errors },
      },
    },
    async (request) => {
      const count = await tagRecipients(ctxOf(deps, request), request.params.id, request.body);
      return { success: true as const, message: t(request, 'broadcasts.tagged', { count }), data: { count } };
    },
  );

  app.post(
    '/v1/broadcasts/:id/bulk-optout',
    {
      config,
      schema: {
        tags,
        summary:
          'Opt out the recipients who asked to stop in words (recipient_ids, else all the replies found)',
        params: ZIdParams,
        body: ZBroadcastBulkOptOutRequest,
        response: { 200: ZBroadcastBulkResult, ...errors },
      },
    },
    async (request) => {
      const count = await bulkOptOutRecipients(ctxOf(deps, request), request.params.id, request.body);
      return {
        success: true as const,
        message: t(request, 'broadcasts.opted_out', { count }),
        data: { count },
      };
    },
  );

  app.get(
    '/v1/broadcasts/:id/report',
    {
      config,
      schema: {
        tags,
        summary:
          "A broadcast's report: counts, failures and skips by reason, timeline, recipients (paged, filters)",
        params: ZIdParams,
        querystring: ZBroadcastReportQuery,
        response: { 200: ZBroadcastReportResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await broadcastReport(ctxOf(deps, request), request.params.id, request.query),
    }),
  );

  // ------------------------------------------------------------------------------ broadcasters

  app.get(
    '/v1/broadcasters',
    {
      config,
      schema: {
        tags,
        summary: "The business's broadcast numbers (setting/broadcast-numbers), newest first",
        querystring: ZListQuery,
        response: { 200: ZBroadcasterList, ...denied, 422: ZErrorResponse },
      },
    },
    async (request) => listBroadcasters(ctxOf(deps, request), request.query),
  );

  app.get(
    '/v1/broadcasters/all',
    {
      config,
      schema: {
        tags,
        summary: 'Every broadcast number of the business (the broadcast form picks from them)',
        response: { 200: ZBroadcasterAll, ...denied },
      },
    },
    async (request) => ({ success: true as const, data: await allBroadcasters(ctxOf(deps, request)) }),
  );

  app.post(
    '/v1/broadcasters',
    {
      config,
      schema: {
        tags,
        summary:
          'Make a number of the business a broadcast number (SMS on, once only), with its kind or rate',
        body: ZBroadcasterRequest,
        response: { 200: ZBroadcasterResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'broadcasts.broadcaster_created'),
      data: await createBroadcaster(ctxOf(deps, request), request.body),
    }),
  );

  app.put(
    '/v1/broadcasters/:id',
    {
      config,
      schema: {
        tags,
        summary: "Change a broadcast number's kind, own rate or active state",
        params: ZIdParams,
        body: ZBroadcasterUpdate,
        response: { 200: ZBroadcasterResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'broadcasts.broadcaster_updated'),
      data: await updateBroadcaster(ctxOf(deps, request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/v1/broadcasters/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Remove a broadcast number (not while a scheduled or sending broadcast uses it)',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await deleteBroadcaster(ctxOf(deps, request), request.params.id);
      return { success: true as const, message: t(request, 'broadcasts.broadcaster_deleted') };
    },
  );
};

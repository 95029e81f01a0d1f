// The app's calls API (business tenant): calls, recordings, voicemails, scheduled calls and the report.
// HTTP only: the services are in ../calls.ts and ../schedule.ts.
import { ZErrorResponse, ZIdParams, ZListQuery, ZSuccessMessage } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import {
  ZCallListQuery,
  ZCallListResponse,
  ZCallResponse,
  ZCallsReportQuery,
  ZCallsReportResponse,
  ZScheduleCallInput,
  ZVoiceRecordListResponse,
} from '@stn/contracts/telephony';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../../platform/deps.ts';
import { ctxOf } from '../../../platform/tenancy/request.ts';
import { scheduleCall } from '../call-requests.ts';
import {
  callRecording,
  callsReport,
  deleteVoiceRecord,
  getCall,
  listCalls,
  listScheduledCalls,
  listVoiceRecords,
  voiceRecordAudio,
} from '../calls.ts';
import { cancelScheduledCall } from '../schedule.ts';

const errors = { 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse };
const use = { capability: 'calls.use' as const };
const tags = ['calls'];

const ZScheduledAnswer = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ id: z.number(), scheduled_for: z.string() }),
});

export const callsRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/v1/calls',
    {
      config: use,
      schema: {
        tags,
        summary: "The business's calls, newest first (a voice agent sees the calls it took)",
        querystring: ZCallListQuery,
        response: { 200: ZCallListResponse, ...errors },
      },
    },
    async (request) => listCalls(ctxOf(deps, request), request.query),
  );

  app.get(
    '/v1/calls/:id',
    {
      config: use,
      schema: {
        tags,
        summary: 'One call with its carrier legs',
        params: ZIdParams,
        response: { 200: ZCallResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getCall(ctxOf(deps, request), request.params),
    }),
  );

  app.get(
    '/v1/calls/:id/recording',
    {
      config: use,
      schema: {
        tags,
        summary: "The call's recording (audio)",
        params: ZIdParams,
        produces: ['audio/wav', 'audio/mpeg'],
        response: { 200: z.any(), ...errors },
      },
    },
    async (request, reply) => {
      const audio = await callRecording(ctxOf(deps, request), request.params);
      return reply.type(audio.contentType).header('cache-control', 'private, max-age=3600').send(audio.body);
    },
  );

  app.get(
    '/v1/voice-records',
    {
      config: use,
      schema: {
        tags,
        summary: 'Voicemails left after missed callbacks, newest first',
        querystring: ZListQuery,
        response: { 200: ZVoiceRecordListResponse, ...errors },
      },
    },
    async (request) => listVoiceRecords(ctxOf(deps, request), request.query),
  );

  app.get(
    '/v1/voice-records/:id/audio',
    {
      config: use,
      schema: {
        tags,
        summary: 'A voicemail (audio)',
        params: ZIdParams,
        produces: ['audio/wav', 'audio/mpeg'],
        response: { 200: z.any(), ...errors },
      },
    },
    async (request, reply) => {
      const audio = await voiceRecordAudio(ctxOf(deps, request), request.params);
      return reply.type(audio.contentType).header('cache-control', 'private, max-age=3600').send(audio.body);
    },
  );

  app.delete(
    '/v1/voice-records/:id',
    {
      config: use,
      schema: {
        tags,
        summary: 'Delete a voicemail',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await deleteVoiceRecord(ctxOf(deps, request), request.params);
      return { success: true as const, message: translate('calls.voice_record_deleted', request.lang) };
    },
  );

  app.get(
    '/v1/scheduled-calls',
    {
      config: use,
      schema: {
        tags,
        summary: 'Calls waiting for their time',
        querystring: ZListQuery,
        response: { 200: ZCallListResponse, ...errors },
      },
    },
    async (request) => listScheduledCalls(ctxOf(deps, request), request.query),
  );

  app.post(
    '/v1/scheduled-calls',
    {
      config: use,
      schema: {
        tags,
        summary: 'Schedule a call: staff are rung at that time, then the visitor is connected',
        body: ZScheduleCallInput,
        response: { 200: ZScheduledAnswer, ...errors, 409: ZErrorResponse },
      },
    },
    async (request) => {
      const data = await scheduleCall(ctxOf(deps, request), {
        installId: request.body.install_id,
        phone: request.body.phone,
        name: request.body.name,
        scheduledAt: new Date(request.body.scheduled_at),
      });
      return { success: true as const, message: translate('calls.scheduled', request.lang), data };
    },
  );

  app.delete(
    '/v1/scheduled-calls/:id',
    {
      config: use,
      schema: {
        tags,
        summary: 'Cancel a scheduled call',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors, 409: ZErrorResponse },
      },
    },
    async (request) => {
      await cancelScheduledCall(ctxOf(deps, request), request.params);
      return { success: true as const, message: translate('calls.canceled', request.lang) };
    },
  );

  app.get(
    '/v1/calls-report',
    {
      config: { capability: 'callsReport.view' },
      schema: {
        tags: ['calls-report'],
        summary: 'Calls by outcome and by agent, with the median time to connect',
        querystring: ZCallsReportQuery,
        response: { 200: ZCallsReportResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await callsReport(ctxOf(deps, request), request.query),
    }),
  );
};

// The widget's call endpoints (/api/widget/v1/...): the instant callback and a scheduled call. The
// install comes from the widget key (the widget tree); the rest is the service's.
import { ZCallbackAnswer } from '@stn/contracts/telephony';
import { ZWidgetCallbackRequest, ZWidgetScheduleRequest } from '@stn/contracts/widget';
import type { FastifyInstance } from 'fastify';
import * as zm from 'zod/mini';
import { widgetOf } from '../../platform/widget/tree.ts';
import { requestCallback, scheduleCall } from './service.ts';

/** A field people leave empty and form-filling robots fill: a filled one is answered and ignored. */
const honeypot = { website: zm.optional(zm.string().check(zm.maxLength(500))) };
const ZCallbackBody = zm.object({ ...ZWidgetCallbackRequest.shape, ...honeypot });
const ZScheduleBody = zm.object({ ...ZWidgetScheduleRequest.shape, ...honeypot });
const ZScheduleAnswer = zm.object({
  success: zm.literal(true),
  data: zm.object({ id: zm.nullable(zm.number()), scheduled_for: zm.string() }),
});

export async function telephonyWidgetRoutes(tree: FastifyInstance): Promise<void> {
  tree.post(
    '/v1/callback',
    {
      schema: {
        tags: ['widget'],
        summary: 'A visitor asks for an instant callback: staff phones ring, the visitor is connected',
        body: ZCallbackBody,
        response: { 200: ZCallbackAnswer },
      },
    },
    async (request) => {
      const { install, ctx } = widgetOf(request);
      const body = request.body as zm.infer<typeof ZCallbackBody>;
      if (body.website) {
        const seconds = (install.settings as { callback_seconds?: number }).callback_seconds ?? 14;
        return {
          success: true as const,
          data: { status: 'calling' as const, call_id: null, callback_seconds: seconds, next_slots: [] },
        };
      }
      const data = await requestCallback(ctx, {
        installId: install.id,
        phone: body.phone,
        name: body.name,
        email: body.email || undefined,
        ip: request.ip,
        departmentId: body.department_id,
      });
      return { success: true as const, data };
    },
  );

  tree.post(
    '/v1/schedule',
    {
      schema: {
        tags: ['widget'],
        summary: 'A visitor schedules a call for a later time, within the install hours',
        body: ZScheduleBody,
        response: { 200: ZScheduleAnswer },
      },
    },
    async (request) => {
      const { install, ctx } = widgetOf(request);
      const body = request.body as zm.infer<typeof ZScheduleBody>;
      if (body.website)
        return { success: true as const, data: { id: null, scheduled_for: body.scheduled_at } };
      const call = await scheduleCall(ctx, {
        installId: install.id,
        phone: body.phone,
        name: body.name,
        email: body.email || undefined,
        departmentId: body.department_id,
        scheduledAt: new Date(body.scheduled_at),
        requireOpen: true,
      });
      return { success: true as const, data: { id: call.id, scheduled_for: call.scheduled_for } };
    },
  );
}

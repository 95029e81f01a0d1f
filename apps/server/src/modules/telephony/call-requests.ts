// The callback and the scheduled call as other modules ask for them: the engine's and the scheduler's
// work, then `call.requested` once the call is written (ADR 052), so that the inbox puts the call in the
// visitor's conversation. Kept apart from the engine: announcing a call is not ringing it.
import { publish } from '../../platform/events/events.ts';
import { businessOf, type Ctx } from '../../platform/tenancy/context.ts';
import { type CallbackData, type CallbackInput, requestCallback as ringCallback } from './engine.ts';
import { callRequested } from './events.ts';
import { scheduleCall as bookCall, type ScheduleInput } from './schedule.ts';

function announce(
  ctx: Ctx,
  call: { id: number; kind: 'callback' | 'scheduled' },
  input: { installId: number; phone: string; name?: string | null; email?: string | null },
): void {
  const { agencyId, businessId } = businessOf(ctx);
  publish(ctx, callRequested, {
    callId: call.id,
    agencyId,
    businessId,
    installId: input.installId,
    kind: call.kind,
    visitorPhone: input.phone,
    visitorName: input.name || null,
    visitorEmail: input.email || null,
  });
}

/** A visitor asks for a callback: rung by the engine, then announced (not when closed: no call). */
export async function requestCallback(ctx: Ctx, input: CallbackInput): Promise<CallbackData> {
  const data = await ringCallback(ctx, input);
  if (data.call_id !== null) announce(ctx, { id: data.call_id, kind: 'callback' }, input);
  return data;
}

/** A call booked for later: written with its job, then announced. */
export async function scheduleCall(
  ctx: Ctx,
  input: ScheduleInput,
): Promise<{ id: number; scheduled_for: string }> {
  const data = await bookCall(ctx, input);
  announce(ctx, { id: data.id, kind: 'scheduled' }, input);
  return data;
}

// Scheduled calls: a row waiting for its time and a pg-boss job written in the same transaction
// (startAfter), so the call survives a restart; at its time the job rings staff like a callback.
import { isOpenAt } from '@stn/contracts/installs';
import { and, count, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { AppError, invalid, notFound } from '../../platform/http/errors.ts';
import { defineJob, enqueue } from '../../platform/queue/queue.ts';
import { businessOf, type Ctx, inTransaction, scope, tenantContext } from '../../platform/tenancy/context.ts';
import { type OpenedCall, openCall, prepareCall, startRinging } from './engine.ts';
import { calls } from './tables.ts';

/** Scheduled calls may be set up to this far ahead. */
const MAX_AHEAD_MS = 90 * 86_400_000;
/** Calls a visitor's phone may have waiting at once, booked from the widget (a bot cannot fill the diary). */
export const PENDING_SCHEDULED_PER_PHONE = 3;

export const scheduledCallJob = defineJob({
  name: 'telephony.scheduled-call',
  payload: z.object({ agencyId: z.number(), businessId: z.number(), callId: z.number() }),
  retry: { limit: 2, delaySeconds: 30, backoff: false },
  handler: async (deps, p) => {
    const ctx = tenantContext(
      deps,
      { level: 'business', agencyId: p.agencyId, businessId: p.businessId },
      { kind: 'system', source: 'job', name: 'scheduled call' },
    );
    await runScheduledCall(ctx, p.callId);
  },
});

export type ScheduleInput = {
  installId: number;
  phone: string;
  name?: string | undefined;
  email?: string | undefined;
  departmentId?: number | undefined;
  scheduledAt: Date;
  /** The widget's visitors may only pick a time the install is open. */
  requireOpen?: boolean;
};

export async function scheduleCall(
  ctx: Ctx,
  input: ScheduleInput,
): Promise<{ id: number; scheduled_for: string }> {
  const at = input.scheduledAt;
  const now = Date.now();
  if (Number.isNaN(at.getTime()) || at.getTime() <= now || at.getTime() > now + MAX_AHEAD_MS)
    throw invalid('scheduled_at', 'calls.schedule_time');
  const p = await prepareCall(ctx, input);
  if (input.requireOpen && !isOpenAt(p.install.settings, at))
    throw invalid('scheduled_at', 'calls.schedule_closed');
  const { agencyId, businessId } = businessOf(ctx);
  const row = await inTransaction(ctx, async (tx) => {
    if (input.requireOpen) {
      // One phone's bookings are counted under a lock on the phone, so parallel requests cannot pass it.
      await tx.db.execute(
        sql`select pg_advisory_xact_lock(hashtext(${`schedule:${businessId}:${input.phone}`}))`,
      );
      const [pending] = await tx.db
        .select({ n: count() })
        .from(calls)
        .where(scope(tx, calls, eq(calls.visitor_phone, input.phone), eq(calls.outcome, 'scheduled')));
      if ((pending?.n ?? 0) >= PENDING_SCHEDULED_PER_PHONE)
        throw new AppError('TOO_MANY', 'calls.schedule_too_many', undefined, {}, 'calls.schedule_too_many');
    }
    const [created] = await tx.db
      .insert(calls)
      .values({
        agency_id: agencyId,
        business_id: businessId,
        install_id: p.install.id,
        kind: 'scheduled',
        outcome: 'scheduled',
        visitor_phone: input.phone,
        visitor_name: input.name || null,
        visitor_email: input.email || null,
        department_id: input.departmentId ?? null,
        from_number: p.number,
        scheduled_for: at,
      })
      .returning();
    if (!created) throw new Error('scheduled call insert failed');
    await enqueue(tx, scheduledCallJob, { agencyId, businessId, callId: created.id }, { startAfter: at });
    return created;
  });
  return { id: row.id, scheduled_for: at.toISOString() };
}

/** At its time: the same checks as a callback, then staff are rung. A refused call is marked failed. */
export async function runScheduledCall(ctx: Ctx, callId: number): Promise<void> {
  const [call] = await ctx.db
    .select()
    .from(calls)
    .where(scope(ctx, calls, eq(calls.id, callId), eq(calls.outcome, 'scheduled')));
  if (!call) return;
  let opened: OpenedCall;
  try {
    const p = await prepareCall(ctx, {
      installId: call.install_id,
      phone: call.visitor_phone,
      departmentId: call.department_id ?? undefined,
    });
    opened = await openCall(
      ctx,
      p,
      { phone: call.visitor_phone },
      { kind: 'scheduled', existingId: call.id },
    );
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    ctx.deps.log.info({ callId, reason: err.message }, 'scheduled call not placed');
    await ctx.db
      .update(calls)
      .set({ outcome: 'failed', ended_at: new Date(), updated_at: new Date() })
      .where(and(eq(calls.id, callId), eq(calls.outcome, 'scheduled')));
    return;
  }
  await startRinging(ctx, opened);
}

export async function cancelScheduledCall(ctx: Ctx, input: { id: number }): Promise<void> {
  const [row] = await ctx.db
    .update(calls)
    .set({ outcome: 'canceled', updated_at: new Date() })
    .where(scope(ctx, calls, eq(calls.id, input.id), eq(calls.outcome, 'scheduled')))
    .returning({ id: calls.id });
  if (row) return;
  const [exists] = await ctx.db
    .select({ id: calls.id })
    .from(calls)
    .where(scope(ctx, calls, eq(calls.id, input.id), eq(calls.kind, 'scheduled')));
  if (!exists) throw notFound();
  throw new AppError('CONFLICT', 'calls.not_scheduled');
}

// A call's progress as the website widget's visitor sees it (finding, calling_you, connected, completed,
// missed), published on the call's realtime channel as the engine moves it, so that the page that asked
// for the callback follows it live (with REDIS_URL from whichever process handled the carrier's webhook).
import type { TWidgetCallStatus, TWidgetEvent } from '@stn/contracts/widget';
import { eq } from 'drizzle-orm';
import { publish } from '../../platform/events/events.ts';
import { channel } from '../../platform/realtime/hub.ts';
import { type Ctx, scope } from '../../platform/tenancy/context.ts';
import { callChanged } from './events.ts';
import { calls } from './tables.ts';

type ProgressRow = Pick<typeof calls.$inferSelect, 'outcome' | 'claimed_leg_sid' | 'connected_at' | 'kind'>;

/** The visitor's view of a call row; null for a call not yet placed (scheduled) or not theirs to follow. */
export function progressOf(row: ProgressRow): TWidgetCallStatus | null {
  switch (row.outcome) {
    case 'in_progress':
      if (row.connected_at) return 'connected';
      return row.claimed_leg_sid ? 'calling_you' : 'finding';
    case 'completed':
      return 'completed';
    case 'missed':
    case 'no_answer':
    case 'failed':
    case 'canceled':
      return 'missed';
    default:
      return null;
  }
}

/**
 * Publishes a call's progress after the caller's work commits (a widget page may be listening), and that
 * the call changed (the live view of calls, ADR 083; inbound calls too).
 */
export function announceProgress(
  ctx: Ctx,
  callId: number,
  row: (ProgressRow & Pick<typeof calls.$inferSelect, 'agency_id' | 'business_id'>) | undefined,
): void {
  if (!row) return;
  announceCallChanged(ctx, { id: callId, agency_id: row.agency_id, business_id: row.business_id });
  if (row.kind === 'inbound') return;
  const status = progressOf(row);
  if (!status) return;
  const data: TWidgetEvent = { type: 'call', call_id: callId, status };
  ctx.afterCommit(() =>
    ctx.deps.realtime
      .publish(channel.call(callId), { type: 'call', data })
      .catch((err) => ctx.deps.log.warn({ err, callId }, 'call progress not published')),
  );
}

/** `call.changed` after the caller's work commits. */
export function announceCallChanged(
  ctx: Ctx,
  row: Pick<typeof calls.$inferSelect, 'id' | 'agency_id' | 'business_id'>,
): void {
  publish(ctx, callChanged, { callId: row.id, agencyId: row.agency_id, businessId: row.business_id });
}

/** A call's progress now (the first event a late subscriber gets), or null when not found. */
export async function callProgress(ctx: Ctx, input: { callId: number }): Promise<TWidgetCallStatus | null> {
  const [row] = await ctx.db
    .select({
      outcome: calls.outcome,
      claimed_leg_sid: calls.claimed_leg_sid,
      connected_at: calls.connected_at,
      kind: calls.kind,
    })
    .from(calls)
    .where(scope(ctx, calls, eq(calls.id, input.callId)));
  return row ? progressOf(row) : null;
}

// The call reconciler (ADR 051). A call moves on the carrier's webhooks; when the process that placed it
// dies (or the sandbox carrier, which lives in the process, restarts), the webhooks that would end it
// never come, the call stays `in_progress`, and the one-callback-in-flight rule refuses every later
// callback of that visitor. So on start and every CALL_RECONCILE_SECONDS, each call in progress that has
// not moved for a while is checked with the carrier, leg by leg: what the carrier has ended is ended with
// its status, what it no longer knows (or an agency with no carrier left) is ended as failed, and a call
// whose legs have all ended gets its outcome (completed, no answer, missed, failed). Every change is a
// conditional update, so several processes reconciling at once end a call once.
import { and, eq, inArray } from 'drizzle-orm';
import { type Carrier, CarrierError } from '../../platform/carrier/carrier.ts';
import type { Deps } from '../../platform/deps.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';
import { carrierFor } from './access.ts';
import {
  applyLegStatus,
  type CallRow,
  callContext,
  expireQueued,
  failCall,
  finishClaimed,
  isFinal,
  isPendingSid,
  markMissed,
  publishCallMissed,
  type RingState,
  ringWaiting,
} from './engine.ts';
import { announceProgress } from './progress.ts';
import { callLegs, calls } from './tables.ts';

/** A call (and its legs) untouched this long is checked: a live call's webhooks come much more often. */
export const RECONCILE_GRACE_MS = 10_000;
/** A leg written before its carrier call whose carrier sid never came (the process died in between). */
const PENDING_LOST_MS = 60_000;
/** A waiting call whose wait ended this long ago is missed without calling the visitor back. */
const STALE_MESSAGE_MS = 5 * 60_000;
const BATCH = 500;

type Leg = typeof callLegs.$inferSelect;

/** The carrier's word on one leg: its final status, null while it is live, undefined when it cannot say. */
async function carrierStatus(
  carrier: Carrier | null,
  leg: Leg,
  now: number,
): Promise<string | null | undefined> {
  if (isPendingSid(leg.call_sid)) return now - leg.created_at.getTime() > PENDING_LOST_MS ? 'failed' : null;
  if (!carrier) return 'failed';
  try {
    const call = await carrier.fetchCall(leg.call_sid);
    return isFinal(call.status) ? call.status : null;
  } catch (err) {
    // The carrier does not know the call (the sandbox forgot it on a restart): it is over.
    if (err instanceof CarrierError && err.status === 404) return 'failed';
    return undefined;
  }
}

/** Ends a call whose legs have all ended, with the outcome they say. */
async function conclude(ctx: Ctx, call: CallRow, legs: Leg[]): Promise<void> {
  if (call.kind === 'inbound') {
    const completed = call.claimed_leg_sid !== null && call.connected_at !== null;
    const [row] = await ctx.db
      .update(calls)
      .set({ outcome: completed ? 'completed' : 'missed', ended_at: new Date(), updated_at: new Date() })
      .where(and(eq(calls.id, call.id), eq(calls.outcome, 'in_progress')))
      .returning();
    if (row && !completed) publishCallMissed(ctx, row);
    return;
  }
  if (call.claimed_leg_sid) {
    await finishClaimed(ctx, call.id, {
      completed: call.connected_at !== null,
      duration: null,
      authoritative: false,
    });
    return;
  }
  if (!legs.some((l) => l.role === 'staff')) return failCall(ctx, call.id);
  // Nobody took it. The visitor is not called back now: the moment has passed (ADR 051).
  await markMissed(ctx, call.id, { message: false });
}

/** One call: its legs checked with the carrier, and the call ended when none is live. Answers if it ended. */
async function reconcileCall(deps: Deps, call: CallRow, now: number): Promise<boolean> {
  const ctx = callContext(deps, call, 'call reconciler');
  const st = call.ring_state as RingState;
  if (st.queued) {
    if ((st.queuedUntil ?? 0) > now) {
      await ringWaiting(ctx);
      return false;
    }
    await expireQueued(ctx, call.id, { message: now - (st.queuedUntil ?? 0) < STALE_MESSAGE_MS });
    return true;
  }
  const legs = await ctx.db.select().from(callLegs).where(eq(callLegs.call_id, call.id));
  const moved = Math.max(call.updated_at.getTime(), ...legs.map((l) => l.updated_at.getTime()));
  if (now - moved < RECONCILE_GRACE_MS) return false;
  const carrier = await carrierFor(ctx).catch(() => null);
  let live = false;
  for (const leg of legs.filter((l) => !isFinal(l.status))) {
    const status = await carrierStatus(carrier, leg, now);
    if (status === undefined) return false;
    if (status === null) {
      live = true;
      continue;
    }
    await applyLegStatus(ctx, { callId: call.id, callSid: leg.call_sid }, { status, sequence: -1 });
  }
  if (live) return false;
  const [fresh] = await ctx.db.select().from(calls).where(eq(calls.id, call.id));
  if (fresh?.outcome !== 'in_progress') return false;
  await conclude(ctx, fresh, legs);
  const [after] = await ctx.db.select().from(calls).where(eq(calls.id, call.id));
  announceProgress(ctx, call.id, after);
  // Its staff phones are free again.
  await ringWaiting(ctx);
  return after?.outcome !== 'in_progress';
}

/** One pass over the calls in progress; answers how many it ended. */
export async function reconcileCalls(deps: Deps): Promise<number> {
  const open = await deps.db
    .select()
    .from(calls)
    .where(inArray(calls.outcome, ['in_progress']))
    .orderBy(calls.id)
    .limit(BATCH);
  const now = Date.now();
  let ended = 0;
  for (const call of open) {
    try {
      if (await reconcileCall(deps, call, now)) ended++;
    } catch (err) {
      deps.log.warn({ err, callId: call.id }, 'call reconciler: a call could not be checked');
    }
  }
  if (ended > 0) deps.log.info({ ended }, 'call reconciler: calls the carrier had ended');
  return ended;
}

/**
 * Starts the reconciler: a pass at once (the calls a previous process left behind) and one every
 * CALL_RECONCILE_SECONDS (0: start-up pass only). Answers the stop function.
 */
export function startCallReconciler(deps: Deps): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const pass = () => {
    if (stopped) return;
    running = running
      .then(() => reconcileCalls(deps))
      .catch((err) => deps.log.warn({ err }, 'call reconciler: the pass failed'));
  };
  pass();
  const seconds = deps.config.callReconcileSeconds;
  const timer = seconds > 0 ? setInterval(pass, seconds * 1000) : null;
  timer?.unref();
  return async () => {
    stopped = true;
    if (timer) clearInterval(timer);
    await running;
  };
}

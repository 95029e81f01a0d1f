// The call reconciler (ADR 051). A call moves on the carrier's webhooks; when the process that placed it
// dies (or the sandbox carrier, which lives in the process, restarts), the webhooks that would end it
// never come, the call stays `in_progress`, and the one-callback-in-flight rule refuses every later
// callback of that visitor. So on start and every CALL_RECONCILE_SECONDS, each call in progress that has
// not moved for a while is checked with the carrier, leg by leg: what the carrier has ended is ended with
// its status, what it no longer knows (or an agency with no carrier left) is ended as failed, and a call
// whose legs have all ended gets its outcome (completed, no answer, missed, failed). Every change is a
// conditional update, so several processes reconciling at once end a call once. A call is claimed for a
// check (its `reconcile_checks`, a version), so one process asks the carrier about it at a time, and a
// call found live is asked about again only after an interval that doubles with each check.
// Only the carrier's word ends a leg (a final status, a 404 for a call it does not know) or an agency
// with no carrier account: any other failure (the database, the account's token, the carrier's 5xx or
// rate limit) skips the call until a later pass.
import { and, eq, inArray } from 'drizzle-orm';
import { type Carrier, CarrierError } from '../../platform/carrier/carrier.ts';
import type { Deps } from '../../platform/deps.ts';
import { type Ctx, platformOnly } from '../../platform/tenancy/context.ts';
import { carrierIfAny } from './access.ts';
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
  publishCallCompleted,
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
/** The longest wait between two checks of a call that stays live. */
const RECHECK_MAX_MS = 10 * 60_000;

/**
 * How long after its last check a call is checked again: half a pass after the first check, then twice
 * as long after each (a long conversation is asked about a few times, not every pass), at most 10 min.
 */
export function recheckAfterMs(checks: number, passSeconds: number): number {
  const base = (Math.max(1, passSeconds || 60) * 1000) / 2;
  return Math.min(base * 2 ** Math.max(0, checks - 1), RECHECK_MAX_MS);
}

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
    // The carrier does not know the call (the sandbox forgot it on a restart): it is over. Anything else
    // (unreachable, 5xx, a rate limit, credentials refused) says nothing about the call.
    if (err instanceof CarrierError && err.status === 404 && err.kind === 'not-found') return 'failed';
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
    if (row && completed) publishCallCompleted(ctx, row);
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
  const checks = call.reconcile_checks;
  if (
    call.reconciled_at &&
    checks > 0 &&
    now - call.reconciled_at.getTime() < recheckAfterMs(checks, deps.config.callReconcileSeconds)
  )
    return false;
  // Claimed for this check: another process that read the same version does not ask the carrier too.
  const [claimed] = await ctx.db
    .update(calls)
    .set({ reconciled_at: new Date(now), reconcile_checks: checks + 1 })
    .where(and(eq(calls.id, call.id), eq(calls.outcome, 'in_progress'), eq(calls.reconcile_checks, checks)))
    .returning({ id: calls.id });
  if (!claimed) return false;
  // Null only when the agency has no carrier account; a failure to read it throws and skips the call.
  const carrier = await carrierIfAny(ctx);
  let live = false;
  for (const leg of legs.filter((l) => !isFinal(l.status))) {
    const status = await carrierStatus(carrier, leg, now);
    if (status === undefined) {
      deps.log.warn(
        { callId: call.id, callSid: leg.call_sid },
        'call reconciler: the carrier did not answer',
      );
      return false;
    }
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

/** One pass over the calls in progress of every tenant (a platform context); answers how many it ended. */
export async function reconcileCalls(ctx: Ctx): Promise<number> {
  platformOnly(ctx);
  const { deps } = ctx;
  const open = await ctx.db
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
export function startCallReconciler(ctx: Ctx): () => Promise<void> {
  const { deps } = ctx;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const pass = () => {
    if (stopped) return;
    running = running
      .then(() => reconcileCalls(ctx))
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

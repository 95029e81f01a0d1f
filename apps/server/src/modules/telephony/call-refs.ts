// What this process knows of the calls lately seen (issue 27): the fields of a call that never change once
// set, so that a webhook about it needs no read of its row (webhooks.ts). A call is remembered when this
// process writes it (engine.ts openCall) or reads its row; the staff legs it places, when it names them
// (ADR 124).
import { eq } from 'drizzle-orm';
import { prepared, slot } from '../../platform/db/prepared.ts';
import type { Deps } from '../../platform/deps.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';
import { type callLegs, calls } from './tables.ts';

type CallRow = typeof calls.$inferSelect;
type LegRow = typeof callLegs.$inferSelect;

/**
 * What a webhook may know of a call without reading its row: the fields that never change once set (its
 * tenant, kind and visitor, the claiming leg once a leg has claimed it: `claim` sets it only where it is
 * null, and the end once it ended: every end keeps the first `ended_at`). Kept per process for the calls
 * lately seen, so that a status callback needs no read of a row it cannot learn anything new from; a row
 * read or written by any webhook refreshes it.
 */
export type CallRef = Pick<
  CallRow,
  'id' | 'agency_id' | 'business_id' | 'kind' | 'visitor_phone' | 'claimed_leg_sid' | 'ended_at'
>;
const REFS_MAX = 5000;
/** The calls lately seen, as this process last wrote or read their rows. */
const refsByDeps = new WeakMap<Deps, Map<number, CallRow>>();
/** The staff legs this process placed lately, by their carrier call id, as it last wrote or read them. */
const legsByDeps = new WeakMap<Deps, Map<string, LegRow>>();

function mapOf<K, V>(all: WeakMap<Deps, Map<K, V>>, deps: Deps): Map<K, V> {
  let map = all.get(deps);
  if (!map) {
    map = new Map();
    all.set(deps, map);
  }
  return map;
}

/** Keeps `value` as the newest of a bounded map: the oldest goes past `max`. */
function keep<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }
}

/** Remembers a call's row this process wrote or read (a webhook's context, or the call's own). */
export function rememberCall(ctx: Ctx, call: CallRow): void {
  keep(mapOf(refsByDeps, ctx.deps), call.id, call, REFS_MAX);
}

/** Remembers a staff leg this process placed (its row once named), or its row as a status changed it. */
export function rememberLeg(ctx: Ctx, leg: LegRow, opts: { placed: boolean }): void {
  const legs = mapOf(legsByDeps, ctx.deps);
  if (!opts.placed && !legs.has(leg.call_sid)) return;
  keep(legs, leg.call_sid, leg, REFS_MAX * 4);
}

/**
 * A staff leg this process placed, with its call's row as this process last saw it (ADR 124): the voice and
 * gather webhooks of that leg need no read. Of the row, only what never changes once set is sure (CallRef,
 * and the ring state's staff, key and whisper); the claim and the outcome may be behind a change another
 * process made. Behind, never ahead: a claimed or ended call stays so. So a leg's webhook answered from it may
 * offer the key of a call another leg has just claimed, and the claim itself, conditional in SQL, decides.
 */
export function knownLiveLeg(
  ctx: Ctx,
  callId: number,
  sid: string,
): { call: CallRow; leg: LegRow } | undefined {
  const leg = mapOf(legsByDeps, ctx.deps).get(sid);
  const call = mapOf(refsByDeps, ctx.deps).get(callId);
  return leg && call && leg.call_id === callId ? { call, leg } : undefined;
}

/**
 * What this process knows of call `id`, if anything: looked up before the call's tenant is known (`ctx` is
 * the webhook's carrier context), and trusted only once the webhook's account is found to be its agency's.
 */
export function knownCall(ctx: Ctx, id: number): CallRef | undefined {
  return mapOf(refsByDeps, ctx.deps).get(id);
}

const callById = prepared((db) =>
  db
    .select()
    .from(calls)
    .where(eq(calls.id, slot('id'))),
);

/** The row of call `id`, as the context's handle sees it (a query built once, ADR 107). */
export async function readCall(ctx: Ctx, id: number): Promise<CallRow | undefined> {
  const [row] = await callById(ctx.db, { id });
  return row;
}

// What this process knows of the calls lately seen (issue 27): the fields of a call that never change once
// set, so that a webhook about it needs no read of its row (webhooks.ts). A call is remembered when this
// process writes it (engine.ts openCall) or reads its row.
import { eq } from 'drizzle-orm';
import { prepared, slot } from '../../platform/db/prepared.ts';
import type { Deps } from '../../platform/deps.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';
import { calls } from './tables.ts';

type CallRow = typeof calls.$inferSelect;

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
const refsByDeps = new WeakMap<Deps, Map<number, CallRef>>();

function refsOf(deps: Deps): Map<number, CallRef> {
  let refs = refsByDeps.get(deps);
  if (!refs) {
    refs = new Map();
    refsByDeps.set(deps, refs);
  }
  return refs;
}

/** Remembers a call this process wrote or read (a webhook's context, or the call's own). */
export function rememberCall(ctx: Ctx, call: CallRef): void {
  const refs = refsOf(ctx.deps);
  refs.delete(call.id);
  refs.set(call.id, {
    id: call.id,
    agency_id: call.agency_id,
    business_id: call.business_id,
    kind: call.kind,
    visitor_phone: call.visitor_phone,
    claimed_leg_sid: call.claimed_leg_sid,
    ended_at: call.ended_at,
  });
  if (refs.size > REFS_MAX) {
    const oldest = refs.keys().next().value;
    if (oldest !== undefined) refs.delete(oldest);
  }
}

/**
 * What this process knows of call `id`, if anything: looked up before the call's tenant is known (`ctx` is
 * the webhook's carrier context), and trusted only once the webhook's account is found to be its agency's.
 */
export function knownCall(ctx: Ctx, id: number): CallRef | undefined {
  return refsOf(ctx.deps).get(id);
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

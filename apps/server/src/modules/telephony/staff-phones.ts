// Busy staff phones (ADR 051), one rule for every call that rings staff: a callback's own staff legs, a
// scheduled call's, and an inbound call's <Dial>. A staff phone is busy while it rings for a call nobody
// has claimed, or while its staff member is in a call. The free phones are chosen under a per-business
// lock, and each one chosen gets its leg row at once (a placeholder sid until the carrier names the leg),
// so two calls at the same moment see each other's phones taken.
import crypto from 'node:crypto';
import { and, eq, isNull, notInArray, or, type SQL, sql } from 'drizzle-orm';
import { prepared, preparedSql, slot } from '../../platform/db/prepared.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';
import type { Staff } from './access.ts';
import { callLegs, calls } from './tables.ts';

export const FINAL_STATUSES = ['completed', 'busy', 'failed', 'no-answer', 'canceled'] as const;
const FINAL = new Set<string>(FINAL_STATUSES);
export const isFinal = (status: string) => FINAL.has(status);

/** A staff leg written before the carrier names it: its call_sid until the carrier gives the real one. */
const PENDING = 'pending:';
export const isPendingSid = (sid: string) => sid.startsWith(PENDING);

type CallOfBusiness = { id: number; business_id: number };
export type Reserved = { legId: number; staff: Staff };

/** Serialises the choice of staff phones within a business (two calls at once see each other's legs). */
export async function lockStaff(tx: Ctx, businessId: number): Promise<void> {
  await staffLock(tx.db, { key: `staff:${businessId}` });
}

const staffLock = preparedSql(() => sql`select pg_advisory_xact_lock(hashtext(${slot('key')}::text))`);

/**
 * The business's staff phones that are taken: ringing for a call nobody has claimed yet, or the phone of
 * the staff member in a call. A leg that lost the claim (being cancelled) does not hold its phone.
 */
export async function busyPhones(tx: Ctx, businessId: number): Promise<Set<string>> {
  const rows = await busyOf(tx.db, { business: businessId });
  return new Set(rows.map((r) => r.phone));
}

// Built once (ADR 107): every callback reads them.
const busyOf = prepared((db) =>
  db
    .select({ phone: callLegs.to_number })
    .from(callLegs)
    .innerJoin(calls, eq(calls.id, callLegs.call_id))
    .where(
      and(
        eq(calls.business_id, slot('business')),
        eq(calls.outcome, 'in_progress'),
        eq(callLegs.role, 'staff'),
        notInArray(callLegs.status, [...FINAL_STATUSES]),
        or(isNull(calls.claimed_leg_sid), eq(calls.claimed_leg_sid, callLegs.call_sid)),
      ),
    ),
);

/**
 * A leg row for each staff phone about to ring (placeholder sids), inside the staff lock's transaction:
 * placeholdersSql for a call already written.
 */
export async function insertPlaceholders(tx: Ctx, call: CallOfBusiness, staff: Staff[]): Promise<Reserved[]> {
  if (staff.length === 0) return [];
  const { rows } = await tx.db.execute<{ id: number; phone: string }>(
    sql`with call as (select ${call.id}::int as id, ${call.business_id}::int as business_id)
      ${placeholdersSql('call', staff)}`,
  );
  return reservedOf(rows, staff);
}

/**
 * The insert of the placeholder legs of `staff`, as a part of a caller's statement (ADR 123): the legs of
 * the call the caller's `with` named `call` (its id and business_id), answering each leg's id and phone
 * (`reservedOf` reads them). A callback's call, its first ring's legs and its count are one statement;
 * insertPlaceholders names a call already written.
 */
export function placeholdersSql(call: string, staff: Staff[]): SQL<unknown> {
  const rows = JSON.stringify(
    staff.map((s) => ({ s: `${PENDING}${crypto.randomUUID()}`, p: s.phone, u: s.userId, n: s.name })),
  );
  return sql`insert into call_legs (call_id, business_id, call_sid, role, to_number, agent_user_id, agent_name, status)
    select c.id, c.business_id, r.s, 'staff', r.p, r.u, r.n, 'queued'
    from ${sql.identifier(call)} c, jsonb_to_recordset(${rows}::jsonb) as r(s text, p text, u int, n text)
    returning id, to_number as phone`;
}

/** The legs placeholdersSql wrote, with the staff each rings. */
export const reservedOf = (rows: { id: number; phone: string }[], staff: Staff[]): Reserved[] =>
  rows.map((r) => ({ legId: r.id, staff: staff.find((s) => s.phone === r.phone) as Staff }));

/**
 * The free ones among `candidates` (at most `max`, in order) get a leg row each, under the business's
 * staff lock. `tx` must be a transaction (the lock is held until it ends); the call row may be written in
 * the same transaction (an inbound call is written and its phones chosen at once).
 */
export async function reserveFreeStaff(
  tx: Ctx,
  call: CallOfBusiness,
  candidates: Staff[],
  max: number,
): Promise<Reserved[]> {
  if (!tx.inTx) throw new Error('reserveFreeStaff needs a transaction');
  await lockStaff(tx, call.business_id);
  const busy = await busyPhones(tx, call.business_id);
  return insertPlaceholders(tx, call, candidates.filter((s) => !busy.has(s.phone)).slice(0, max));
}

/**
 * An inbound call's <Dial> child reached a staff phone: it takes the placeholder leg of that phone (the
 * carrier has named it), or is recorded as a new leg. Idempotent: the whisper and the status webhook
 * both come, in any order, and retries too.
 */
export async function nameStaffLeg(
  ctx: Ctx,
  call: CallOfBusiness,
  leg: { callSid: string; to: string; agentUserId: number | null; agentName: string | null },
): Promise<void> {
  const [named] = await ctx.db
    .update(callLegs)
    .set({ call_sid: leg.callSid, updated_at: new Date() })
    .where(
      and(
        eq(
          callLegs.id,
          sql`(select ${callLegs.id} from ${callLegs} where ${callLegs.call_id} = ${call.id} and ${callLegs.role} = 'staff' and ${callLegs.to_number} = ${leg.to} and ${callLegs.call_sid} like ${`${PENDING}%`} order by ${callLegs.id} limit 1 for update skip locked)`,
        ),
        sql`not exists (select 1 from ${callLegs} l where l.call_sid = ${leg.callSid})`,
      ),
    )
    .returning({ id: callLegs.id });
  if (named) return;
  await ctx.db
    .insert(callLegs)
    .values({
      call_id: call.id,
      business_id: call.business_id,
      call_sid: leg.callSid,
      role: 'staff',
      to_number: leg.to,
      agent_user_id: leg.agentUserId,
      agent_name: leg.agentName,
      status: 'queued',
    })
    .onConflictDoNothing();
}

// Busy staff phones (ADR 051), one rule for every call that rings staff: a callback's own staff legs, a
// scheduled call's, and an inbound call's <Dial>. A staff phone is busy while it rings for a call nobody
// has claimed, or while its staff member is in a call. The free phones are chosen under a per-business
// lock, and each one chosen gets its leg row at once (a placeholder sid until the carrier names the leg),
// so two calls at the same moment see each other's phones taken.
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { preparedSql, slot } from '../../platform/db/prepared.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';
import type { Staff } from './access.ts';
import { callLegs } from './tables.ts';

export const FINAL_STATUSES = ['completed', 'busy', 'failed', 'no-answer', 'canceled'] as const;
const FINAL = new Set<string>(FINAL_STATUSES);
export const isFinal = (status: string) => FINAL.has(status);

/** A staff leg written before the carrier names it: its call_sid until the carrier gives the real one. */
const PENDING = 'pending:';
export const isPendingSid = (sid: string) => sid.startsWith(PENDING);

type CallOfBusiness = { id: number; business_id: number };
export type Reserved = { legId: number; staff: Staff };

/**
 * The business's staff phones that are taken, read under its staff lock (held until the transaction ends),
 * in one statement (`stn_busy_staff_phones`, migration 0037, ADR 125): the lock serialises the choice of
 * staff phones within a business, so two calls at once see each other's legs. A phone is taken while it
 * rings for a call nobody has claimed yet, or while its staff member is in a call; a leg that lost the
 * claim (being cancelled) does not hold its phone. `tx` must be a transaction.
 */
export async function lockedBusyPhones(tx: Ctx, businessId: number): Promise<Set<string>> {
  if (!tx.inTx) throw new Error('lockedBusyPhones needs a transaction');
  const rows = await busyOf(tx.db, { business: businessId });
  return new Set(rows.map((r) => r.phone));
}

/**
 * The same read as a part of a statement (its `business` an expression of the statement): the lock is held
 * until that statement's transaction ends, and the read sees every leg committed before the lock was
 * granted (the function's query takes its own snapshot).
 */
export const busyPhonesSql = (business: SQL) =>
  sql`select phone from stn_busy_staff_phones(${business}, ${sql.raw(FINAL_ARRAY)}) as phone`;

const FINAL_ARRAY = `'{${FINAL_STATUSES.join(',')}}'::text[]`;

// Built once (ADR 107): every callback reads them.
const busyOf = preparedSql<{ phone: string }>(() => busyPhonesSql(sql`${slot('business')}::int`));

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
 * insertPlaceholders names a call already written. `staff` is the staff to ring, or a relation of the
 * statement (`r`, with the phone `p`, the user `u` and the name `n`) that chose them.
 */
export function placeholdersSql(call: string, staff: Staff[] | SQL): SQL<unknown> {
  const from = Array.isArray(staff)
    ? sql`jsonb_to_recordset(${JSON.stringify(
        staff.map((s) => ({ p: s.phone, u: s.userId, n: s.name })),
      )}::jsonb) as r(p text, u int, n text)`
    : staff;
  return sql`insert into call_legs (call_id, business_id, call_sid, role, to_number, agent_user_id, agent_name, status)
    select c.id, c.business_id, ${sql.raw(`'${PENDING}'`)} || gen_random_uuid(), 'staff', r.p, r.u, r.n, 'queued'
    from ${sql.identifier(call)} c, ${from}
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
  const busy = await lockedBusyPhones(tx, call.business_id);
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

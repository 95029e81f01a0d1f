// The callback engine: a callback request is checked, written and counted, then staff phones are rung
// with the carrier right after the commit (not through a job: the promise is a call within seconds);
// the first staff leg to press the install's key claims it, the others are cancelled, and the visitor is
// dialled. Nobody claims it: the call is missed, the visitor hears the missed-call message and may leave
// a voicemail. Webhooks (webhooks.ts) drive every step after the first ring.

import { isOpenAt, type TCallingType } from '@stn/contracts/installs';
import type { ZCallbackAnswer } from '@stn/contracts/telephony';
import { and, eq, getTableColumns, inArray, isNotNull, isNull, ne, type SQL, sql } from 'drizzle-orm';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { z } from 'zod';
import type { CallEvent } from '../../platform/carrier/carrier.ts';
import type { Config } from '../../platform/config.ts';
import { prepared, preparedSql, slot } from '../../platform/db/prepared.ts';
import { refusalOf } from '../../platform/db/refusal.ts';
import { selectValuesSql } from '../../platform/db/select-values.ts';
import { tableRow } from '../../platform/db/table-rows.ts';
import type { Deps } from '../../platform/deps.ts';
import { publish } from '../../platform/events/events.ts';
import { AppError, invalid, notFound } from '../../platform/http/errors.ts';
import { businessOf, type Ctx, inTransaction, tenantContext } from '../../platform/tenancy/context.ts';
import { RateLimiter } from '../../platform/widget/tree.ts';
import { callUsageFrom, callUsageOfSql, countCall, countCallOfSql } from '../businesses/service.ts';
import { assertReachable, blockedOfSql } from '../compliance/service.ts';
import {
  type CallInstall,
  carrierFor,
  installForCalls,
  installNumberOfSql,
  nextOpenSlots,
  publicBase,
  type Staff,
  staffFor,
} from './access.ts';
import { readCall, rememberCall, rememberLeg } from './call-refs.ts';
import { callCompleted, callMissed } from './events.ts';
import { announceCallChanged, announceProgress } from './progress.ts';
import {
  busyPhonesSql,
  FINAL_STATUSES,
  insertPlaceholders,
  isFinal,
  lockedBusyPhones,
  placeholdersSql,
  type Reserved,
  reservedOf,
} from './staff-phones.ts';
import { callLegs, calls, carrierEvents } from './tables.ts';
import { callbacksToPhoneOfSql } from './visitor-calls.ts';

export type CallRow = typeof calls.$inferSelect;
export type LegRow = typeof callLegs.$inferSelect;

/** What a call remembers of its install when it starts (a later settings change does not touch it). */
export type RingState = {
  type: TCallingType;
  staff: Staff[];
  /** Indexes into `staff`, in the order they are rung. */
  order: number[];
  /** How many of `order` have been rung. */
  next: number;
  press: number;
  whisper: string;
  timeout: number;
  recording: boolean;
  missedMessage: string;
  voicemail: boolean;
  /** Waiting for a free staff phone (every one was busy), until this instant (epoch ms). */
  queued?: boolean;
  queuedUntil?: number;
};

export { FINAL_STATUSES, isFinal, isPendingSid } from './staff-phones.ts';

const RANK: Record<string, number> = { queued: 0, initiated: 1, ringing: 2, 'in-progress': 3 };
const rankOf = (status: string) => (isFinal(status) ? 4 : (RANK[status] ?? 0));
/**
 * The status callbacks a leg we create asks for (ADR 105, 125): its answer and its end. Not `initiated`,
 * which says only that the carrier started dialling, as its answer to createCall already did; nor `ringing`,
 * which nothing acts on (a staff phone is busy from its leg's creation, the live view of calls and the
 * widget follow the call's claim and connection): a leg reads "Calling" until it is answered or ends. A
 * carrier that sends them anyway changes the leg's status as before.
 */
const LEG_EVENTS: CallEvent[] = ['answered', 'completed'];

// ---------------------------------------------------------------- per-process state

type Runtime = {
  /** Staff legs being created, per call: a webhook for a leg waits for its row. */
  pending: Map<number, Set<Promise<unknown>>>;
  /** Work started after a webhook answered (cancelling the other staff legs). */
  background: Set<Promise<unknown>>;
  perPhone: RateLimiter;
  perAddress: RateLimiter;
};
const runtimes = new WeakMap<Deps, Runtime>();

/** Callback requests a visitor phone may make a minute. */
export const CALLBACKS_PER_PHONE_MINUTE = 5;

function runtimeOf(deps: Deps): Runtime {
  let rt = runtimes.get(deps);
  if (!rt) {
    rt = {
      pending: new Map(),
      background: new Set(),
      perPhone: new RateLimiter(CALLBACKS_PER_PHONE_MINUTE),
      // A tenth of the widget's per-address budget goes to callbacks (10 a minute by default).
      perAddress: new RateLimiter(Math.max(10, Math.floor(deps.config.widgetRatePerAddress / 12))),
    };
    runtimes.set(deps, rt);
  }
  return rt;
}

function track<T>(deps: Deps, callId: number, work: Promise<T>): Promise<T> {
  const rt = runtimeOf(deps);
  const set = rt.pending.get(callId) ?? new Set();
  rt.pending.set(callId, set);
  set.add(work);
  const done = () => {
    set.delete(work);
    if (set.size === 0) rt.pending.delete(callId);
  };
  work.then(done, done);
  return work;
}

/** Waits for the staff legs of a call still being created in this process. */
export async function legsCreated(ctx: Ctx, callId: number): Promise<void> {
  const set = runtimeOf(ctx.deps).pending.get(callId);
  if (set) await Promise.allSettled([...set]);
}

/** Runs `work` after the webhook has answered; `telephonyIdle` waits for it. */
export function inBackground(ctx: Ctx, work: () => Promise<unknown>): void {
  const rt = runtimeOf(ctx.deps);
  const p: Promise<unknown> = work().catch((err) =>
    ctx.deps.log.error({ err }, 'telephony background work failed'),
  );
  rt.background.add(p);
  void p.finally(() => rt.background.delete(p));
}

/** Resolves once this process has no telephony work in flight (tests and a graceful stop). */
export async function telephonyIdle(ctx: Ctx): Promise<void> {
  const rt = runtimeOf(ctx.deps);
  for (let i = 0; i < 20; i++) {
    const all = [...rt.background, ...[...rt.pending.values()].flatMap((s) => [...s])];
    if (all.length === 0) return;
    await Promise.allSettled(all);
  }
}

// ---------------------------------------------------------------- urls

export const webhookUrl = (
  config: Pick<Config, 'publicUrl'>,
  path: string,
  query: Record<string, string | number>,
) =>
  `${publicBase(config)}/webhooks/twilio/${path}?${new URLSearchParams(
    Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString()}`;

// ---------------------------------------------------------------- the request

export type CallbackInput = {
  installId: number;
  phone: string;
  name?: string | undefined;
  email?: string | undefined;
  ip?: string | undefined;
  departmentId?: number | undefined;
  /** The install as the request already read it (the widget's, by its key): not read again. */
  install?: CallInstall | undefined;
  /**
   * A cap on the callbacks to this phone since a time (the widget's per-destination cap): read with the
   * call's other checks, and refused with `refusal` before any of them.
   */
  phoneCap?: { since: Date; max: number; refusal: () => Error } | undefined;
};
export type CallbackData = z.infer<typeof ZCallbackAnswer>['data'];

type Prepared = {
  install: CallInstall;
  staff: Staff[];
  number: string;
  /** The phone of the agent who claimed the install's last call (round robin starts after it). */
  lastClaimedPhone: string | null;
};

/** The phone of the agent who claimed the install's last call, as a subquery (round robin starts after it). */
const lastClaimedPhoneSql = (install: SQL) =>
  sql`(select ${calls.agent_phone} from ${calls}
    where ${and(eq(calls.install_id, install), isNotNull(calls.claimed_at))}
    order by ${calls.claimed_at} desc limit 1)`;

/**
 * A call's checks of the compliance, businesses and telephony modules, one statement of their subqueries,
 * built once (ADR 107; with the widget's per-phone count when `capped`): whether the visitor's number is
 * blocked, the month's calls against the limit, the install's carrier number, the phone that claimed the
 * install's last call, and the callbacks to the visitor's phone since the cap's start.
 */
const callChecks = (capped: boolean) =>
  preparedSql<Record<string, unknown>>(() => {
    const tenant = { agency: slot('agency'), business: slot('business') };
    return selectValuesSql({
      blocked: blockedOfSql(tenant, slot('phones')),
      usage: callUsageOfSql(tenant.business),
      number: installNumberOfSql(tenant.business, slot('install')),
      lastClaimed: lastClaimedPhoneSql(slot('install')),
      ...(capped
        ? { toPhone: callbacksToPhoneOfSql({ ...tenant, phone: slot('phone'), since: slot('since') }) }
        : {}),
    });
  });
const checksOfCall = callChecks(false);
const checksOfCapped = callChecks(true);

/** Every check a call must pass before anything is written; each refuses with its own message. */
export async function prepareCall(
  ctx: Ctx,
  input: {
    installId: number;
    phone: string;
    departmentId?: number | undefined;
    install?: CallInstall | undefined;
    phoneCap?: CallbackInput['phoneCap'];
  },
): Promise<Prepared> {
  const install =
    input.install?.id === input.installId ? input.install : await installForCalls(ctx, input.installId);
  if (!install) throw notFound();
  if (install.status !== 'active' || !install.active)
    throw new AppError('FORBIDDEN', 'calls.install_inactive', undefined, {}, 'calls.install_inactive');
  if (!parsePhoneNumberFromString(input.phone)?.isValid()) throw invalid('phone', 'validation.phone');
  // The reads are independent: one round trip's time (the promise is seconds to the phone), and the
  // database's checks one statement. The carrier first among equals: an agency whose carrier cannot dial
  // (a sandbox account on a server without the sandbox) is refused here, not after the visitor was told
  // "calling".
  // The checks of the compliance, businesses and telephony modules: one statement of their subqueries.
  const cap = input.phoneCap;
  const { agencyId, businessId } = businessOf(ctx);
  const values = { agency: agencyId, business: businessId, phones: [input.phone], install: install.id };
  const settled = await Promise.allSettled([
    carrierFor(ctx),
    assertReachable(ctx, input.phone, 'call'),
    (cap
      ? checksOfCapped(ctx.db, { ...values, phone: input.phone, since: cap.since })
      : checksOfCall(ctx.db, values)
    ).then((rows) => rows[0] ?? {}),
    staffFor(ctx, install, input.departmentId),
  ]);
  const [, , read, staffRead] = settled;
  // The phone's cap refuses first, as when it was asked before the call's own checks.
  if (cap && read.status === 'fulfilled' && Number(read.value.toPhone ?? 0) >= cap.max) throw cap.refusal();
  for (const r of settled) if (r.status === 'rejected') throw r.reason;
  const checks = (read as PromiseFulfilledResult<Record<string, unknown>>).value;
  const staff = (staffRead as PromiseFulfilledResult<Staff[]>).value;
  if (checks.blocked === true)
    throw new AppError('FORBIDDEN', 'calls.blocked', undefined, {}, 'calls.blocked');
  if (callUsageFrom(checks.usage).reached)
    throw new AppError('FORBIDDEN', 'calls.limit_reached', undefined, {}, 'calls.limit');
  if (staff.length === 0) throw new AppError('VALIDATION', 'calls.no_staff', undefined, {}, 'calls.no_staff');
  const number = typeof checks.number === 'string' ? checks.number : null;
  if (!number) throw new AppError('VALIDATION', 'calls.no_number', undefined, {}, 'calls.no_number');
  const lastClaimedPhone = typeof checks.lastClaimed === 'string' ? checks.lastClaimed : null;
  return { install, staff, number, lastClaimedPhone };
}

/** Staff order for round robin: start after the agent who claimed this install's last call. */
function ringOrder(p: Prepared): number[] {
  const { install, staff } = p;
  const order = staff.map((_, i) => i);
  if (install.settings.calling_type !== 'round_robin' || staff.length < 2) return order;
  const last = p.lastClaimedPhone;
  const at = last ? staff.findIndex((s) => s.phone === last) : -1;
  return [...order.slice(at + 1), ...order.slice(0, at + 1)];
}

function ringStateOf(p: Prepared, order: number[]): RingState {
  const s = p.install.settings;
  return {
    type: s.calling_type,
    staff: p.staff,
    order,
    // Everyone at once: all of them are rung as soon as the call is written.
    next: s.calling_type === 'simultaneous' ? order.length : 0,
    press: s.press_number,
    whisper: s.whisper,
    timeout: s.timeout,
    recording: s.call_recording,
    missedMessage: s.missed_call_message,
    voicemail: s.voicemail_enabled,
  };
}

const isInFlightViolation = (err: unknown) => {
  const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  return (
    (e.code ?? e.cause?.code) === '23505' && (e.constraint ?? e.cause?.constraint) === 'calls_in_flight_uq'
  );
};

/** A call just written, with the staff legs of its first ring reserved in the same transaction. */
export type OpenedCall = { call: CallRow; reserved: Reserved[] };

/**
 * The staff a call's first ring may take, in order, with their place in the ring's order (`at`): every one
 * for `simultaneous`, else those from `next` on (a missing staff entry is passed over). firstRing and
 * openNewCall take the free ones among them by the same rule.
 */
function firstRingCandidates(st: RingState): { at: number; staff: Staff }[] {
  const out: { at: number; staff: Staff }[] = [];
  for (let at = st.type === 'simultaneous' ? 0 : st.next; at < st.order.length; at++) {
    const staff = st.staff[st.order[at] ?? -1];
    if (staff) out.push({ at, staff });
  }
  return out;
}

/**
 * The staff phones a call's first ring takes (ADR 051's rule, as ringNext and startRinging apply it), under
 * the business's staff lock in the transaction that writes the call: every free phone for `simultaneous`,
 * else the first free one in order, with `next` moved past it. None free: nothing is taken, and `next`
 * stays where it was for ringNext to find the phones busy and the call to wait.
 */
async function firstRing(tx: Ctx, st: RingState): Promise<Staff[]> {
  const busy = await lockedBusyPhones(tx, businessOf(tx).businessId);
  const free = firstRingCandidates(st).filter((c) => !busy.has(c.staff.phone));
  if (st.type === 'simultaneous') return free.map((c) => c.staff);
  const [first] = free;
  if (!first) return [];
  st.next = first.at + 1;
  return [first.staff];
}

type OpenedRow = Record<string, unknown> & { legs: { id: number; phone: string }[] };

/**
 * A new call, its first ring's staff legs and the month's count, in one statement (ADR 123, 125), which is
 * its own transaction: the business's staff lock and its busy phones (`busyPhonesSql`, the lock held until
 * the statement commits); the free ones among the candidates chosen as firstRing chooses them (every one
 * for `simultaneous`, else the first, the ring state's `next` moved past it); the call; their legs; and the
 * count, last, so that the business's row is locked only at the end. A count refused (the month's limit)
 * aborts the statement (`stn_refuse`): no call is left behind.
 */
const openNewCall = preparedSql<OpenedRow>(
  () => sql`with busy as materialized (${busyPhonesSql(sql`${slot('business')}::int`)}),
    chosen as materialized (
      select r.i, r.p, r.u, r.n
      from jsonb_to_recordset(${slot('candidates')}::jsonb) as r(i int, p text, u int, n text)
      where not exists (select 1 from busy where busy.phone = r.p)
      order by r.i
      limit case when ${slot('every')}::boolean then null else 1 end),
    call as (
      insert into calls (agency_id, business_id, install_id, kind, outcome, visitor_phone, visitor_name,
        visitor_email, visitor_ip, department_id, from_number, caller_id, ring_state, counted, updated_at)
      values (${slot('agency')}::int, ${slot('business')}::int, ${slot('install')}::int, ${slot('kind')}::text,
        'in_progress', ${slot('phone')}::text, ${slot('name')}::text, ${slot('email')}::text, ${slot('ip')}::text,
        ${slot('department')}::int, ${slot('from')}::text, ${slot('callerId')}::text,
        case when ${slot('every')}::boolean or not exists (select 1 from chosen) then ${slot('ringState')}::jsonb
          else jsonb_set(${slot('ringState')}::jsonb, '{next}', to_jsonb((select i + 1 from chosen))) end,
        true, now())
      returning *),
    legs as (${placeholdersSql('call', sql`chosen r`)}),
    counted as (${countCallOfSql(sql`${slot('business')}::int`)})
    select call.*, (select coalesce(json_agg(legs order by legs.id), '[]'::json) from legs) as legs,
      case when exists (select 1 from counted) then true else stn_refuse('calls.limit_reached') end as counted_now
    from call`,
);

/**
 * Writes an in-progress call and counts it against the business's month, atomically: the limit and the
 * one-in-flight rule are enforced by the database, so concurrent requests cannot pass both. The staff
 * phones of its first ring are reserved under the business's staff lock in the same transaction
 * (startRinging rings them). A new call is one statement (openNewCall); a scheduled call whose time came
 * is a transaction of a few.
 */
export async function openCall(
  ctx: Ctx,
  p: Prepared,
  visitor: { phone: string; name?: string | null; email?: string | null; ip?: string | null },
  extra: { kind: 'callback' | 'scheduled'; departmentId?: number | null; existingId?: number },
): Promise<OpenedCall> {
  const order = ringOrder(p);
  const s = p.install.settings;
  const callerId = s.caller_id_verified && s.caller_id ? s.caller_id : p.number;
  const ringState = ringStateOf(p, order);
  try {
    let opened: OpenedCall;
    if (extra.existingId) {
      const existingId = extra.existingId;
      opened = await inTransaction(ctx, async (tx): Promise<OpenedCall> => {
        const taken = await firstRing(tx, ringState);
        const [row] = await tx.db
          .update(calls)
          .set({
            outcome: 'in_progress',
            from_number: p.number,
            caller_id: callerId,
            ring_state: ringState,
            counted: true,
            requested_at: new Date(),
            updated_at: new Date(),
          })
          .where(and(eq(calls.id, existingId), eq(calls.outcome, 'scheduled')))
          .returning();
        if (!row) throw new AppError('CONFLICT', 'calls.not_scheduled');
        const reserved = await insertPlaceholders(tx, row, taken);
        // The month's count last: the business's row stays locked only until the commit right after it
        // (every callback of the business waits on that row), not while the staff lock is awaited.
        if (!(await countCall(tx)))
          throw new AppError('FORBIDDEN', 'calls.limit_reached', undefined, {}, 'calls.limit');
        return { call: row, reserved };
      });
    } else {
      const { agencyId, businessId } = businessOf(ctx);
      const [raw] = await openNewCall(ctx.db, {
        agency: agencyId,
        business: businessId,
        install: p.install.id,
        kind: extra.kind,
        phone: visitor.phone,
        name: visitor.name || null,
        email: visitor.email || null,
        ip: visitor.ip ?? null,
        department: extra.departmentId ?? null,
        from: p.number,
        callerId,
        ringState: JSON.stringify(ringState),
        candidates: JSON.stringify(
          firstRingCandidates(ringState).map(({ at, staff }) => ({
            i: at,
            p: staff.phone,
            u: staff.userId,
            n: staff.name,
          })),
        ),
        every: ringState.type === 'simultaneous',
      });
      if (!raw) throw new Error('call insert failed');
      opened = { call: tableRow(calls, raw), reserved: reservedOf(raw.legs, p.staff) };
    }
    // Its webhooks need not read the row this process just wrote to learn its tenant (./call-refs.ts).
    rememberCall(ctx, opened.call);
    // Ringing now: the live view of calls (a scheduled call's time came, or a callback was asked for).
    announceCallChanged(ctx, opened.call);
    return opened;
  } catch (err) {
    if (isInFlightViolation(err))
      throw new AppError('CONFLICT', 'calls.in_flight', undefined, {}, 'calls.in_flight');
    if (refusalOf(err) === 'calls.limit_reached')
      throw new AppError('FORBIDDEN', 'calls.limit_reached', undefined, {}, 'calls.limit');
    throw err;
  }
}

/** A visitor asks for a callback (the widget): checked, written, counted, and staff phones rung. */
export async function requestCallback(ctx: Ctx, input: CallbackInput): Promise<CallbackData> {
  const rt = runtimeOf(ctx.deps);
  const prepared = await prepareCall(ctx, input);
  const seconds = prepared.install.settings.callback_seconds;
  if (!rt.perPhone.take(input.phone) || (input.ip && !rt.perAddress.take(input.ip)))
    throw new AppError('TOO_MANY', 'calls.throttled', undefined, {}, 'calls.throttle');
  const now = new Date();
  if (!isOpenAt(prepared.install.settings, now)) {
    return {
      status: 'closed',
      call_id: null,
      callback_seconds: seconds,
      next_slots: nextOpenSlots(prepared.install.settings, now),
    };
  }
  const opened = await openCall(
    ctx,
    prepared,
    { phone: input.phone, name: input.name ?? null, email: input.email ?? null, ip: input.ip ?? null },
    { kind: 'callback', departmentId: input.departmentId ?? null },
  );
  const { call } = opened;
  announceProgress(ctx, call.id, call);
  await startRinging(ctx, opened);
  return { status: 'calling', call_id: call.id, callback_seconds: seconds, next_slots: [] };
}

// ---------------------------------------------------------------- ringing staff

const loadCall = readCall;

// ---------------------------------------------------------------- busy staff phones (ADR 051, ./staff-phones.ts)

const nameLeg = prepared((db) =>
  db
    .update(callLegs)
    .set({ call_sid: slot('sid'), updated_at: slot('now') })
    .where(eq(callLegs.id, slot('id')))
    .returning(),
);

/** Creates a reserved staff leg with the carrier; false (and the leg failed) when the carrier refused. */
async function placeStaffLeg(ctx: Ctx, call: CallRow, r: Reserved, st: RingState): Promise<boolean> {
  const deps = ctx.deps;
  const work = (async () => {
    const carrier = await carrierFor(ctx);
    const created = await carrier.createCall({
      to: r.staff.phone,
      from: call.from_number ?? '',
      url: webhookUrl(deps.config, 'voice', { call: call.id, leg: 'staff' }),
      statusCallback: webhookUrl(deps.config, 'call-status', { call: call.id }),
      statusCallbackEvents: LEG_EVENTS,
      timeout: st.timeout,
      machineDetection: 'Enable',
    });
    const [named] = await nameLeg(ctx.db, { sid: created.sid, now: new Date(), id: r.legId });
    // Its voice and gather webhooks, when they come here, need no read (./call-refs.ts, ADR 124).
    if (named) rememberLeg(ctx, named, { placed: true });
    return true;
  })();
  try {
    return await track(deps, call.id, work);
  } catch (err) {
    deps.log.warn({ err, callId: call.id }, 'staff leg not placed');
    await ctx.db
      .update(callLegs)
      .set({ status: 'failed', updated_at: new Date() })
      .where(eq(callLegs.id, r.legId));
    return false;
  }
}

const staffInOrder = (st: RingState) =>
  st.order.map((i) => st.staff[i]).filter((s): s is Staff => s !== undefined);

/**
 * Rings the staff as the install says, the phones openCall reserved: every free phone at once, or the first
 * free one of the order (the next one when the carrier refuses it; ringNext when none was free).
 */
export async function startRinging(ctx: Ctx, opened: OpenedCall): Promise<void> {
  const { call, reserved } = opened;
  const st = call.ring_state as RingState;
  if (st.type === 'simultaneous') {
    if (reserved.length === 0) return queueCall(ctx, call.id);
    const placed = await Promise.all(reserved.map((r) => placeStaffLeg(ctx, call, r, st)));
    if (!placed.some(Boolean)) await failCall(ctx, call.id);
    return;
  }
  const [first] = reserved;
  if (first && (await placeStaffLeg(ctx, call, first, st))) return;
  await ringNext(ctx, call.id, call);
}

/** The call's `next` moved on, if it is still what the caller read. */
const moveNext = prepared((db) =>
  db
    .update(calls)
    .set({ ring_state: sql`jsonb_set(${calls.ring_state}, '{next}', to_jsonb(${slot('next')}::int))` })
    .where(
      and(
        eq(calls.id, slot('id')),
        eq(calls.outcome, 'in_progress'),
        isNull(calls.claimed_leg_sid),
        sql`(${calls.ring_state}->>'next')::int = ${slot('was')}::int`,
      ),
    )
    .returning(),
);

/**
 * Rings the next free staff phone in order (a busy one is passed over); when none is left, the call is
 * missed (or failed if none rang), or waits for a phone when every one of them was busy.
 *
 * One transaction per phone rung, not per phone tried: under the business's staff lock the busy phones
 * are read once, the first free one after `next` is chosen, the call's `next` moves past it (and past the
 * busy ones before it) and its leg is written. `known` is the call row as its caller last saw it; the
 * update is guarded by its `next`, so a stale row only costs a re-read.
 */
export async function ringNext(ctx: Ctx, callId: number, known?: CallRow): Promise<void> {
  let passedBusy = false;
  let seen = known;
  for (;;) {
    const step = await inTransaction(ctx, async (tx) => {
      const current = seen ?? (await loadCall(tx, callId));
      seen = undefined;
      if (current?.outcome !== 'in_progress' || current.claimed_leg_sid) return 'done' as const;
      const st = current.ring_state as RingState;
      if (st.next >= st.order.length) return 'done' as const;
      const busy = await lockedBusyPhones(tx, current.business_id);
      // The first free phone after `next` (a missing staff entry is passed over, as a busy one is).
      let at = st.next;
      let pick: Staff | undefined;
      let skippedBusy = false;
      for (; at < st.order.length; at++) {
        const staff = st.staff[st.order[at] ?? -1];
        if (!staff) continue;
        if (busy.has(staff.phone)) {
          skippedBusy = true;
          continue;
        }
        pick = staff;
        break;
      }
      const next = pick ? at + 1 : st.order.length;
      const [row] = await moveNext(tx.db, { next, id: callId, was: st.next });
      // Changed since it was read (another step of the call): read it again.
      if (!row) return 'stale' as const;
      const reserved = pick ? await insertPlaceholders(tx, row, [pick]) : [];
      return { row, reserved, skippedBusy };
    });
    if (step === 'done') break;
    if (step === 'stale') continue;
    if (step.skippedBusy) passedBusy = true;
    const [r] = step.reserved;
    if (!r) break;
    if (await placeStaffLeg(ctx, step.row, r, step.row.ring_state as RingState)) return;
    seen = step.row;
  }
  if (passedBusy) {
    const [leg] = await ctx.db
      .select({ id: callLegs.id })
      .from(callLegs)
      .where(and(eq(callLegs.call_id, callId), eq(callLegs.role, 'staff')))
      .limit(1);
    if (!leg) return queueCall(ctx, callId);
  }
  await concludeUnclaimed(ctx, callId);
}

/** The system context of a call's business (timers and the reconciler act for nobody in particular). */
export const callContext = (deps: Deps, call: Pick<CallRow, 'agency_id' | 'business_id'>, name: string) =>
  tenantContext(
    deps,
    { level: 'business', agencyId: call.agency_id, businessId: call.business_id },
    { kind: 'system', source: 'job', name },
  );

/**
 * Every staff phone of the call is busy: the call waits for one (the install's ring timeout at most),
 * rung as soon as a phone is free (ringWaiting), else missed with its message (expireQueued).
 */
async function queueCall(ctx: Ctx, callId: number): Promise<void> {
  const [row] = await ctx.db
    .update(calls)
    .set({
      ring_state: sql`${calls.ring_state} || jsonb_build_object('queued', true, 'queuedUntil', (extract(epoch from now()) * 1000)::bigint + ((${calls.ring_state}->>'timeout')::int * 1000))`,
      updated_at: new Date(),
    })
    .where(and(eq(calls.id, callId), eq(calls.outcome, 'in_progress'), isNull(calls.claimed_leg_sid)))
    .returning();
  if (!row) return;
  const deps = ctx.deps;
  const st = row.ring_state as RingState;
  // This process ends the wait on time; the reconciler does when this process is gone (ADR 051).
  setTimeout(
    () => {
      const later = callContext(deps, row, 'callback queue');
      inBackground(later, () => expireQueued(later, callId));
    },
    st.timeout * 1000 + 100,
  ).unref();
  // A phone may have come free between the check and the wait.
  await ringWaiting(ctx);
}

/** A waiting call whose time is up: missed, with the missed-call message to the visitor. */
export async function expireQueued(
  ctx: Ctx,
  callId: number,
  opts: { message?: boolean } = {},
): Promise<void> {
  await markMissed(ctx, callId, { message: opts.message !== false, queued: true });
}

/** A call waiting for a free staff phone (ADR 051). */
const isWaiting = and(
  eq(calls.outcome, 'in_progress'),
  isNull(calls.claimed_leg_sid),
  sql`${calls.ring_state}->>'queued' = 'true'`,
);

const waitingCalls = prepared((db) =>
  db
    .select()
    .from(calls)
    .where(and(eq(calls.business_id, slot('business')), isWaiting))
    .orderBy(calls.id),
);

/**
 * A staff phone of the business may have come free: the calls waiting for one, oldest first, ring the
 * free phones (all of them at once, or the first free one in order).
 */
export async function ringWaiting(ctx: Ctx): Promise<void> {
  const { businessId } = businessOf(ctx);
  const waiting = await waitingCalls(ctx.db, { business: businessId });
  if (waiting.length === 0) return;
  const started = await inTransaction(ctx, async (tx) => {
    const busy = await lockedBusyPhones(tx, businessId);
    const out: { call: CallRow; reserved: Reserved[] }[] = [];
    for (const c of waiting) {
      const st = c.ring_state as RingState;
      const ordered = staffInOrder(st);
      const free = ordered.filter((s) => !busy.has(s.phone));
      const first = free[0];
      if (!first) continue;
      const pick = st.type === 'simultaneous' ? free : [first];
      const next = st.type === 'simultaneous' ? st.order.length : ordered.indexOf(first) + 1;
      const [taken] = await tx.db
        .update(calls)
        .set({
          ring_state: sql`(${calls.ring_state} - 'queued' - 'queuedUntil') || jsonb_build_object('next', ${next}::int)`,
          updated_at: new Date(),
        })
        .where(
          and(
            eq(calls.id, c.id),
            eq(calls.outcome, 'in_progress'),
            sql`${calls.ring_state}->>'queued' = 'true'`,
          ),
        )
        .returning();
      if (!taken) continue;
      for (const s of pick) busy.add(s.phone);
      out.push({ call: taken, reserved: await insertPlaceholders(tx, taken, pick) });
    }
    return out;
  });
  for (const { call, reserved } of started) {
    if (call.kind === 'inbound') {
      await ringInboundCaller(ctx, call, reserved);
      continue;
    }
    const st = call.ring_state as RingState;
    const placed = await Promise.all(reserved.map((r) => placeStaffLeg(ctx, call, r, st)));
    if (!placed.some(Boolean)) await concludeUnclaimed(ctx, call.id);
  }
}

/**
 * An inbound caller waiting on hold is put through: the carrier's call is redirected to its TwiML, which
 * now dials the phones just reserved (inbound.ts). A caller who hung up meanwhile is missed.
 */
async function ringInboundCaller(ctx: Ctx, call: CallRow, reserved: Reserved[]): Promise<void> {
  const [caller] = await ctx.db
    .select({ sid: callLegs.call_sid })
    .from(callLegs)
    .where(and(eq(callLegs.call_id, call.id), eq(callLegs.role, 'visitor')))
    .limit(1);
  try {
    if (!caller) throw new Error('inbound call without its caller leg');
    const carrier = await carrierFor(ctx);
    await carrier.updateCall(caller.sid, {
      url: webhookUrl(ctx.deps.config, 'voice', { call: call.id, leg: 'inbound' }),
    });
  } catch (err) {
    ctx.deps.log.warn({ err, callId: call.id }, 'waiting inbound caller not put through');
    await ctx.db
      .update(callLegs)
      .set({ status: 'failed', updated_at: new Date() })
      .where(
        inArray(
          callLegs.id,
          reserved.map((r) => r.legId),
        ),
      );
    await markMissed(ctx, call.id, { message: false });
  }
}

export async function failCall(ctx: Ctx, callId: number): Promise<void> {
  const [row] = await ctx.db
    .update(calls)
    .set({ outcome: 'failed', ended_at: new Date(), updated_at: new Date() })
    .where(and(eq(calls.id, callId), eq(calls.outcome, 'in_progress')))
    .returning();
  announceProgress(ctx, callId, row);
}

/**
 * A staff leg ended without claiming: ring the next one in order, or, when every staff leg has ended and
 * nobody is left to ring, the call is missed: the event is published and the visitor is called back with
 * the missed-call message (and a voicemail when the install takes them).
 */
export async function concludeUnclaimed(ctx: Ctx, callId: number, known?: CallRow): Promise<void> {
  // `known`: the row its caller just read; read again when staff legs were still being placed.
  const placing = runtimeOf(ctx.deps).pending.has(callId);
  await legsCreated(ctx, callId);
  const call = known && !placing ? known : await loadCall(ctx, callId);
  if (call?.outcome !== 'in_progress' || call.claimed_leg_sid) return;
  const legs = await ctx.db
    .select({ status: callLegs.status })
    .from(callLegs)
    .where(and(eq(callLegs.call_id, callId), eq(callLegs.role, 'staff')));
  if (legs.some((l) => !isFinal(l.status))) return;
  const st = call.ring_state as RingState;
  if (st.queued) return;
  if (st.type !== 'simultaneous' && st.next < st.order.length) return ringNext(ctx, callId, call);
  if (legs.length === 0) return failCall(ctx, callId);
  await markMissed(ctx, callId, { message: true });
}

/**
 * An unclaimed call nobody took ends as missed (once: a conditional update): the event, and the visitor
 * is called back with the missed-call message when `message`.
 */
export async function markMissed(
  ctx: Ctx,
  callId: number,
  opts: { message: boolean; queued?: boolean },
): Promise<void> {
  const [missed] = await ctx.db
    .update(calls)
    .set({ outcome: 'missed', ended_at: new Date(), updated_at: new Date() })
    .where(
      and(
        eq(calls.id, callId),
        eq(calls.outcome, 'in_progress'),
        isNull(calls.claimed_leg_sid),
        opts.queued ? sql`${calls.ring_state}->>'queued' = 'true'` : undefined,
      ),
    )
    .returning();
  if (!missed) return;
  announceProgress(ctx, callId, missed);
  publishCallMissed(ctx, missed);
  // An inbound caller is still on the line (or gone): the message is played there, never dialled.
  if (opts.message && missed.kind !== 'inbound') await callVisitorWithMissedMessage(ctx, missed);
}

/** `call.completed` for a call just marked completed (once: the update that moved it there). */
export function publishCallCompleted(ctx: Ctx, completed: CallRow): void {
  publish(ctx, callCompleted, {
    callId: completed.id,
    agencyId: completed.agency_id,
    businessId: completed.business_id,
    installId: completed.install_id,
    visitorPhone: completed.visitor_phone,
    visitorName: completed.visitor_name,
    duration: completed.duration,
  });
}

/** `call.missed` for a call just marked missed (a callback nobody claimed, or an inbound call nobody took). */
export function publishCallMissed(ctx: Ctx, missed: CallRow): void {
  publish(ctx, callMissed, {
    callId: missed.id,
    agencyId: missed.agency_id,
    businessId: missed.business_id,
    installId: missed.install_id,
    visitorPhone: missed.visitor_phone,
    visitorName: missed.visitor_name,
  });
}

async function callVisitorWithMissedMessage(ctx: Ctx, call: CallRow): Promise<void> {
  const deps = ctx.deps;
  try {
    const carrier = await carrierFor(ctx);
    const created = await carrier.createCall({
      to: call.visitor_phone,
      from: call.from_number ?? '',
      url: webhookUrl(deps.config, 'voice', { call: call.id, leg: 'missed' }),
      statusCallback: webhookUrl(deps.config, 'call-status', { call: call.id }),
      statusCallbackEvents: LEG_EVENTS,
      timeout: 30,
    });
    await ctx.db
      .insert(callLegs)
      .values({
        call_id: call.id,
        business_id: call.business_id,
        call_sid: created.sid,
        role: 'missed_message',
        to_number: call.visitor_phone,
        status: 'queued',
      })
      .onConflictDoNothing();
  } catch (err) {
    deps.log.warn({ err, callId: call.id }, 'missed-call message not placed');
  }
}

// ---------------------------------------------------------------- claiming

const claimValues = {
  claimed_leg_sid: slot('sid'),
  claimed_at: slot('now'),
  agent_user_id: slot('user'),
  agent_name: slot('name'),
  agent_phone: slot('phone'),
  updated_at: slot('now'),
};
const claimable = and(
  eq(calls.id, slot('id')),
  isNull(calls.claimed_leg_sid),
  eq(calls.outcome, 'in_progress'),
);

const digitsOfLeg = prepared((db) =>
  db
    .update(callLegs)
    .set({ digits: slot('digits') })
    .where(eq(callLegs.id, slot('leg'))),
);

/** The digits a staff leg pressed, on its row (a key that claims nothing, or a press after the claim). */
export async function pressedDigits(ctx: Ctx, legId: number, digits: string): Promise<void> {
  await digitsOfLeg(ctx.db, { digits, leg: legId });
}

/** The claim with the pressed digits written on the leg's row: one statement (a data-modifying WITH). */
const claimCallPressed = prepared((db) =>
  db
    .with(
      db
        .$with('pressed', {})
        .as(sql`update ${callLegs} set digits = ${slot('digits')} where id = ${slot('leg')}`),
    )
    .update(calls)
    .set(claimValues)
    .where(claimable)
    .returning({ id: calls.id }),
);

const claimCall = prepared((db) =>
  db.update(calls).set(claimValues).where(claimable).returning({ id: calls.id }),
);

/**
 * The staff leg pressed the key (`digits`, written on its row): the first one claims the call (one atomic
 * update), and the other staff legs are cancelled right after the answer. Answers whether this leg holds
 * the claim.
 */
export async function claim(ctx: Ctx, call: CallRow, leg: LegRow, digits = ''): Promise<boolean> {
  if (call.claimed_leg_sid === leg.call_sid) {
    if (digits) await pressedDigits(ctx, leg.id, digits);
    return true;
  }
  const st = call.ring_state as RingState;
  const staff = st.staff.find((s) => s.phone === leg.to_number);
  const now = new Date();
  const values = {
    sid: leg.call_sid,
    now,
    user: leg.agent_user_id ?? staff?.userId ?? null,
    name: leg.agent_name ?? staff?.name ?? null,
    phone: leg.to_number,
    id: call.id,
  };
  const [won] = digits
    ? await claimCallPressed(ctx.db, { ...values, digits, leg: leg.id })
    : await claimCall(ctx.db, values);
  if (!won) {
    // A retry of this very press may have won a moment ago: the claim is still this leg's.
    const [held] = await ctx.db
      .select({ sid: calls.claimed_leg_sid })
      .from(calls)
      .where(eq(calls.id, call.id));
    // The claim this process had not seen (another process's): its next webhooks of the call know it.
    if (held?.sid && call.claimed_leg_sid !== held.sid)
      rememberCall(ctx, { ...call, claimed_leg_sid: held.sid });
    return held?.sid === leg.call_sid;
  }
  announceProgress(ctx, call.id, { ...call, claimed_leg_sid: leg.call_sid, connected_at: null });
  // A callback's phones are rung one at a time unless all at once: the next only once every leg before it
  // ended (ringNext, ringWaiting), so only `simultaneous` leaves other legs to cancel. An inbound call's
  // legs are the carrier's dial: always looked at.
  if (st.type === 'simultaneous' || call.kind === 'inbound')
    inBackground(ctx, () => cancelOtherStaff(ctx, call.id, leg.call_sid));
  return true;
}

async function cancelOtherStaff(ctx: Ctx, callId: number, winner: string): Promise<void> {
  await legsCreated(ctx, callId);
  const others = await ctx.db
    .select()
    .from(callLegs)
    .where(and(eq(callLegs.call_id, callId), eq(callLegs.role, 'staff'), ne(callLegs.call_sid, winner)));
  const live = others.filter((l) => !isFinal(l.status));
  if (live.length === 0) return;
  const carrier = await carrierFor(ctx);
  await Promise.all(
    live.map(async (l) => {
      try {
        await carrier.updateCall(l.call_sid, {
          status: l.status === 'in-progress' ? 'completed' : 'canceled',
        });
      } catch {
        // Answered in the meantime: a cancel is refused, so end it instead; a leg already gone is fine.
        await carrier.updateCall(l.call_sid, { status: 'completed' }).catch(() => undefined);
      }
    }),
  );
}

// ---------------------------------------------------------------- statuses

/** A leg still under way (not one of FINAL_STATUSES), written as literals: the statement stays one text. */
const notFinalSql = sql`${callLegs.status} not in (${sql.raw(FINAL_STATUSES.map((f) => `'${f}'`).join(', '))})`;

const rankSql = sql`(case ${callLegs.status} when 'queued' then 0 when 'initiated' then 1 when 'ringing' then 2 when 'in-progress' then 3 else 4 end)`;

type LegStatusInput = {
  status: string;
  sequence: number;
  duration?: number | null;
  answeredBy?: string | null;
};

/** Which of a status's parts a leg's update carries: each shape is its own statement, built once. */
type LegStatusShape = { sequenced: boolean; duration: boolean; answeredBy: boolean };

const shapeOf = (input: LegStatusInput): LegStatusShape => ({
  sequenced: input.sequence >= 0,
  duration: input.duration != null,
  answeredBy: Boolean(input.answeredBy),
});

/** The values of a status's change (the placeholders of legStatusChange). */
const legStatusValues = (input: LegStatusInput) => ({
  status: input.status,
  sequence: input.sequence,
  rank: rankOf(input.status),
  duration: input.duration ?? null,
  answered_by: input.answeredBy || null,
  now: new Date(),
});

/**
 * A carrier status as a change of a leg's row: what is set, and when it applies (never backwards: a final
 * status stays, an older SequenceNumber or a lower step, ringing after in-progress, is ignored).
 */
function legStatusChange(shape: LegStatusShape) {
  const newer = shape.sequenced
    ? sql`${callLegs.sequence} < ${slot('sequence')} and ${rankSql} <= ${slot('rank')}`
    : sql`${rankSql} < ${slot('rank')}`;
  return {
    set: {
      status: slot('status'),
      sequence: sql`greatest(${callLegs.sequence}, ${slot('sequence')})`,
      ...(shape.duration ? { duration: slot('duration') } : {}),
      ...(shape.answeredBy ? { answered_by: slot('answered_by') } : {}),
      updated_at: slot('now'),
    },
    applies: and(notFinalSql, newer),
  };
}

/** One built statement for each shape of a status's change. */
function byShape<R>(
  build: (shape: LegStatusShape) => (db: Ctx['db'], values?: Record<string, unknown>) => Promise<R>,
) {
  const built = new Map<string, (db: Ctx['db'], values?: Record<string, unknown>) => Promise<R>>();
  return (shape: LegStatusShape) => {
    const key = `${+shape.sequenced}${+shape.duration}${+shape.answeredBy}`;
    let run = built.get(key);
    if (!run) {
      run = build(shape);
      built.set(key, run);
    }
    return run;
  };
}

/**
 * Whether a staff leg's new status freed its phone while a call of its business waits for one: asked by
 * the statement that writes the status (ADR 123), so a phone that comes free costs no read when nothing
 * waits, as is usual.
 */
const freedForWaiting = sql<boolean>`(${callLegs.role} = 'staff' and ${notFinalSql} is false and exists (
  select 1 from ${calls} where ${calls.business_id} = ${callLegs.business_id} and ${isWaiting}))`;

const legStatusUpdate = (db: Ctx['db'], shape: LegStatusShape) => {
  const change = legStatusChange(shape);
  return db
    .update(callLegs)
    .set(change.set)
    .where(and(eq(callLegs.call_id, slot('call')), eq(callLegs.call_sid, slot('sid')), change.applies))
    .returning({ ...getTableColumns(callLegs), freedForWaiting: freedForWaiting.as('freed_for_waiting') });
};

const updateLegStatus = byShape((shape) => prepared((db) => legStatusUpdate(db, shape)));

/**
 * The claiming staff leg's end and, when it applied, its call's end at the hang-up (finishClaimedAtHangUp's
 * update, here only for the leg that holds the claim): one statement (ADR 124).
 */
const claimedLegEnds = byShape((shape) =>
  preparedSql<{ leg: Record<string, unknown>; call: Record<string, unknown> | null }>(
    (db) => sql`with leg as (${legStatusUpdate(db, shape).getSQL()}),
      ended as (
        update ${calls} set
          outcome = case when ${calls.connected_at} is null then 'no_answer' else 'completed' end,
          ended_at = coalesce(${calls.ended_at}, now()), updated_at = now()
        where ${calls.id} = ${slot('call')}::int and ${calls.outcome} = 'in_progress'
          and ${calls.claimed_leg_sid} = ${slot('sid')}::text and exists (select 1 from leg)
        returning ${calls}.*)
      select row_to_json(leg) as leg, (select row_to_json(ended) from ended) as call from leg`,
  ),
);

const visitorLegUpsert = (db: Ctx['db'], shape: LegStatusShape) => {
  const change = legStatusChange(shape);
  return db
    .insert(callLegs)
    .values({
      call_id: slot('call'),
      business_id: slot('business'),
      call_sid: slot('sid'),
      role: 'visitor',
      to_number: slot('to'),
      status: slot('status'),
      sequence: sql`greatest(-1, ${slot('sequence')}::int)`,
      duration: slot('duration'),
      answered_by: slot('answered_by'),
    })
    .onConflictDoUpdate({
      target: callLegs.call_sid,
      set: change.set,
      setWhere: and(eq(callLegs.call_id, slot('call')), change.applies),
    })
    .returning();
};

const upsertVisitorLeg = byShape((shape) => prepared((db) => visitorLegUpsert(db, shape)));

/**
 * The visitor answered: their leg's status and the call's connection in one statement (ADR 124), the call
 * connected only when the status applied (a late `in-progress` after the leg ended changes nothing).
 */
const upsertVisitorLegConnected = byShape((shape) =>
  preparedSql<{ leg: Record<string, unknown>; call: Record<string, unknown> | null }>(
    (db) => sql`with leg as (${visitorLegUpsert(db, shape).getSQL()}),
      connected as (
        update ${calls} set connected_at = coalesce(${calls.connected_at}, now()), updated_at = now()
        where ${calls.id} = ${slot('call')}::int and exists (select 1 from leg where leg.status = 'in-progress')
        returning ${calls}.*)
      select row_to_json(leg) as leg, (select row_to_json(connected) from connected) as call from leg`,
  ),
);

/**
 * Applies a carrier status to a leg, never backwards, in one conditional update: the same delivery twice
 * (even at once: the row lock makes the second re-read the first's result) changes it once. Answers the
 * leg as changed, or null when nothing changed.
 */
export async function applyLegStatus(
  ctx: Ctx,
  leg: { callId: number; callSid: string },
  input: LegStatusInput,
): Promise<(LegRow & { freedForWaiting: boolean }) | null> {
  const [after] = await updateLegStatus(shapeOf(input))(ctx.db, {
    ...legStatusValues(input),
    call: leg.callId,
    sid: leg.callSid,
  });
  if (!after) return null;
  const { freedForWaiting: _, ...row } = after;
  rememberLeg(ctx, row, { placed: false });
  return after;
}

/**
 * applyLegStatus for the final status of the staff leg that claimed a callback, before this process saw
 * the call end: the call ends with it, in the same statement, as finishClaimedAtHangUp would end it (the
 * dial's action, when it comes, has the final word).
 */
export async function applyClaimedLegEnd(
  ctx: Ctx,
  leg: { callId: number; callSid: string },
  input: LegStatusInput,
): Promise<(LegRow & { freedForWaiting: boolean }) | null> {
  const [raw] = await claimedLegEnds(shapeOf(input))(ctx.db, {
    ...legStatusValues(input),
    call: leg.callId,
    sid: leg.callSid,
  });
  if (!raw) return null;
  const { freed_for_waiting: freed, ...legColumns } = raw.leg;
  const row = tableRow(callLegs, legColumns);
  rememberLeg(ctx, row, { placed: false });
  if (raw.call) endedAtHangUp(ctx, leg.callId, tableRow(calls, raw.call));
  return { ...row, freedForWaiting: freed === true };
}

/**
 * applyLegStatus for a visitor's leg, whose row is written by the first of its webhooks to come (in any
 * order): one statement, an insert of the leg with the status that becomes the conditional update once
 * the row is there (ADR 105). Its `in-progress` also connects the call, in the same statement (`connected`).
 */
export async function applyVisitorLegStatus(
  ctx: Ctx,
  call: Pick<CallRow, 'id' | 'business_id' | 'visitor_phone'>,
  callSid: string,
  input: LegStatusInput,
): Promise<(LegRow & { connected?: boolean }) | null> {
  const values = {
    ...legStatusValues(input),
    call: call.id,
    business: call.business_id,
    sid: callSid,
    to: call.visitor_phone,
  };
  if (input.status !== 'in-progress') {
    const [after] = await upsertVisitorLeg(shapeOf(input))(ctx.db, values);
    return after ?? null;
  }
  const [raw] = await upsertVisitorLegConnected(shapeOf(input))(ctx.db, values);
  if (!raw) return null;
  const connected = raw.call ? tableRow(calls, raw.call) : undefined;
  announceProgress(ctx, call.id, connected);
  return { ...tableRow(callLegs, raw.leg), connected: connected !== undefined };
}

/** The visitor answered: the call is connected. */
export async function markConnected(ctx: Ctx, callId: number): Promise<void> {
  const [row] = await connectCall(ctx.db, { now: new Date(), id: callId });
  announceProgress(ctx, callId, row);
}

const connectCall = prepared((db) =>
  db
    .update(calls)
    .set({ connected_at: sql`coalesce(${calls.connected_at}, now())`, updated_at: slot('now') })
    .where(eq(calls.id, slot('id')))
    .returning(),
);

const endClaimedAs = (withDuration: boolean) =>
  prepared((db) =>
    db
      .update(calls)
      .set({
        outcome: slot('outcome'),
        ended_at: sql`coalesce(${calls.ended_at}, now())`,
        ...(withDuration ? { duration: slot('duration') } : {}),
        updated_at: slot('now'),
      })
      .where(and(eq(calls.id, slot('id')), sql`${calls.outcome} = any(${slot('from')})`))
      .returning(),
  );
const endClaimed = endClaimedAs(false);
const endClaimedWithDuration = endClaimedAs(true);

const endAtHangUp = prepared((db) =>
  db
    .update(calls)
    .set({
      outcome: sql`case when ${calls.connected_at} is null then 'no_answer' else 'completed' end`,
      ended_at: sql`coalesce(${calls.ended_at}, now())`,
      updated_at: slot('now'),
    })
    .where(and(eq(calls.id, slot('id')), eq(calls.outcome, 'in_progress')))
    .returning(),
);

/**
 * The staff member who claimed the call hung up before the dial's action came: finishClaimed's
 * non-authoritative end, completed or no answer by whether the visitor was connected, decided in the same
 * statement (no read of the row first).
 */
export async function finishClaimedAtHangUp(ctx: Ctx, callId: number): Promise<void> {
  const [row] = await endAtHangUp(ctx.db, { id: callId, now: new Date() });
  if (row) endedAtHangUp(ctx, callId, row);
}

/** What follows a claimed call's end at the hang-up: remembered, announced, and completed published. */
function endedAtHangUp(ctx: Ctx, callId: number, row: CallRow): void {
  rememberCall(ctx, row);
  if (row.outcome === 'completed') publishCallCompleted(ctx, row);
  announceProgress(ctx, callId, row);
}

/**
 * The dial's action of a claimed callback: the carrier's final word on it (ADR 124). One statement records
 * the delivery (its key in carrier_events, so a repeat changes nothing) and ends the call as finishClaimed's
 * authoritative end would: completed (its duration refreshed) or no answer, from any of the claimed call's
 * outcomes, with the recording the action names. The row is locked before it is read (`for update`), so the
 * outcome it had is the one this update replaced: `call.completed` is published once, by the end that made
 * it completed. Answers whether this delivery is the first and the call was ended by it (false for a repeat).
 */
export async function endAtDialAction(
  ctx: Ctx,
  callId: number,
  input: {
    key: string;
    completed: boolean;
    duration: number | null;
    recording?: { sid: string; url: string } | null | undefined;
  },
): Promise<{ first: boolean; ended: boolean }> {
  const [raw] = await endAtDialActionSql(ctx.db, {
    key: input.key,
    id: callId,
    outcome: input.completed ? 'completed' : 'no_answer',
    duration: input.duration,
    recording_sid: input.recording?.sid ?? null,
    recording_url: input.recording?.url ?? null,
  });
  if (!raw?.first) return { first: false, ended: false };
  if (raw.id === null || raw.id === undefined) return { first: true, ended: false };
  const row = tableRow(calls, raw);
  if (input.completed && raw.was !== 'completed') publishCallCompleted(ctx, row);
  // Its webhooks still to come (the staff leg's end) know it ended (webhooks.ts callStatus).
  rememberCall(ctx, row);
  announceProgress(ctx, callId, row);
  return { first: true, ended: true };
}

/** The recording a dial's action names, unless the call has another already (storeCallRecording's rule). */
const actionRecorded = sql`(${slot('recording_sid')}::text is not null
  and (c.recording_sid is null or c.recording_sid = ${slot('recording_sid')}::text))`;

const endAtDialActionSql = preparedSql<Record<string, unknown> & { first: boolean; was: string | null }>(
  () =>
    sql`with first as (
      insert into ${carrierEvents} (key) values (${slot('key')}) on conflict do nothing returning key),
    ended as (
      update ${calls} c set outcome = ${slot('outcome')}, ended_at = coalesce(c.ended_at, now()),
        duration = coalesce(${slot('duration')}::int, c.duration), updated_at = now(),
        recording_sid = case when ${actionRecorded} then ${slot('recording_sid')}::text else c.recording_sid end,
        recording_url = case when ${actionRecorded} then ${slot('recording_url')}::text else c.recording_url end
      from (select id, outcome as was from ${calls} where id = ${slot('id')}::int for update) old
      where c.id = old.id and old.was in ('in_progress', 'completed', 'no_answer')
        and exists (select 1 from first)
      returning c.*, old.was)
    select ended.*, exists (select 1 from first) as first from (select 1) one left join ended on true`,
);

/** The claimed call ends: completed (with its duration) when the visitor was connected, else no answer. */
export async function finishClaimed(
  ctx: Ctx,
  callId: number,
  input: { completed: boolean; duration: number | null; authoritative: boolean },
): Promise<void> {
  const outcome = input.completed ? 'completed' : 'no_answer';
  const run = input.duration != null ? endClaimedWithDuration : endClaimed;
  const update = (from: readonly ('in_progress' | 'completed' | 'no_answer')[]) =>
    run(ctx.db, { outcome, duration: input.duration, now: new Date(), id: callId, from: [...from] });
  const allowed = input.authoritative
    ? (['in_progress', 'completed', 'no_answer'] as const)
    : (['in_progress'] as const);
  // Completed is announced once: by the update that moves the call there from another outcome (the row
  // lock makes a concurrent one wait and then find it completed); a later authoritative report only
  // refreshes its duration.
  let row: CallRow | undefined;
  if (input.completed) {
    [row] = await update(allowed.filter((o) => o !== 'completed'));
    if (row) publishCallCompleted(ctx, row);
    else if (input.authoritative) [row] = await update(['completed']);
  } else [row] = await update(allowed);
  // Its webhooks still to come (the staff leg's end) know it ended (webhooks.ts callStatus).
  if (row) rememberCall(ctx, row);
  announceProgress(ctx, callId, row);
}

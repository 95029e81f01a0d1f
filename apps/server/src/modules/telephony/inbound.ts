// Inbound calls to an install's number (the number's voiceUrl is /webhooks/twilio/voice with no call
// id): a calls row of kind inbound, and a <Dial> ringing the install's free staff phones at once (ADR
// 051: a phone ringing for another call or in one is busy), each hearing the whisper and pressing the key
// before the caller is bridged (<Number url>). When every phone is busy the caller holds, up to the
// install's ring timeout, and is put through (the carrier's call redirected to a new <Dial>) as soon as
// one comes free. Nobody takes it: the caller hears the missed-call message and may leave a voicemail, on
// the same line. Every inbound call is announced (`call.received`, ADR 052): it joins the caller's
// conversation.
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import {
  type CallInstructions,
  dial,
  hangup,
  pause,
  redirect,
  reject,
  say,
  voicemail,
} from '../../platform/carrier/instructions.ts';
import type { Deps } from '../../platform/deps.ts';
import { publish } from '../../platform/events/events.ts';
import { type Ctx, inTransaction, platformOnly, tenantContext } from '../../platform/tenancy/context.ts';
import { carrierAccountFor } from '../agencies/service.ts';
import { isBlocked } from '../compliance/service.ts';
import { installForCalls, staffFor } from './access.ts';
import type { CallRow, RingState } from './engine.ts';
import { markMissed, publishCallCompleted, publishCallMissed, webhookUrl } from './engine.ts';
import { callReceived } from './events.ts';
import { isFinal, nameStaffLeg, reserveFreeStaff } from './staff-phones.ts';
import { callLegs, calls, numbers } from './tables.ts';

/** What a caller hears while every staff phone is busy, before the wait (silence: the line is held). */
export const HOLD_MESSAGE = 'All of our team are on other calls. Please hold, we will be with you shortly.';

const UNAVAILABLE: CallInstructions = [
  say('Sorry, this number cannot take calls right now. Goodbye.'),
  hangup(),
];
const HANG_UP: CallInstructions = [hangup()];

/** The install number called, of the business whose account (its own, else its agency's) the carrier named. */
async function numberCalled(deps: Deps, to: string, accountSid: string) {
  const rows = await deps.db
    .select()
    .from(numbers)
    .where(and(eq(numbers.phone_number, to), isNull(numbers.released_at), isNotNull(numbers.install_id)));
  for (const n of rows) {
    const account = await carrierAccountFor(deps, { agencyId: n.agency_id, businessId: n.business_id });
    if (account?.accountSid === accountSid) return n;
  }
  return null;
}

function dialStaff(deps: Deps, call: CallRow, st: RingState, phones: string[]): CallInstructions {
  return [
    dial({
      timeout: st.timeout,
      action: webhookUrl(deps.config, 'dial-action', { call: call.id }),
      ...(st.recording
        ? { recording: { statusCallback: webhookUrl(deps.config, 'recording-status', { call: call.id }) } }
        : {}),
      targets: phones.map((phone) => ({
        phone,
        whisperUrl: webhookUrl(deps.config, 'voice', { call: call.id, leg: 'whisper' }),
        statusCallback: webhookUrl(deps.config, 'call-status', { call: call.id, leg: 'staff-in' }),
      })),
    }),
  ];
}

/** The caller holds until the wait is over (the carrier's clock), then asks again (`waited`). */
function holdAnswer(deps: Deps, call: CallRow, st: RingState): CallInstructions {
  const seconds = Math.max(1, Math.ceil(((st.queuedUntil ?? 0) - Date.now()) / 1000));
  return [
    say(HOLD_MESSAGE),
    pause(Math.min(seconds, st.timeout)),
    redirect(webhookUrl(deps.config, 'voice', { call: call.id, leg: 'inbound', waited: 1 })),
  ];
}

/**
 * Nobody took the call: the missed-call message, and a voicemail when the install takes them (an inbound
 * caller on the line, or a callback's visitor called back with it).
 */
export function missedAnswer(ctx: Ctx, call: CallRow, st: RingState): CallInstructions {
  return [
    say(st.missedMessage),
    ...(st.voicemail
      ? [
          voicemail({
            maxSeconds: 120,
            statusCallback: webhookUrl(ctx.deps.config, 'recording-status', { call: call.id, voicemail: 1 }),
          }),
        ]
      : []),
    hangup(),
  ];
}

/**
 * The caller's instructions as the call stands: ringing its reserved staff phones, holding for one, or (missed)
 * the message. A retry of a request answers the same.
 */
export async function inboundAnswer(ctx: Ctx, call: CallRow): Promise<CallInstructions> {
  const st = call.ring_state as RingState;
  if (call.outcome === 'missed') return missedAnswer(ctx, call, st);
  if (call.outcome !== 'in_progress') return HANG_UP;
  if (st.queued) return holdAnswer(ctx.deps, call, st);
  const legs = await ctx.db
    .select({ phone: callLegs.to_number, status: callLegs.status })
    .from(callLegs)
    .where(and(eq(callLegs.call_id, call.id), eq(callLegs.role, 'staff')));
  const phones = legs.filter((l) => !isFinal(l.status)).map((l) => l.phone);
  if (phones.length === 0) return HANG_UP;
  return dialStaff(ctx.deps, call, st, phones);
}

/**
 * The caller's line asks for its instructions again: rung through after a wait (the engine redirected it), or
 * the wait is over (`waited`: the carrier's pause ran out), when a call still waiting is missed.
 */
export async function inboundRedirected(ctx: Ctx, call: CallRow, callSid: string, waited: boolean) {
  const [caller] = await ctx.db
    .select({ id: callLegs.id })
    .from(callLegs)
    .where(and(eq(callLegs.call_id, call.id), eq(callLegs.call_sid, callSid), eq(callLegs.role, 'visitor')));
  if (!caller || call.kind !== 'inbound') return HANG_UP;
  if (waited && (call.ring_state as RingState).queued)
    await markMissed(ctx, call.id, { message: false, queued: true });
  const [fresh] = await ctx.db.select().from(calls).where(eq(calls.id, call.id));
  return fresh ? inboundAnswer(ctx, fresh) : HANG_UP;
}

/**
 * The first request of an inbound call: record it, and ring the free staff phones or hold. Answers call
 * instructions. `carrier`: the carrier's platform context, before the number called (or the call) names the
 * business.
 */
export async function inboundCall(
  carrier: Ctx,
  body: { to: string; from: string; callSid: string; accountSid: string },
): Promise<CallInstructions> {
  platformOnly(carrier);
  if (!body.callSid) return UNAVAILABLE;
  // A retry of the same call answers the same document.
  const [known] = await carrier.db.select().from(callLegs).where(eq(callLegs.call_sid, body.callSid));
  if (known) {
    const [call] = await carrier.db.select().from(calls).where(eq(calls.id, known.call_id));
    if (!call) return UNAVAILABLE;
    const ctx = tenantContext(
      carrier.deps,
      { level: 'business', agencyId: call.agency_id, businessId: call.business_id },
      { kind: 'system', source: 'carrier', name: 'inbound call' },
    );
    return inboundAnswer(ctx, call);
  }
  const number = await numberCalled(carrier.deps, body.to, body.accountSid);
  if (!number?.install_id) return UNAVAILABLE;
  const ctx: Ctx = tenantContext(
    carrier.deps,
    { level: 'business', agencyId: number.agency_id, businessId: number.business_id },
    { kind: 'system', source: 'carrier', name: 'inbound call' },
  );
  const install = await installForCalls(ctx, number.install_id);
  if (install?.status !== 'active' || !install.active) return UNAVAILABLE;
  if (await isBlocked(ctx, body.from)) return [reject()];
  const staff = await staffFor(ctx, install);
  if (staff.length === 0) return UNAVAILABLE;
  const s = install.settings;
  const st: RingState = {
    type: 'simultaneous',
    staff,
    order: staff.map((_, i) => i),
    next: staff.length,
    press: s.press_number,
    whisper: 'Incoming call from {phone}.',
    timeout: s.timeout,
    recording: s.call_recording,
    missedMessage: s.missed_call_message,
    voicemail: s.voicemail_enabled,
  };
  let call: CallRow | undefined;
  try {
    // The call, its caller's leg and its staff phones in one transaction, under the staff lock: the free
    // phones are reserved, or the call waits for one (a phone freed after this commit rings it).
    call = await inTransaction(ctx, async (tx) => {
      const [row] = await tx.db
        .insert(calls)
        .values({
          agency_id: number.agency_id,
          business_id: number.business_id,
          install_id: install.id,
          kind: 'inbound',
          outcome: 'in_progress',
          visitor_phone: body.from,
          from_number: body.to,
          caller_id: body.from,
          ring_state: st,
        })
        .returning();
      if (!row) throw new Error('inbound call insert failed');
      await tx.db.insert(callLegs).values({
        call_id: row.id,
        business_id: row.business_id,
        call_sid: body.callSid,
        role: 'visitor',
        to_number: body.to,
        status: 'in-progress',
      });
      const reserved = await reserveFreeStaff(tx, row, staff, Number.POSITIVE_INFINITY);
      publish(tx, callReceived, {
        callId: row.id,
        agencyId: row.agency_id,
        businessId: row.business_id,
        installId: install.id,
        visitorPhone: body.from,
      });
      if (reserved.length > 0) return row;
      const [queued] = await tx.db
        .update(calls)
        .set({
          ring_state: sql`${calls.ring_state} || jsonb_build_object('queued', true, 'queuedUntil', (extract(epoch from now()) * 1000)::bigint + ${st.timeout * 1000}::bigint)`,
        })
        .where(eq(calls.id, row.id))
        .returning();
      return queued;
    });
  } catch (err) {
    // This caller already has a call in progress with the business.
    if (isInFlight(err)) return [reject({ busy: true })];
    throw err;
  }
  if (!call) return UNAVAILABLE;
  return inboundAnswer(ctx, call);
}

const isInFlight = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } };
  return (e.code ?? e.cause?.code) === '23505';
};

/** A staff leg of an inbound call's Dial: it must be a child of the call's caller leg; recorded once. */
export async function inboundStaffLeg(
  ctx: Ctx,
  call: CallRow,
  input: { callSid: string; parentCallSid: string; to: string },
): Promise<boolean> {
  if (call.kind !== 'inbound' || !input.callSid) return false;
  const [parent] = await ctx.db
    .select({ id: callLegs.id })
    .from(callLegs)
    .where(
      and(
        eq(callLegs.call_id, call.id),
        eq(callLegs.call_sid, input.parentCallSid),
        eq(callLegs.role, 'visitor'),
      ),
    );
  if (!parent) return false;
  const staff = (call.ring_state as RingState).staff.find((s) => s.phone === input.to);
  await nameStaffLeg(ctx, call, {
    callSid: input.callSid,
    to: input.to,
    agentUserId: staff?.userId ?? null,
    agentName: staff?.name ?? null,
  });
  return true;
}

/** The inbound call's Dial ended: bridged and over, or nobody took it (the caller may leave a message). */
export async function inboundDialEnded(
  ctx: Ctx,
  call: CallRow,
  input: { completed: boolean; duration: number | null },
): Promise<CallInstructions> {
  const st = call.ring_state as RingState;
  if (input.completed && call.claimed_leg_sid) {
    const [completed] = await ctx.db
      .update(calls)
      .set({ outcome: 'completed', ended_at: new Date(), duration: input.duration, updated_at: new Date() })
      .where(and(eq(calls.id, call.id), eq(calls.outcome, 'in_progress')))
      .returning();
    if (completed) publishCallCompleted(ctx, completed);
    return HANG_UP;
  }
  const [missed] = await ctx.db
    .update(calls)
    .set({ outcome: 'missed', ended_at: new Date(), updated_at: new Date() })
    .where(and(eq(calls.id, call.id), eq(calls.outcome, 'in_progress')))
    .returning();
  if (missed) publishCallMissed(ctx, missed);
  return missedAnswer(ctx, call, st);
}

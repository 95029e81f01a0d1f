// The carrier's webhooks (/webhooks/twilio/...). The webhook tree has already checked the signature with
// the auth token of the account named by AccountSid. Each handler then finds its tenant from our own rows
// (the call id in the URL, a carrier call id that must be a leg of that call, and the account that must be
// the call's agency's), is idempotent (the carrier retries, and may deliver in any order), and answers call
// instructions at once: slow work (cancelling the other staff legs) runs after the answer. The carrier's
// adapter parsed the request into our events and renders the instructions (ADR 056).
import { and, eq, sql } from 'drizzle-orm';
import {
  type CallInstructions,
  dial,
  gather as gatherDigits,
  hangup,
  say,
} from '../../platform/carrier/instructions.ts';
import {
  type CallAsks,
  type CallProgress,
  type CarrierEvents,
  carrierRoute,
  type DialEnded,
  type DigitsGathered,
  type RecordingReady,
  type RecordingRef,
  type WebhookQuery,
} from '../../platform/carrier/webhooks.ts';
import { prepared, slot } from '../../platform/db/prepared.ts';
import type { Deps } from '../../platform/deps.ts';
import { publish } from '../../platform/events/events.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';
import { platformSystemContext, tenantContext } from '../../platform/tenancy/context.ts';
import type { WebhookRegistry } from '../../platform/webhooks/tree.ts';
import { carrierAccountOf } from './access.ts';
import { type CallRef, knownCall, knownLiveLeg, readCall, rememberCall, rememberLeg } from './call-refs.ts';
import {
  applyClaimedLegEnd,
  applyLegStatus,
  applyVisitorLegStatus,
  type CallRow,
  claim,
  concludeUnclaimed,
  endAtDialAction,
  finishClaimed,
  finishClaimedAtHangUp,
  inBackground,
  isFinal,
  type LegRow,
  legsCreated,
  markConnected,
  pressedDigits,
  type RingState,
  ringWaiting,
  webhookUrl,
} from './engine.ts';
import { voicemailRecorded } from './events.ts';
import {
  inboundCall,
  inboundDialEnded,
  inboundRedirected,
  inboundStaffLeg,
  missedAnswer,
} from './inbound.ts';
import { callLegs, calls, voiceRecords } from './tables.ts';

const num = (value: string): number | null => (value && /^\d+$/.test(value) ? Number(value) : null);

type Query = { call?: string; leg?: string; voicemail?: string; waited?: string };

const callIdOf = (query: Query): number | null => {
  const id = num(query.call ?? '');
  return id === null || id > 2_147_483_647 ? null : id;
};

/** The tenant's context of a call, once the account that signed the webhook is found to be its agency's. */
async function contextOf(
  deps: Deps,
  event: { accountSid: string },
  call: Pick<CallRow, 'agency_id' | 'business_id'>,
): Promise<Ctx | null> {
  const ctx = tenantContext(
    deps,
    { level: 'business', agencyId: call.agency_id, businessId: call.business_id },
    { kind: 'system', source: 'carrier', name: 'twilio webhook' },
  );
  const account = await carrierAccountOf(ctx);
  if (!account || account.accountSid !== event.accountSid) return null;
  return ctx;
}

/** The call a webhook is about, with the tenant's context; null when the URL and the account disagree. */
async function callOf(deps: Deps, event: { accountSid: string }, query: Query): Promise<Found | null> {
  const id = callIdOf(query);
  if (id === null) return null;
  const call = await readCall(platformSystemContext(deps, 'carrier', 'call webhook'), id);
  if (!call) return null;
  const ctx = await contextOf(deps, event, call);
  if (!ctx) return null;
  rememberCall(ctx, call);
  return { call, ctx };
}

type Found = { call: CallRow; ctx: Ctx };
type FoundWithLeg = Found & { leg: LegRow | null };
type FoundRef = { call: CallRef | CallRow; ctx: Ctx };

/**
 * A webhook about one of our calls, for a handler that needs only a call's fixed fields (CallRef) when
 * `enough` says the ones this process knows suffice: no read of the row; otherwise the row is read (callOf).
 * The handler runs once the call and its tenant are found, else the answer is `orElse`.
 */
const aboutCallRef =
  <E extends { accountSid: string }>(
    orElse: CallInstructions,
    enough: (ref: CallRef, query: Query) => boolean,
    handle: (found: FoundRef, event: E, query: Query) => Promise<CallInstructions>,
  ) =>
  async (deps: Deps, event: E, query: Query): Promise<CallInstructions> => {
    const id = callIdOf(query);
    const ref =
      id === null ? undefined : knownCall(platformSystemContext(deps, 'carrier', 'call webhook'), id);
    if (ref && enough(ref, query)) {
      const ctx = await contextOf(deps, event, ref);
      return ctx ? handle({ call: ref, ctx }, event, query) : orElse;
    }
    const found = await callOf(deps, event, query);
    return found ? handle(found, event, query) : orElse;
  };

const callWithLeg = prepared((db) =>
  db
    .select({ call: calls, leg: callLegs })
    .from(calls)
    .leftJoin(callLegs, and(eq(callLegs.call_id, calls.id), eq(callLegs.call_sid, slot('sid'))))
    .where(eq(calls.id, slot('id'))),
);

/**
 * A webhook about one leg of one of our calls (the event's CallSid). A staff leg this process placed is
 * answered from what this process knows of it and its call (./call-refs.ts knownLiveLeg, ADR 124: the claim
 * in SQL decides what a row behind could not). Otherwise the call's row and that leg's are read in one
 * statement (issue 27), once this process has named the legs it is placing; a leg not found there is looked
 * for again as legOf does (its row may still be on its way).
 */
const aboutCallLeg =
  <E extends { accountSid: string; callSid: string }>(
    orElse: CallInstructions,
    handle: (found: FoundWithLeg, event: E, query: Query) => Promise<CallInstructions>,
  ) =>
  async (deps: Deps, event: E, query: Query): Promise<CallInstructions> => {
    const id = callIdOf(query);
    if (id === null) return orElse;
    const carrier = platformSystemContext(deps, 'carrier', 'call webhook');
    if (event.callSid) await legsCreated(carrier, id);
    // A staff leg this process placed: its row and its call's as this process knows them (ADR 124).
    const live = event.callSid ? knownLiveLeg(carrier, id, event.callSid) : undefined;
    if (live) {
      const ctx = await contextOf(deps, event, live.call);
      return ctx ? handle({ ...live, ctx }, event, query) : orElse;
    }
    const [row] = await callWithLeg(carrier.db, { id, sid: event.callSid });
    if (!row) return orElse;
    const ctx = await contextOf(deps, event, row.call);
    if (!ctx) return orElse;
    rememberCall(ctx, row.call);
    const leg = row.leg ?? (await legOf(ctx, id, event.callSid));
    return handle({ call: row.call, ctx, leg }, event, query);
  };

/** A full row (an inbound call's handlers need one: aboutCallRef reads it for them). */
const fullRow = (call: CallRef | CallRow): CallRow => {
  if (!('ring_state' in call)) throw new Error('a call row was needed');
  return call;
};

const legBySid = prepared((db) =>
  db
    .select()
    .from(callLegs)
    .where(and(eq(callLegs.call_id, slot('call')), eq(callLegs.call_sid, slot('sid')))),
);

/** The leg of this call with that carrier call id (waiting for a leg this process is still recording). */
async function legOf(ctx: Ctx, callId: number, callSid: string): Promise<LegRow | null> {
  if (!callSid) return null;
  for (let attempt = 0; attempt < 3; attempt++) {
    await legsCreated(ctx, callId);
    const [leg] = await legBySid(ctx.db, { call: callId, sid: callSid });
    if (leg) return leg;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return null;
}

const HANG_UP: CallInstructions = [hangup()];
const NOTHING: CallInstructions = [];

/** The visitor's number spoken digit by digit. */
const spoken = (phone: string) => phone.replace(/^\+1/, '').replace(/\D/g, '').split('').join(' ');

function whisperOf(call: CallRow, st: RingState): string {
  return st.whisper
    .replaceAll('{name}', call.visitor_name || 'a visitor')
    .replaceAll('{phone}', spoken(call.visitor_phone));
}

function pressToConnect(deps: Deps, call: CallRow, st: RingState): CallInstructions {
  return [
    gatherDigits({
      digits: 1,
      timeout: 8,
      action: webhookUrl(deps.config, 'gather', { call: call.id }),
      prompt: `${whisperOf(call, st)} Press ${st.press} to connect.`,
    }),
    say('No key pressed. Goodbye.'),
    hangup(),
  ];
}

const TAKEN: CallInstructions = [say('Another team member took this call.'), hangup()];

function dialVisitor(deps: Deps, call: CallRow, st: RingState): CallInstructions {
  // Nothing said before the dial: the visitor's phone rings at once (the staff member hears it ringing).
  return [
    dial({
      callerId: call.caller_id ?? call.from_number,
      timeout: 30,
      action: webhookUrl(deps.config, 'dial-action', { call: call.id }),
      ...(st.recording
        ? { recording: { statusCallback: webhookUrl(deps.config, 'recording-status', { call: call.id }) } }
        : {}),
      targets: [
        {
          phone: call.visitor_phone,
          statusCallback: webhookUrl(deps.config, 'call-status', { call: call.id, leg: 'visitor' }),
        },
      ],
    }),
  ];
}

// ---------------------------------------------------------------- handlers

async function voice(deps: Deps, event: CallAsks, query: Query): Promise<CallInstructions> {
  if (query.call === undefined)
    return inboundCall(platformSystemContext(deps, 'carrier', 'inbound call'), event);
  return voiceOfCall(deps, event, query);
}

const voiceOfCall = aboutCallLeg<CallAsks>(HANG_UP, async ({ call, ctx, leg: read }, event, query) => {
  const { deps } = ctx;
  // A waiting inbound caller's line: put through, or the wait is over (ADR 051).
  if (query.leg === 'inbound') return inboundRedirected(ctx, call, event.callSid, query.waited === '1');
  let leg = read;
  // An inbound call's staff leg is written by its first webhook: this one, or its status callback.
  if (query.leg === 'whisper') {
    await inboundStaffLeg(ctx, call, {
      callSid: event.callSid,
      parentCallSid: event.parentCallSid,
      to: event.to,
    });
    leg = await legOf(ctx, call.id, event.callSid);
  }
  const st = call.ring_state as RingState;
  if (!leg) return HANG_UP;
  if (query.leg === 'missed' && leg.role === 'missed_message') return missedAnswer(ctx, call, st);
  if (leg.role !== 'staff') return HANG_UP;
  const answeredBy = event.answeredBy;
  // Usually the answered status callback has already recorded who answered.
  if (answeredBy && leg.answered_by !== answeredBy) {
    await ctx.db.update(callLegs).set({ answered_by: answeredBy }).where(eq(callLegs.id, leg.id));
    rememberLeg(ctx, { ...leg, answered_by: answeredBy }, { placed: false });
  }
  if (call.claimed_leg_sid && call.claimed_leg_sid !== leg.call_sid) return TAKEN;
  if (call.outcome !== 'in_progress') return HANG_UP;
  // A staff voicemail (or a fax) cannot claim the call.
  if (event.byMachine) return HANG_UP;
  return pressToConnect(deps, call, st);
});

const gather = aboutCallLeg<DigitsGathered>(HANG_UP, async ({ call, ctx, leg }, event) => {
  const { deps } = ctx;
  if (leg?.role !== 'staff') return HANG_UP;
  const st = call.ring_state as RingState;
  const digits = event.digits;
  const taken = call.claimed_leg_sid !== null && call.claimed_leg_sid !== leg.call_sid;
  if (taken || digits !== String(st.press)) {
    if (digits) await pressedDigits(ctx, leg.id, digits);
    if (taken) return TAKEN;
    if (call.outcome !== 'in_progress') return HANG_UP;
    return pressToConnect(deps, call, st);
  }
  // The key pressed: the claim writes the digits too.
  if (await claim(ctx, call, leg, digits)) {
    rememberCall(ctx, { ...call, claimed_leg_sid: leg.call_sid });
    if (call.kind !== 'inbound') return dialVisitor(deps, call, st);
    // The whisper's instructions end here: the carrier bridges this staff leg with the caller.
    await markConnected(ctx, call.id);
    return NOTHING;
  }
  return TAKEN;
});

// A callback's status callbacks need the row only for a visitor leg before this process knows the claim
// (and an inbound call's, whose handlers take the row); a staff leg that ends reads the row anew below.
const callStatus = aboutCallRef<CallProgress>(
  NOTHING,
  (ref, query) =>
    ref.kind !== 'inbound' &&
    query.leg !== 'staff-in' &&
    (query.leg !== 'visitor' || ref.claimed_leg_sid !== null),
  async ({ call, ctx }, event, query) => {
    const sid = event.callSid;
    const status = event.status;
    if (!sid || !status) return NOTHING;
    const input = {
      status,
      sequence: event.sequence,
      duration: event.duration,
      answeredBy: event.answeredBy,
    };
    let after: (LegRow & { freedForWaiting?: boolean; connected?: boolean }) | null;
    let endsClaim = false;
    if (query.leg === 'visitor') {
      // The visitor's leg was created by the dial: its parent must be the staff leg that claimed the call.
      if (!call.claimed_leg_sid || event.parentCallSid !== call.claimed_leg_sid) return NOTHING;
      after = await applyVisitorLegStatus(ctx, call, sid, input);
    } else {
      if (query.leg === 'staff-in')
        await inboundStaffLeg(ctx, fullRow(call), {
          callSid: sid,
          parentCallSid: event.parentCallSid,
          to: event.to,
        });
      await legsCreated(ctx, call.id);
      // The claiming leg's end ends its callback in the same statement (ADR 124).
      endsClaim =
        call.kind !== 'inbound' && call.claimed_leg_sid === sid && call.ended_at === null && isFinal(status);
      after = endsClaim
        ? await applyClaimedLegEnd(ctx, { callId: call.id, callSid: sid }, input)
        : await applyLegStatus(ctx, { callId: call.id, callSid: sid }, input);
    }
    if (!after) return NOTHING;
    const becameFinal = isFinal(after.status);
    // A staff phone came free while a callback waits for one: it rings it (ADR 051). The status's own
    // statement said whether one waits (ADR 123).
    if (after.freedForWaiting) inBackground(ctx, () => ringWaiting(ctx));
    // A callback's visitor leg connected the call with its status (ADR 124); an inbound caller's leg did not.
    if (after.role === 'visitor' && after.status === 'in-progress' && !after.connected)
      await markConnected(ctx, call.id);
    // An inbound call's end is the Dial action's to decide.
    if (after.role === 'staff' && becameFinal && call.kind !== 'inbound') {
      // The claiming leg is known for good once it is set: its end needs no read of the row, and nothing
      // at all once this process saw the call end (the dial's action usually comes first).
      if (call.claimed_leg_sid === after.call_sid) {
        if (call.ended_at === null && !endsClaim) await finishClaimedAtHangUp(ctx, call.id);
        return NOTHING;
      }
      const fresh = await readCall(ctx, call.id);
      if (fresh) rememberCall(ctx, fresh);
      if (fresh?.claimed_leg_sid === after.call_sid) {
        // The claiming staff member hung up: the dial action (when it comes) has the final word.
        await finishClaimed(ctx, call.id, {
          completed: fresh.connected_at !== null,
          duration: null,
          authoritative: false,
        });
      } else if (fresh && !fresh.claimed_leg_sid) {
        await concludeUnclaimed(ctx, call.id, fresh);
      }
    }
    return NOTHING;
  },
);

// A callback's dial action needs only who claimed it.
const dialAction = aboutCallRef<DialEnded>(
  HANG_UP,
  (ref) => ref.kind !== 'inbound' && ref.claimed_leg_sid !== null,
  async ({ call, ctx }, event) => {
    const sid = event.callSid;
    const { completed } = event;
    if (call.kind === 'inbound') {
      const caller = await legOf(ctx, call.id, sid);
      if (caller?.role !== 'visitor') return HANG_UP;
      if (event.recording) await storeCallRecording(ctx, call.id, event.recording, null);
      return inboundDialEnded(ctx, fullRow(call), { completed, duration: event.duration });
    }
    if (!sid || sid !== call.claimed_leg_sid) return HANG_UP;
    // The end and its recording in one statement; a call it could not end still keeps the recording.
    const end = await endAtDialAction(ctx, call.id, {
      key: `dial:${sid}`,
      completed,
      duration: event.duration,
      recording: event.recording,
    });
    if (end.first && !end.ended && event.recording)
      await storeCallRecording(ctx, call.id, event.recording, null);
    if (completed) return HANG_UP;
    return [say('The caller did not answer. Goodbye.'), hangup()];
  },
);

async function storeCallRecording(
  ctx: Ctx,
  callId: number,
  recording: RecordingRef,
  duration: number | null,
): Promise<void> {
  const { sid, url } = recording;
  await ctx.db
    .update(calls)
    .set({
      recording_sid: sid,
      recording_url: url,
      ...(duration !== null ? { recording_duration: duration } : {}),
      updated_at: new Date(),
    })
    .where(
      and(eq(calls.id, callId), sql`(${calls.recording_sid} is null or ${calls.recording_sid} = ${sid})`),
    );
}

const recordingStatus = aboutCallLeg<RecordingReady>(NOTHING, async ({ call, ctx, leg }, event, query) => {
  if (!leg) return NOTHING;
  if (!event.completed || !event.recording) return NOTHING;
  const { sid, url } = event.recording;
  const duration = event.duration;
  if (query.voicemail === '1') {
    const voicemailLeg = leg.role === 'missed_message' || (call.kind === 'inbound' && leg.role === 'visitor');
    if (!voicemailLeg) return NOTHING;
    const [stored] = await ctx.db
      .insert(voiceRecords)
      .values({
        agency_id: call.agency_id,
        business_id: call.business_id,
        install_id: call.install_id,
        call_id: call.id,
        from_number: call.visitor_phone,
        recording_sid: sid,
        recording_url: url,
        duration: duration ?? 0,
      })
      .onConflictDoNothing()
      .returning({ id: voiceRecords.id });
    // Only the delivery that stored it announces it: a repeated webhook finds the row and says nothing.
    if (stored)
      publish(ctx, voicemailRecorded, {
        callId: call.id,
        agencyId: call.agency_id,
        businessId: call.business_id,
        installId: call.install_id,
        visitorPhone: call.visitor_phone,
        visitorName: call.visitor_name,
        voiceRecordId: stored.id,
        duration: duration ?? 0,
      });
  } else {
    await storeCallRecording(ctx, call.id, event.recording, duration);
  }
  return NOTHING;
});

/** The webhook paths, below /webhooks (voiceUrl and smsUrl of purchased numbers point here). */
export const TWILIO_PATHS = {
  voice: '/twilio/voice',
  gather: '/twilio/gather',
  callStatus: '/twilio/call-status',
  dialAction: '/twilio/dial-action',
  recordingStatus: '/twilio/recording-status',
  smsIn: '/twilio/sms-in',
  smsStatus: '/twilio/sms-status',
} as const;

export function registerTelephonyWebhooks(registry: WebhookRegistry, deps: Deps): void {
  const route = <K extends keyof CarrierEvents>(
    url: string,
    kind: K,
    handle: (deps: Deps, event: CarrierEvents[K], query: Query) => Promise<CallInstructions>,
  ) =>
    carrierRoute(registry, deps.carrier.webhooks, {
      url,
      kind,
      handle: (event, query: WebhookQuery) => handle(deps, event, query),
    });
  route(TWILIO_PATHS.voice, 'call', voice);
  route(TWILIO_PATHS.gather, 'digits', gather);
  route(TWILIO_PATHS.callStatus, 'call-progress', callStatus);
  route(TWILIO_PATHS.dialAction, 'dial-ended', dialAction);
  route(TWILIO_PATHS.recordingStatus, 'recording', recordingStatus);
}

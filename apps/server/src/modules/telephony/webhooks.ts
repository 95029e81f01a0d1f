// The carrier's webhooks (/webhooks/twilio/...). The webhook tree has already checked the signature with
// the auth token of the account named by AccountSid. Each handler then finds its tenant from our own rows
// (the call id in the URL, a CallSid that must be a leg of that call, and the account that must be the
// call's agency's), is idempotent (the carrier retries, and may deliver in any order), and answers TwiML
// at once: slow work (cancelling the other staff legs) runs after the answer.
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RECORDING_SID_PATTERN } from '../../platform/carrier/carrier.ts';
import type { Deps } from '../../platform/deps.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';
import { platformSystemContext, tenantContext } from '../../platform/tenancy/context.ts';
import type { FormBody, WebhookRegistry } from '../../platform/webhooks/tree.ts';
import { carrierAccountOf } from './access.ts';
import {
  applyLegStatus,
  type CallRow,
  claim,
  concludeUnclaimed,
  finishClaimed,
  inBackground,
  isFinal,
  type LegRow,
  legsCreated,
  markConnected,
  type RingState,
  ringWaiting,
  webhookUrl,
} from './engine.ts';
import { inboundCall, inboundDialEnded, inboundRedirected, inboundStaffLeg, missedTwiml } from './inbound.ts';
import { callLegs, calls, carrierEvents, voiceRecords } from './tables.ts';
import { el, hangup, say, TWIML_TYPE, twiml } from './twiml.ts';

const str = (body: FormBody, key: string): string => {
  const v = body[key];
  return typeof v === 'string' ? v : Array.isArray(v) ? (v[0] ?? '') : '';
};
const num = (value: string): number | null => (value && /^\d+$/.test(value) ? Number(value) : null);

type Query = { call?: string; leg?: string; voicemail?: string; waited?: string };

/** The call a webhook is about, with the tenant's context; null when the URL and the account disagree. */
async function callOf(
  deps: Deps,
  request: FastifyRequest,
): Promise<{ call: CallRow; ctx: Ctx; body: FormBody; query: Query } | null> {
  const query = (request.query ?? {}) as Query;
  const body = (request.body ?? {}) as FormBody;
  const id = num(query.call ?? '');
  if (id === null || id > 2_147_483_647) return null;
  const [call] = await deps.db.select().from(calls).where(eq(calls.id, id));
  if (!call) return null;
  const ctx = tenantContext(
    deps,
    { level: 'business', agencyId: call.agency_id, businessId: call.business_id },
    { kind: 'system', source: 'carrier', name: 'twilio webhook' },
  );
  const account = await carrierAccountOf(ctx);
  if (!account || account.accountSid !== str(body, 'AccountSid')) return null;
  return { call, ctx, body, query };
}

/** The leg of this call with that CallSid (waiting for a leg this process is still recording). */
async function legOf(ctx: Ctx, callId: number, callSid: string): Promise<LegRow | null> {
  if (!callSid) return null;
  for (let attempt = 0; attempt < 3; attempt++) {
    await legsCreated(ctx, callId);
    const [leg] = await ctx.db
      .select()
      .from(callLegs)
      .where(and(eq(callLegs.call_id, callId), eq(callLegs.call_sid, callSid)));
    if (leg) return leg;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return null;
}

/** True the first time this delivery is seen; a retry of the same event answers without a second effect. */
async function firstDelivery(ctx: Ctx, key: string): Promise<boolean> {
  const rows = await ctx.db
    .insert(carrierEvents)
    .values({ key })
    .onConflictDoNothing()
    .returning({ key: carrierEvents.key });
  return rows.length > 0;
}

const send = (reply: FastifyReply, body: string) => reply.type(TWIML_TYPE).send(body);
const empty = (reply: FastifyReply) => send(reply, twiml());

/** The visitor's number spoken digit by digit. */
const spoken = (phone: string) => phone.replace(/^\+1/, '').replace(/\D/g, '').split('').join(' ');

function whisperOf(call: CallRow, st: RingState): string {
  return st.whisper
    .replaceAll('{name}', call.visitor_name || 'a visitor')
    .replaceAll('{phone}', spoken(call.visitor_phone));
}

function gatherTwiml(deps: Deps, call: CallRow, st: RingState): string {
  return twiml(
    el(
      'Gather',
      { numDigits: 1, timeout: 8, action: webhookUrl(deps, 'gather', { call: call.id }) },
      say(`${whisperOf(call, st)} Press ${st.press} to connect.`),
    ),
    say('No key pressed. Goodbye.'),
    hangup(),
  );
}

const TAKEN = twiml(say('Another team member took this call.'), hangup());

function dialTwiml(deps: Deps, call: CallRow, st: RingState): string {
  // No <Say> before the <Dial>: the visitor's phone rings at once (the staff member hears it ringing).
  return twiml(
    el(
      'Dial',
      {
        callerId: call.caller_id ?? call.from_number,
        timeout: 30,
        record: st.recording ? 'record-from-answer' : undefined,
        action: webhookUrl(deps, 'dial-action', { call: call.id }),
        recordingStatusCallback: st.recording
          ? webhookUrl(deps, 'recording-status', { call: call.id })
          : undefined,
      },
      el(
        'Number',
        {
          statusCallback: webhookUrl(deps, 'call-status', { call: call.id, leg: 'visitor' }),
          statusCallbackEvent: 'initiated ringing answered completed',
        },
        call.visitor_phone,
      ),
    ),
  );
}

// ---------------------------------------------------------------- handlers

async function voice(deps: Deps, request: FastifyRequest, reply: FastifyReply) {
  const q = (request.query ?? {}) as Query;
  if (q.call === undefined) {
    const b = (request.body ?? {}) as FormBody;
    return send(
      reply,
      await inboundCall(platformSystemContext(deps, 'carrier', 'inbound call'), {
        to: str(b, 'To'),
        from: str(b, 'From'),
        callSid: str(b, 'CallSid'),
        accountSid: str(b, 'AccountSid'),
      }),
    );
  }
  const found = await callOf(deps, request);
  if (!found) return send(reply, twiml(hangup()));
  const { call, ctx, body, query } = found;
  // A waiting inbound caller's line: put through, or the wait is over (ADR 051).
  if (query.leg === 'inbound')
    return send(reply, await inboundRedirected(ctx, call, str(body, 'CallSid'), query.waited === '1'));
  if (query.leg === 'whisper')
    await inboundStaffLeg(ctx, call, {
      callSid: str(body, 'CallSid'),
      parentCallSid: str(body, 'ParentCallSid'),
      to: str(body, 'To'),
    });
  const leg = await legOf(ctx, call.id, str(body, 'CallSid'));
  const st = call.ring_state as RingState;
  if (!leg) return send(reply, twiml(hangup()));
  if (query.leg === 'missed' && leg.role === 'missed_message') return send(reply, missedTwiml(ctx, call, st));
  if (leg.role !== 'staff') return send(reply, twiml(hangup()));
  const answeredBy = str(body, 'AnsweredBy');
  if (answeredBy)
    await ctx.db.update(callLegs).set({ answered_by: answeredBy }).where(eq(callLegs.id, leg.id));
  if (call.claimed_leg_sid && call.claimed_leg_sid !== leg.call_sid) return send(reply, TAKEN);
  if (call.outcome !== 'in_progress') return send(reply, twiml(hangup()));
  // A staff voicemail (or a fax) cannot claim the call.
  if (answeredBy.startsWith('machine') || answeredBy === 'fax') return send(reply, twiml(hangup()));
  return send(reply, gatherTwiml(deps, call, st));
}

async function gather(deps: Deps, request: FastifyRequest, reply: FastifyReply) {
  const found = await callOf(deps, request);
  if (!found) return send(reply, twiml(hangup()));
  const { call, ctx, body } = found;
  const leg = await legOf(ctx, call.id, str(body, 'CallSid'));
  if (leg?.role !== 'staff') return send(reply, twiml(hangup()));
  const st = call.ring_state as RingState;
  const digits = str(body, 'Digits');
  if (digits) await ctx.db.update(callLegs).set({ digits }).where(eq(callLegs.id, leg.id));
  if (call.claimed_leg_sid && call.claimed_leg_sid !== leg.call_sid) return send(reply, TAKEN);
  if (digits !== String(st.press)) {
    if (call.outcome !== 'in_progress') return send(reply, twiml(hangup()));
    return send(reply, gatherTwiml(deps, call, st));
  }
  if (await claim(ctx, call, leg)) {
    if (call.kind !== 'inbound') return send(reply, dialTwiml(deps, call, st));
    // The whisper's TwiML ends here: the carrier bridges this staff leg with the caller.
    await markConnected(ctx, call.id);
    return empty(reply);
  }
  return send(reply, TAKEN);
}

async function callStatus(deps: Deps, request: FastifyRequest, reply: FastifyReply) {
  const found = await callOf(deps, request);
  if (!found) return empty(reply);
  const { call, ctx, body, query } = found;
  const sid = str(body, 'CallSid');
  const status = str(body, 'CallStatus');
  const sequence = num(str(body, 'SequenceNumber')) ?? -1;
  if (!sid || !status) return empty(reply);
  if (query.leg === 'visitor') {
    // The visitor's leg was created by <Dial>: its parent must be the staff leg that claimed the call.
    if (!call.claimed_leg_sid || str(body, 'ParentCallSid') !== call.claimed_leg_sid) return empty(reply);
    await ctx.db
      .insert(callLegs)
      .values({
        call_id: call.id,
        business_id: call.business_id,
        call_sid: sid,
        role: 'visitor',
        to_number: call.visitor_phone,
        status: 'queued',
      })
      .onConflictDoNothing();
  } else if (query.leg === 'staff-in') {
    await inboundStaffLeg(ctx, call, {
      callSid: sid,
      parentCallSid: str(body, 'ParentCallSid'),
      to: str(body, 'To'),
    });
  }
  await legsCreated(ctx, call.id);
  const after = await applyLegStatus(
    ctx,
    { callId: call.id, callSid: sid },
    {
      status,
      sequence,
      duration: num(str(body, 'CallDuration')),
      answeredBy: str(body, 'AnsweredBy') || null,
    },
  );
  if (!after) return empty(reply);
  const becameFinal = isFinal(after.status);
  // A staff phone came free: a callback waiting for one rings it (ADR 051).
  if (after.role === 'staff' && becameFinal) inBackground(ctx, () => ringWaiting(ctx));
  if (after.role === 'visitor' && after.status === 'in-progress') await markConnected(ctx, call.id);
  // An inbound call's end is the Dial action's to decide.
  if (after.role === 'staff' && becameFinal && call.kind !== 'inbound') {
    const [fresh] = await ctx.db.select().from(calls).where(eq(calls.id, call.id));
    if (fresh?.claimed_leg_sid === after.call_sid) {
      // The claiming staff member hung up: the dial action (when it comes) has the final word.
      await finishClaimed(ctx, call.id, {
        completed: fresh.connected_at !== null,
        duration: null,
        authoritative: false,
      });
    } else if (fresh && !fresh.claimed_leg_sid) {
      await concludeUnclaimed(ctx, call.id);
    }
  }
  return empty(reply);
}

async function dialAction(deps: Deps, request: FastifyRequest, reply: FastifyReply) {
  const found = await callOf(deps, request);
  if (!found) return send(reply, twiml(hangup()));
  const { call, ctx, body } = found;
  const sid = str(body, 'CallSid');
  const dialStatus = str(body, 'DialCallStatus');
  const completed = dialStatus === 'completed' || dialStatus === 'answered';
  if (call.kind === 'inbound') {
    const caller = await legOf(ctx, call.id, sid);
    if (caller?.role !== 'visitor') return send(reply, twiml(hangup()));
    const recordingSid = str(body, 'RecordingSid');
    const recordingUrl = str(body, 'RecordingUrl');
    if (isRecordingSid(recordingSid) && recordingUrl)
      await storeCallRecording(ctx, call.id, recordingSid, recordingUrl, null);
    return send(
      reply,
      await inboundDialEnded(ctx, call, { completed, duration: num(str(body, 'DialCallDuration')) }),
    );
  }
  if (!sid || sid !== call.claimed_leg_sid) return send(reply, twiml(hangup()));
  if (await firstDelivery(ctx, `dial:${sid}`)) {
    await finishClaimed(ctx, call.id, {
      completed,
      duration: num(str(body, 'DialCallDuration')),
      authoritative: true,
    });
    const recordingSid = str(body, 'RecordingSid');
    const recordingUrl = str(body, 'RecordingUrl');
    if (isRecordingSid(recordingSid) && recordingUrl)
      await storeCallRecording(ctx, call.id, recordingSid, recordingUrl, null);
  }
  if (completed) return send(reply, twiml(hangup()));
  return send(reply, twiml(say('The caller did not answer. Goodbye.'), hangup()));
}

/** A recording is kept by its sid, fetched later from the carrier by that sid: never a URL (ADR 049). */
const isRecordingSid = (sid: string) => RECORDING_SID_PATTERN.test(sid);

async function storeCallRecording(
  ctx: Ctx,
  callId: number,
  sid: string,
  url: string,
  duration: number | null,
): Promise<void> {
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

async function recordingStatus(deps: Deps, request: FastifyRequest, reply: FastifyReply) {
  const found = await callOf(deps, request);
  if (!found) return empty(reply);
  const { call, ctx, body, query } = found;
  const callSid = str(body, 'CallSid');
  const leg = await legOf(ctx, call.id, callSid);
  if (!leg) return empty(reply);
  const recordingStatusValue = str(body, 'RecordingStatus');
  if (recordingStatusValue && recordingStatusValue !== 'completed') return empty(reply);
  const sid = str(body, 'RecordingSid');
  const url = str(body, 'RecordingUrl');
  if (!isRecordingSid(sid) || !url) return empty(reply);
  const duration = num(str(body, 'RecordingDuration'));
  if (query.voicemail === '1') {
    const voicemailLeg = leg.role === 'missed_message' || (call.kind === 'inbound' && leg.role === 'visitor');
    if (!voicemailLeg) return empty(reply);
    await ctx.db
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
      .onConflictDoNothing();
  } else {
    await storeCallRecording(ctx, call.id, sid, url, duration);
  }
  return empty(reply);
}

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
  const route = (
    url: string,
    handler: (deps: Deps, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  ) =>
    registry.route({
      method: 'POST',
      url,
      provider: 'twilio',
      handler: (request, reply) => handler(deps, request, reply),
    });
  route(TWILIO_PATHS.voice, voice);
  route(TWILIO_PATHS.gather, gather);
  route(TWILIO_PATHS.callStatus, callStatus);
  route(TWILIO_PATHS.dialAction, dialAction);
  route(TWILIO_PATHS.recordingStatus, recordingStatus);
}

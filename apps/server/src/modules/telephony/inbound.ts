// Inbound calls to an install's number (the number's voiceUrl is /webhooks/twilio/voice with no call
// id): a calls row of kind inbound, and a <Dial> ringing the install's staff at once, each hearing the
// whisper and pressing the key before the caller is bridged (<Number url>). Nobody takes it: the caller
// hears the missed-call message and may leave a voicemail, on the same line.
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import { type Ctx, tenantContext } from '../../platform/tenancy/context.ts';
import { agencyCarrierAccount } from '../agencies/service.ts';
import { isBlocked } from '../compliance/service.ts';
import { installForCalls, staffFor } from './access.ts';
import type { CallRow, RingState } from './engine.ts';
import { publishCallMissed, webhookUrl } from './engine.ts';
import { callLegs, calls, numbers } from './tables.ts';
import { el, hangup, say, twiml } from './twiml.ts';

const UNAVAILABLE = twiml(say('Sorry, this number cannot take calls right now. Goodbye.'), hangup());

/** The install number called, in the agency whose account the carrier named. */
async function numberCalled(deps: Deps, to: string, accountSid: string) {
  const rows = await deps.db
    .select()
    .from(numbers)
    .where(and(eq(numbers.phone_number, to), isNull(numbers.released_at), isNotNull(numbers.install_id)));
  for (const n of rows) {
    const account = await agencyCarrierAccount(deps, n.agency_id);
    if (account?.accountSid === accountSid) return n;
  }
  return null;
}

function dialStaff(deps: Deps, call: CallRow, st: RingState): string {
  return twiml(
    el(
      'Dial',
      {
        timeout: st.timeout,
        action: webhookUrl(deps, 'dial-action', { call: call.id }),
        record: st.recording ? 'record-from-answer' : undefined,
        recordingStatusCallback: st.recording
          ? webhookUrl(deps, 'recording-status', { call: call.id })
          : undefined,
      },
      ...st.staff.map((s) =>
        el(
          'Number',
          {
            url: webhookUrl(deps, 'voice', { call: call.id, leg: 'whisper' }),
            statusCallback: webhookUrl(deps, 'call-status', { call: call.id, leg: 'staff-in' }),
            statusCallbackEvent: 'initiated ringing answered completed',
          },
          s.phone,
        ),
      ),
    ),
  );
}

/** The first request of an inbound call: record it and ring the staff. Answers TwiML. */
export async function inboundCall(
  deps: Deps,
  body: { to: string; from: string; callSid: string; accountSid: string },
): Promise<string> {
  if (!body.callSid) return UNAVAILABLE;
  // A retry of the same call answers the same document.
  const [known] = await deps.db.select().from(callLegs).where(eq(callLegs.call_sid, body.callSid));
  if (known) {
    const [call] = await deps.db.select().from(calls).where(eq(calls.id, known.call_id));
    return call ? dialStaff(deps, call, call.ring_state as RingState) : UNAVAILABLE;
  }
  const number = await numberCalled(deps, body.to, body.accountSid);
  if (!number?.install_id) return UNAVAILABLE;
  const ctx: Ctx = tenantContext(
    deps,
    { level: 'business', agencyId: number.agency_id, businessId: number.business_id },
    { kind: 'system', source: 'carrier', name: 'inbound call' },
  );
  const install = await installForCalls(ctx, number.install_id);
  if (install?.status !== 'active' || !install.active) return UNAVAILABLE;
  if (await isBlocked(ctx, body.from)) return twiml(el('Reject'));
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
    [call] = await deps.db
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
  } catch {
    // This caller already has a call in progress with the business.
    return twiml(el('Reject', { reason: 'busy' }));
  }
  if (!call) return UNAVAILABLE;
  await deps.db.insert(callLegs).values({
    call_id: call.id,
    business_id: call.business_id,
    call_sid: body.callSid,
    role: 'visitor',
    to_number: body.to,
    status: 'in-progress',
  });
  return dialStaff(deps, call, st);
}

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
  await ctx.db
    .insert(callLegs)
    .values({
      call_id: call.id,
      business_id: call.business_id,
      call_sid: input.callSid,
      role: 'staff',
      to_number: input.to,
      agent_user_id: staff?.userId ?? null,
      agent_name: staff?.name ?? null,
      status: 'queued',
    })
    .onConflictDoNothing();
  return true;
}

/** The inbound call's Dial ended: bridged and over, or nobody took it (the caller may leave a message). */
export async function inboundDialEnded(
  ctx: Ctx,
  call: CallRow,
  input: { completed: boolean; duration: number | null },
): Promise<string> {
  const st = call.ring_state as RingState;
  if (input.completed && call.claimed_leg_sid) {
    await ctx.db
      .update(calls)
      .set({ outcome: 'completed', ended_at: new Date(), duration: input.duration, updated_at: new Date() })
      .where(and(eq(calls.id, call.id), eq(calls.outcome, 'in_progress')));
    return twiml(hangup());
  }
  const [missed] = await ctx.db
    .update(calls)
    .set({ outcome: 'missed', ended_at: new Date(), updated_at: new Date() })
    .where(and(eq(calls.id, call.id), eq(calls.outcome, 'in_progress')))
    .returning();
  if (missed) publishCallMissed(ctx, missed);
  const verbs = [say(st.missedMessage)];
  if (st.voicemail)
    verbs.push(
      el('Record', {
        maxLength: 120,
        playBeep: true,
        recordingStatusCallback: webhookUrl(ctx.deps, 'recording-status', { call: call.id, voicemail: 1 }),
      }),
    );
  return twiml(...verbs, hangup());
}

// SendCall (ADR 071): calls the contact from its install's number and says the text (text-to-speech, merge
// fields filled) or plays a recording of the media library; the Sandbox Phones screen's card shows what
// the phone heard. The call's sid is recorded on the step; the step then waits (durably, polling the
// carrier every CALL_POLL_MS) for the call to end, and puts its outcome in the run's `call_outcome`
// (completed: answered; missed: busy, no answer, failed) for a Condition further on.
import type { TActionConfig } from '@stn/contracts/automations';
import { carrierFor } from '../../telephony/service.ts';
import { callContact, isPlaced } from './calls.ts';
import type { ActionExecutor, StepInput, StepResult } from './types.ts';

/** How often the step asks the carrier whether its call ended. */
export const CALL_POLL_MS = 30_000;
/** After this long the outcome is left unknown and the journey goes on. */
export const CALL_WATCH_MS = 30 * 60_000;

const ENDED = new Set(['completed', 'busy', 'failed', 'no-answer', 'canceled']);

/** The call of an earlier attempt of this step: its outcome once it ended, else another wait. */
export async function watchCall(input: StepInput): Promise<StepResult> {
  const { ctx, step, now } = input;
  const sid = String(step.detail.call_sid);
  const placedAt = Date.parse(String(step.detail.placed_at ?? now.toISOString()));
  let status: string;
  try {
    status = (await (await carrierFor(ctx)).fetchCall(sid)).status;
  } catch (err) {
    ctx.deps.log.warn({ err, sid }, 'automation call status not read');
    status = 'unknown';
  }
  if (ENDED.has(status)) {
    const outcome = status === 'completed' ? 'completed' : 'missed';
    return {
      kind: 'next',
      detail: { ...step.detail, status, outcome },
      vars: { call_outcome: outcome, call_sid: sid },
    };
  }
  if (now.getTime() - placedAt >= CALL_WATCH_MS)
    return { kind: 'next', detail: { ...step.detail, status, outcome: null }, vars: { call_sid: sid } };
  return {
    kind: 'wait',
    until: new Date(now.getTime() + CALL_POLL_MS),
    detail: { ...step.detail, status },
  };
}

export const sendCallAction: ActionExecutor = async (input) => {
  if (typeof input.step.detail.call_sid === 'string') return watchCall(input);
  const c = input.config as TActionConfig<'SendCall'>;
  const placed = await callContact(input, c, { voicemail: false });
  if (!isPlaced(placed)) return placed;
  return {
    kind: 'wait',
    until: new Date(input.now.getTime() + CALL_POLL_MS),
    detail: {
      call_sid: placed.sid,
      from: placed.from,
      to: placed.to,
      said: placed.said,
      placed_at: input.now.toISOString(),
      status: 'queued',
      ...(placed.recovered ? { recovered: true } : {}),
    },
  };
};

// What SendCall and SendVoiceMail share (ADR 071): the checks before calling a contact (blocked, on the
// blacklist, the reach rule, the install's number, the month's calls), the words or the recording, and
// the call itself, whose answer is given to the carrier as instructions (say or play, then hang up).
// A call has no idempotency key at the carrier: a worker dying between the carrier's answer and the
// step's commit may place it twice (the engine's lease retries the step); the sid is recorded on the step.
// A placing that got no clear answer (a 5xx, no answer: the carrier may have placed it) is tried again a
// minute later, and that attempt first asks the carrier for a call to the contact since (ADR 128).
import { CarrierError } from '../../../platform/carrier/carrier.ts';
import type { CallInstruction } from '../../../platform/carrier/instructions.ts';
import { hangup, play, say } from '../../../platform/carrier/instructions.ts';
import { callUsage, countCall } from '../../businesses/service.ts';
import { isBlocked } from '../../compliance/service.ts';
import { assertReachable, carrierFor, installCallNumber } from '../../telephony/service.ts';
import { audioForCall } from '../../templates/service.ts';
import { fill, refusalOf } from './merge.ts';
import type { RunContact, StepInput, StepResult } from './types.ts';

/** The voice of each language of the block (the carrier's language tags). */
const VOICE_LANGUAGE = { en: 'en-US', es: 'es-MX', br: 'pt-BR' } as const;

export type CallContent = {
  mode: 'say' | 'recording';
  text: string;
  media_id: number | null;
  language: keyof typeof VOICE_LANGUAGE;
};

/** `recovered`: placed by an earlier attempt whose answer was unclear, found at the carrier. */
export type Placed = { sid: string; from: string; to: string; said: string; recovered?: true };

/** How far before an unclear attempt the carrier's calls are looked at (the two clocks may differ). */
const LOOKUP_MARGIN_MS = 60_000;

const refused = (error: string): StepResult => ({
  kind: 'fail',
  error,
  continueRun: true,
  detail: { refused: error },
});

/**
 * Calls the contact from its install's number and says (or plays) the content; a refusal is a failed
 * step (no retry, the journey goes on). `voicemail`: the carrier waits for the answering machine's beep
 * before the message (a voicemail drop).
 */
export async function callContact(
  input: Pick<StepInput, 'ctx' | 'contact' | 'step' | 'now'>,
  content: CallContent,
  opts: { voicemail: boolean },
): Promise<Placed | StepResult> {
  const { ctx, contact, step } = input;
  // When an earlier attempt asked the carrier to call and got no clear answer.
  const unclearSince = typeof step.detail.unclear_since === 'string' ? step.detail.unclear_since : null;
  let asked: string | null = null;
  try {
    if (contact.blocked || (await isBlocked(ctx, contact.phone)))
      return refused('automations.action.contact_blocked');
    await assertReachable(ctx, contact.phone, 'call');
    if (contact.install_id === null) return refused('automations.action.no_install');
    const from = await installCallNumber(ctx, contact.install_id);
    if (!from) return refused('automations.action.no_number');
    const { instruction, said } = await contentOf(ctx, contact, content);
    if (!instruction) return refused('automations.action.recording_not_found');
    if ((await callUsage(ctx)).reached) return refused('calls.limit_reached');
    const carrier = await carrierFor(ctx);
    if (unclearSince !== null) {
      const since = new Date(Date.parse(unclearSince) - LOOKUP_MARGIN_MS);
      const [placed] = await carrier.listCalls({ to: contact.phone, from, createdAfter: since });
      if (placed) {
        ctx.deps.log.info(
          { contactId: contact.id, sid: placed.sid },
          'automation call found placed at the carrier',
        );
        await countCall(ctx);
        return { sid: placed.sid, from, to: contact.phone, said, recovered: true };
      }
    }
    asked = input.now.toISOString();
    const call = await carrier.createCall({
      to: contact.phone,
      from,
      instructions: [instruction, hangup()],
      timeout: 30,
      ...(opts.voicemail ? { machineDetection: 'DetectMessageEnd' as const } : {}),
    });
    // Counted once placed, in the step's transaction (a call the carrier refused is not counted).
    await countCall(ctx);
    return { sid: call.sid, from, to: contact.phone, said };
  } catch (err) {
    const reason = refusalOf(err);
    if (reason !== null) return refused(reason);
    // The carrier's refusal (a bad number, the account closed) is recorded, not retried; its failure
    // (a 5xx, out of reach) is tried again later, and, when the call was asked for, it may have been placed:
    // the next attempt asks the carrier first (`unclear_since`, the earliest such attempt).
    if (err instanceof CarrierError) {
      ctx.deps.log.warn({ err, contactId: contact.id }, 'automation call not placed, or not known to be');
      const retry = err.unclear;
      const since = unclearSince ?? (retry ? asked : null);
      return {
        kind: 'fail',
        error: 'automations.action.call_failed',
        retry,
        ...(retry ? { retryAfterMs: 60_000 } : {}),
        continueRun: true,
        // What the step knew before (a voicemail's drop time) is kept for the next attempt.
        detail: {
          ...step.detail,
          refused: 'automations.action.call_failed',
          message: err.message.slice(0, 300),
          ...(since !== null ? { unclear_since: since } : {}),
        },
      };
    }
    throw err;
  }
}

async function contentOf(
  ctx: StepInput['ctx'],
  contact: RunContact,
  c: CallContent,
): Promise<{ instruction: CallInstruction | null; said: string }> {
  if (c.mode === 'say') {
    const text = await fill(ctx, contact, c.text);
    return { instruction: say(text, VOICE_LANGUAGE[c.language]), said: text };
  }
  const url = c.media_id === null ? null : await audioForCall(ctx, c.media_id);
  if (!url) return { instruction: null, said: '' };
  const base = ctx.deps.config.publicUrl.toString().replace(/\/+$/, '');
  const absolute = ctx.deps.storage.absoluteUrl(url, base);
  return { instruction: play(absolute), said: `[recording ${c.media_id}]` };
}

export const isPlaced = (r: Placed | StepResult): r is Placed => 'sid' in r;

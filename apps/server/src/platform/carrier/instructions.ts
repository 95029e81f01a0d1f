/**
 * What a live call should do next, in our own terms (ADR 056): modules answer a carrier's call webhook
 * with a list of these instructions, and the carrier's adapter renders them in its own language (Twilio:
 * TwiML, ./twilio-webhooks.ts). No module writes a carrier's markup.
 */

/** A phone a dial rings: its leg's status reports go to `statusCallback`; `whisperUrl` is asked for what the callee hears before being bridged. */
export type DialTarget = { phone: string; whisperUrl?: string; statusCallback?: string };

export type CallInstruction =
  | { do: 'say'; text: string; language?: string }
  | { do: 'play'; url: string }
  /** Waits for `digits` keys (at most `timeout` seconds) while `prompt` is said; the keys go to `action`. */
  | { do: 'gather'; digits: number; timeout: number; action: string; prompt: string; language?: string }
  /**
   * Rings the targets at once and bridges the first to answer; `action` hears how it ended. `recording`
   * records from the answer and reports the recording there.
   */
  | {
      do: 'dial';
      targets: DialTarget[];
      /** The number the callee sees (none: the carrier's default). */
      callerId?: string | null;
      timeout: number;
      action: string;
      recording?: { statusCallback: string };
    }
  /** Records a voicemail after a beep, reported to `statusCallback`. */
  | { do: 'voicemail'; maxSeconds: number; statusCallback: string }
  /** Silence for a while (the caller holds). */
  | { do: 'pause'; seconds: number }
  /** Asks `url` for the next instructions. */
  | { do: 'redirect'; url: string }
  | { do: 'hangup' }
  /** Refuses the call before it is answered (`busy`: the caller hears a busy tone). */
  | { do: 'reject'; busy?: boolean };

/** An answer: what the call does, in order. An empty list ends nothing and says nothing. */
export type CallInstructions = CallInstruction[];

// The one builder modules use: each returns one instruction, a handler answers a list of them.
export const say = (text: string, language?: string): CallInstruction => ({
  do: 'say',
  text,
  ...(language ? { language } : {}),
});
export const play = (url: string): CallInstruction => ({ do: 'play', url });
export const gather = (input: Omit<Extract<CallInstruction, { do: 'gather' }>, 'do'>): CallInstruction => ({
  do: 'gather',
  ...input,
});
export const dial = (input: Omit<Extract<CallInstruction, { do: 'dial' }>, 'do'>): CallInstruction => ({
  do: 'dial',
  ...input,
});
export const voicemail = (input: { maxSeconds: number; statusCallback: string }): CallInstruction => ({
  do: 'voicemail',
  ...input,
});
export const pause = (seconds: number): CallInstruction => ({ do: 'pause', seconds });
export const redirect = (url: string): CallInstruction => ({ do: 'redirect', url });
export const hangup = (): CallInstruction => ({ do: 'hangup' });
export const reject = (opts: { busy?: boolean } = {}): CallInstruction => ({ do: 'reject', ...opts });

// The broadcasts' sending engine (ADR 061): the recipient snapshot, eligibility and skip reasons, quiet
// hours, the throttle per sending number, the sending jobs (at most one message a recipient, whatever
// workers crash), carrier errors per recipient, counts and progress on /ws.
//
// STUB: the signatures below are the contract between service.ts (the API) and the engine; the bodies are
// written by the engine's work (issue 19).
import type { TBroadcastAudience, TBroadcastCounts, TSkipReason } from '@stn/contracts/broadcasts';
import type { Ctx } from '../../platform/tenancy/context.ts';

/** The audience's size now: who would be sent to, and who would be skipped and why. */
export type AudienceCount = {
  recipients: number;
  skipped: number;
  reasons: Partial<Record<TSkipReason, number>>;
};

export async function countAudience(_ctx: Ctx, _audience: TBroadcastAudience): Promise<AudienceCount> {
  return { recipients: 0, skipped: 0, reasons: {} };
}

/**
 * Starts a broadcast inside the caller's transaction (the broadcast row is already written there):
 * `at` null or past: the snapshot and its jobs are written now and the status is `sending`; else the status
 * is `scheduled` and a start job waits for `at`. Refuses (422) what cannot be sent (no broadcasters, the
 * content checks, the monthly messages).
 */
export async function startSending(
  _tx: Ctx,
  _input: { broadcastId: number; at: Date | null },
): Promise<void> {
  throw new Error('broadcasts engine: not built yet');
}

/** Stops a scheduled or sending broadcast: nothing more goes out (the pending recipients stay pending). */
export async function stopSending(_tx: Ctx, _input: { broadcastId: number }): Promise<void> {
  throw new Error('broadcasts engine: not built yet');
}

/** Sends again to recipients not yet sent or failed, and with `includeNew` to new members of the audience. */
export async function rerunSending(
  _tx: Ctx,
  _input: { broadcastId: number; includeNew: boolean },
): Promise<void> {
  throw new Error('broadcasts engine: not built yet');
}

/** Re-reads the delivery status of the broadcast's sent messages from the carrier. */
export async function refreshStatuses(
  _ctx: Ctx,
  _input: { broadcastId: number },
): Promise<{ updated: number }> {
  throw new Error('broadcasts engine: not built yet');
}

/** The counts of these broadcasts' recipients (a broadcast with none: zeros). */
export async function broadcastCounts(_ctx: Ctx, ids: number[]): Promise<Map<number, TBroadcastCounts>> {
  return new Map(
    ids.map((id) => [
      id,
      {
        total: 0,
        pending: 0,
        sent: 0,
        delivered: 0,
        failed: 0,
        skipped: 0,
        replied: 0,
        opted_out: 0,
        credits_used: 0,
      },
    ]),
  );
}

// The broadcasts' sending engine (ADR 061): the recipient snapshot, eligibility and skip reasons, quiet
// hours, the throttle per sending number, the sending jobs (at most one message a recipient, whatever
// workers crash), carrier errors per recipient, counts and progress on /ws. The API (service.ts) calls
// these; the work is in audience.ts, sending.ts, counts.ts and clock.ts.
import type { Deps } from '../../platform/deps.ts';
import type { EventBus } from '../../platform/events/events.ts';
import type { Queue } from '../../platform/queue/queue.ts';
import { platformSystemContext, tenantContext } from '../../platform/tenancy/context.ts';
import { messageStatusChanged } from '../chats/service.ts';
import { announceProgress } from './counts.ts';
import { applyTextStatus, resumeJob, resumeSending, sendJob, startJob } from './sending.ts';

export { type AudienceCount, countAudience } from './audience.ts';
export { announceProgress, broadcastCounts, NO_COUNTS, publishProgress } from './counts.ts';
export {
  creditsPerMessage,
  isQuiet,
  refreshStatuses,
  rerunSending,
  resumeSending,
  SendingBlocked,
  startSending,
  stopSending,
} from './sending.ts';

/**
 * Plugs the engine into the app: its jobs, the listener that moves a recipient to delivered or failed
 * with its text's status, and (where jobs are worked) the resumption of sending left by a dead process.
 */
export function plugBroadcastsEngine(p: {
  deps: Deps;
  queue: Queue;
  events: EventBus;
  onReady: ((deps: Deps) => Promise<unknown>)[];
}): void {
  p.queue.register(sendJob);
  p.queue.register(startJob);
  p.queue.register(resumeJob);
  p.events.on(messageStatusChanged, async (e) => {
    const ctx = tenantContext(
      p.deps,
      { level: 'business', agencyId: e.agencyId, businessId: e.businessId },
      { kind: 'system', source: 'carrier', name: 'broadcast text status' },
    );
    const broadcastId = await applyTextStatus(ctx, e);
    if (broadcastId !== null) announceProgress(ctx, { broadcastId });
  });
  p.onReady.push(async (deps) => {
    if (deps.queue.working) await resumeSending(platformSystemContext(deps, 'job', 'broadcast resume'));
  });
}

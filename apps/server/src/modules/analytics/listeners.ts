// What the analytics module hears (ADR 081): every call, text, opt-out and lead event marks its local day to
// rebuild, and a batcher rebuilds the marked days at once (a burst of events is one batch). A lost event is
// found by the per-minute sweep (jobs.ts).
import { sql } from 'drizzle-orm';
import { createBatcher } from '../../platform/batcher.ts';
import type { Deps } from '../../platform/deps.ts';
import type { EventBus } from '../../platform/events/events.ts';
import { platformSystemContext } from '../../platform/tenancy/context.ts';
import { messageReceived, messageSent, messageStatusChanged } from '../chats/service.ts';
import { leadSubmitted } from '../leadforms/service.ts';
import { callCompleted, callMissed, callReceived, callRequested } from '../telephony/service.ts';
import { callDays, leadDays, markDays, messageDays, optOutDays, rebuildDirty } from './rollup.ts';

/**
 * How long the marks gather before their rebuild: the rollups lag the events by this much, or when a rebuild
 * takes long (a busy day's rows are read again at each) by 24 times the last one, at most ROLLUP_MAX_WAIT_MS:
 * rebuilding then takes at most a twenty-fifth of the time however fast the events come (issue 27; a tenth
 * was a sixth of PostgreSQL's work at 1,000 texts a second). A second, not a quarter (ADR 119): the reports
 * are read by people, and a business taking a callback every few seconds rebuilt its day after each.
 */
const ROLLUP_WAIT_MS = 1000;
const ROLLUP_MAX_WAIT_MS = 5000;
const ROLLUP_WORK_SHARE = 0.04;

type Mark = { calls?: number; message?: number; optOutContact?: number; lead?: number };

const ids = (list: (number | undefined)[]) => [...new Set(list.filter((n): n is number => n !== undefined))];

export function registerAnalyticsListeners(events: EventBus, deps: Deps): () => Promise<void> {
  const ctx = platformSystemContext(deps, 'job', 'analytics rollup');
  let lastRebuildMs = 0;
  const batch = createBatcher<Mark, void>({
    run: async (items) => {
      const started = performance.now();
      const calls = ids(items.map((i) => i.calls));
      const messages = ids(items.map((i) => i.message));
      const contacts = ids(items.map((i) => i.optOutContact));
      const leads = ids(items.map((i) => i.lead));
      if (calls.length) await markDays(ctx, callDays(sql`id = any(${sql.param(calls)}::int[])`));
      if (messages.length) await markDays(ctx, messageDays(sql`id = any(${sql.param(messages)}::int[])`));
      if (contacts.length) await markDays(ctx, optOutDays(sql`id = any(${sql.param(contacts)}::int[])`));
      if (leads.length) await markDays(ctx, leadDays(sql`id = any(${sql.param(leads)}::int[])`));
      try {
        await rebuildDirty(ctx);
      } finally {
        lastRebuildMs = performance.now() - started;
      }
      return items.map(() => undefined);
    },
    // A rebuild is a dozen statements however few its days: the events of a second share one (a callback's
    // four call events, a text's status callbacks; issue 27).
    waitMs: () =>
      Math.min(
        ROLLUP_MAX_WAIT_MS,
        Math.max(ROLLUP_WAIT_MS, (lastRebuildMs * (1 - ROLLUP_WORK_SHARE)) / ROLLUP_WORK_SHARE),
      ),
  });
  const add = (m: Mark) => {
    batch
      .add(m)
      .catch((err: unknown) => deps.log.warn({ err }, 'analytics rollup failed (the sweep retries)'));
  };
  for (const e of [callRequested, callReceived, callCompleted, callMissed] as const)
    events.on(e, (p: { callId: number }) => add({ calls: p.callId }));
  events.on(messageReceived, (p) =>
    add({ message: p.messageId, ...(p.keyword === 'stop' ? { optOutContact: p.contactId } : {}) }),
  );
  events.on(messageSent, (p) => add({ message: p.messageId }));
  events.on(messageStatusChanged, (p) => add({ message: p.messageId }));
  events.on(leadSubmitted, (p) => add({ lead: p.submissionId }));
  return () => batch.idle();
}

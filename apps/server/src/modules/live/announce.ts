// `live_data` on the business's and its agency's realtime channels when what the live view shows moved
// (a call opened, was claimed, connected or ended; a visitor opened or closed the widget). Debounced per
// business: a callback's first seconds move it several times, and the web app refetches once.
import { LIVE_DATA_EVENT } from '@stn/contracts/live';
import type { Deps } from '../../platform/deps.ts';
import { channel } from '../../platform/realtime/hub.ts';
import { businessOf, type Ctx } from '../../platform/tenancy/context.ts';

/** How long news of one business waits for more before it is sent. */
export const LIVE_DEBOUNCE_MS = 250;

const pending = new WeakMap<Deps, Map<number, NodeJS.Timeout>>();

/** After the caller's work commits, `live_data` for the context's business (and its agency), debounced. */
export function announceLiveData(ctx: Ctx): void {
  const { agencyId, businessId } = businessOf(ctx);
  const deps = ctx.deps;
  ctx.afterCommit(() => {
    let timers = pending.get(deps);
    if (!timers) {
      timers = new Map();
      pending.set(deps, timers);
    }
    if (timers.has(businessId)) return;
    const timer = setTimeout(() => {
      timers.delete(businessId);
      const message = { type: LIVE_DATA_EVENT };
      Promise.all([
        deps.realtime.publish(channel.business(businessId), message),
        deps.realtime.publish(channel.agency(agencyId), message),
      ]).catch((err) => deps.log.warn({ err, businessId }, 'live data not announced'));
    }, LIVE_DEBOUNCE_MS);
    timer.unref?.();
    timers.set(businessId, timer);
  });
}

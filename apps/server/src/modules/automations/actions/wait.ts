import { type TActionConfig, waitSeconds } from '@stn/contracts/automations';
import type { ActionExecutor } from './types.ts';

/**
 * Wait (ADR 068): the first call sets the wake time (`detail.until`) and waits; called again when it is
 * due, it goes on. Durable: the time is the step's `due_at`, whatever process is alive then.
 */
export const waitAction: ActionExecutor = async ({ config, step, now }) => {
  const until = step.detail.until;
  if (typeof until === 'string') {
    const at = Date.parse(until);
    if (at <= now.getTime()) return { kind: 'next', detail: step.detail };
    return { kind: 'wait', until: new Date(at), detail: step.detail };
  }
  const at = new Date(now.getTime() + waitSeconds(config as TActionConfig<'Wait'>) * 1000);
  return { kind: 'wait', until: at, detail: { until: at.toISOString() } };
};

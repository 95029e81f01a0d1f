import type { TActionConfig } from '@stn/contracts/automations';
import { businessTimeZone } from '../../businesses/service.ts';
import { nextOpening } from './time.ts';
import type { ActionExecutor } from './types.ts';

/**
 * ProcessBetween (ADR 068): inside its window (from–to on its days, in its zone, else the business's) the
 * journey goes on at once; outside, it waits until the next opening and goes on then.
 */
export const processBetweenAction: ActionExecutor = async ({ ctx, config, now }) => {
  const c = config as TActionConfig<'ProcessBetween'>;
  const zone = c.time_zone ?? (await businessTimeZone(ctx));
  const open = nextOpening(now, c, zone);
  if (open.getTime() <= now.getTime())
    return { kind: 'next', detail: { time_zone: zone, passed_at: now.toISOString() } };
  return { kind: 'wait', until: open, detail: { time_zone: zone, opens_at: open.toISOString() } };
};

// The calls' side of the live view (ADR 083): whenever telephony says a call opened, moved or ended, the
// business's and its agency's dashboards are told (`live_data`, debounced) and refetch.
import type { Deps } from '../../platform/deps.ts';
import type { EventBus } from '../../platform/events/events.ts';
import { tenantContext } from '../../platform/tenancy/context.ts';
import { callChanged, callCompleted, callMissed, callReceived, callRequested } from '../telephony/service.ts';
import { announceLiveData } from './service.ts';

export function registerLiveListeners(events: EventBus, deps: Deps): void {
  const announce = ({ agencyId, businessId }: { agencyId: number; businessId: number }) =>
    announceLiveData(
      tenantContext(
        deps,
        { level: 'business', agencyId, businessId },
        { kind: 'system', source: 'job', name: 'live data' },
      ),
    );
  for (const event of [callChanged, callRequested, callReceived, callCompleted, callMissed])
    events.on(event, announce);
}

import { z } from 'zod';
import { carrierRoute } from '../../platform/carrier/webhooks.ts';
import type { Deps } from '../../platform/deps.ts';
import { defineJob } from '../../platform/queue/queue.ts';
import { platformSystemContext, tenantContext } from '../../platform/tenancy/context.ts';
import type { WebhookRegistry } from '../../platform/webhooks/tree.ts';
import { agenciesToSync, agencyOfRegistrationSid, REGISTRATION_WEBHOOK, syncAgency } from './service.ts';

// Following the carrier's decisions on registrations (ADR 092): a per-minute job asks about everything not
// decided yet, and the carrier's status webhooks make the agency's sync run at once.

const syncOne = (deps: Deps, agencyId: number) =>
  syncAgency(
    tenantContext(
      deps,
      { level: 'agency', agencyId },
      { kind: 'system', source: 'job', name: 'registration sync' },
    ),
    { agencyId },
  );

export const registrationSyncJob = defineJob({
  name: 'registration.sync',
  payload: z.object({}).passthrough(),
  retry: { limit: 2, delaySeconds: 30, backoff: true },
  cron: '* * * * *',
  async handler(deps: Deps) {
    const ids = await agenciesToSync(platformSystemContext(deps, 'job', 'registration sync'));
    for (const agencyId of ids) {
      // One agency's carrier trouble does not hold the others' back.
      await syncOne(deps, agencyId).catch((err: unknown) =>
        deps.log.warn({ err, agencyId }, 'registration sync failed for an agency (retried next minute)'),
      );
    }
  },
});

/** The carrier's status callbacks (signature checked by the webhook tree): that agency is synced now. */
export function registrationWebhooks(registry: WebhookRegistry, deps: Deps): void {
  carrierRoute(registry, deps.carrier.webhooks, {
    url: REGISTRATION_WEBHOOK,
    kind: 'registration-status',
    async handle(event) {
      if (!event.sid) return undefined;
      const agencyId = await agencyOfRegistrationSid(
        platformSystemContext(deps, 'carrier', 'registration status'),
        event.sid,
      );
      if (agencyId !== null) await syncOne(deps, agencyId);
      return undefined;
    },
  });
}

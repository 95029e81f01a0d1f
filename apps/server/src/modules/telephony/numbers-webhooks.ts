import { carrierRoute } from '../../platform/carrier/webhooks.ts';
import type { Deps } from '../../platform/deps.ts';
import { platformSystemContext } from '../../platform/tenancy/context.ts';
import type { WebhookRegistry } from '../../platform/webhooks/tree.ts';
import { callerIdStatus } from './numbers.ts';

/**
 * The carrier's caller-id validation callback: the signature is checked by the webhook tree (the carrier's
 * provider, by account) before this runs; a success marks the number verified. Marking is idempotent,
 * so the carrier's retries have no second effect.
 */
export function numbersWebhooks(registry: WebhookRegistry, deps: Deps): void {
  carrierRoute(registry, deps.carrier.webhooks, {
    url: '/twilio/caller-id-status',
    kind: 'number-verification',
    async handle(event) {
      await callerIdStatus(platformSystemContext(deps, 'carrier', 'caller-id-status'), {
        accountSid: event.accountSid,
        phone: event.phone,
        status: event.verified ? 'success' : 'failed',
      });
      return undefined;
    },
  });
}

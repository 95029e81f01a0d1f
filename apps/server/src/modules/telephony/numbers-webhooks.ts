import type { Deps } from '../../platform/deps.ts';
import { platformSystemContext } from '../../platform/tenancy/context.ts';
import type { FormBody, WebhookRegistry } from '../../platform/webhooks/tree.ts';
import { callerIdStatus } from './numbers.ts';

const str = (v: string | string[] | undefined) => (Array.isArray(v) ? (v[0] ?? '') : (v ?? ''));

/**
 * The carrier's caller-id validation callback: the signature is checked by the webhook tree (the twilio
 * provider, by AccountSid) before this runs; a success marks the number verified. Marking is idempotent,
 * so the carrier's retries have no second effect.
 */
export function numbersWebhooks(registry: WebhookRegistry, deps: Deps): void {
  registry.route({
    method: 'POST',
    url: '/twilio/caller-id-status',
    provider: 'twilio',
    async handler(request, reply) {
      const body = (request.body ?? {}) as FormBody;
      await callerIdStatus(platformSystemContext(deps, 'carrier', 'caller-id-status'), {
        accountSid: str(body.AccountSid),
        // Twilio names the validated number To (the validation call's callee); PhoneNumber on some callbacks.
        phone: str(body.PhoneNumber) || str(body.To) || str(body.Called),
        status: str(body.VerificationStatus),
      });
      return reply.type('text/xml').send('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    },
  });
}

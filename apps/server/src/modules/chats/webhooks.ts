// The carrier's texting webhooks (/webhooks/twilio/sms-in and sms-status; the tree has checked the
// signature, the carrier's adapter parsed the request into our events: ADR 056). Verify, record, answer:
// an inbound text is stored once and answered with nothing to do; a keyword's reply (STOP/START/HELP) is
// sent through the carrier's API first.
import { carrierRoute, type InboundText, type MessageProgress } from '../../platform/carrier/webhooks.ts';
import type { Deps } from '../../platform/deps.ts';
import { platformSystemContext } from '../../platform/tenancy/context.ts';
import type { WebhookRegistry } from '../../platform/webhooks/tree.ts';
import { TWILIO_PATHS } from '../telephony/service.ts';
import { applyMessageStatus, keywordReply, receiveInbound } from './messages.ts';
import { sendAutoReply } from './service.ts';

const int = (value: string): number | null => (/^\d{1,9}$/.test(value) ? Number(value) : null);

async function smsIn(deps: Deps, text: InboundText): Promise<undefined> {
  const result = await receiveInbound(platformSystemContext(deps, 'carrier', 'inbound text'), text);
  if (result.kind === 'recorded' && result.keyword) {
    const { ctx, contactId, keyword } = result;
    // Keywords are rare: the reply is sent before the answer, so a retry of a failed answer cannot
    // lose it (the message row is already there, so a retry never sends it twice).
    await keywordReply(ctx, keyword)
      .then((body) => sendAutoReply(ctx, { contactId, body }))
      .catch((err) => deps.log.warn({ err }, 'keyword reply not sent'));
  }
  return undefined;
}

async function smsStatus(deps: Deps, progress: MessageProgress, messageParam: string): Promise<undefined> {
  const messageId = int(messageParam);
  await applyMessageStatus(platformSystemContext(deps, 'carrier', 'message status'), {
    ...progress,
    messageId: messageId !== null && messageId <= 2_147_483_647 ? messageId : null,
  });
  return undefined;
}

export function registerChatsWebhooks(registry: WebhookRegistry, deps: Deps): void {
  const adapter = deps.carrier.webhooks;
  carrierRoute(registry, adapter, {
    url: TWILIO_PATHS.smsIn,
    kind: 'text-in',
    handle: (text) => smsIn(deps, text),
  });
  carrierRoute(registry, adapter, {
    url: TWILIO_PATHS.smsStatus,
    kind: 'text-progress',
    handle: (progress, query) => smsStatus(deps, progress, query.message ?? ''),
  });
}

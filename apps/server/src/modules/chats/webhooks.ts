// The carrier's texting webhooks (/webhooks/twilio/sms-in and sms-status; the tree has checked the
// signature). Verify, record, answer: an inbound text is stored once and answered with an empty TwiML
// document; a keyword's reply (STOP/START/HELP) is sent through the carrier's API first.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { platformSystemContext } from '../../platform/tenancy/context.ts';
import type { FormBody, WebhookRegistry } from '../../platform/webhooks/tree.ts';
import { TWILIO_PATHS } from '../telephony/service.ts';
import { applyMessageStatus, keywordReply, receiveInboundBatched } from './messages.ts';
import { sendAutoReply } from './service.ts';

const EMPTY = '<?xml version="1.0" encoding="UTF-8"?><Response/>';
const TWIML_TYPE = 'text/xml; charset=utf-8';

const str = (body: FormBody, key: string): string => {
  const v = body[key];
  return typeof v === 'string' ? v : Array.isArray(v) ? (v[0] ?? '') : '';
};
const int = (value: string): number | null => (/^\d{1,9}$/.test(value) ? Number(value) : null);

async function smsIn(deps: Deps, request: FastifyRequest, reply: FastifyReply) {
  const b = (request.body ?? {}) as FormBody;
  const numMedia = Math.min(int(str(b, 'NumMedia')) ?? 0, 10);
  const media = [];
  for (let i = 0; i < numMedia; i++) {
    const url = str(b, `MediaUrl${i}`);
    if (url) media.push({ url, contentType: str(b, `MediaContentType${i}`) });
  }
  const dateSent = Date.parse(str(b, 'DateSent') || str(b, 'DateCreated'));
  const result = await receiveInboundBatched(platformSystemContext(deps, 'carrier', 'inbound text'), {
    messageSid: str(b, 'MessageSid') || str(b, 'SmsMessageSid') || str(b, 'SmsSid'),
    accountSid: str(b, 'AccountSid'),
    from: str(b, 'From'),
    to: str(b, 'To'),
    body: str(b, 'Body'),
    media,
    sentAt: Number.isNaN(dateSent) ? null : new Date(dateSent),
  });
  if (result.kind === 'recorded' && result.keyword) {
    const { ctx, contactId, keyword } = result;
    // Keywords are rare: the reply is sent before the answer, so a retry of a failed answer cannot
    // lose it (the message row is already there, so a retry never sends it twice).
    await keywordReply(ctx, keyword)
      .then((text) => sendAutoReply(ctx, { contactId, body: text }))
      .catch((err) => deps.log.warn({ err }, 'keyword reply not sent'));
  }
  return reply.type(TWIML_TYPE).send(EMPTY);
}

async function smsStatus(deps: Deps, request: FastifyRequest, reply: FastifyReply) {
  const b = (request.body ?? {}) as FormBody;
  const q = (request.query ?? {}) as { message?: string };
  const messageId = int(q.message ?? '');
  await applyMessageStatus(platformSystemContext(deps, 'carrier', 'message status'), {
    messageId: messageId !== null && messageId <= 2_147_483_647 ? messageId : null,
    messageSid: str(b, 'MessageSid') || str(b, 'SmsSid'),
    accountSid: str(b, 'AccountSid'),
    status: str(b, 'MessageStatus') || str(b, 'SmsStatus'),
    errorCode: int(str(b, 'ErrorCode')),
    errorMessage: str(b, 'ErrorMessage') || null,
  });
  return reply.type(TWIML_TYPE).send(EMPTY);
}

export function registerChatsWebhooks(registry: WebhookRegistry, deps: Deps): void {
  for (const [url, handler] of [
    [TWILIO_PATHS.smsIn, smsIn],
    [TWILIO_PATHS.smsStatus, smsStatus],
  ] as const)
    registry.route({
      method: 'POST',
      url,
      provider: 'twilio',
      handler: (request, reply) => handler(deps, request, reply),
    });
}

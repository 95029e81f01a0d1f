// The message actions of a conversation (ADR 034): send (text, images, a template filled in, scheduled),
// resend a failed message, cancel a scheduled one, refresh delivery statuses from the carrier, and send a
// calendar invitation. The conversation is found as the caller may see it (./inbox.ts, a 404 otherwise);
// the messages core (./service.ts) sends, with every compliance check.
import type { TInboxSendInput, TSendIcsInput } from '@stn/contracts/chats';
import { translate } from '@stn/contracts/i18n';
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import { CarrierError } from '../../platform/carrier/carrier.ts';
import { businessOf, type Ctx, scope } from '../../platform/tenancy/context.ts';
import { businessMessagesSettings } from '../businesses/service.ts';
import { installForCalls } from '../installs/service.ts';
import { carrierFor } from '../telephony/service.ts';
import { fillForContact, mediaForSend, templateForSend } from '../templates/service.ts';
import { icsOf, storeIcs } from './ics.ts';
import { markRead, messageOfContact, presentMessage, visibleContact } from './inbox.ts';
import { applyMessageStatus } from './messages.ts';
import { cancelScheduledMessage, resendMessage, sendMessage } from './service.ts';
import { messages } from './tables.ts';

/**
 * POST /v1/chats/contacts/{id}/messages: through the core's sendMessage (every compliance check). With a
 * template (ADR 039) the template must be the business's (404), active and SMS (422), and its merge
 * fields are filled for the contact: in the body given (the agent may have edited the text), or in the
 * template's own text when the body is empty. Media library images (`media_ids`) go with the data URLs.
 */
export async function sendToContact(ctx: Ctx, input: TInboxSendInput & { id: number }) {
  const contact = await visibleContact(ctx, input.id);
  let body = input.body;
  if (input.template_id !== undefined) {
    const template = await templateForSend(ctx, input.template_id);
    body = await fillForContact(ctx, body.trim() ? body : template.body, contact);
  }
  const library = await mediaForSend(ctx, input.media_ids ?? []);
  const message = await sendMessage(ctx, {
    contactId: contact.id,
    body: await signed(ctx, body),
    media: [...input.media, ...library],
    templateId: input.template_id,
    sendAt: input.send_at ? new Date(input.send_at) : undefined,
  });
  // The agent answering has seen the conversation.
  await markRead(ctx, contact);
  return message;
}

/**
 * A text staff send from the inbox with the business's signature on a line of its own, when it has one on
 * (its messages settings, ADR 094). Not on an image sent alone, nor twice (a text already ending with it).
 */
async function signed(ctx: Ctx, body: string): Promise<string> {
  const text = body.trim();
  if (!text) return body;
  const { signature_enabled, signature } = await businessMessagesSettings(ctx);
  if (!signature_enabled || !signature || text.endsWith(signature)) return body;
  return `${text}\n${signature}`;
}

export async function resendInConversation(ctx: Ctx, input: { id: number; message_id: number }) {
  const contact = await visibleContact(ctx, input.id);
  const row = await messageOfContact(ctx, contact.id, input.message_id);
  return resendMessage(ctx, { id: row.id });
}

export async function cancelInConversation(ctx: Ctx, input: { id: number; message_id: number }) {
  const contact = await visibleContact(ctx, input.id);
  const row = await messageOfContact(ctx, contact.id, input.message_id);
  return cancelScheduledMessage(ctx, { id: row.id });
}

const IN_FLIGHT = ['queued', 'sending', 'sent'];

/**
 * POST /v1/chats/contacts/{id}/refresh: re-reads from the carrier the status of the conversation's
 * outbound messages still in flight (the last 20) and applies each through the core's status rule
 * (forward only, opted out at the carrier opts out). Answers those messages as they are now.
 */
export async function refreshConversation(ctx: Ctx, input: { id: number }) {
  const contact = await visibleContact(ctx, input.id);
  const where = scope(
    ctx,
    messages,
    eq(messages.contact_id, contact.id),
    eq(messages.direction, 'out'),
    inArray(messages.status, IN_FLIGHT),
    isNotNull(messages.carrier_sid),
  );
  const rows = await ctx.db.select().from(messages).where(where).orderBy(asc(messages.id)).limit(20);
  if (rows.length === 0) return [];
  const carrier = await carrierFor(ctx);
  for (const row of rows) {
    if (!row.carrier_sid) continue;
    try {
      const m = await carrier.fetchMessage(row.carrier_sid);
      await applyMessageStatus(ctx, {
        messageId: row.id,
        messageSid: m.sid,
        accountSid: m.accountSid,
        status: m.status,
        errorCode: m.errorCode,
        errorMessage: m.errorMessage,
        errorKind: m.errorKind,
      });
    } catch (err) {
      // A message the carrier no longer knows keeps its status; the others are still refreshed.
      if (!(err instanceof CarrierError)) throw err;
      ctx.deps.log.warn({ err, messageId: row.id }, 'message status not refreshed');
    }
  }
  const after = await ctx.db
    .select()
    .from(messages)
    .where(
      and(
        scope(ctx, messages),
        inArray(
          messages.id,
          rows.map((r) => r.id),
        ),
      ),
    )
    .orderBy(asc(messages.id));
  return after.map(presentMessage);
}

/** When the event is, as the text says it, in the install's zone: "Sat, Jan 5, 2030, 9:00 AM EST". */
function whenText(start: Date, timeZone: string): string {
  const options: Intl.DateTimeFormatOptions = {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  };
  try {
    return new Intl.DateTimeFormat('en-US', { ...options, timeZone }).format(start);
  } catch {
    return new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' }).format(start);
  }
}

/**
 * POST /v1/chats/contacts/{id}/send-ics: stores a real .ics file and texts the contact a link to it
 * (a calendar file is not an image carriers deliver as MMS). Answers the file's URL.
 */
export async function sendIcs(ctx: Ctx, input: TSendIcsInput & { id: number }) {
  const { businessId } = businessOf(ctx);
  const contact = await visibleContact(ctx, input.id);
  const start = new Date(input.start);
  const end = new Date(input.end);
  const now = new Date();
  const content = icsOf({
    uid: `${businessId}-${contact.id}-${now.getTime()}@starttextingnow`,
    title: input.title,
    start,
    end,
    description: input.description,
    location: input.location,
    now,
  });
  const install = contact.install_id === null ? null : await installForCalls(ctx, contact.install_id);
  const timeZone = install?.settings.timezone ?? 'UTC';
  const path = await storeIcs(ctx.deps.storage, businessId, content);
  const url = `${ctx.deps.config.publicUrl.toString().replace(/\/+$/, '')}${path}`;
  const message = await sendMessage(ctx, {
    contactId: contact.id,
    body: translate('inbox.ics_text', 'en', { title: input.title, when: whenText(start, timeZone), url }),
  });
  return { ics_file: url, message };
}

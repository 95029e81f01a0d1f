// The website widget's side of a conversation (issue 11, ADR 041): a visitor's text typed into the widget
// enters the inbox exactly like an inbound SMS (a message `in` of the install's conversation, counted,
// `messageReceived` published after commit, so realtime, push and automations see it), and the visitor's
// page reads its own conversation with the install. Who may write is checked first: an opted-out, blocked
// or blacklisted phone is refused and nothing is stored.
import crypto from 'node:crypto';
import { messageCount } from '@stn/contracts/chats';
import type { TWidgetMessage } from '@stn/contracts/widget';
import { desc, eq, gt, gte, like, type SQL } from 'drizzle-orm';
import { anyOf } from '../../platform/db/any-of.ts';
import { publish } from '../../platform/events/events.ts';
import { AppError } from '../../platform/http/errors.ts';
import { businessOf, type Ctx, found, inTransaction, scope } from '../../platform/tenancy/context.ts';
import { isBlocked } from '../compliance/service.ts';
import {
  type ContactRow,
  contactByPhone,
  contactForSend,
  findOrCreateContactByPhone,
} from '../contacts/service.ts';
import { assertReachable, installTextNumber } from '../telephony/service.ts';
import { messageReceived } from './events.ts';
import type { MessageRow } from './messages.ts';
import { assertTextable } from './service.ts';
import { messages } from './tables.ts';
import { countIncoming } from './usage.ts';

/**
 * Inbound messages typed into the widget carry this prefix instead of a carrier's MessageSid, then the
 * widget conversation's thread (`widget:<thread>:<uuid>`), so the visitor's page can be shown its own.
 */
export const WIDGET_SID_PREFIX = 'widget:';

/** The columns a widget message is made of (and the listeners' install and contact). */
const widgetColumns = {
  id: messages.id,
  direction: messages.direction,
  body: messages.body,
  media: messages.media,
  status: messages.status,
  sent_at: messages.sent_at,
  install_id: messages.install_id,
  contact_id: messages.contact_id,
};
type WidgetRow = Pick<MessageRow, keyof typeof widgetColumns>;

export function toWidgetMessage(row: WidgetRow): TWidgetMessage {
  return {
    id: row.id,
    direction: row.direction,
    body: row.body,
    media: row.media.map((m) => m.url),
    status: row.status,
    created_at: row.sent_at.toISOString(),
  };
}

const refuse = (key: string) => new AppError('VALIDATION', key, undefined, {}, key);

/** The same rule as a send: an opted-out, blocked or blacklisted number may not start or go on. */
async function assertWritable(ctx: Ctx, phone: string, contact: ContactRow | undefined): Promise<void> {
  if (contact) return assertTextable(ctx, contact);
  if (await isBlocked(ctx, phone)) throw refuse('messages.blacklisted');
}

/**
 * Whether a visitor with this phone may text the install now, without writing anything: the number is
 * reachable (ADR 041), not refused, and the install has a number that texts. Answers the existing contact, if any.
 */
export async function checkWidgetText(
  ctx: Ctx,
  input: { installId: number; phone: string },
): Promise<{ contact: ContactRow | undefined; from: string }> {
  // The conversation goes on by SMS to this phone: not to premium-rate numbers or countries not allowed.
  await assertReachable(ctx, input.phone, 'text');
  const contact = await contactByPhone(ctx, input.phone);
  await assertWritable(ctx, input.phone, contact);
  const from = await installTextNumber(ctx, input.installId);
  if (!from) throw refuse('messages.no_number');
  return { contact, from };
}

/**
 * Records a visitor's text from the widget as an inbound message of the install's conversation: the
 * contact is found or created by phone (and moved to this install), the message counted like an inbound
 * SMS and announced by `messageReceived` after commit. The caller has checked it with `checkWidgetText`,
 * whose answer `from` (the install's texting number) it passes.
 */
export async function receiveWidgetText(
  ctx: Ctx,
  input: { installId: number; phone: string; body: string; from: string; thread?: string | null },
): Promise<{ contact: ContactRow; created: boolean; message: TWidgetMessage }> {
  const { agencyId, businessId } = businessOf(ctx);
  const installNumber = input.from;
  const now = new Date();
  return inTransaction(ctx, async (tx) => {
    const { contact, created } = await findOrCreateContactByPhone(tx, {
      phone: input.phone,
      installId: input.installId,
      source: 'sms',
      lastMessageAt: now,
    });
    const [row] = await tx.db
      .insert(messages)
      .values({
        agency_id: agencyId,
        business_id: businessId,
        contact_id: contact.id,
        install_id: input.installId,
        direction: 'in',
        body: input.body,
        status: 'received',
        carrier_sid: `${WIDGET_SID_PREFIX}${input.thread ? `${input.thread}:` : ''}${crypto.randomUUID()}`,
        from_number: input.phone,
        to_number: installNumber,
        segments: messageCount('in', input.body, 0),
        sent_at: now,
      })
      .returning();
    const message = found(row);
    tx.afterCommit(() => countIncoming(tx, { count: message.segments }));
    publish(tx, messageReceived, {
      messageId: message.id,
      agencyId,
      businessId,
      contactId: contact.id,
      installId: input.installId,
      newContact: created,
      keyword: null,
      body: input.body,
    });
    return { contact, created, message: toWidgetMessage(message) };
  });
}

/** A visitor writes again (their token names the contact): the same checks and path as the first text. */
export async function replyFromWidget(
  ctx: Ctx,
  input: { installId: number; contactId: number; body: string; thread?: string | null },
): Promise<TWidgetMessage> {
  const contact = await contactForSend(ctx, input.contactId);
  const { from } = await checkWidgetText(ctx, { installId: input.installId, phone: contact.phone });
  return (
    await receiveWidgetText(ctx, {
      installId: input.installId,
      phone: contact.phone,
      body: input.body,
      from,
      thread: input.thread ?? null,
    })
  ).message;
}

/** The tenant's messages with the contact that also meet `where`. */
const contactMessages = (ctx: Ctx, contactId: number, ...where: (SQL | undefined)[]) =>
  scope(ctx, messages, eq(messages.contact_id, contactId), ...where);

/**
 * The contact's latest `limit` messages with this install from `since` on (the visitor's first text),
 * oldest first; scheduled ones are not shown. With `thread`, only what was typed into that widget
 * conversation (the visitor's own texts, before the phone is proven).
 */
export async function widgetConversation(
  ctx: Ctx,
  input: { installId: number; contactId: number; since: Date; limit: number; thread?: string },
): Promise<TWidgetMessage[]> {
  const rows = await ctx.db
    .select()
    .from(messages)
    .where(
      contactMessages(
        ctx,
        input.contactId,
        eq(messages.install_id, input.installId),
        gte(messages.sent_at, input.since),
        // The thread is 16 hex digits (the token checks it): nothing in it is a LIKE wildcard.
        input.thread ? like(messages.carrier_sid, `${WIDGET_SID_PREFIX}${input.thread}:%`) : undefined,
      ),
    )
    .orderBy(desc(messages.sent_at), desc(messages.id))
    .limit(input.limit);
  return rows
    .filter((r) => r.status !== 'scheduled' && r.status !== 'canceled')
    .reverse()
    .map(toWidgetMessage);
}

/** Whether a message went that way between the business and the contact after `since` (its stored time). */
async function messagedSince(
  ctx: Ctx,
  contactId: number,
  direction: 'in' | 'out',
  since: Date,
): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: messages.id })
    .from(messages)
    .where(contactMessages(ctx, contactId, eq(messages.direction, direction), gt(messages.created_at, since)))
    .limit(1);
  return row !== undefined;
}

/** Whether the business wrote to the contact since `since` (the widget's confirmation is sent once). */
export function wroteToContactSince(ctx: Ctx, input: { contactId: number; since: Date }): Promise<boolean> {
  return messagedSince(ctx, input.contactId, 'out', input.since);
}

/** Whether the contact wrote to the business since `since` (an automation's "replied" condition). */
export function contactWroteSince(ctx: Ctx, input: { contactId: number; since: Date }): Promise<boolean> {
  return messagedSince(ctx, input.contactId, 'in', input.since);
}

/** A message of the context business by id for the widget's stream (the listener names it from an event). */
/** `widgetMessageById` of many messages in one read (those not found or scheduled are left out). */
export async function widgetMessagesByIds(
  ctx: Ctx,
  input: { ids: number[] },
): Promise<{ id: number; message: TWidgetMessage; installId: number | null; contactId: number }[]> {
  if (input.ids.length === 0) return [];
  const rows = await ctx.db
    .select(widgetColumns)
    .from(messages)
    .where(scope(ctx, messages, anyOf(messages.id, input.ids)));
  const byId = new Map(rows.filter((r) => r.status !== 'scheduled').map((r) => [r.id, r]));
  return input.ids.flatMap((id) => {
    const row = byId.get(id);
    return row
      ? [{ id, message: toWidgetMessage(row), installId: row.install_id, contactId: row.contact_id }]
      : [];
  });
}

export async function widgetMessageById(
  ctx: Ctx,
  input: { id: number },
): Promise<{ message: TWidgetMessage; installId: number | null; contactId: number } | null> {
  const [row] = await ctx.db
    .select(widgetColumns)
    .from(messages)
    .where(scope(ctx, messages, eq(messages.id, input.id)));
  if (!row || row.status === 'scheduled') return null;
  return { message: toWidgetMessage(row), installId: row.install_id, contactId: row.contact_id };
}

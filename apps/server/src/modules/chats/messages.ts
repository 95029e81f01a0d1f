// The carrier's side of texting: an inbound text (one message per MessageSid, however often the carrier
// delivers it; STOP/START/HELP keywords), and outgoing messages' status callbacks (forward only; a final
// state is never undone; error 21610 opts the contact out). Called by webhooks.ts, which has checked the
// carrier's signature; each finds its tenant from our own rows.
import {
  HELP_KEYWORDS,
  messageCount,
  START_KEYWORDS,
  STOP_KEYWORDS,
  type TMessage,
  type TMessageStatus,
} from '@stn/contracts/chats';
import { and, eq, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import { publish } from '../../platform/events/events.ts';
import { type Ctx, inTransaction, tenantContext } from '../../platform/tenancy/context.ts';
import { agencyMessaging } from '../agencies/service.ts';
import { businessName } from '../businesses/service.ts';
import { isBlocked } from '../compliance/service.ts';
import { findOrCreateContactByPhone, setOptOut } from '../contacts/service.ts';
import { carrierAccountOf, numberTexted } from '../telephony/service.ts';
import { messageReceived, messageStatusChanged } from './events.ts';
import { fetchIncomingMedia } from './media.ts';
import { messages } from './tables.ts';
import { countIncoming } from './usage.ts';

export type MessageRow = typeof messages.$inferSelect;

export function toMessage(row: MessageRow): TMessage {
  return {
    id: row.id,
    contact_id: row.contact_id,
    install_id: row.install_id,
    direction: row.direction,
    body: row.body,
    media: row.media,
    status: row.status as TMessageStatus,
    error_code: row.error_code,
    error_message: row.error_message,
    from_number: row.from_number,
    to_number: row.to_number,
    segments: row.segments,
    sent_at: row.sent_at.toISOString(),
    send_at: row.send_at?.toISOString() ?? null,
    user_id: row.user_id,
    created_at: row.created_at.toISOString(),
  };
}

export type Keyword = 'stop' | 'start' | 'help';

export function keywordOf(body: string): Keyword | null {
  const word = body
    .trim()
    .replace(/[.!]+$/, '')
    .toUpperCase();
  if (STOP_KEYWORDS.includes(word)) return 'stop';
  if (START_KEYWORDS.includes(word)) return 'start';
  if (HELP_KEYWORDS.includes(word)) return 'help';
  return null;
}

export type InboundText = {
  messageSid: string;
  accountSid: string;
  from: string;
  to: string;
  body: string;
  media: { url: string; contentType: string }[];
  /** The carrier's time of the message, when it gave one. */
  sentAt: Date | null;
};

/** What the webhook does after recording: the keyword's auto-reply is sent by the caller (service.ts). */
export type InboundResult =
  | { kind: 'ignored' }
  | { kind: 'duplicate' }
  | { kind: 'recorded'; ctx: Ctx; contactId: number; installId: number | null; keyword: Keyword | null };

/** Records an inbound text once; a redelivery of the same MessageSid changes nothing. */
export async function receiveInbound(deps: Deps, text: InboundText): Promise<InboundResult> {
  if (!text.messageSid || !text.from || !text.to) return { kind: 'ignored' };
  const number = await numberOf(deps, text.to, text.accountSid);
  if (!number) return { kind: 'ignored' };
  const ctx = tenantContext(
    deps,
    { level: 'business', agencyId: number.agencyId, businessId: number.businessId },
    { kind: 'system', source: 'carrier', name: 'inbound text' },
  );
  // A retry of an MMS already stored answers at once, before fetching its media again (a plain text's
  // retry is caught by the insert below).
  if (text.media.length) {
    const [known] = await deps.db
      .select({ id: messages.id })
      .from(messages)
      .where(eq(messages.carrier_sid, text.messageSid));
    if (known) return { kind: 'duplicate' };
  }
  // Blacklisted numbers (not whitelisted) are not let into the inbox, as they cannot request calls.
  if (await isBlocked(ctx, text.from)) return { kind: 'ignored' };
  const media = text.media.length
    ? await fetchIncomingMedia(
        ctx,
        number.businessId,
        text.media,
        await carrierAccountOf(deps, number.agencyId),
      )
    : [];
  const keyword = keywordOf(text.body);
  const sentAt = text.sentAt ?? new Date();
  return inTransaction(ctx, async (tx) => {
    const { contact, created } = await findOrCreateContactByPhone(tx, {
      phone: text.from,
      installId: number.installId,
      source: 'sms',
      lastMessageAt: sentAt,
    });
    const [row] = await tx.db
      .insert(messages)
      .values({
        agency_id: number.agencyId,
        business_id: number.businessId,
        contact_id: contact.id,
        install_id: number.installId,
        direction: 'in',
        body: text.body,
        media,
        status: 'received',
        carrier_sid: text.messageSid,
        from_number: text.from,
        to_number: text.to,
        segments: messageCount('in', text.body, media.length),
        sent_at: sentAt,
      })
      .onConflictDoNothing({ target: messages.carrier_sid })
      .returning({ id: messages.id, segments: messages.segments });
    // A redelivery: the transaction rolls back (the contact's touch with it).
    if (!row) throw DUPLICATE;
    if (keyword === 'stop') await setOptOut(tx, { contactId: contact.id, optedOut: true });
    if (keyword === 'start') await setOptOut(tx, { contactId: contact.id, optedOut: false });
    tx.afterCommit(() =>
      countIncoming(deps, { agencyId: number.agencyId, businessId: number.businessId, count: row.segments }),
    );
    publish(tx, messageReceived, {
      messageId: row.id,
      agencyId: number.agencyId,
      businessId: number.businessId,
      contactId: contact.id,
      installId: number.installId,
      newContact: created,
      keyword,
    });
    return { kind: 'recorded', ctx, contactId: contact.id, installId: number.installId, keyword } as const;
  }).catch((err: unknown) => {
    if (err === DUPLICATE) return { kind: 'duplicate' } as const;
    throw err;
  });
}

const DUPLICATE = new Error('duplicate delivery');

/**
 * The number texted, cached a few seconds per process (every inbound text asks; a number bought,
 * moved or released is seen within NUMBER_TTL_MS).
 */
const NUMBER_TTL_MS = 5_000;
type Texted = Awaited<ReturnType<typeof numberTexted>>;
const numberCache = new WeakMap<Deps, Map<string, { at: number; value: Texted }>>();
async function numberOf(deps: Deps, to: string, accountSid: string): Promise<Texted> {
  let cache = numberCache.get(deps);
  if (!cache) {
    cache = new Map();
    numberCache.set(deps, cache);
  }
  const key = `${accountSid}:${to}`;
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < NUMBER_TTL_MS) return hit.value;
  const value = await numberTexted(deps, { to, accountSid });
  if (cache.size > 10_000) cache.clear();
  cache.set(key, { at: Date.now(), value });
  return value;
}

/** The auto-reply to a keyword (en: a contact has no language), per the carriers' rules (CTIA). */
export async function keywordReply(ctx: Ctx, keyword: Keyword): Promise<string> {
  const name = (await businessName(ctx)) || 'us';
  if (keyword === 'stop')
    return `You have been unsubscribed from ${name} messages and will not receive any more. Reply START to resubscribe.`;
  if (keyword === 'start')
    return `You have been resubscribed to ${name} messages. Msg frequency varies. Msg & data rates may apply. Reply HELP for help, STOP to cancel.`;
  const agency =
    ctx.tenant.level === 'platform' ? null : await agencyMessaging(ctx, { id: ctx.tenant.agencyId });
  const support = agency?.supportEmail ? ` Support: ${agency.supportEmail}.` : '';
  return `${name}:${support} Msg frequency varies. Msg & data rates may apply. Reply STOP to cancel.`;
}

// ---------------------------------------------------------------- status callbacks

/** Outgoing statuses in their order; the last three are final. */
const RANK: Record<string, number> = {
  accepted: 1,
  queued: 1,
  sending: 2,
  sent: 3,
  delivered: 4,
  undelivered: 4,
  failed: 4,
};
const FINAL = ['delivered', 'undelivered', 'failed'];
const rankSql = sql`(case ${messages.status} when 'queued' then 1 when 'sending' then 2 when 'sent' then 3 when 'delivered' then 4 when 'undelivered' then 4 when 'failed' then 4 else 0 end)`;

export const OPTED_OUT_AT_CARRIER = 21610;

export type StatusCallback = {
  messageId: number | null;
  messageSid: string;
  accountSid: string;
  status: string;
  errorCode: number | null;
  errorMessage: string | null;
};

/**
 * Applies a status callback: only forward (queued < sending < sent < final), a final state never changes,
 * a callback for another account's message changes nothing. Error 21610 (the recipient replied STOP to
 * the carrier) opts the contact out of the business.
 */
export async function applyMessageStatus(deps: Deps, cb: StatusCallback): Promise<void> {
  const rank = RANK[cb.status];
  if (!rank || !cb.messageSid) return;
  const status = cb.status === 'accepted' ? 'queued' : cb.status;
  const [row] = await deps.db
    .select()
    .from(messages)
    .where(cb.messageId !== null ? eq(messages.id, cb.messageId) : eq(messages.carrier_sid, cb.messageSid));
  if (row?.direction !== 'out') return;
  if (row.carrier_sid && row.carrier_sid !== cb.messageSid) return;
  const account = await carrierAccountOf(deps, row.agency_id);
  if (!account || account.accountSid !== cb.accountSid) return;
  const ctx = tenantContext(
    deps,
    { level: 'business', agencyId: row.agency_id, businessId: row.business_id },
    { kind: 'system', source: 'carrier', name: 'message status' },
  );
  await inTransaction(ctx, async (tx) => {
    const [after] = await tx.db
      .update(messages)
      .set({
        status,
        carrier_sid: cb.messageSid,
        ...(cb.errorCode !== null ? { error_code: cb.errorCode, error_message: cb.errorMessage } : {}),
        updated_at: new Date(),
      })
      .where(
        and(
          eq(messages.id, row.id),
          sql`${messages.status} not in ('delivered', 'undelivered', 'failed', 'canceled', 'refused', 'scheduled')`,
          sql`${rankSql} < ${rank}`,
        ),
      )
      .returning();
    if (!after) return;
    if (cb.errorCode === OPTED_OUT_AT_CARRIER)
      await setOptOut(tx, { contactId: row.contact_id, optedOut: true });
    publish(tx, messageStatusChanged, {
      messageId: row.id,
      agencyId: row.agency_id,
      businessId: row.business_id,
      contactId: row.contact_id,
      status,
      errorCode: after.error_code,
    });
  });
}

export const isFinalStatus = (status: string) => FINAL.includes(status);

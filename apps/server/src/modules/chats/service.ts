// The chats module's public functions: sending a text (compliance enforced here for every send, whoever
// asks: the inbox, a template, a schedule, an automation), scheduling, cancelling and resending, and a
// conversation's messages. The carrier's side (inbound, status callbacks) is in messages.ts.
import {
  messageCount,
  RESTRICTED_CONTENT_REASON,
  type TMessage,
  type TMessageMedia,
} from '@stn/contracts/chats';
import { and, asc, count, eq, gte, isNull, lt } from 'drizzle-orm';
import { z } from 'zod';
import { CarrierError, type CarrierMessage } from '../../platform/carrier/carrier.ts';
import { anyOf } from '../../platform/db/any-of.ts';
import { publish } from '../../platform/events/events.ts';
import { AppError } from '../../platform/http/errors.ts';
import { defineJob, enqueue } from '../../platform/queue/queue.ts';
import {
  businessOf,
  type Ctx,
  found,
  inTransaction,
  platformOnly,
  platformSystemContext,
  scope,
  tenantContext,
} from '../../platform/tenancy/context.ts';
import { agencyMessaging } from '../agencies/service.ts';
import { countMessages } from '../businesses/service.ts';
import { assertReachable, isBlocked, reachRule } from '../compliance/service.ts';
import {
  type ContactRow,
  contactByPhone,
  contactForSend,
  contactsByIds,
  setOptOut,
  touchLastMessage,
} from '../contacts/service.ts';
import { carrierFor, installTextNumber, TWILIO_PATHS } from '../telephony/service.ts';
import { addMedia } from '../templates/service.ts';
import { audienceOf, unreadTotalOf } from './audience.ts';
import { checkContent } from './compliance.ts';
import { messageSent, messageStatusChanged } from './events.ts';
import { storeOutgoingImage } from './media.ts';
import { type MessageRow, toMessage } from './messages.ts';
import { messages } from './tables.ts';

export {
  addBroadcastTexts,
  type BroadcastText,
  broadcastTextBodies,
  broadcastTextFacts,
  broadcastTextStatuses,
  broadcastTextsSent,
} from './bulk.ts';
export { visibleContact } from './inbox.ts';
export { announceConversationLead } from './leads.ts';
export { toMessage } from './messages.ts';
export { splitName } from './names.ts';

const SCHEDULE_MAX_MS = 365 * 86_400_000;

export type SendInput = {
  contactId: number;
  body: string;
  /**
   * Data URLs of images, URLs of our own stored message media (/uploads/...), or media already stored
   * (the media library's, checked by the templates module).
   */
  media?: (string | TMessageMedia)[] | undefined;
  /** The template the body came from; the body is its text already filled in (ADR 039). */
  templateId?: number | undefined;
  sendAt?: Date | undefined;
};

/** Whether this text went to the contact since `since` (the away reply's once-in-hours rule, ADR 094). */
export async function sentSince(ctx: Ctx, input: { contactId: number; body: string; since: Date }) {
  const [row] = await ctx.db
    .select({ id: messages.id })
    .from(messages)
    .where(
      scope(
        ctx,
        messages,
        and(
          eq(messages.contact_id, input.contactId),
          eq(messages.direction, 'out'),
          eq(messages.body, input.body),
          gte(messages.created_at, input.since),
        ),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Thrown inside a send's transaction (undoing its count) when the text went already: see `sendOnce`. */
class SentAlready extends Error {}

const refuse = (key: string, reason = key) => new AppError('VALIDATION', key, undefined, {}, reason);

/**
 * The monthly text limit's refusal names the agency's support address (its own e-mail when it set none),
 * as the usage banner does; with no address at all it says to contact the agency.
 */
async function limitReached(ctx: Ctx): Promise<AppError> {
  const agency =
    ctx.tenant.level === 'platform' ? null : await agencyMessaging(ctx, { id: ctx.tenant.agencyId });
  const reason = 'messages.limit_reached';
  return agency?.supportEmail
    ? new AppError('VALIDATION', reason, undefined, { email: agency.supportEmail }, reason)
    : new AppError('VALIDATION', 'messages.limit_reached_no_email', undefined, {}, reason);
}

/**
 * Whether this contact may be texted by the business at all: opted out (STOP, 21610), blocked, or on a
 * blacklist without a whitelist entry. Throws the 422 that says which.
 */
export async function assertTextable(ctx: Ctx, contact: ContactRow): Promise<void> {
  if (contact.opted_out_at) throw refuse('messages.opted_out');
  if (contact.blocked_at) throw refuse('messages.blocked');
  if (await isBlocked(ctx, contact.phone)) throw refuse('messages.blacklisted');
  // No text to a premium-rate, shared-cost or not-allowed foreign number, whoever asks (ADR 051).
  await assertReachable(ctx, contact.phone, 'text');
}

/** Refuses (422, restricted content) a text with SHAFT content, or profanity where the agency checks it. */
export async function assertContent(ctx: Ctx, body: string): Promise<void> {
  const { agencyId } = businessOf(ctx);
  const agency = await agencyMessaging(ctx, { id: agencyId });
  const check = checkContent(body, { profanity: agency?.profanityEnabled ?? false });
  if (!check.ok)
    throw new AppError(
      'VALIDATION',
      'messages.restricted_content',
      undefined,
      {},
      RESTRICTED_CONTENT_REASON,
      {
        preview: check.preview,
        categories: check.categories,
        marks: check.marks,
      },
    );
}

function publicBase(ctx: Ctx): string {
  return ctx.deps.config.publicUrl.toString().replace(/\/+$/, '');
}

/** The message's media; `fresh` are the images uploaded with it (they join the media library). */
async function mediaOf(ctx: Ctx, businessId: number, media: (string | TMessageMedia)[]) {
  const out: TMessageMedia[] = [];
  const fresh: TMessageMedia[] = [];
  for (const m of media) {
    if (typeof m !== 'string') out.push(m);
    else if (m.startsWith('data:')) {
      const stored = await storeOutgoingImage(ctx, businessId, m);
      out.push(stored);
      fresh.push(stored);
    } else if (m.startsWith(`/uploads/messages/${businessId}/`) && !m.includes('..'))
      out.push({ url: m, content_type: 'image', size: 0, name: m.split('/').pop() ?? 'image' });
    else throw new AppError('VALIDATION', undefined, { media: 'messages.media_invalid' });
  }
  return { media: out, fresh };
}

/** Images an agent uploaded with a message join the business's media library, tied to the contact. */
async function addToLibrary(tx: Ctx, fresh: TMessageMedia[], row: MessageRow): Promise<void> {
  for (const m of fresh)
    await addMedia(tx, {
      url: m.url,
      mime: m.content_type,
      size: m.size,
      name: m.name,
      source: 'message',
      contactId: row.contact_id,
      messageId: row.id,
      uploadedBy: row.user_id,
    });
}

/**
 * Sends a text to a contact from its install's number (purchased, else landline), or schedules it
 * (`sendAt`). Every check runs first and a refused send sends and stores nothing: opted out, blocked,
 * blacklisted, restricted content, no number, the monthly limit.
 */
export function sendMessage(ctx: Ctx, input: SendInput): Promise<TMessage> {
  return send(ctx, input, null) as Promise<TMessage>;
}

/**
 * `sendMessage`, unless the same text went to the contact since `since`: then nothing is sent and the answer
 * is null. Decided under the contact's row lock, in the transaction that stores the text, so two processes
 * deciding at once for one contact send it once (the away reply, ADR 094 and 128).
 */
export async function sendOnce(ctx: Ctx, input: SendInput, since: Date): Promise<TMessage | null> {
  try {
    return await send(ctx, { ...input, sendAt: undefined }, since);
  } catch (err) {
    if (err instanceof SentAlready) return null;
    throw err;
  }
}

async function send(ctx: Ctx, input: SendInput, onceSince: Date | null): Promise<TMessage | null> {
  const { agencyId, businessId } = businessOf(ctx);
  const body = input.body.trim();
  if (!body && !input.media?.length) throw new AppError('VALIDATION', undefined, { body: 'messages.empty' });
  if (
    input.sendAt &&
    (input.sendAt.getTime() <= Date.now() || input.sendAt.getTime() > Date.now() + SCHEDULE_MAX_MS)
  )
    throw new AppError('VALIDATION', undefined, { send_at: 'messages.schedule_time' });
  const contact = await contactForSend(ctx, input.contactId);
  await assertTextable(ctx, contact);
  if (body) await assertContent(ctx, body);
  if (contact.install_id === null) throw refuse('messages.no_sms');
  const from = await installTextNumber(ctx, contact.install_id);
  if (!from) throw refuse('messages.no_number');
  const { media, fresh } = await mediaOf(ctx, businessId, input.media ?? []);
  const segments = messageCount('out', body, media.length);
  const userId = ctx.by.kind === 'user' ? ctx.by.actor.userId : null;
  const values = {
    agency_id: agencyId,
    business_id: businessId,
    contact_id: contact.id,
    install_id: contact.install_id,
    direction: 'out' as const,
    body,
    media,
    from_number: from,
    to_number: contact.phone,
    segments,
    user_id: userId,
  };
  if (input.sendAt) {
    const sendAt = input.sendAt;
    const row = await inTransaction(ctx, async (tx) => {
      const [created] = await tx.db
        .insert(messages)
        .values({ ...values, status: 'scheduled', send_at: sendAt, sent_at: sendAt })
        .returning();
      const r = found(created);
      await addToLibrary(tx, fresh, r);
      await enqueue(
        tx,
        scheduledMessageJob,
        { agencyId, businessId, messageId: r.id },
        { startAfter: sendAt },
      );
      return r;
    });
    return toMessage(row);
  }
  const row = await inTransaction(ctx, async (tx) => {
    if (!(await countMessages(tx, { count: segments, enforce: true }))) throw await limitReached(tx);
    // The contact's row is locked from here to the commit: a `sendOnce` of the same text deciding at the same
    // moment (in another process) waits, then sees this one.
    await touchLastMessage(tx, contact.id, new Date());
    if (onceSince && (await sentSince(tx, { contactId: contact.id, body, since: onceSince })))
      throw new SentAlready();
    const [created] = await tx.db
      .insert(messages)
      .values({ ...values, status: 'queued' })
      .returning();
    const r = found(created);
    await addToLibrary(tx, fresh, r);
    announceSent(tx, r);
    return r;
  });
  return toMessage(await dispatch(ctx, row));
}

/** A text of the business is stored and on its way: `messageSent` after the commit. */
function announceSent(tx: Ctx, row: MessageRow): void {
  publish(tx, messageSent, {
    messageId: row.id,
    agencyId: row.agency_id,
    businessId: row.business_id,
    contactId: row.contact_id,
    installId: row.install_id,
  });
}

/** Hands a stored, counted message to the carrier; a refusal marks it failed (opted out at the carrier: the contact too). */
async function dispatch(ctx: Ctx, row: MessageRow): Promise<MessageRow> {
  const base = publicBase(ctx);
  try {
    const carrier = await carrierFor(ctx);
    const sent = await carrier.createMessage({
      to: row.to_number,
      from: row.from_number,
      body: row.body,
      statusCallback: `${base}/webhooks${TWILIO_PATHS.smsStatus}?message=${row.id}`,
      ...(row.media.length
        ? { mediaUrl: row.media.map((m) => ctx.deps.storage.absoluteUrl(m.url, base)) }
        : {}),
    });
    const [after] = await ctx.db
      .update(messages)
      .set({ carrier_sid: sent.sid, updated_at: new Date() })
      .where(eq(messages.id, row.id))
      .returning();
    return after ?? row;
  } catch (err) {
    const code = err instanceof CarrierError ? err.code : null;
    const optedOut = err instanceof CarrierError && err.kind === 'opted-out';
    const text = err instanceof Error ? err.message.slice(0, 500) : 'carrier error';
    ctx.deps.log.warn({ err, messageId: row.id }, 'text not sent');
    const after = await inTransaction(ctx, async (tx) => {
      const [failed] = await tx.db
        .update(messages)
        .set({ status: 'failed', error_code: code, error_message: text, updated_at: new Date() })
        .where(eq(messages.id, row.id))
        .returning();
      if (optedOut) await setOptOut(tx, { contactId: row.contact_id, optedOut: true });
      publish(tx, messageStatusChanged, {
        messageId: row.id,
        agencyId: row.agency_id,
        businessId: row.business_id,
        contactId: row.contact_id,
        status: 'failed',
        errorCode: code,
      });
      return failed;
    });
    if (optedOut) throw refuse('messages.opted_out');
    if (!after) throw err;
    throw refuse('messages.carrier_failed');
  }
}

/**
 * A scheduled message at its time: the same checks as a send now (the contact may have opted out since);
 * a refused one is marked refused with the reason's key in error_message.
 */
export async function runScheduledMessage(ctx: Ctx, messageId: number): Promise<void> {
  const claimed = await inTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .select()
      .from(messages)
      .where(scope(tx, messages, eq(messages.id, messageId), eq(messages.status, 'scheduled')))
      .for('update');
    if (!row) return null;
    try {
      const contact = await contactForSend(tx, row.contact_id);
      await assertTextable(tx, contact);
      if (row.body) await assertContent(tx, row.body);
      if (!(await countMessages(tx, { count: row.segments, enforce: true }))) throw await limitReached(tx);
    } catch (err) {
      const reason = err instanceof AppError ? (err.reason ?? err.message) : 'messages.carrier_failed';
      await tx.db
        .update(messages)
        .set({ status: 'refused', error_message: reason, updated_at: new Date() })
        .where(eq(messages.id, row.id));
      return null;
    }
    const now = new Date();
    const [queued] = await tx.db
      .update(messages)
      .set({ status: 'queued', sent_at: now, updated_at: now })
      .where(eq(messages.id, row.id))
      .returning();
    await touchLastMessage(tx, row.contact_id, now);
    if (queued) announceSent(tx, queued);
    return queued ?? null;
  });
  if (claimed) await dispatch(ctx, claimed).catch(() => undefined);
}

export const scheduledMessageJob = defineJob({
  name: 'chats.scheduled-message',
  payload: z.object({ agencyId: z.number(), businessId: z.number(), messageId: z.number() }),
  retry: { limit: 2, delaySeconds: 30, backoff: false },
  handler: async (deps, p) => {
    const ctx = tenantContext(
      deps,
      { level: 'business', agencyId: p.agencyId, businessId: p.businessId },
      { kind: 'system', source: 'job', name: 'scheduled message' },
    );
    await runScheduledMessage(ctx, p.messageId);
  },
});

/** Cancels a scheduled message (404 for another tenant's; 422 once it has gone). */
export async function cancelScheduledMessage(ctx: Ctx, input: { id: number }): Promise<TMessage> {
  const [row] = await ctx.db
    .select()
    .from(messages)
    .where(scope(ctx, messages, eq(messages.id, input.id)));
  found(row);
  const [after] = await ctx.db
    .update(messages)
    .set({ status: 'canceled', updated_at: new Date() })
    .where(scope(ctx, messages, eq(messages.id, input.id), eq(messages.status, 'scheduled')))
    .returning();
  if (!after) throw refuse('messages.not_scheduled');
  return toMessage(after);
}

/** How far before a failed text was written the carrier's texts are looked at (the clocks may differ). */
const LOOKUP_MARGIN_MS = 60_000;

/**
 * A text of ours without a carrier id may have reached the carrier all the same (marked failed after a 5xx
 * or no answer, or left queued by a process that died, ADR 128): the carrier's text of the same body from
 * the number to the contact since it was written, that no message of ours holds, or null. Throws when the
 * carrier cannot be asked.
 */
async function takenAfterAll(ctx: Ctx, old: MessageRow): Promise<CarrierMessage | null> {
  const carrier = await carrierFor(ctx);
  const sentAfter = new Date(new Date(old.sent_at).getTime() - LOOKUP_MARGIN_MS);
  const listed = (await carrier.listMessages({ to: old.to_number, from: old.from_number, sentAfter })).filter(
    (m) => m.body === old.body,
  );
  if (listed.length === 0) return null;
  const known = await ctx.db
    .select({ sid: messages.carrier_sid })
    .from(messages)
    .where(
      scope(
        ctx,
        messages,
        anyOf(
          messages.carrier_sid,
          listed.map((m) => m.sid),
        ),
      ),
    );
  const held = new Set(known.map((k) => k.sid));
  return listed.find((m) => !held.has(m.sid)) ?? null;
}

/**
 * The text (still `from`: failed or queued, with no carrier id) settled as `to` says (the carrier's id and
 * status, or failed with a reason), with the news of its status.
 */
async function settleText(
  ctx: Ctx,
  old: MessageRow,
  from: 'failed' | 'queued',
  to: { status: string; carrier_sid: string | null; error_message: string | null },
): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const [after] = await tx.db
      .update(messages)
      .set({ ...to, error_code: null, updated_at: new Date() })
      .where(
        scope(tx, messages, eq(messages.id, old.id), eq(messages.status, from), isNull(messages.carrier_sid)),
      )
      .returning();
    if (after)
      publish(tx, messageStatusChanged, {
        messageId: old.id,
        agencyId: old.agency_id,
        businessId: old.business_id,
        contactId: old.contact_id,
        status: to.status,
        errorCode: null,
      });
  });
}

/** What a text the carrier has after all takes: its id and status. */
const takenAs = (taken: CarrierMessage) => ({
  status: taken.status === 'accepted' ? 'queued' : taken.status,
  carrier_sid: taken.sid,
  error_message: null,
});

/**
 * Sends a failed (or refused) outgoing message again, as a new message with every check. A failed one the
 * carrier has after all is not sent again: it takes the carrier's id and status, and the answer says so.
 */
export async function resendMessage(ctx: Ctx, input: { id: number }): Promise<TMessage> {
  const [row] = await ctx.db
    .select()
    .from(messages)
    .where(scope(ctx, messages, eq(messages.id, input.id)));
  const old = found(row);
  if (old.direction !== 'out' || !['failed', 'undelivered', 'refused'].includes(old.status))
    throw refuse('messages.not_failed');
  if (old.status === 'failed' && old.carrier_sid === null) {
    const taken = await takenAfterAll(ctx, old).catch((err: unknown) => {
      // Unknown: the person asked to send it again.
      ctx.deps.log.warn({ err, messageId: old.id }, 'a failed text could not be looked up at the carrier');
      return null;
    });
    if (taken) {
      await settleText(ctx, old, 'failed', takenAs(taken));
      throw refuse('messages.sent_after_all');
    }
  }
  return sendMessage(ctx, {
    contactId: old.contact_id,
    body: old.body,
    // Already stored (an upload, a library image): sent again as they are.
    media: old.media,
  });
}

/** How long a text may stay stored but not handed to the carrier before the sweep settles it. */
export const UNHANDED_MS = 10 * 60_000;

/**
 * Texts a dead process left stored but not handed to the carrier (queued, no carrier id, unchanged for
 * UNHANDED_MS; a text the carrier took gets its id from its status callbacks, and a broadcast's are its
 * engine's): the carrier is asked, and has it (its id and status) or not (failed, with
 * `messages.not_handed_over`, for the person to send again). One the carrier cannot be asked about waits
 * for the next sweep. Answers how many were settled.
 */
export async function settleUnhandedTexts(ctx: Ctx): Promise<number> {
  platformOnly(ctx);
  const rows = await ctx.db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.status, 'queued'),
        isNull(messages.carrier_sid),
        eq(messages.direction, 'out'),
        isNull(messages.broadcast_id),
        lt(messages.updated_at, new Date(Date.now() - UNHANDED_MS)),
      ),
    )
    .orderBy(asc(messages.updated_at))
    .limit(100);
  let settled = 0;
  for (const row of rows) {
    const bctx = tenantContext(
      ctx.deps,
      { level: 'business', agencyId: row.agency_id, businessId: row.business_id },
      { kind: 'system', source: 'job', name: 'unhanded texts' },
    );
    let taken: CarrierMessage | null;
    try {
      taken = await takenAfterAll(bctx, row);
    } catch (err) {
      ctx.deps.log.warn({ err, messageId: row.id }, 'an unhanded text could not be looked up at the carrier');
      continue;
    }
    await settleText(
      bctx,
      row,
      'queued',
      taken
        ? takenAs(taken)
        : { status: 'failed', carrier_sid: null, error_message: 'messages.not_handed_over' },
    );
    settled++;
  }
  return settled;
}

/** Every five minutes: the texts a dead process left stored but not handed to the carrier. */
export const unhandedTextsJob = defineJob({
  name: 'chats.unhanded-texts',
  payload: z.object({}).passthrough(),
  // A failed sweep is not retried: the next one, five minutes later, does its work.
  retry: { limit: 0, delaySeconds: 60, backoff: false },
  cron: '*/5 * * * *',
  handler: async (deps) => {
    await settleUnhandedTexts(platformSystemContext(deps, 'job', 'unhanded texts'));
  },
});

/** The conversation's messages in the carrier's order (oldest first). */
export async function conversationMessages(ctx: Ctx, input: { contactId: number }): Promise<TMessage[]> {
  await contactForSend(ctx, input.contactId);
  const rows = await ctx.db
    .select()
    .from(messages)
    .where(scope(ctx, messages, eq(messages.contact_id, input.contactId)))
    .orderBy(asc(messages.sent_at), asc(messages.id));
  return rows.map(toMessage);
}

/**
 * A keyword's auto-reply (STOP confirmation, START, HELP) through the carrier, recorded in the
 * conversation. It bypasses the opt-out check (the carriers' rules require the STOP confirmation) but is
 * counted like any text, without the limit (a HELP answer must not fail on a full month).
 */
export async function sendAutoReply(ctx: Ctx, input: { contactId: number; body: string }): Promise<void> {
  const { agencyId, businessId } = businessOf(ctx);
  const contact = await contactForSend(ctx, input.contactId);
  if (contact.install_id === null) return;
  if ((await reachRule(ctx))(contact.phone, 'text')) return;
  const from = await installTextNumber(ctx, contact.install_id);
  if (!from) return;
  const segments = messageCount('out', input.body, 0);
  const row = await inTransaction(ctx, async (tx) => {
    await countMessages(tx, { count: segments, enforce: false });
    const [created] = await tx.db
      .insert(messages)
      .values({
        agency_id: agencyId,
        business_id: businessId,
        contact_id: contact.id,
        install_id: contact.install_id,
        direction: 'out',
        body: input.body,
        status: 'queued',
        from_number: from,
        to_number: contact.phone,
        segments,
      })
      .returning();
    const r = found(created);
    announceSent(tx, r);
    return r;
  });
  await dispatch(ctx, row).catch(() => undefined);
}

export { messageReceived, messageSent, messageStatusChanged, messageUpdated } from './events.ts';
export {
  checkWidgetText,
  contactWroteSince,
  receiveWidgetText,
  replyFromWidget,
  widgetConversation,
  widgetMessageById,
  widgetMessagesByIds,
  wroteToContactSince,
} from './widget.ts';

/** Who wrote a message of the context's business and its text, for a notification; null when not found. */
export async function messageNotice(
  ctx: Ctx,
  messageId: number,
): Promise<{ name: string; text: string } | null> {
  const [row] = await ctx.db
    .select({ body: messages.body, media: messages.media, contactId: messages.contact_id })
    .from(messages)
    .where(scope(ctx, messages, eq(messages.id, messageId)));
  if (!row) return null;
  const [contact] = await contactsByIds(ctx, [row.contactId]);
  return {
    name: contact ? `${contact.first_name} ${contact.last_name}`.trim() || contact.phone : '',
    text: row.body || (row.media.length ? '[image]' : ''),
  };
}

/** The user's unread total over the conversations it may see (the profile's number_of_messages, ADR 045). */
export async function unreadTotalOfUser(
  ctx: Ctx,
  input: { businessId: number; userId: number },
): Promise<number> {
  return unreadTotalOf(ctx, { userId: input.userId });
}

/** Who may see each of these conversations of the context's business (realtime, push; ADR 045). */
export async function conversationAudience(
  ctx: Ctx,
  input: { contactIds: number[] },
): Promise<Map<number, number[]>> {
  return audienceOf(ctx, input.contactIds);
}

// ---------------------------------------------------------------------------------------------------
// What the broadcasts module asks of texting (ADR 062): its test text, and the replies to a broadcast.

/** The reason of a `sendTestText` refusal the carrier gave for a moment (a 401, a 429): nothing was sent. */
export const CARRIER_REFUSED_FOR_NOW = 'messages.carrier_refused_for_now';

/**
 * A broadcast's test text to one phone, now, from `from` (a number of the business): the checks of a send
 * (a contact with this phone opted out or blocked, a blacklisted or unreachable phone, restricted content,
 * the monthly limit) run first and a refused test sends and counts nothing. It is not stored in any
 * conversation (the phone may be no contact); it counts against the monthly messages.
 */
export async function sendTestText(
  ctx: Ctx,
  input: { to: string; from: string; body: string; media: TMessageMedia[] },
): Promise<{ sid: string }> {
  businessOf(ctx);
  const body = input.body.trim();
  if (!body && input.media.length === 0)
    throw new AppError('VALIDATION', undefined, { body: 'messages.empty' });
  const contact = await contactByPhone(ctx, input.to);
  if (contact) await assertTextable(ctx, contact);
  else {
    if (await isBlocked(ctx, input.to)) throw refuse('messages.blacklisted');
    await assertReachable(ctx, input.to, 'text');
  }
  if (body) await assertContent(ctx, body);
  const segments = messageCount('out', body, input.media.length);
  const base = publicBase(ctx);
  // Counted (and committed) before the carrier is asked, not in a transaction around its call: the
  // business's row, which every text of the business counts on, stays free while the carrier answers.
  if (!(await countMessages(ctx, { count: segments, enforce: true }))) throw await limitReached(ctx);
  try {
    const carrier = await carrierFor(ctx);
    const sent = await carrier.createMessage({
      to: input.to,
      from: input.from,
      body,
      ...(input.media.length
        ? { mediaUrl: input.media.map((m) => ctx.deps.storage.absoluteUrl(m.url, base)) }
        : {}),
    });
    return { sid: sent.sid };
  } catch (err) {
    ctx.deps.log.warn({ err }, 'test or staff text not sent');
    // Certainly not sent: the count is given back. One the carrier may have (no answer, a 5xx) stays counted.
    if (!(err instanceof CarrierError && err.unclear))
      await countMessages(ctx, { count: -segments, enforce: false });
    if (err instanceof CarrierError && err.kind === 'opted-out') throw refuse('messages.opted_out');
    // Refused for a moment (our account, the carrier's rate limit): certainly not sent, worth a retry.
    if (err instanceof CarrierError && err.refusedForNow)
      throw refuse('messages.carrier_failed', CARRIER_REFUSED_FOR_NOW);
    throw refuse('messages.carrier_failed');
  }
}

/** Marks an inbound message of the business as a reply to a broadcast (the inbox shows it so). */
export async function markBroadcastReply(
  ctx: Ctx,
  input: { messageId: number; broadcastId: number },
): Promise<void> {
  await ctx.db
    .update(messages)
    .set({ broadcast_id: input.broadcastId })
    .where(scope(ctx, messages, eq(messages.id, input.messageId), eq(messages.direction, 'in')));
}

/** The texts in marked as replies to a broadcast, oldest first (bulk-optout reads their words). */
export async function broadcastReplies(
  ctx: Ctx,
  input: { broadcastId: number; contactIds?: number[] },
): Promise<{ messageId: number; contactId: number; body: string; at: Date }[]> {
  if (input.contactIds && input.contactIds.length === 0) return [];
  const rows = await ctx.db
    .select({ id: messages.id, contactId: messages.contact_id, body: messages.body, at: messages.sent_at })
    .from(messages)
    .where(
      scope(
        ctx,
        messages,
        eq(messages.broadcast_id, input.broadcastId),
        eq(messages.direction, 'in'),
        input.contactIds ? anyOf(messages.contact_id, input.contactIds) : undefined,
      ),
    )
    .orderBy(asc(messages.sent_at), asc(messages.id));
  return rows.map((r) => ({ messageId: r.id, contactId: r.contactId, body: r.body, at: r.at }));
}

// ---------------------------------------------------------------------------------------------------
// What the automations' SendMessage asks on a retry (ADR 071): whether a crashed attempt's text reached
// the carrier (it is then at the carrier but not in our conversation).

/** The business's texts out from `from` to `to` with exactly this body, as stored (every status). */
export async function storedTextCount(
  ctx: Ctx,
  input: { from: string; to: string; body: string },
): Promise<number> {
  const [row] = await ctx.db
    .select({ n: count() })
    .from(messages)
    .where(
      scope(
        ctx,
        messages,
        eq(messages.direction, 'out'),
        eq(messages.from_number, input.from),
        eq(messages.to_number, input.to),
        eq(messages.body, input.body),
      ),
    );
  return row?.n ?? 0;
}

import type {
  TBroadcast,
  TBroadcastAudience,
  TBroadcastBulkOptOutRequest,
  TBroadcastListQuery,
  TBroadcastRequest,
  TBroadcastStatus,
  TBroadcastTestRequest,
  TMessageCredit,
  TMessageCreditRequest,
} from '@stn/contracts/broadcasts';
import { messageCount, type TMessageMedia } from '@stn/contracts/chats';
import { and, count, desc, eq, ilike, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { AppError, invalid } from '../../platform/http/errors.ts';
import { likePattern, listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { businessOf, type Ctx, found, inTransaction, scope } from '../../platform/tenancy/context.ts';
import { businessTimeZone, messageUsage } from '../businesses/service.ts';
import { broadcastReplies, sendTestText } from '../chats/service.ts';
import { bulkOptOut, bulkTag, checkTagIds, contactByPhone, contactsByIds } from '../contacts/service.ts';
import { installsOfBusiness } from '../installs/service.ts';
import { installTextNumber } from '../telephony/service.ts';
import { fillForContact, mediaForSend, templateForSend } from '../templates/service.ts';
import { broadcastersByIds, firstActiveBroadcaster } from './broadcasters.ts';
import {
  announceProgress,
  broadcastCounts,
  countAudience,
  NO_COUNTS,
  refreshStatuses,
  rerunSending,
  startSending,
  stopSending,
} from './engine.ts';
import { asksToStop } from './opt-out-phrases.ts';
import { broadcastRecipients, broadcasts } from './tables.ts';

// The broadcasts of a business (spec 001 "Tasks, tags, broadcasts": /v1/broadcasts; ADR 062). This file
// holds the rules of the API: what a broadcast may be saved with, which state allows which action, the
// message-credit estimate, the test text, tagging and opting out recipients. Sending is the engine's
// (./engine.ts, ADR 061): start, stop, rerun and refresh are its functions, called in our transaction.

export type BroadcastRow = typeof broadcasts.$inferSelect;
const cols = { agency_id: broadcasts.agency_id, business_id: broadcasts.business_id };
const SEND_AT_MAX_MS = 365 * 86_400_000;
const EDITABLE: TBroadcastStatus[] = ['draft', 'scheduled'];

/** A refusal of an action in the broadcast's present state: a 422 with a message, no field. */
const refuse = (key: string) =>
  new AppError('VALIDATION', key, undefined, {}, key.replace(/^broadcasts\./, ''));

export async function shapeBroadcasts(ctx: Ctx, rows: BroadcastRow[]): Promise<TBroadcast[]> {
  if (rows.length === 0) return [];
  const [counts, zone] = await Promise.all([
    broadcastCounts(
      ctx,
      rows.map((r) => r.id),
    ),
    businessTimeZone(ctx),
  ]);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    status: r.status as TBroadcastStatus,
    body: r.body,
    media: r.media,
    template_id: r.template_id,
    audience: r.audience,
    broadcaster_ids: r.broadcaster_ids,
    send_at: r.send_at?.toISOString() ?? null,
    time_zone: zone,
    counts: counts.get(r.id) ?? { ...NO_COUNTS },
    credits_estimated: r.credits_estimated,
    started_at: r.started_at?.toISOString() ?? null,
    completed_at: r.completed_at?.toISOString() ?? null,
    failure: r.status === 'failed' ? r.failure : null,
    created_by: r.created_by,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  }));
}

/** A live (not deleted) broadcast of the business, or 404; `lock` holds its row to the transaction's end. */
export async function findBroadcast(ctx: Ctx, id: number, lock = false): Promise<BroadcastRow> {
  businessOf(ctx);
  const q = ctx.db
    .select()
    .from(broadcasts)
    .where(scope(ctx, cols, eq(broadcasts.id, id), isNull(broadcasts.deleted_at)));
  const [row] = lock ? await q.for('update') : await q;
  return found(row);
}

export async function listBroadcasts(ctx: Ctx, q: TBroadcastListQuery) {
  businessOf(ctx);
  const term = q.search || q.keyword;
  const where = scope(
    ctx,
    cols,
    isNull(broadcasts.deleted_at),
    term ? ilike(broadcasts.name, likePattern(term)) : undefined,
    q.status ? eq(broadcasts.status, q.status) : undefined,
  );
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(broadcasts)
      .where(where)
      .orderBy(desc(broadcasts.created_at), desc(broadcasts.id))
      .limit(limit)
      .offset(offset),
    ctx.db.select({ n: count() }).from(broadcasts).where(where),
  ]);
  return listEnvelope(await shapeBroadcasts(ctx, rows), total?.n ?? 0, q);
}

export async function getBroadcast(ctx: Ctx, id: number): Promise<TBroadcast> {
  const [b] = await shapeBroadcasts(ctx, [await findBroadcast(ctx, id)]);
  return found(b);
}

// ---------------------------------------------------------------------------------------------------
// Saving: every field's check runs, and the 422 names every field that is wrong at once.

/** Runs the checks, each of which may throw a 422 on its fields, and throws one 422 with all of them. */
async function collect<T extends unknown[]>(checks: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(checks);
  const fields: Record<string, string> = {};
  for (const s of settled) {
    if (s.status === 'fulfilled') continue;
    const err = s.reason;
    if (err instanceof AppError && err.code === 'VALIDATION' && err.fields) Object.assign(fields, err.fields);
    else throw err;
  }
  if (Object.keys(fields).length > 0) throw new AppError('VALIDATION', undefined, fields);
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as T;
}

const isEmptyAudience = (a: TBroadcastAudience) =>
  a.tag_ids.length === 0 && a.install_ids.length === 0 && a.contact_ids.length === 0;

async function checkAudience(ctx: Ctx, a: TBroadcastAudience): Promise<TBroadcastAudience> {
  if (isEmptyAudience(a)) throw invalid('audience', 'broadcasts.audience_empty');
  const fields: Record<string, string> = {};
  // Each tag list on its own field: the form says which one holds a stranger.
  const tagsOk = (ids: number[]) =>
    checkTagIds(ctx, ids).then(
      () => true,
      (err) => {
        if (err instanceof AppError && err.code === 'VALIDATION') return false;
        throw err;
      },
    );
  if (!(await tagsOk(a.tag_ids))) fields['audience.tag_ids'] = 'broadcasts.tag_invalid';
  if (!(await tagsOk(a.exclude_tag_ids))) fields['audience.exclude_tag_ids'] = 'broadcasts.tag_invalid';
  if (a.install_ids.length) {
    const mine = new Set((await installsOfBusiness(ctx)).map((i) => i.id));
    if (a.install_ids.some((id) => !mine.has(id)))
      fields['audience.install_ids'] = 'broadcasts.install_invalid';
  }
  const contactIds = [...new Set(a.contact_ids)];
  if (contactIds.length) {
    const live = await contactsByIds(ctx, contactIds);
    if (live.length !== contactIds.length) fields['audience.contact_ids'] = 'broadcasts.contact_invalid';
  }
  if (Object.keys(fields).length) throw new AppError('VALIDATION', undefined, fields);
  return {
    tag_ids: [...new Set(a.tag_ids)],
    exclude_tag_ids: [...new Set(a.exclude_tag_ids)],
    install_ids: [...new Set(a.install_ids)],
    contact_ids: contactIds,
  };
}

async function checkBroadcasters(ctx: Ctx, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  const rows = await broadcastersByIds(ctx, unique);
  if (rows.length !== unique.length || rows.some((r) => !r.active))
    throw invalid('broadcaster_ids', 'broadcasts.broadcaster_invalid');
  return unique;
}

function checkSendAt(sendAt: string | null | undefined): Date | null {
  if (!sendAt) return null;
  const at = new Date(sendAt);
  if (at.getTime() <= Date.now() || at.getTime() > Date.now() + SEND_AT_MAX_MS)
    throw invalid('send_at', 'broadcasts.send_at_range');
  return at;
}

type Saved = {
  body: string;
  media: TMessageMedia[];
  templateId: number | null;
  audience: TBroadcastAudience;
  broadcasterIds: number[];
  sendAt: Date | null;
};

/** Checks a create or update; `starting`: it starts (or stays scheduled), so its time must be ahead. */
async function checked(ctx: Ctx, input: TBroadcastRequest, starting: boolean): Promise<Saved> {
  const templateId = input.template_id ?? null;
  const [template, media, audience, broadcasterIds, sendAt] = await collect<
    [{ body: string } | null, TMessageMedia[], TBroadcastAudience, number[], Date | null, undefined]
  >([
    templateId
      ? templateForSend(ctx, templateId).catch((err) => {
          // Another business's template is not found: for the form, a wrong choice on its field.
          if (err instanceof AppError && err.code === 'NOT_FOUND')
            throw invalid('template_id', 'broadcasts.template_invalid');
          throw err;
        })
      : Promise.resolve(null),
    mediaForSend(ctx, input.media_ids),
    checkAudience(ctx, input.audience),
    checkBroadcasters(ctx, input.broadcaster_ids),
    (async () => (starting ? checkSendAt(input.send_at) : input.send_at ? new Date(input.send_at) : null))(),
    (async () => {
      if (!input.body.trim() && input.media_ids.length === 0 && !templateId)
        throw invalid('body', 'broadcasts.body_required');
    })(),
  ]);
  // A template's text is the message unless the sender wrote their own (merge fields filled per recipient).
  const body = input.body.trim() || template?.body.trim() || '';
  if (!body && media.length === 0) throw invalid('body', 'broadcasts.body_required');
  return { body, media, templateId, audience, broadcasterIds, sendAt };
}

/** Credits one message of this body and these images uses, times the audience's recipients now. */
async function estimate(ctx: Ctx, saved: Pick<Saved, 'body' | 'media' | 'audience'>): Promise<number> {
  const { recipients } = await countAudience(ctx, saved.audience);
  return recipients * messageCount('out', saved.body, saved.media.length);
}

const rowValues = (saved: Saved, input: TBroadcastRequest, credits: number) => ({
  name: input.name,
  body: saved.body,
  media: saved.media,
  template_id: saved.templateId,
  audience: saved.audience,
  broadcaster_ids: saved.broadcasterIds,
  send_at: saved.sendAt,
  credits_estimated: credits,
});

/** Creates a broadcast: a draft, or (start) sending now or scheduled, in the same transaction as its row. */
export async function createBroadcast(ctx: Ctx, input: TBroadcastRequest): Promise<TBroadcast> {
  const { agencyId, businessId } = businessOf(ctx);
  const saved = await checked(ctx, input, input.start);
  const id = await inTransaction(ctx, async (tx) => {
    const credits = await estimate(tx, saved);
    const [row] = await tx.db
      .insert(broadcasts)
      .values({
        agency_id: agencyId,
        business_id: businessId,
        ...rowValues(saved, input, credits),
        status: 'draft',
        created_by: ctx.by.kind === 'user' ? ctx.by.actor.userId : null,
      })
      .returning({ id: broadcasts.id });
    const created = found(row);
    if (input.start) await startSending(tx, { broadcastId: created.id, at: saved.sendAt });
    return created.id;
  });
  return getBroadcast(ctx, id);
}

/**
 * Edits a draft or a scheduled broadcast (a sending or finished one is a 422: the web offers duplicate).
 * `start` starts it; a scheduled one stays scheduled at its (new) time, or goes back to draft without one.
 */
export async function updateBroadcast(ctx: Ctx, id: number, input: TBroadcastRequest): Promise<TBroadcast> {
  businessOf(ctx);
  const before = await findBroadcast(ctx, id);
  if (!EDITABLE.includes(before.status as TBroadcastStatus)) throw refuse('broadcasts.not_editable');
  const keepScheduled = before.status === 'scheduled' && !input.start && Boolean(input.send_at);
  const starting = input.start || keepScheduled;
  const saved = await checked(ctx, input, starting);
  await inTransaction(ctx, async (tx) => {
    const cur = await findBroadcast(tx, id, true);
    if (!EDITABLE.includes(cur.status as TBroadcastStatus)) throw refuse('broadcasts.not_editable');
    const credits = await estimate(tx, saved);
    // Back to draft first: the start below makes a new run, so the old schedule's job finds nothing to do.
    await tx.db
      .update(broadcasts)
      .set({ ...rowValues(saved, input, credits), status: 'draft', updated_at: new Date() })
      .where(eq(broadcasts.id, cur.id));
    if (starting) await startSending(tx, { broadcastId: cur.id, at: saved.sendAt });
  });
  return getBroadcast(ctx, id);
}

/** Deletes (soft) a broadcast that is not sending; a scheduled one is stopped first, so it never starts. */
export async function deleteBroadcast(ctx: Ctx, id: number): Promise<void> {
  businessOf(ctx);
  await inTransaction(ctx, async (tx) => {
    const cur = await findBroadcast(tx, id, true);
    if (cur.status === 'sending') throw refuse('broadcasts.stop_first');
    if (cur.status === 'scheduled') await stopSending(tx, { broadcastId: cur.id });
    await tx.db
      .update(broadcasts)
      .set({ deleted_at: new Date(), updated_at: new Date() })
      .where(eq(broadcasts.id, cur.id));
  });
}

// ---------------------------------------------------------------------------------------------------
// The engine's actions, each allowed in some states only.

export async function stopBroadcast(ctx: Ctx, id: number): Promise<TBroadcast> {
  await inTransaction(ctx, async (tx) => {
    const cur = await findBroadcast(tx, id, true);
    if (cur.status !== 'scheduled' && cur.status !== 'sending') throw refuse('broadcasts.cannot_stop');
    await stopSending(tx, { broadcastId: cur.id });
  });
  return getBroadcast(ctx, id);
}

export async function rerunBroadcast(
  ctx: Ctx,
  id: number,
  input: { include_new: boolean },
): Promise<TBroadcast> {
  await inTransaction(ctx, async (tx) => {
    const cur = await findBroadcast(tx, id, true);
    if (!['stopped', 'completed', 'failed'].includes(cur.status)) throw refuse('broadcasts.cannot_rerun');
    await rerunSending(tx, { broadcastId: cur.id, includeNew: input.include_new });
  });
  return getBroadcast(ctx, id);
}

export async function refreshBroadcast(ctx: Ctx, id: number): Promise<TBroadcast> {
  const cur = await findBroadcast(ctx, id);
  if (cur.status === 'draft' || cur.status === 'scheduled') throw refuse('broadcasts.cannot_refresh');
  await refreshStatuses(ctx, { broadcastId: cur.id });
  return getBroadcast(ctx, id);
}

// ---------------------------------------------------------------------------------------------------
// Message credit and the test text.

/** The audience's recipients and the credits the message would use, against what the month has left. */
export async function messageCredit(ctx: Ctx, input: TMessageCreditRequest): Promise<TMessageCredit> {
  businessOf(ctx);
  const media = await mediaForSend(ctx, input.media_ids);
  let recipients: number;
  let skipped: number;
  if (input.broadcast_id) {
    // A rerun's estimate: its recipients not sent yet or failed.
    const cur = await findBroadcast(ctx, input.broadcast_id);
    const [row] = await ctx.db
      .select({ n: count() })
      .from(broadcastRecipients)
      .where(
        and(
          eq(broadcastRecipients.broadcast_id, cur.id),
          inArray(broadcastRecipients.state, ['pending', 'failed']),
        ),
      );
    recipients = row?.n ?? 0;
    skipped = 0;
  } else {
    const audience = await checkAudience(ctx, input.audience);
    ({ recipients, skipped } = await countAudience(ctx, audience));
  }
  const body = input.body.trim();
  const perMessage = messageCount('out', body, media.length);
  const credits = perMessage * recipients;
  const usage = await messageUsage(ctx);
  const remaining = usage.cap === null ? null : Math.max(0, usage.cap - usage.used);
  return {
    recipients,
    skipped,
    per_message: perMessage,
    segments: messageCount('out', body, 0),
    credits,
    remaining,
    fits: remaining === null || credits <= remaining,
  };
}

/** The sample a test text's merge fields are filled with when the phone is no contact (ADR 062). */
const SAMPLE = { first_name: 'Alex', last_name: 'Sample', email: 'alex@example.com', fields: {} };

/**
 * Sends the message now to one phone, filled for the contact with that phone (else the sample), from the
 * chosen broadcaster, else the first active one, else a website's number.
 */
export async function testBroadcast(ctx: Ctx, input: TBroadcastTestRequest): Promise<void> {
  businessOf(ctx);
  const [media, from] = await collect<[TMessageMedia[], string | null]>([
    mediaForSend(ctx, input.media_ids),
    (async () => {
      if (input.broadcaster_id) {
        const [b] = await broadcastersByIds(ctx, [input.broadcaster_id]);
        if (!b) throw invalid('broadcaster_id', 'broadcasts.broadcaster_invalid');
        return b.phone_number;
      }
      const first = await firstActiveBroadcaster(ctx);
      if (first) return first.phone_number;
      for (const install of await installsOfBusiness(ctx)) {
        const n = await installTextNumber(ctx, install.id);
        if (n) return n;
      }
      return null;
    })(),
  ]);
  if (!input.body.trim() && media.length === 0) throw invalid('body', 'broadcasts.body_required');
  if (!from) throw new AppError('VALIDATION', 'messages.no_number', undefined, {}, 'messages.no_number');
  const contact = await contactByPhone(ctx, input.phone);
  const body = await fillForContact(ctx, input.body, contact ?? { ...SAMPLE, phone: input.phone });
  await sendTestText(ctx, { to: input.phone, from, body, media });
}

// ---------------------------------------------------------------------------------------------------
// Recipients: tag them, opt out those who asked to stop.

/** Tags the broadcast's recipients that were sent the message (or only those who replied). */
export async function tagRecipients(
  ctx: Ctx,
  id: number,
  input: { tag_ids: number[]; who: 'recipients' | 'replied' },
): Promise<number> {
  const cur = await findBroadcast(ctx, id);
  const tagIds = await checkTagIds(ctx, input.tag_ids);
  const rows = await ctx.db
    .selectDistinct({ contactId: broadcastRecipients.contact_id })
    .from(broadcastRecipients)
    .where(
      and(
        eq(broadcastRecipients.broadcast_id, cur.id),
        isNotNull(broadcastRecipients.contact_id),
        input.who === 'replied'
          ? isNotNull(broadcastRecipients.replied_at)
          : inArray(broadcastRecipients.state, ['sent', 'delivered']),
      ),
    );
  const live = await contactsByIds(
    ctx,
    rows.flatMap((r) => (r.contactId === null ? [] : [r.contactId])),
  );
  if (live.length === 0) throw refuse('broadcasts.nothing_to_tag');
  return bulkTag(ctx, { ids: live.map((c) => c.id), tag_ids: tagIds });
}

/**
 * Opts out recipients who asked to stop in their own words: the ones given (from the report: the sender
 * read their replies), else every recipient whose reply the phrase detector finds. Their contacts are
 * opted out of the business's texts and the recipients counted as opted out.
 */
export async function bulkOptOutRecipients(
  ctx: Ctx,
  id: number,
  input: TBroadcastBulkOptOutRequest,
): Promise<number> {
  const cur = await findBroadcast(ctx, id);
  const given = input.recipient_ids ? [...new Set(input.recipient_ids)] : null;
  const rows = await ctx.db
    .select({ id: broadcastRecipients.id, contactId: broadcastRecipients.contact_id })
    .from(broadcastRecipients)
    .where(
      and(
        eq(broadcastRecipients.broadcast_id, cur.id),
        given ? inArray(broadcastRecipients.id, given) : isNotNull(broadcastRecipients.replied_at),
      ),
    );
  if (given && rows.length !== given.length) throw invalid('recipient_ids', 'broadcasts.recipient_invalid');
  let chosen = rows;
  if (!given) {
    const replies = await broadcastReplies(ctx, { broadcastId: cur.id });
    const asking = new Set(replies.filter((r) => asksToStop(r.body)).map((r) => r.contactId));
    chosen = rows.filter((r) => r.contactId !== null && asking.has(r.contactId));
  }
  const live = await contactsByIds(
    ctx,
    chosen.flatMap((r) => (r.contactId === null ? [] : [r.contactId])),
  );
  const liveIds = new Set(live.map((c) => c.id));
  const ids = chosen.filter((r) => r.contactId !== null && liveIds.has(r.contactId)).map((r) => r.id);
  if (ids.length === 0) return 0;
  await inTransaction(ctx, async (tx) => {
    await bulkOptOut(tx, { ids: [...liveIds] });
    await tx.db
      .update(broadcastRecipients)
      .set({ opted_out_at: sql`coalesce(${broadcastRecipients.opted_out_at}, now())` })
      .where(and(eq(broadcastRecipients.broadcast_id, cur.id), inArray(broadcastRecipients.id, ids)));
    tx.afterCommit(() => announceProgress(tx, { broadcastId: cur.id }));
  });
  return ids.length;
}

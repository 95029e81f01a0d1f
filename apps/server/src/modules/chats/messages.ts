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
import { and, eq, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { type Batcher, createBatcher, gatherWhileBusy } from '../../platform/batcher.ts';
import type { InboundText, MessageProgress } from '../../platform/carrier/webhooks.ts';
import { prepared, slot } from '../../platform/db/prepared.ts';
import { refusalOf } from '../../platform/db/refusal.ts';
import { selectValues } from '../../platform/db/select-values.ts';
import type { Deps } from '../../platform/deps.ts';
import { publishCommitted, publishMany } from '../../platform/events/events.ts';
import { enqueue } from '../../platform/queue/queue.ts';
import {
  businessOf,
  type Ctx,
  inTransaction,
  platformOnly,
  platformSystemContext,
  scopedPrepared,
  tenantContext,
} from '../../platform/tenancy/context.ts';
import { agencyMessaging } from '../agencies/service.ts';
import { businessName, businessOptOut } from '../businesses/service.ts';
import { blockedAmongSql, blockedFrom, blockedRowsSql } from '../compliance/service.ts';
import {
  contactsUpserted,
  correctInCounts,
  findOrCreateContactsByPhone,
  setOptOut,
  type UpsertedContact,
  upsertContactsByPhoneSql,
} from '../contacts/service.ts';
import { carrierAccountOf, numberTexted } from '../telephony/service.ts';
import { messageReceived, messageStatusChanged } from './events.ts';
import { inboundMediaJob } from './media.ts';
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
    media_pending: row.media_pending,
    media_unavailable: row.media_unavailable,
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

export type { InboundText };

/** What the webhook does after recording: the keyword's auto-reply is sent by the caller (service.ts). */
export type InboundResult =
  | { kind: 'ignored' }
  | { kind: 'duplicate' }
  | { kind: 'recorded'; ctx: Ctx; contactId: number; installId: number | null; keyword: Keyword | null };

/** The context of the business a carrier's text or status is for, found from our own rows. */
const carrierContext = (carrier: Ctx, of: { agencyId: number; businessId: number }, name: string) =>
  tenantContext(
    carrier.deps,
    { level: 'business', agencyId: of.agencyId, businessId: of.businessId },
    { kind: 'system', source: 'carrier', name },
  );

// ---------------------------------------------------------------- inbound in batches

type Entry = { i: number; text: InboundText; number: NonNullable<Texted> };

/**
 * Records an inbound text once (a redelivery of the same carrier message changes nothing): the webhook's
 * one way in. Texts arriving together are recorded together (./receiveInboundBatch), each answered once
 * its batch has committed. At low load a batch is one text; under load a batch is what arrived while the
 * previous ones were written (ADR 033).
 */
export function receiveInbound(carrier: Ctx, text: InboundText): Promise<InboundResult> {
  const { deps } = carrier;
  let batcher = batchers.get(deps);
  if (!batcher) {
    // The batch runs outside any caller's transaction, in the carrier's platform context.
    const batchCtx = platformSystemContext(deps, 'carrier', 'inbound texts');
    batcher = createBatcher<InboundText, InboundResult>({
      run: (texts) => receiveInboundBatch(batchCtx, texts),
      maxBatch: 500,
      maxInFlight: deps.config.inboundBatches,
      waitMs: gatherWhileBusy(INBOUND_WAIT_MS),
    });
    batchers.set(deps, batcher);
  }
  return batcher.add(text);
}
const batchers = new WeakMap<Deps, Batcher<InboundText, InboundResult>>();
/**
 * While texts come together (the batch before held more than one), a batch gathers them this long once a
 * slot is free; a lone text is written at once. At 1,000 texts a second a batch is then ~25 texts instead of
 * ~8: a third less CPU a text for the server and PostgreSQL together, and a shorter p99, the machine being
 * less busy (issue 27; 5 ms before). The carrier's webhook is answered this much later, under load only.
 */
const INBOUND_WAIT_MS = 25;

/**
 * Records many inbound texts, each with its own outcome: per business one
 * blacklist query, then one transaction with one statement for the contacts and one multi-row insert of
 * the messages (`on conflict (carrier_sid) do nothing`: a text delivered twice, in one batch or two, is one
 * message). An MMS is one of them: its row is inserted with `media_pending` and a job fetches the media
 * after the commit (ADR 049). A business's batch that
 * fails (a deadlock, say), text by text, so that one bad batch loses nothing.
 */
export async function receiveInboundBatch(carrier: Ctx, texts: InboundText[]): Promise<InboundResult[]> {
  platformOnly(carrier);
  const results: InboundResult[] = texts.map(() => ({ kind: 'ignored' }));
  const groups = new Map<number, Entry[]>();
  for (const [i, text] of texts.entries()) {
    if (!text.messageSid || !text.from || !text.to) continue;
    const number = await numberOf(carrier, text.to, text.accountSid);
    if (!number) continue;
    const list = groups.get(number.businessId);
    if (list) list.push({ i, text, number });
    else groups.set(number.businessId, [{ i, text, number }]);
  }
  await Promise.all(
    [...groups.values()].map((entries) =>
      recordBatch(carrier, entries, results).catch(async (err: unknown) => {
        carrier.deps.log.warn({ err, count: entries.length }, 'inbound batch failed: recording text by text');
        for (const e of entries) await recordBatch(carrier, [e], results);
      }),
    ),
  );
  return results;
}

/** Of these carrier sids, the ones the business has stored already, as rows of `s`. */
function storedSidsRowsSql(ctx: Ctx, sids: string[]): SQL {
  const { agencyId, businessId } = businessOf(ctx);
  return sql`select m.carrier_sid as s from messages m
    where m.agency_id = ${agencyId} and m.business_id = ${businessId}
      and m.carrier_sid = any(${sql.param(sids)}::text[])`;
}

/** `storedSidsRowsSql` as a JSON array: a part of the batch's one statement of checks (ADR 123). */
const storedSidsSql = (ctx: Ctx, sids: string[]): SQL<unknown> =>
  sql`(select coalesce(json_agg(x.s), '[]'::json) from (${storedSidsRowsSql(ctx, sids)}) x)`;

/** A text of a batch to be stored: its time and keyword known. */
type Kept = Entry & { sentAt: Date; keyword: Keyword | null };

/** A message row as a batch's insert writes it (one JSON object a text; see the two inserts below). */
const messageRowOf = (e: Kept) => ({
  i: e.number.installId,
  b: e.text.body,
  s: e.text.messageSid,
  f: e.text.from,
  o: e.text.to,
  n: messageCount('in', e.text.body, 0),
  p: e.text.media.length,
  at: e.sentAt.toISOString(),
});

/** The columns of `messageRowOf`'s objects, for `jsonb_to_recordset` (`c`: the contact's id, when known). */
const messageColumns = (contact: boolean) =>
  sql.raw(`(${contact ? 'c int, ' : ''}i int, b text, s text, f text, o text, n int, p int, at timestamptz)`);

/**
 * The insert of a batch's messages: `rows` a relation of `messageRowOf`'s columns and `c`, the contact's
 * id, written in sid order (the unique index's locks, in one order). `on conflict (carrier_sid) do
 * nothing`: a text delivered twice, in one batch or two, is one message. Counted on their contacts by the
 * upsert before it: the statement's mark tells the messages trigger (ADR 117).
 */
function insertMessagesSql(of: { agencyId: number; businessId: number }, rows: SQL): SQL {
  return sql`insert into messages (agency_id, business_id, contact_id, install_id, direction, body, media,
      media_pending, status, carrier_sid, from_number, to_number, segments, sent_at)
    select ${of.agencyId}::int, ${of.businessId}::int, r.c, r.i, 'in', r.b, '[]'::jsonb, r.p, 'received', r.s,
      r.f, r.o, r.n, r.at
    from (${rows}) r
    where set_config('stn.messages_in_counted', 'on', true) = 'on'
    order by r.s
    on conflict (carrier_sid) do nothing
    returning id, carrier_sid as sid, segments`;
}

type Inserted = { id: number; sid: string; segments: number };

/** What a batch wrote: the texts it tried to store, their contacts (by phone) and the messages inserted. */
type Written = { kept: Kept[]; people: Map<string, { id: number; created: boolean }>; inserted: Inserted[] };

/** One business's texts of a batch (see receiveInboundBatch). */
async function recordBatch(carrier: Ctx, entries: Entry[], results: InboundResult[]): Promise<void> {
  const first = entries[0];
  if (!first) return;
  const ctx = carrierContext(carrier, first.number, 'inbound text');
  // A second delivery of a sid in this batch is a duplicate of the first.
  const unique = new Map<string, Kept>();
  for (const e of entries) {
    if (unique.has(e.text.messageSid)) results[e.i] = { kind: 'duplicate' };
    else
      unique.set(e.text.messageSid, {
        ...e,
        sentAt: e.text.sentAt ?? new Date(),
        keyword: keywordOf(e.text.body),
      });
  }
  const texts = [...unique.values()]
    // The carrier's order (keywords from one phone apply in it); sids sorted for the insert's locks.
    .sort(
      (a, b) => a.sentAt.getTime() - b.sentAt.getTime() || (a.text.messageSid < b.text.messageSid ? -1 : 1),
    );
  // Texts without media or a keyword, nearly all of them: one statement (ADR 126). One that raced another
  // batch for a text is undone whole, and the batch is written as any other. (Its refusal would abort a
  // caller's transaction: inside one, the batch is written as any other too.)
  if (!ctx.inTx && texts.every((e) => e.text.media.length === 0 && e.keyword === null)) {
    try {
      const { stored, ...written } = await recordPlainBatch(ctx, texts);
      for (const e of texts) if (stored.has(e.text.messageSid)) results[e.i] = { kind: 'duplicate' };
      return settled(ctx, outcome(written), results);
    } catch (err) {
      if (refusalOf(err) !== RACED) throw err;
    }
  }
  // Blacklisted numbers (not whitelisted) are not let into the inbox, as they cannot request calls. A text
  // already stored (a redelivery) is a duplicate; the rest are counted on their contacts as they are
  // upserted (ADR 117). Both are read at once.
  const checks = await selectValues(ctx.db, {
    blocked: blockedAmongSql(
      ctx,
      texts.map((e) => e.text.from),
    ),
    stored: storedSidsSql(ctx, [...unique.keys()]),
  });
  const blocked = blockedFrom(checks.blocked);
  const stored = new Set(Array.isArray(checks.stored) ? (checks.stored as string[]) : []);
  for (const e of texts) if (stored.has(e.text.messageSid)) results[e.i] = { kind: 'duplicate' };
  const kept = texts.filter((e) => !blocked.has(e.text.from) && !stored.has(e.text.messageSid));
  if (kept.length === 0) return;
  await inTransaction(ctx, async (tx) => {
    const people = await findOrCreateContactsByPhone(
      tx,
      kept.map((e) => ({
        phone: e.text.from,
        installId: e.number.installId,
        source: 'sms' as const,
        lastMessageAt: e.sentAt,
        inCount: 1,
      })),
    );
    // One JSON parameter for every row.
    const rows = JSON.stringify(
      kept.flatMap((e) => {
        const person = people.get(e.text.from);
        return person ? [{ ...messageRowOf(e), c: person.id }] : [];
      }),
    );
    const res = await tx.db.execute<Inserted>(
      insertMessagesSql(
        first.number,
        sql`select * from jsonb_to_recordset(${rows}::jsonb) as r${messageColumns(true)}`,
      ),
    );
    const written: Written = { kept, people, inserted: res.rows };
    const done = outcome(written);
    const { recorded, miscounted } = done;
    for (const { e, row, contactId } of recorded) {
      // An MMS's media are fetched once committed, by a job of this delivery only (ADR 049).
      if (e.text.media.length)
        await enqueue(tx, inboundMediaJob, {
          agencyId: first.number.agencyId,
          businessId: first.number.businessId,
          messageId: row.id,
          media: e.text.media,
        });
      if (e.keyword === 'stop') await setOptOut(tx, { contactId, optedOut: true });
      if (e.keyword === 'start') await setOptOut(tx, { contactId, optedOut: false });
    }
    // Each contact was counted its kept texts; a text a concurrent batch stored meanwhile was not inserted.
    await correctInCounts(
      tx,
      [...miscounted].map(([id, n]) => ({ id, n })),
    );
    settled(tx, done, results);
  });
}

/** The refusal of a batch of plain texts that raced another batch for one of its texts. */
const RACED = 'messages.raced';

/**
 * A batch of plain texts in one statement, its own transaction (ADR 126): the checks (a blacklisted number,
 * a text stored already), the contacts' upsert counting the texts kept (ADR 117) and the messages' insert.
 * Two batches in flight may both find a text new, and the insert stores it once: the contact would then
 * have counted a text it did not get, so the statement refuses (`stn_refuse`) unless it stored every text
 * it kept, and nothing of it is left.
 */
async function recordPlainBatch(ctx: Ctx, texts: Kept[]): Promise<Written & { stored: Set<string> }> {
  const { agencyId, businessId } = businessOf(ctx);
  const rows = JSON.stringify(texts.map(messageRowOf));
  const res = await ctx.db.execute<{ stored: string[]; people: UpsertedContact[]; inserted: Inserted[] }>(
    sql`with r as materialized (select * from jsonb_to_recordset(${rows}::jsonb) as r${messageColumns(false)}),
      blocked as materialized (${blockedRowsSql(
        ctx,
        texts.map((e) => e.text.from),
      )}),
      stored as materialized (${storedSidsRowsSql(
        ctx,
        texts.map((e) => e.text.messageSid),
      )}),
      kept as materialized (select * from r
        where r.f not in (select phone from blocked) and r.s not in (select s from stored)),
      people as (${upsertContactsByPhoneSql(
        ctx,
        // A phone's last install (in the carrier's order), its latest text, and its texts to count.
        sql`select k.f as p, (array_agg(k.i order by k.at desc, k.s desc) filter (where k.i is not null))[1] as i,
          'sms' as s, max(k.at) as t, count(*)::int as n from kept k group by k.f`,
      )}),
      ins as (${insertMessagesSql(
        { agencyId, businessId },
        sql`select k.*, p.id as c from kept k join people p on p.phone = k.f`,
      )})
    select (select coalesce(json_agg(s), '[]'::json) from stored) as stored,
      (select coalesce(json_agg(json_build_object('id', id, 'phone', phone, 'created', created)), '[]'::json)
        from people) as people,
      (select coalesce(json_agg(json_build_object('id', id, 'sid', sid, 'segments', segments)), '[]'::json)
        from ins) as inserted,
      case when (select count(*) from ins) = (select count(*) from kept) then true
        else stn_refuse(${RACED}) end as whole`,
  );
  const [out] = res.rows;
  const stored = new Set(out?.stored ?? []);
  return {
    stored,
    kept: texts.filter((e) => !stored.has(e.text.messageSid)),
    people: contactsUpserted(ctx, out?.people ?? []),
    inserted: out?.inserted ?? [],
  };
}

/**
 * A batch's texts, one by one: recorded (inserted, its contact known); not inserted though its contact
 * counted it (a concurrent batch stored it: `miscounted`, and a duplicate); or without a contact (a
 * blacklisted number: ignored).
 */
function outcome(w: Written) {
  const bySid = new Map(w.inserted.map((r) => [r.sid, r]));
  const recorded: { e: Kept; row: Inserted; contactId: number; created: boolean }[] = [];
  const duplicates: Kept[] = [];
  const miscounted = new Map<number, number>();
  for (const e of w.kept) {
    const row = bySid.get(e.text.messageSid);
    const person = w.people.get(e.text.from);
    if (!person) continue;
    if (row) recorded.push({ e, row, contactId: person.id, created: person.created });
    else {
      miscounted.set(person.id, (miscounted.get(person.id) ?? 0) - 1);
      duplicates.push(e);
    }
  }
  return { recorded, duplicates, miscounted };
}

/**
 * A batch written (or about to commit): each text's result once committed, the month's count of texts in,
 * and the realtime news of them all at once (the carrier is answered once the texts are committed, not
 * after the news).
 */
function settled(ctx: Ctx, done: ReturnType<typeof outcome>, results: InboundResult[]): void {
  const { agencyId, businessId } = businessOf(ctx);
  const { recorded, duplicates } = done;
  const announced = new Set<number>();
  const events: z.infer<typeof messageReceived.payload>[] = [];
  let segments = 0;
  for (const { e, row, contactId, created } of recorded) {
    segments += row.segments;
    events.push({
      messageId: row.id,
      agencyId,
      businessId,
      contactId,
      installId: e.number.installId,
      newContact: created && !announced.has(contactId),
      keyword: e.keyword,
      body: e.text.body,
    });
    announced.add(contactId);
  }
  ctx.afterCommit(() => {
    for (const e of duplicates) results[e.i] = { kind: 'duplicate' };
    for (const { e, contactId } of recorded)
      results[e.i] = { kind: 'recorded', ctx, contactId, installId: e.number.installId, keyword: e.keyword };
    if (segments) countIncoming(ctx, { count: segments });
  });
  publishMany(ctx, messageReceived, events, { detached: true });
}

/**
 * The number texted, cached a few seconds per process (every inbound text asks). A number bought, moved
 * or released in this process is forgotten at once (`forgetNumbers`, on telephony's `numberChanged`);
 * other processes see it within NUMBER_TTL_MS.
 */
const NUMBER_TTL_MS = 5_000;
type Texted = Awaited<ReturnType<typeof numberTexted>>;
const numberCache = new WeakMap<Deps, Map<string, { at: number; value: Texted }>>();
/** Forgets what this process cached about these numbers (every account's entry). */
export function forgetNumbers(ctx: Ctx, input: { phoneNumbers: string[] }): void {
  const cache = numberCache.get(ctx.deps);
  if (!cache) return;
  const gone = new Set(input.phoneNumbers);
  for (const key of cache.keys()) if (gone.has(key.slice(key.lastIndexOf(':') + 1))) cache.delete(key);
}

async function numberOf(carrier: Ctx, to: string, accountSid: string): Promise<Texted> {
  const { deps } = carrier;
  let cache = numberCache.get(deps);
  if (!cache) {
    cache = new Map();
    numberCache.set(deps, cache);
  }
  const key = `${accountSid}:${to}`;
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < NUMBER_TTL_MS) return hit.value;
  const value = await numberTexted(carrier, { to, accountSid });
  if (cache.size > 10_000) cache.clear();
  cache.set(key, { at: Date.now(), value });
  return value;
}

/** The auto-reply to a keyword (en: a contact has no language), per the carriers' rules (CTIA). */
export async function keywordReply(ctx: Ctx, keyword: Keyword): Promise<string> {
  if (keyword === 'stop') {
    // The business's own opt-out message when it wrote one (its messages settings, ADR 094).
    const { name, optOutMsg } = await businessOptOut(ctx);
    return (
      optOutMsg ??
      `You have been unsubscribed from ${name || 'us'} messages and will not receive any more. Reply START to resubscribe.`
    );
  }
  const name = (await businessName(ctx)) || 'us';
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

/** A message's progress as the carrier reported it, on our message `messageId` when the URL named it. */
export type StatusCallback = MessageProgress & { messageId: number | null };

/**
 * Applies a status callback: only forward (queued < sending < sent < final), a final state never changes,
 * a callback for another account's message changes nothing. An opted-out error (the recipient replied
 * STOP to the carrier) opts the contact out of the business.
 */
export async function applyMessageStatus(carrier: Ctx, cb: StatusCallback): Promise<void> {
  const rank = RANK[cb.status];
  if (!rank || !cb.messageSid) return;
  const status = cb.status === 'accepted' ? 'queued' : cb.status;
  // The message names its business: the carrier's platform context finds it by id or sid (a business's
  // context, refreshing its conversation, only among its own).
  const [row] =
    cb.messageId !== null
      ? await messageByIdQuery(carrier, { id: cb.messageId })
      : await messageBySidQuery(carrier, { sid: cb.messageSid });
  if (row?.direction !== 'out') return;
  if (row.carrier_sid && row.carrier_sid !== cb.messageSid) return;
  const ctx = carrierContext(
    carrier,
    { agencyId: row.agency_id, businessId: row.business_id },
    'message status',
  );
  const account = await carrierAccountOf(ctx);
  if (!account || account.accountSid !== cb.accountSid) return;
  const values = {
    id: row.id,
    status,
    sid: cb.messageSid,
    code: cb.errorCode,
    message: cb.errorMessage,
    rank,
  };
  const announce = (on: Ctx, after: { error_code: number | null }) =>
    publishCommitted(on, messageStatusChanged, {
      messageId: row.id,
      agencyId: row.agency_id,
      businessId: row.business_id,
      contactId: row.contact_id,
      status,
      errorCode: after.error_code,
    });
  if (cb.errorKind === 'opted-out') {
    // The carrier's opt-out and the status together: neither is kept without the other.
    await inTransaction(ctx, async (tx) => {
      const [after] = await statusUpdateQuery(tx.db, values);
      if (!after) return;
      await setOptOut(tx, { contactId: row.contact_id, optedOut: true });
      await announce(tx, after);
    });
    return;
  }
  // Any other status is one statement (no transaction around it): it moves the text forward or changes
  // nothing; its news follows it.
  const [after] = await statusUpdateQuery(ctx.db, values);
  if (after) await announce(ctx, after);
}

/** What a status callback reads of the message it names. */
const statusColumns = {
  id: messages.id,
  agency_id: messages.agency_id,
  business_id: messages.business_id,
  contact_id: messages.contact_id,
  direction: messages.direction,
  carrier_sid: messages.carrier_sid,
};

/** The message a status callback names, by our id (its URL's) or by the carrier's id: built once. */
const messageByIdQuery = scopedPrepared(messages, (db, tenant) =>
  db
    .select(statusColumns)
    .from(messages)
    .where(and(tenant, eq(messages.id, slot('id')))),
);
const messageBySidQuery = scopedPrepared(messages, (db, tenant) =>
  db
    .select(statusColumns)
    .from(messages)
    .where(and(tenant, eq(messages.carrier_sid, slot('sid')))),
);

/**
 * A status callback's update: only forward (a rank above the text's), never from a final state, except a
 * text we marked failed with no carrier id (its answer was a 5xx or none, ADR 128), which the carrier says
 * it has after all. The error is kept unless the callback brings one. Built once (every text sent has
 * three callbacks).
 */
const statusUpdateQuery = prepared((db) =>
  db
    .update(messages)
    .set({
      status: slot('status'),
      carrier_sid: slot('sid'),
      error_code: sql`coalesce(${slot('code')}::int, ${messages.error_code})`,
      error_message: sql`case when ${slot('code')}::int is null then ${messages.error_message} else ${slot('message')}::text end`,
      updated_at: sql`now()`,
    })
    .where(
      and(
        eq(messages.id, slot('id')),
        or(
          and(
            sql`${messages.status} not in ('delivered', 'undelivered', 'failed', 'canceled', 'refused', 'scheduled')`,
            sql`${rankSql} < ${slot('rank')}::int`,
          ),
          sql`(${messages.status} = 'failed' and ${messages.carrier_sid} is null)`,
        ),
      ),
    )
    .returning({ error_code: messages.error_code }),
);

export const isFinalStatus = (status: string) => FINAL.includes(status);

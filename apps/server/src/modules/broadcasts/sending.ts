// The broadcasts' sending (ADR 061): the snapshot written in the caller's transaction with its jobs, and
// the send job, one per broadcast and sending number, that claims recipients in a committed step before
// the carrier is called (at most one message a recipient, whatever crashes), waits for the number's
// throttle slot and for the recipient's morning, and records what the carrier answered, in batches.
import type { TSkipReason } from '@stn/contracts/broadcasts';
import { messageCount, type TMessageMedia } from '@stn/contracts/chats';
import { fillTemplate, type TEMPLATE_MERGE_FIELDS } from '@stn/contracts/templates';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { type Carrier, CarrierError } from '../../platform/carrier/carrier.ts';
import { poolOf } from '../../platform/db/client.ts';
import type { Deps } from '../../platform/deps.ts';
import { engineNow } from '../../platform/engine-clock.ts';
import { AppError } from '../../platform/http/errors.ts';
import { defineJob, enqueue } from '../../platform/queue/queue.ts';
import {
  businessOf,
  type Ctx,
  found,
  inTransaction,
  platformSystemContext,
  scope,
  tenantContext,
} from '../../platform/tenancy/context.ts';
import { countMessages } from '../businesses/service.ts';
import {
  addBroadcastTexts,
  assertContent,
  broadcastTextBodies,
  broadcastTextFacts,
  broadcastTextStatuses,
  broadcastTextsSent,
} from '../chats/service.ts';
import { blockedAmong } from '../compliance/service.ts';
import { contactFieldKeys, contactsByIds, setOptOut, touchContactsLastMessage } from '../contacts/service.ts';
import { sendingAllowance } from '../registration/service.ts';
import { carrierFor, TWILIO_PATHS } from '../telephony/service.ts';
import { type AudienceRow, resolveAudience, type Sender, sendersOf } from './audience.ts';
import { type Pacer, pacerFor } from './clock.ts';
import { announceProgress, publishProgress } from './counts.ts';
import { broadcasts } from './tables.ts';

const refuse = (key: string) => new AppError('VALIDATION', key, undefined, {}, key);

/** Quiet hours (contracts' QUIET_HOURS): texts only from 08:00 to 21:00 in the recipient's zone. */
const DAY_START = 8;
const DAY_END = 21;
/** A wait longer than this is handed to a later job (real time only): a job never idles for hours. */
const MAX_SLEEP_MS = 30_000;
/** A job hands over to a fresh one after this long (pg-boss expires long-running jobs). */
const JOB_SLICE_MS = 60_000;
/**
 * How long a recipient waits after the carrier (or our account) failed, not the recipient: before it is
 * sent again, or, when the carrier may have taken the text (no answer, a 5xx), before the carrier is asked.
 */
const RETRY_MS = 30_000;
/** Concurrent carrier calls of one job with the throttle off. */
const UNTHROTTLED_CONCURRENCY = 16;

/** When a recipient in `zone` may be texted, from `now` (a SQL timestamptz): now, or 08:00 local. */
function dueSql(now: string, zone: ReturnType<typeof sql>) {
  const local = sql`(${now}::timestamptz at time zone ${zone})`;
  return sql`(case when extract(hour from ${local}) >= ${DAY_START} and extract(hour from ${local}) < ${DAY_END}
      then ${now}::timestamptz
    when extract(hour from ${local}) >= ${DAY_END}
      then (date_trunc('day', ${local}) + interval '1 day 8 hours') at time zone ${zone}
    else (date_trunc('day', ${local}) + interval '8 hours') at time zone ${zone} end)`;
}

const hourFormats = new Map<string, Intl.DateTimeFormat>();
/** Whether it is quiet hours at `at` in `zone`. */
export function isQuiet(at: number, zone: string): boolean {
  let f = hourFormats.get(zone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', hourCycle: 'h23' });
    } catch {
      // A zone Intl does not know (the snapshot keeps only known ones): UTC's hours.
      f = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', hour: 'numeric', hourCycle: 'h23' });
    }
    hourFormats.set(zone, f);
  }
  const hour = Number(f.format(at));
  return hour < DAY_START || hour >= DAY_END;
}

// ---------------------------------------------------------------------------------------------- jobs

const ZSendPayload = z.object({
  agencyId: z.number(),
  businessId: z.number(),
  broadcastId: z.number(),
  run: z.number(),
  from: z.string(),
  /** Messages a second of this number. */
  rate: z.number(),
});
type SendPayload = z.infer<typeof ZSendPayload>;

const businessCtx = (deps: Deps, p: { agencyId: number; businessId: number }, name: string) =>
  tenantContext(
    deps,
    { level: 'business', agencyId: p.agencyId, businessId: p.businessId },
    { kind: 'system', source: 'job', name },
  );

export const sendJob = defineJob({
  name: 'broadcasts.send',
  payload: ZSendPayload,
  retry: { limit: 10, delaySeconds: 5, backoff: true },
  concurrency: 4,
  handler: async (deps, p) => {
    await workSender(businessCtx(deps, p, 'broadcast sending'), p);
  },
});

export const startJob = defineJob({
  name: 'broadcasts.start',
  payload: z.object({
    agencyId: z.number(),
    businessId: z.number(),
    broadcastId: z.number(),
    run: z.number(),
  }),
  retry: { limit: 3, delaySeconds: 10, backoff: true },
  handler: async (deps, p) => {
    const ctx = businessCtx(deps, p, 'broadcast start');
    await inTransaction(ctx, async (tx) => {
      const [b] = await tx.db
        .select()
        .from(broadcasts)
        .where(and(eq(broadcasts.id, p.broadcastId), eq(broadcasts.business_id, p.businessId)))
        .for('update');
      if (b?.status !== 'scheduled' || b.run !== p.run || b.deleted_at) return;
      try {
        await snapshot(tx, b);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        await tx.db
          .update(broadcasts)
          .set({ status: 'failed', failure: err.reason ?? err.message, completed_at: new Date() })
          .where(eq(broadcasts.id, b.id));
      }
    });
    await publishProgress(ctx, p.broadcastId);
  },
});

/**
 * Every minute and when a worker process starts: a send job for each broadcast and number with work left
 * (a job lost with a killed process, a slice's follow-up, recipients a stopped broadcast left `sending`).
 * Duplicates are harmless: one job works a number of a broadcast at a time (the lock), the others find it
 * taken and end.
 */
export const resumeJob = defineJob({
  name: 'broadcasts.resume',
  payload: z.object({}).passthrough(),
  retry: { limit: 0, delaySeconds: 10, backoff: false },
  cron: '* * * * *',
  handler: async (deps) => {
    await resumeSending(platformSystemContext(deps, 'job', 'broadcast resume'));
  },
});

export async function resumeSending(ctx: Ctx): Promise<number> {
  const { deps } = ctx;
  const now = new Date(engineNow(ctx)).toISOString();
  const res = await ctx.db.execute<{
    agency_id: number;
    business_id: number;
    id: number;
    run: number;
    from_number: string;
    broadcaster_id: number | null;
  }>(sql`
    select distinct b.agency_id, b.business_id, b.id, b.run, r.from_number, r.broadcaster_id
      from broadcasts b join broadcast_recipients r on r.broadcast_id = b.id
     where r.from_number is not null
       and ((b.status = 'sending'
             and (r.state = 'sending' or (r.state = 'pending' and r.due_at <= ${now}::timestamptz + interval '1 minute')))
         -- A stopped broadcast's recipients the carrier may have taken: asked, so they say sent or pending.
         or (r.state = 'sending' and r.due_at <= ${now}::timestamptz))`);
  for (const r of res.rows) {
    const bctx = businessCtx(deps, { agencyId: r.agency_id, businessId: r.business_id }, 'broadcast resume');
    const senders = await sendersOf(bctx, []);
    await enqueue(bctx, sendJob, {
      agencyId: r.agency_id,
      businessId: r.business_id,
      broadcastId: r.id,
      run: r.run,
      from: r.from_number,
      rate: senders.find((s) => s.phone === r.from_number)?.rate ?? 1,
    });
  }
  return res.rows.length;
}

// ------------------------------------------------------------------------------------------ starting

type BroadcastRow = typeof broadcasts.$inferSelect;

async function lockBroadcast(tx: Ctx, id: number): Promise<BroadcastRow> {
  const [b] = await tx.db
    .select()
    .from(broadcasts)
    .where(scope(tx, broadcasts, eq(broadcasts.id, id)))
    .for('update');
  return found(b);
}

/** The checks made once on the message: something to send, and no SHAFT content (nor profanity). */
async function checkMessage(tx: Ctx, b: BroadcastRow): Promise<void> {
  if (!b.body.trim() && b.media.length === 0) throw refuse('broadcasts.empty');
  if (b.body.trim()) await assertContent(tx, b.body);
}

/** Credits one message uses (segments, or an image's): the estimate's unit. */
export const creditsPerMessage = (b: Pick<BroadcastRow, 'body' | 'media'>) =>
  messageCount('out', b.body, b.media.length);

async function sendersFor(tx: Ctx, b: BroadcastRow): Promise<Sender[]> {
  const senders = await sendersOf(tx, b.broadcaster_ids);
  if (b.broadcaster_ids.length > 0 && senders.length === 0) throw refuse('broadcasts.no_broadcasters');
  return senders;
}

/** A 422 naming the number the carrier would not take a broadcast from, and why (a registration.number_* key). */
export class SendingBlocked extends AppError {
  constructor(
    readonly number: string,
    readonly refusal: string,
  ) {
    super('VALIDATION', 'registration.broadcast_blocked', undefined, { number, reason: refusal }, refusal, {
      number,
      reason: refusal,
    });
  }
}

/**
 * SMS registration (ADR 092): every number the broadcast would send from may text at volume (on the
 * agency's approved campaign, or a verified toll-free number), else a 422 naming the first that may not
 * and why. Agencies not held to registration are let through (sendingAllowance answers no refusal).
 */
async function checkRegistration(tx: Ctx, b: BroadcastRow, phones: Iterable<string>): Promise<void> {
  for (const phone of new Set(phones)) {
    const { refusal } = await sendingAllowance(tx, { agencyId: b.agency_id, phone });
    if (refusal) throw new SendingBlocked(phone, refusal);
  }
}

/** The numbers the broadcast's recipients still to send are sent from. */
async function pendingNumbers(tx: Ctx, b: BroadcastRow): Promise<string[]> {
  const res = await tx.db.execute<{ from_number: string }>(sql`
    select distinct from_number from broadcast_recipients
     where broadcast_id = ${b.id} and state = 'pending' and from_number is not null`);
  return res.rows.map((r) => r.from_number);
}

/**
 * The pace of a send job: the number's rate, and no faster than its approved campaign's throughput (the
 * carrier's messages a second for the agency's A2P campaign) when the carrier gave one.
 */
async function paceOf(ctx: Ctx, p: SendPayload): Promise<number> {
  const { throughputMps } = await sendingAllowance(ctx, { agencyId: p.agencyId, phone: p.from });
  return throughputMps && throughputMps > 0 ? Math.min(p.rate, throughputMps) : p.rate;
}

/** Counts `count` recipients' credits against the month, or refuses (422) when they do not fit. */
async function reserveCredits(tx: Ctx, b: BroadcastRow, count: number): Promise<number> {
  const credits = count * creditsPerMessage(b);
  if (credits > 0 && !(await countMessages(tx, { count: credits, enforce: true })))
    throw refuse('broadcasts.credits_exceeded');
  return credits;
}

/** Writes audience rows as recipients (a phone already in the snapshot is left as it is). */
async function insertRecipients(tx: Ctx, b: BroadcastRow, rows: AudienceRow[], now: number): Promise<number> {
  if (rows.length === 0) return 0;
  const at = new Date(now).toISOString();
  // The due time is worked out once a time zone, not once a recipient.
  const res = await tx.db.execute(sql`
    with v as (
      select * from unnest(${sql.param(rows.map((r) => r.contactId))}::int[], ${sql.param(rows.map((r) => r.phone))}::text[],
                  ${sql.param(rows.map((r) => r.name))}::text[], ${sql.param(rows.map((r) => r.installId))}::int[],
                  ${sql.param(rows.map((r) => (r.skip ? 'skipped' : 'pending')))}::text[],
                  ${sql.param(rows.map((r) => r.skip))}::text[], ${sql.param(rows.map((r) => r.timeZone))}::text[],
                  ${sql.param(rows.map((r) => r.sender?.broadcasterId ?? null))}::int[],
                  ${sql.param(rows.map((r) => r.sender?.phone ?? null))}::text[])
           as v(contact_id, phone, name, install_id, state, skip_reason, time_zone, broadcaster_id, from_number)),
    z as (select zone, ${dueSql(at, sql`zone`)} as due from (select distinct time_zone as zone from v) zones)
    insert into broadcast_recipients (broadcast_id, business_id, contact_id, phone, name, install_id, state,
      skip_reason, time_zone, due_at, broadcaster_id, from_number)
    select ${b.id}, ${b.business_id}, v.contact_id, v.phone, v.name, v.install_id, v.state, v.skip_reason,
           v.time_zone, case when v.state = 'pending' then z.due else ${at}::timestamptz end,
           v.broadcaster_id, v.from_number
      from v join z on z.zone = v.time_zone
    on conflict (broadcast_id, phone) do nothing`);
  return res.rowCount ?? 0;
}

/** A send job for each number the broadcast's pending recipients are sent from. */
async function enqueueSenders(tx: Ctx, b: BroadcastRow, run: number, senders: Sender[]): Promise<void> {
  const res = await tx.db.execute<{ from_number: string }>(sql`
    select distinct from_number from broadcast_recipients
     where broadcast_id = ${b.id} and state = 'pending' and from_number is not null`);
  for (const r of res.rows)
    await enqueue(tx, sendJob, {
      agencyId: b.agency_id,
      businessId: b.business_id,
      broadcastId: b.id,
      run,
      from: r.from_number,
      rate: senders.find((s) => s.phone === r.from_number)?.rate ?? 1,
    });
}

/** The snapshot of a broadcast starting now, its credits and its jobs; status `sending`. */
async function snapshot(tx: Ctx, b: BroadcastRow): Promise<void> {
  await checkMessage(tx, b);
  const senders = await sendersFor(tx, b);
  const rows = await resolveAudience(tx, b.audience, senders);
  const eligible = rows.filter((r) => !r.skip).length;
  if (eligible === 0) throw refuse('broadcasts.no_recipients');
  await checkRegistration(
    tx,
    b,
    rows.flatMap((r) => (r.skip || !r.sender ? [] : [r.sender.phone])),
  );
  const credits = await reserveCredits(tx, b, eligible);
  const now = engineNow(tx);
  await insertRecipients(tx, b, rows, now);
  const run = b.run + 1;
  await tx.db
    .update(broadcasts)
    .set({
      status: 'sending',
      run,
      credits_estimated: credits,
      started_at: new Date(now),
      completed_at: null,
      failure: null,
      updated_at: new Date(),
    })
    .where(eq(broadcasts.id, b.id));
  await enqueueSenders(tx, b, run, senders);
  tx.afterCommit(() => announceProgress(tx, { broadcastId: b.id }));
}

/**
 * Starts a broadcast inside the caller's transaction (the broadcast row is already written there):
 * `at` null or past: the snapshot and its jobs are written now and the status is `sending`; else the status
 * is `scheduled` and a start job waits for `at`. Refuses (422) what cannot be sent (no broadcasters, the
 * content checks, no eligible recipient, the monthly messages).
 */
export async function startSending(tx: Ctx, input: { broadcastId: number; at: Date | null }): Promise<void> {
  const b = await lockBroadcast(tx, input.broadcastId);
  if (input.at && input.at.getTime() > engineNow(tx)) {
    await checkMessage(tx, b);
    await sendersFor(tx, b);
    const run = b.run + 1;
    await tx.db
      .update(broadcasts)
      .set({ status: 'scheduled', send_at: input.at, run, updated_at: new Date() })
      .where(eq(broadcasts.id, b.id));
    await enqueue(
      tx,
      startJob,
      { agencyId: b.agency_id, businessId: b.business_id, broadcastId: b.id, run },
      // pg-boss waits on the wall clock: the same delay as on the engine's (they differ only in tests).
      { startAfter: new Date(Date.now() + (input.at.getTime() - engineNow(tx))) },
    );
    return;
  }
  await snapshot(tx, b);
}

/** Stops a scheduled or sending broadcast: nothing more goes out (the pending recipients stay pending). */
export async function stopSending(tx: Ctx, input: { broadcastId: number }): Promise<void> {
  const b = await lockBroadcast(tx, input.broadcastId);
  if (b.status !== 'scheduled' && b.status !== 'sending') throw refuse('broadcasts.not_running');
  await tx.db
    .update(broadcasts)
    .set({ status: 'stopped', updated_at: new Date() })
    .where(eq(broadcasts.id, b.id));
  tx.afterCommit(() => announceProgress(tx, { broadcastId: b.id }));
}

/** Sends again to recipients not yet sent or failed, and with `includeNew` to new members of the audience. */
export async function rerunSending(
  tx: Ctx,
  input: { broadcastId: number; includeNew: boolean },
): Promise<void> {
  const b = await lockBroadcast(tx, input.broadcastId);
  if (!['stopped', 'completed', 'failed'].includes(b.status)) throw refuse('broadcasts.not_rerunnable');
  await checkMessage(tx, b);
  const senders = await sendersFor(tx, b);
  const now = engineNow(tx);
  const at = new Date(now).toISOString();
  const pendingNow = async () =>
    (
      await tx.db.execute<{ n: number }>(
        sql`select count(*)::int as n from broadcast_recipients where broadcast_id = ${b.id} and state = 'pending'`,
      )
    ).rows[0]?.n ?? 0;
  // Pending recipients (a stopped run's) had their credits counted at the start; failed and new ones not.
  const before = await pendingNow();
  // A failed recipient is sent a new message (its failed one stays in the conversation).
  await tx.db.execute(sql`
    update broadcast_recipients set state = 'pending', claimed_at = null, message_id = null, carrier_sid = null,
           error_code = null, error_message = null, sent_at = null, credits = 0,
           due_at = ${dueSql(at, sql`coalesce(time_zone, 'UTC')`)}
     where broadcast_id = ${b.id} and state = 'failed' and from_number is not null`);
  if (input.includeNew) {
    const rows = await resolveAudience(tx, b.audience, senders);
    await insertRecipients(tx, b, rows, now);
  }
  const pending = await pendingNow();
  if (pending === 0) throw refuse('broadcasts.no_recipients');
  await checkRegistration(tx, b, await pendingNumbers(tx, b));
  const credits = await reserveCredits(tx, b, pending - before);
  const run = b.run + 1;
  await tx.db
    .update(broadcasts)
    .set({
      status: 'sending',
      run,
      credits_estimated: b.credits_estimated + credits,
      completed_at: null,
      failure: null,
      updated_at: new Date(),
    })
    .where(eq(broadcasts.id, b.id));
  await enqueueSenders(tx, b, run, senders);
  tx.afterCommit(() => announceProgress(tx, { broadcastId: b.id }));
}

// ----------------------------------------------------------------------------------------- the worker

type Claimed = {
  id: number;
  contact_id: number | null;
  phone: string;
  install_id: number | null;
  time_zone: string | null;
  message_id: number | null;
  body: string;
  segments: number;
};

type Outcome =
  | { kind: 'sent'; r: Claimed; sid: string; at: number }
  | { kind: 'failed'; r: Claimed; code: number | null; message: string; optedOut: boolean }
  | { kind: 'back'; r: Claimed }
  /** The carrier refused for a moment (our account, its rate limit), not the recipient: sent again later. */
  | { kind: 'retry'; r: Claimed }
  /**
   * No answer, or the carrier's own failure (a 5xx): it may have taken the text. The recipient stays
   * `sending` and the carrier is asked a little later (`recover`) before anything is sent again.
   */
  | { kind: 'unsure'; r: Claimed };

/**
 * A send job: works the pending recipients of one number of one broadcast while no other worker does (a
 * session advisory lock on its own connection: released by PostgreSQL the moment a killed worker's
 * connection drops).
 */
async function workSender(ctx: Ctx, p: SendPayload): Promise<void> {
  const client = await poolOf(ctx.deps.db).connect();
  let next: 'done' | 'again' | Date = 'done';
  let locked = false;
  try {
    const res = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1, hashtext($2)) as ok', [
      p.broadcastId,
      p.from,
    ]);
    locked = res.rows[0]?.ok === true;
    if (!locked) return;
    next = await sendLoop(ctx, p);
  } finally {
    if (locked)
      await client
        .query('select pg_advisory_unlock($1, hashtext($2))', [p.broadcastId, p.from])
        .catch(() => null);
    client.release();
  }
  if (next instanceof Date) await enqueue(ctx, sendJob, p, { startAfter: next });
  else if (next === 'again') await enqueue(ctx, sendJob, p);
  else await finishIfDone(ctx, p);
}

async function broadcastNow(ctx: Ctx, p: SendPayload) {
  const [b] = await ctx.db
    .select({ status: broadcasts.status, run: broadcasts.run, media: broadcasts.media })
    .from(broadcasts)
    .where(and(eq(broadcasts.id, p.broadcastId), eq(broadcasts.business_id, p.businessId)));
  return b && b.status === 'sending' && b.run === p.run ? b : null;
}

async function sendLoop(ctx: Ctx, p: SendPayload): Promise<'done' | 'again' | Date> {
  const pacer = pacerFor(ctx);
  const started = Date.now();
  try {
    const carrier = await carrierFor(ctx);
    const [row] = await ctx.db
      .select({ media: broadcasts.media })
      .from(broadcasts)
      .where(eq(broadcasts.id, p.broadcastId));
    const media = row?.media ?? [];
    let unsure = await recover(ctx, p, carrier, media);
    const throttle = ctx.deps.config.broadcastThrottle;
    const rate = await paceOf(ctx, p);
    const intervalMs = Math.max(1, Math.round(1000 / Math.max(0.01, rate)));
    // The first batch is small, so that the first message leaves at once; then batches of 200.
    let batchSize = throttle ? Math.min(50, Math.max(1, Math.ceil(rate * 2))) : 20;
    let fieldKeys: string[] | null = null;
    let zones: string[] | null = null;
    for (;;) {
      // Recipients the carrier may have taken, once their wait is over: asked before they are sent again.
      if (unsure > 0) unsure = await recover(ctx, p, carrier, media);
      const b = await broadcastNow(ctx, p);
      if (!b) return 'done';
      const now = pacer.now();
      fieldKeys ??= await contactFieldKeys(ctx);
      zones ??= await zonesOf(ctx, p);
      const batch = await claim(ctx, p, b.media, now, batchSize, fieldKeys, zones);
      if (batch.length === 0) {
        const due = await nextDue(ctx, p);
        if (due === null) return 'done';
        const wait = due - pacer.now();
        if (!pacer.virtual && wait > MAX_SLEEP_MS) return new Date(Date.now() + wait);
        // Never a busy loop on the wall clock (rows due now but not claimable).
        await pacer.sleep(pacer.virtual ? wait : Math.max(wait, 50));
        continue;
      }
      if (!throttle) batchSize = 200;
      const outcomes = throttle
        ? await sendPaced(ctx, p, carrier, b.media, batch, pacer, intervalMs)
        : await sendAtOnce(ctx, p, carrier, b.media, batch, pacer);
      await record(ctx, outcomes, pacer.now());
      if (outcomes.some((o) => o.kind === 'unsure')) unsure++;
      announceProgress(ctx, p);
      // The carrier failed a whole batch, not its recipients: it is down or refusing for now. The rest wait
      // (a later job, in real time) instead of each being tried, and then looked up, in the outage.
      if (outcomes.length >= 2 && outcomes.every((o) => o.kind === 'unsure' || o.kind === 'retry')) {
        if (!pacer.virtual) return new Date(Date.now() + RETRY_MS);
        await pacer.sleep(RETRY_MS);
      }
      if (!pacer.virtual && Date.now() - started > JOB_SLICE_MS) return 'again';
    }
  } finally {
    pacer.done();
  }
}

const intArr = (ids: number[]) => sql`${sql.param(ids)}::int[]`;

/**
 * Claims the next due recipients of the number (state `sending`, committed before any is sent) and writes
 * their conversation messages; first moves those whose zone is now in quiet hours to their morning.
 * Contacts that opted out or were blocked since the snapshot are skipped.
 */
async function claim(
  ctx: Ctx,
  p: SendPayload,
  media: TMessageMedia[],
  now: number,
  limit: number,
  fieldKeys: string[],
  zones: string[],
): Promise<Claimed[]> {
  const at = new Date(now).toISOString();
  const zone = sql`coalesce(time_zone, 'UTC')`;
  // Only the zones (of this number's recipients) where it is night now are looked at.
  const quiet = zones.filter((z) => isQuiet(now, z));
  return inTransaction(ctx, async (tx) => {
    if (quiet.length)
      await tx.db.execute(sql`
        update broadcast_recipients set due_at = ${dueSql(at, zone)}
         where broadcast_id = ${p.broadcastId} and from_number = ${p.from} and state = 'pending'
           and due_at <= ${at}::timestamptz and ${zone} = any(${sql.param(quiet)}::text[])
           and ${dueSql(at, zone)} > ${at}::timestamptz`);
    // Sent in the order they are due: an UPDATE's RETURNING keeps no order of its own (it follows the
    // plan, and a prepared statement's plan may change), so the claimed rows are ordered once updated.
    const res = await tx.db.execute<Omit<Claimed, 'body' | 'segments'>>(sql`
      with picked as (
        select id from broadcast_recipients
         where broadcast_id = ${p.broadcastId} and from_number = ${p.from} and state = 'pending'
           and due_at <= ${at}::timestamptz
         order by due_at, id limit ${limit} for update skip locked
      ), claimed as (
        update broadcast_recipients r
           set state = 'sending', claimed_at = ${at}::timestamptz, attempts = r.attempts + 1
          from picked where r.id = picked.id
        returning r.id, r.contact_id, r.phone, r.install_id, r.time_zone, r.message_id, r.due_at
      )
      select id, contact_id, phone, install_id, time_zone, message_id from claimed order by due_at, id`);
    if (res.rows.length === 0) return [];
    const [b] = await tx.db
      .select({ body: broadcasts.body })
      .from(broadcasts)
      .where(eq(broadcasts.id, p.broadcastId));
    const template = b?.body ?? '';
    const contacts = new Map(
      (
        await contactsByIds(
          tx,
          res.rows.map((r) => r.contact_id).filter((id): id is number => id !== null),
        )
      ).map((c) => [c.id, c]),
    );
    // What changed since the snapshot: a contact deleted, opted out, blocked or blacklisted is skipped.
    const blacklisted = await blockedAmong(
      tx,
      res.rows.map((r) => r.phone),
    );
    const skipped: { id: number; reason: TSkipReason }[] = [];
    const fresh: Claimed[] = [];
    const old: Claimed[] = [];
    const merges = /\{/.test(template);
    // The Google review links of the recipients' installs (ADR 091), once per batch, through a port.
    const reviewLinks = /\{\s*review_link/i.test(template)
      ? await ctx.deps.ports.reviews.linksOfInstalls(tx, {
          installIds: res.rows.map((r) => r.install_id).filter((id): id is number => id !== null),
        })
      : new Map<number, string>();
    for (const r of res.rows) {
      const c = r.contact_id === null ? undefined : contacts.get(r.contact_id);
      const reason: TSkipReason | null = !c
        ? 'unreachable'
        : c.opted_out_at
          ? 'opted_out'
          : c.blocked_at
            ? 'blocked'
            : blacklisted.has(r.phone)
              ? 'blacklisted'
              : null;
      if (reason || !c) {
        skipped.push({ id: r.id, reason: reason ?? 'unreachable' });
        continue;
      }
      let body = template;
      if (merges) {
        const values: Record<string, string> = {};
        for (const k of fieldKeys) values[k.toLowerCase()] = c.fields?.[k] ?? '';
        const standard: Record<(typeof TEMPLATE_MERGE_FIELDS)[number], string> = {
          first_name: c.first_name,
          last_name: c.last_name,
          name: `${c.first_name} ${c.last_name}`.trim(),
          phone: c.phone,
          email: c.email ?? '',
          review_link: r.install_id === null ? '' : (reviewLinks.get(r.install_id) ?? ''),
        };
        body = fillTemplate(template, { ...values, ...standard }).trim();
      }
      const row = { ...r, body, segments: messageCount('out', body, media.length) };
      (r.message_id === null ? fresh : old).push(row);
    }
    if (skipped.length)
      await tx.db.execute(sql`
        update broadcast_recipients r set state = 'skipped', skip_reason = v.reason
          from unnest(${intArr(skipped.map((s) => s.id))}, ${sql.param(skipped.map((s) => s.reason))}::text[])
               as v(id, reason)
         where r.id = v.id`);
    if (old.length) {
      const bodies = await broadcastTextBodies(
        tx,
        old.map((r) => r.message_id as number),
      );
      for (const r of old) {
        r.body = bodies.get(r.message_id as number) ?? r.body;
        r.segments = messageCount('out', r.body, media.length);
      }
    }
    if (fresh.length) {
      const ids = await addBroadcastTexts(
        tx,
        fresh.map((r) => ({
          contactId: r.contact_id as number,
          installId: r.install_id,
          body: r.body,
          media,
          from: p.from,
          to: r.phone,
          segments: r.segments,
          broadcastId: p.broadcastId,
          at: new Date(now),
        })),
      );
      fresh.forEach((r, i) => {
        r.message_id = ids[i] ?? null;
      });
      await tx.db.execute(sql`
        update broadcast_recipients r set message_id = v.message_id
          from unnest(${intArr(fresh.map((r) => r.id))}, ${intArr(fresh.map((r) => r.message_id as number))})
               as v(id, message_id)
         where r.id = v.id`);
    }
    return [...old, ...fresh];
  });
}

/** The time zones of the number's pending recipients (a job's whole run: the snapshot does not change them). */
async function zonesOf(ctx: Ctx, p: SendPayload): Promise<string[]> {
  const res = await ctx.db.execute<{ zone: string }>(sql`
    select distinct coalesce(time_zone, 'UTC') as zone from broadcast_recipients
     where broadcast_id = ${p.broadcastId} and from_number = ${p.from} and state = 'pending'`);
  return res.rows.map((r) => r.zone);
}

async function nextDue(ctx: Ctx, p: SendPayload): Promise<number | null> {
  const res = await ctx.db.execute<{ due: Date | string | null }>(sql`
    select min(due_at) as due from broadcast_recipients
     where broadcast_id = ${p.broadcastId} and from_number = ${p.from} and state in ('pending', 'sending')`);
  const due = res.rows[0]?.due;
  return due ? new Date(due).getTime() : null;
}

/** The number's next free slot, taken atomically (every process shares it): when this message may go. */
async function takeSlot(ctx: Ctx, from: string, now: number, intervalMs: number): Promise<number> {
  const at = new Date(now).toISOString();
  const res = await ctx.db.execute<{ slot: Date | string }>(sql`
    insert into broadcast_send_slots (phone_number, next_at)
    values (${from}, ${at}::timestamptz + ${intervalMs} * interval '1 millisecond')
    on conflict (phone_number) do update
      set next_at = greatest(broadcast_send_slots.next_at, ${at}::timestamptz) + ${intervalMs} * interval '1 millisecond'
    returning next_at - ${intervalMs} * interval '1 millisecond' as slot`);
  const slot = res.rows[0]?.slot;
  return slot ? new Date(slot).getTime() : now;
}

function statusUrl(ctx: Ctx, messageId: number): string {
  const base = ctx.deps.config.publicUrl.toString().replace(/\/+$/, '');
  return `${base}/webhooks${TWILIO_PATHS.smsStatus}?message=${messageId}`;
}

async function sendOne(
  ctx: Ctx,
  p: SendPayload,
  carrier: Carrier,
  media: TMessageMedia[],
  r: Claimed,
  now: number,
): Promise<Outcome> {
  if (isQuiet(now, r.time_zone ?? 'UTC')) return { kind: 'back', r };
  const base = ctx.deps.config.publicUrl.toString().replace(/\/+$/, '');
  try {
    const sent = await carrier.createMessage({
      to: r.phone,
      from: p.from,
      body: r.body,
      statusCallback: statusUrl(ctx, r.message_id as number),
      ...(media.length ? { mediaUrl: media.map((m) => ctx.deps.storage.absoluteUrl(m.url, base)) } : {}),
    });
    return { kind: 'sent', r, sid: sent.sid, at: now };
  } catch (err) {
    if (!(err instanceof CarrierError) || err.unclear) {
      // No answer or the carrier's own failure: it may have the text; asked before it is sent again.
      ctx.deps.log.warn({ err, recipient: r.id }, 'broadcast text: the carrier may not have it');
      return { kind: 'unsure', r };
    }
    if (err.refusedForNow) {
      // Refused for a moment (our account, the carrier's rate limit), not for the recipient: sent later.
      ctx.deps.log.warn({ err, recipient: r.id }, 'broadcast text not handed to the carrier');
      return { kind: 'retry', r };
    }
    return {
      kind: 'failed',
      r,
      code: err.code,
      message: err.message.slice(0, 500),
      optedOut: err.kind === 'opted-out',
    };
  }
}

/** With the throttle: one at a time, each at the number's next slot; a stop is seen before each. */
async function sendPaced(
  ctx: Ctx,
  p: SendPayload,
  carrier: Carrier,
  media: TMessageMedia[],
  batch: Claimed[],
  pacer: Pacer,
  intervalMs: number,
): Promise<Outcome[]> {
  const out: Outcome[] = [];
  let stopped = false;
  for (const r of batch) {
    if (!stopped) {
      const slot = await takeSlot(ctx, p.from, pacer.now(), intervalMs);
      const wait = slot - pacer.now();
      if (wait > 0) await pacer.sleep(wait);
      // A stop (or a new run) seen before each message: nothing more goes out.
      stopped = !(await broadcastNow(ctx, p));
    }
    out.push(stopped ? { kind: 'back', r } : await sendOne(ctx, p, carrier, media, r, pacer.now()));
  }
  return out;
}

async function sendAtOnce(
  ctx: Ctx,
  p: SendPayload,
  carrier: Carrier,
  media: TMessageMedia[],
  batch: Claimed[],
  pacer: Pacer,
): Promise<Outcome[]> {
  const out: Outcome[] = new Array(batch.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < batch.length; i = next++)
      out[i] = await sendOne(ctx, p, carrier, media, batch[i] as Claimed, pacer.now());
  };
  await Promise.all(Array.from({ length: Math.min(UNTHROTTLED_CONCURRENCY, batch.length) }, lane));
  return out;
}

/** Records a batch's outcomes: sent (sid, credits), failed (the carrier's error), or back to pending. */
async function record(ctx: Ctx, outcomes: Outcome[], now: number): Promise<void> {
  const sent = outcomes.filter((o): o is Extract<Outcome, { kind: 'sent' }> => o.kind === 'sent');
  const failed = outcomes.filter((o): o is Extract<Outcome, { kind: 'failed' }> => o.kind === 'failed');
  const back = outcomes.filter((o) => o.kind === 'back').map((o) => o.r.id);
  const retry = outcomes.filter((o) => o.kind === 'retry').map((o) => o.r.id);
  const unsure = outcomes.filter((o) => o.kind === 'unsure').map((o) => o.r.id);
  const at = new Date(now).toISOString();
  await inTransaction(ctx, async (tx) => {
    if (sent.length) {
      await tx.db.execute(sql`
        update broadcast_recipients r
           set state = case when r.state = 'sending' then 'sent' else r.state end,
               carrier_sid = v.sid, sent_at = v.at, credits = v.credits
          from unnest(${intArr(sent.map((s) => s.r.id))}, ${sql.param(sent.map((s) => s.sid))}::text[],
                      ${sql.param(sent.map((s) => new Date(s.at).toISOString()))}::timestamptz[],
                      ${intArr(sent.map((s) => s.r.segments))}) as v(id, sid, at, credits)
         where r.id = v.id`);
      await broadcastTextsSent(
        tx,
        sent.map((s) => ({ id: s.r.message_id as number, sid: s.sid })),
      );
      await touchContactsLastMessage(tx, {
        contactIds: sent.map((s) => s.r.contact_id).filter((id): id is number => id !== null),
        at: new Date(now),
      });
    }
    if (failed.length) {
      await tx.db.execute(sql`
        update broadcast_recipients r set state = 'failed', error_code = v.code, error_message = v.message
          from unnest(${intArr(failed.map((f) => f.r.id))}, ${sql.param(failed.map((f) => f.code))}::int[],
                      ${sql.param(failed.map((f) => f.message))}::text[]) as v(id, code, message)
         where r.id = v.id`);
      await broadcastTextStatuses(
        tx,
        failed.map((f) => ({
          id: f.r.message_id as number,
          status: 'failed',
          code: f.code,
          message: f.message,
        })),
      );
      for (const f of failed)
        if (f.optedOut && f.r.contact_id !== null)
          await setOptOut(tx, { contactId: f.r.contact_id, optedOut: true });
    }
    if (back.length)
      await tx.db.execute(sql`
        update broadcast_recipients set state = 'pending', claimed_at = null,
               due_at = ${dueSql(at, sql`coalesce(time_zone, 'UTC')`)}
         where id = any(${intArr(back)}) and state = 'sending'`);
    if (retry.length)
      await tx.db.execute(sql`
        update broadcast_recipients set state = 'pending', claimed_at = null,
               due_at = ${at}::timestamptz + ${RETRY_MS} * interval '1 millisecond'
         where id = any(${intArr(retry)}) and state = 'sending'`);
    // Still `sending`, with the claim kept (the carrier is asked for texts since it): asked once due.
    if (unsure.length)
      await tx.db.execute(sql`
        update broadcast_recipients set due_at = ${at}::timestamptz + ${RETRY_MS} * interval '1 millisecond'
         where id = any(${intArr(unsure)}) and state = 'sending'`);
  });
}

/**
 * Recipients of the number left `sending` (this job holds the number's lock, so no live worker has them):
 * by a worker that died, or after the carrier gave no clear answer (once their wait is over). The carrier
 * is asked whether it got each one's message since the claim; there, it is recorded as sent; not there, it
 * goes back to pending and is sent (its message row reused). Answers how many wait still (not yet due).
 */
async function recover(ctx: Ctx, p: SendPayload, carrier: Carrier, media: TMessageMedia[]): Promise<number> {
  const now = new Date(engineNow(ctx)).toISOString();
  const res = await ctx.db.execute<{
    id: number;
    phone: string;
    claimed_at: Date | string;
    message_id: number | null;
    due: boolean;
  }>(sql`
    select id, phone, claimed_at, message_id, due_at <= ${now}::timestamptz as due from broadcast_recipients
     where broadcast_id = ${p.broadcastId} and from_number = ${p.from} and state = 'sending'`);
  const due = res.rows.filter((r) => r.due);
  const waiting = res.rows.length - due.length;
  if (due.length === 0) return waiting;
  const bodies = await broadcastTextBodies(
    ctx,
    due.map((r) => r.message_id).filter((id): id is number => id !== null),
  );
  const outcomes: Outcome[] = [];
  for (const r of due) {
    const body = r.message_id === null ? undefined : bodies.get(r.message_id);
    const claimed = {
      ...r,
      contact_id: null,
      install_id: null,
      time_zone: null,
      body: body ?? '',
      segments: 0,
    };
    let found: { sid: string } | undefined;
    if (body !== undefined) {
      const since = new Date(new Date(r.claimed_at).getTime() - 60_000);
      const listed = await carrier.listMessages({ to: r.phone, from: p.from, sentAfter: since });
      found = listed.find((m) => m.body === body);
    }
    if (found)
      outcomes.push({ kind: 'sent', r: claimed, sid: found.sid, at: new Date(r.claimed_at).getTime() });
    else outcomes.push({ kind: 'back', r: claimed });
  }
  const contactIds = new Map<number, number | null>();
  if (outcomes.some((o) => o.kind === 'sent')) {
    const ids = outcomes.map((o) => o.r.id);
    const cres = await ctx.db.execute<{ id: number; contact_id: number | null }>(
      sql`select id, contact_id from broadcast_recipients where id = any(${intArr(ids)})`,
    );
    for (const c of cres.rows) contactIds.set(c.id, c.contact_id);
    for (const o of outcomes) {
      o.r.contact_id = contactIds.get(o.r.id) ?? null;
      o.r.segments = messageCount('out', o.r.body, media.length);
    }
  }
  ctx.deps.log.info(
    {
      broadcastId: p.broadcastId,
      from: p.from,
      found: outcomes.filter((o) => o.kind === 'sent').length,
      of: outcomes.length,
    },
    'broadcast recipients of a dead worker or an unclear answer looked up at the carrier',
  );
  // Back ones keep their due time: now (they were due when claimed, or their wait is over).
  await record(ctx, outcomes, engineNow(ctx));
  return waiting;
}

/** The broadcast is completed (or failed: nothing could be sent) once no recipient is left to send. */
async function finishIfDone(ctx: Ctx, p: SendPayload): Promise<void> {
  const res = await ctx.db.execute<{ status: string }>(sql`
    update broadcasts b
       set status = case when exists (select 1 from broadcast_recipients r
                                       where r.broadcast_id = b.id and r.state in ('sent', 'delivered'))
                         then 'completed' else 'failed' end,
           failure = case when exists (select 1 from broadcast_recipients r
                                        where r.broadcast_id = b.id and r.state in ('sent', 'delivered'))
                          then null else 'broadcasts.nothing_sent' end,
           completed_at = now(), updated_at = now()
     where b.id = ${p.broadcastId} and b.status = 'sending' and b.run = ${p.run}
       and not exists (select 1 from broadcast_recipients r
                        where r.broadcast_id = b.id and r.state in ('pending', 'sending'))
    returning b.status`);
  if (res.rows.length > 0) await publishProgress(ctx, p.broadcastId);
  else {
    // Work may have come for this number while the lock was being released: a job for it.
    const more = await ctx.db.execute(sql`
      select 1 from broadcast_recipients where broadcast_id = ${p.broadcastId} and from_number = ${p.from}
         and state in ('pending', 'sending') and due_at <= ${new Date(engineNow(ctx)).toISOString()}::timestamptz limit 1`);
    if (more.rows.length > 0 && (await broadcastNow(ctx, p))) await enqueue(ctx, sendJob, p);
  }
}

// ---------------------------------------------------------------------------------------- statuses

const FINAL: Record<string, 'delivered' | 'failed'> = {
  delivered: 'delivered',
  undelivered: 'failed',
  failed: 'failed',
};

/** A broadcast text's final status (chats' `messageStatusChanged`): its recipient is delivered or failed. */
export async function applyTextStatus(
  ctx: Ctx,
  input: { messageId: number; status: string; errorCode: number | null },
): Promise<number | null> {
  const state = FINAL[input.status];
  if (!state) return null;
  const { businessId } = businessOf(ctx);
  const res = await ctx.db.execute<{ id: number; broadcast_id: number; was: string }>(sql`
    update broadcast_recipients r set state = ${state},
           delivered_at = case when ${state} = 'delivered' then now() else r.delivered_at end,
           error_code = coalesce(${input.errorCode}::int, r.error_code)
      from (select id, state from broadcast_recipients
             where message_id = ${input.messageId} and business_id = ${businessId} and state in ('sending', 'sent')
               for update) o
     where r.id = o.id
    returning r.id, r.broadcast_id, o.state as was`);
  const row = res.rows[0];
  if (row?.was === 'sending') {
    // Its batch not yet recorded, or the carrier's answer unclear: the status says the carrier has the
    // text; its id, time and credits as its recording would have written them (a later recording agrees).
    const facts = (await broadcastTextFacts(ctx, [input.messageId])).get(input.messageId);
    if (facts)
      await ctx.db.execute(sql`
        update broadcast_recipients set carrier_sid = coalesce(carrier_sid, ${facts.sid}),
               sent_at = coalesce(sent_at, now()), credits = ${facts.segments}
         where id = ${row.id} and credits = 0`);
  }
  return row?.broadcast_id ?? null;
}

/** Re-reads the delivery status of the broadcast's sent messages from the carrier (50 at a time). */
export async function refreshStatuses(
  ctx: Ctx,
  input: { broadcastId: number },
): Promise<{ updated: number }> {
  const [b] = await ctx.db
    .select({ id: broadcasts.id })
    .from(broadcasts)
    .where(scope(ctx, broadcasts, eq(broadcasts.id, input.broadcastId)));
  found(b);
  const carrier = await carrierFor(ctx);
  let updated = 0;
  let after = 0;
  for (;;) {
    const res = await ctx.db.execute<{ id: number; carrier_sid: string; message_id: number | null }>(sql`
      select id, carrier_sid, message_id from broadcast_recipients
       where broadcast_id = ${input.broadcastId} and state = 'sent' and carrier_sid is not null and id > ${after}
       order by id limit 50`);
    if (res.rows.length === 0) break;
    after = res.rows[res.rows.length - 1]?.id ?? after;
    const fetched = await Promise.all(
      res.rows.map((r) =>
        carrier.fetchMessage(r.carrier_sid).then(
          (m) => ({ r, m }),
          () => null,
        ),
      ),
    );
    const final = fetched.filter(
      (f): f is NonNullable<typeof f> => f !== null && FINAL[f.m.status] !== undefined,
    );
    if (final.length === 0) continue;
    await inTransaction(ctx, async (tx) => {
      await tx.db.execute(sql`
        update broadcast_recipients r set state = v.state,
               delivered_at = case when v.state = 'delivered' then coalesce(r.delivered_at, now()) else r.delivered_at end,
               error_code = coalesce(v.code, r.error_code), error_message = coalesce(v.message, r.error_message)
          from unnest(${intArr(final.map((f) => f.r.id))}, ${sql.param(final.map((f) => FINAL[f.m.status]))}::text[],
                      ${sql.param(final.map((f) => f.m.errorCode))}::int[],
                      ${sql.param(final.map((f) => f.m.errorMessage))}::text[]) as v(id, state, code, message)
         where r.id = v.id and r.state = 'sent'`);
      await broadcastTextStatuses(
        tx,
        final
          .filter((f) => f.r.message_id !== null)
          .map((f) => ({
            id: f.r.message_id as number,
            status: f.m.status,
            code: f.m.errorCode,
            message: f.m.errorMessage,
          })),
      );
    });
    updated += final.length;
  }
  if (updated > 0) await publishProgress(ctx, input.broadcastId);
  return { updated };
}

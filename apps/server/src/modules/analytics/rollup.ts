// The daily rollups (ADR 081): a (business, install, local day) is rebuilt from the raw rows of that install
// and day, never incremented, so a retried job, a late carrier status or a duplicate event never counts twice.
// Days to rebuild are marked in `analytics_dirty` (by events, by the per-minute sweep, by hand) and taken by
// `rebuildDirty`, which works them in batches under a per-business lock. Time zones: an install's day is its
// local day (`analytics_tz`, a SQL function of the migration); install 0 takes the business's first install's.
import { CONNECT_HIST_BINS } from '@stn/contracts/analytics';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.ts';
import { type Ctx, inTransaction } from '../../platform/tenancy/context.ts';

export type DayKey = { business_id: number; install_id: number; day: string };

/** How many days one transaction rebuilds. */
const BATCH = 400;
const OVERFLOW_BIN = CONNECT_HIST_BINS - 1;

/** The local day of a time column for a row's business and install. */
export const localDay = (at: SQL, businessId: SQL, installId: SQL) =>
  sql`(${at} at time zone analytics_tz(${businessId}, ${installId}))::date`;

type ResolvedKey = DayKey & { agency_id: number; tz: string; lo: string; hi: string };

/** Each key's agency, time zone and day bounds [lo, hi) in UTC: resolved once per batch. */
async function resolveKeys(db: Tx, keys: DayKey[]): Promise<ResolvedKey[]> {
  const { rows } = await db.execute<ResolvedKey>(sql`
    with k as materialized (
      select * from unnest(${sql.param(keys.map((k) => k.business_id))}::int[],
                           ${sql.param(keys.map((k) => k.install_id))}::int[],
                           ${sql.param(keys.map((k) => k.day))}::date[]) as k(business_id, install_id, day)
    ),
    z as materialized (
      select business_id, install_id, analytics_tz(business_id, install_id) as tz
        from (select distinct business_id, install_id from k) i
    )
    select k.business_id, k.install_id, k.day::text as day, b.agency_id, z.tz,
           (k.day::timestamp at time zone z.tz)::text as lo,
           ((k.day + 1)::timestamp at time zone z.tz)::text as hi
      from k join z using (business_id, install_id)
      join businesses b on b.id = k.business_id`);
  return rows;
}

/** The resolved keys as a CTE `k` (no function call per statement). */
function keysCte(keys: ResolvedKey[]): SQL {
  return sql`k as materialized (
    select * from unnest(${sql.param(keys.map((k) => k.business_id))}::int[],
                         ${sql.param(keys.map((k) => k.install_id))}::int[],
                         ${sql.param(keys.map((k) => k.day))}::date[],
                         ${sql.param(keys.map((k) => k.agency_id))}::int[],
                         ${sql.param(keys.map((k) => k.tz))}::text[],
                         ${sql.param(keys.map((k) => k.lo))}::timestamptz[],
                         ${sql.param(keys.map((k) => k.hi))}::timestamptz[])
      as k(business_id, install_id, day, agency_id, tz, lo, hi)
  )`;
}

/** A call counts as answered when the visitor was connected (callbacks) or the call completed (inbound). */
const ANSWERED = sql`(c.connected_at is not null or c.outcome = 'completed')`;
// Each key reads its own rows in a lateral subquery that aggregates (so it is never flattened into a hash
// join over the whole table): an index range of one business and local day.
const CALLS_OF_K = sql`calls c where c.business_id = k.business_id and c.install_id = k.install_id
  and c.requested_at >= k.lo and c.requested_at < k.hi`;
const MESSAGES_OF_K = sql`m.business_id = k.business_id and m.sent_at >= k.lo
  and m.sent_at < k.hi and coalesce(m.install_id, 0) = k.install_id`;
/** Texts that count as sent: not a scheduled one still waiting, not canceled. */
const SENT = sql`m.direction = 'out' and m.status not in ('scheduled', 'canceled', 'draft')`;

/** The call counters of a group of calls `c`. */
const CALL_COUNTS = sql`
        count(*) filter (where c.kind = 'callback') as callbacks_requested,
        count(*) filter (where c.kind = 'callback' and c.connected_at is not null) as callbacks_answered,
        count(*) filter (where c.kind = 'callback' and c.outcome = 'missed') as callbacks_missed,
        count(*) filter (where c.kind = 'scheduled') as scheduled_calls,
        count(*) filter (where c.kind = 'inbound') as inbound_calls,
        count(*) filter (where c.kind = 'inbound' and ${ANSWERED}) as inbound_answered,
        count(*) filter (where ${ANSWERED}) as calls_answered,
        coalesce(sum(c.duration) filter (where ${ANSWERED}), 0) as talk_seconds`;

/** The text counters of a group of messages `m`, `f.first` saying a message is its contact's first. */
const messageCounts = (automated: SQL) => sql`
        count(*) filter (where m.direction = 'in') as texts_in,
        count(*) filter (where ${SENT}) as texts_out,
        coalesce(sum(m.segments) filter (where ${SENT}), 0) as segments_out,
        count(*) filter (where f.first) as conversations_started,
        count(*) filter (where f.first and m.direction = 'in') as leads_text,
        count(*) filter (where ${SENT} and m.broadcast_id is not null) as broadcast_texts,
        count(*) filter (where ${SENT} and ${automated}) as automation_texts`;

const DAILY_COLUMNS = sql`(business_id, install_id, day, agency_id,
      callbacks_requested, callbacks_answered, callbacks_missed, scheduled_calls, inbound_calls, inbound_answered,
      calls_answered, talk_seconds, texts_in, texts_out, segments_out, conversations_started, opt_outs,
      leads_callback, leads_text, leads_booking, leads_form, broadcast_texts, automation_texts)`;
/** A day's row from its calls `c`, texts `m`, opt-outs `o` and lead forms `l` (any of them may be missing). */
const DAILY_VALUES = sql`
      coalesce(c.callbacks_requested, 0), coalesce(c.callbacks_answered, 0), coalesce(c.callbacks_missed, 0),
      coalesce(c.scheduled_calls, 0), coalesce(c.inbound_calls, 0), coalesce(c.inbound_answered, 0),
      coalesce(c.calls_answered, 0), coalesce(c.talk_seconds, 0),
      coalesce(m.texts_in, 0), coalesce(m.texts_out, 0), coalesce(m.segments_out, 0),
      coalesce(m.conversations_started, 0), coalesce(o.opt_outs, 0),
      coalesce(c.callbacks_requested, 0), coalesce(m.leads_text, 0), coalesce(c.scheduled_calls, 0),
      coalesce(l.leads_form, 0), coalesce(m.broadcast_texts, 0), coalesce(m.automation_texts, 0)`;

/** Series 0's bin of an answered callback `c`: whole seconds to connect, the last bin longer. */
const CONNECT_BIN = sql`least(greatest(floor(extract(epoch from (c.connected_at - c.requested_at))), 0), ${OVERFLOW_BIN})::int`;
/** Series 1's bin of an answered call `c`: the local hour it was answered (or asked for). */
const hourBin = (tz: SQL) =>
  sql`extract(hour from (coalesce(c.connected_at, c.requested_at) at time zone ${tz}))::int`;

async function rebuildBatch(db: Tx, dayKeys: DayKey[]): Promise<void> {
  const businesses = [...new Set(dayKeys.map((k) => k.business_id))].sort((a, b) => a - b);
  for (const b of businesses)
    await db.execute(sql`select pg_advisory_xact_lock(hashtext('analytics'), ${b})`);
  // A batch's statements are many small index ranges: compiling them (JIT, past jit_above_cost for a few
  // hundred keys) costs more than running them.
  await db.execute(sql`set local jit = off`);
  const keys = await resolveKeys(db, dayKeys);
  const k = keysCte(keys);
  const inK = (t: SQL) =>
    sql`${t}.business_id = k.business_id and ${t}.install_id = k.install_id and ${t}.day = k.day`;
  await db.execute(sql`with ${k} delete from analytics_daily d using k where ${inK(sql`d`)}`);
  await db.execute(sql`with ${k} delete from analytics_agent_daily d using k where ${inK(sql`d`)}`);
  await db.execute(sql`with ${k} delete from analytics_bins d using k where ${inK(sql`d`)}`);

  await db.execute(sql`with ${k}
    insert into analytics_daily ${DAILY_COLUMNS}
    select k.business_id, k.install_id, k.day, k.agency_id, ${DAILY_VALUES}
    from k
    cross join lateral (
      select count(*) as n,
        ${CALL_COUNTS}
      from ${CALLS_OF_K}) c
    cross join lateral (
      select count(*) as n,
        ${messageCounts(sql`exists (
          select 1 from automation_steps s
           where s.type = 'SendMessage' and s.business_id = m.business_id
             and (s.detail->>'message_id') = m.id::text)`)}
      from messages m
      cross join lateral (select not exists (
        select 1 from messages p where p.contact_id = m.contact_id
          and (p.sent_at < m.sent_at or (p.sent_at = m.sent_at and p.id < m.id))) as first) f
      where ${MESSAGES_OF_K}) m
    cross join lateral (
      select count(*) as opt_outs from contacts ct
       where ct.opted_out_at >= k.lo and ct.opted_out_at < k.hi
         and ct.business_id = k.business_id and coalesce(ct.install_id, 0) = k.install_id) o
    cross join lateral (
      select count(*) as leads_form from lead_submissions s
       where s.business_id = k.business_id and s.created_at >= k.lo and s.created_at < k.hi
         and coalesce(s.install_id, 0) = k.install_id) l
    where c.n > 0 or m.n > 0 or o.opt_outs > 0 or l.leads_form > 0`);

  // Time to connect of answered callbacks (series 0, whole seconds, the last bin longer) and answers by local
  // hour (series 1): sparse bins, so that a range's histogram is one grouped sum.
  await db.execute(sql`with ${k}
    insert into analytics_bins (business_id, install_id, day, agency_id, series, bin, n)
    select k.business_id, k.install_id, k.day, k.agency_id, x.series, x.bin, x.n
    from k cross join lateral (
      select 0 as series,
        ${CONNECT_BIN} as bin,
        count(*) as n
      from ${CALLS_OF_K} and c.kind = 'callback' and c.connected_at is not null
      group by 1, 2
      union all
      select 1, ${hourBin(sql`k.tz`)}, count(*)
      from ${CALLS_OF_K} and ${ANSWERED}
      group by 1, 2) x`);

  await db.execute(sql`with ${k}
    insert into analytics_agent_daily (business_id, install_id, day, agent_user_id, agent_name, calls_answered,
      talk_seconds)
    select k.business_id, k.install_id, k.day, x.agent_user_id, x.agent_name, x.n, x.talk_seconds
    from k cross join lateral (
      select c.agent_user_id, coalesce(max(c.agent_name), '') as agent_name, count(*) as n,
        coalesce(sum(c.duration), 0) as talk_seconds
      from ${CALLS_OF_K} and ${ANSWERED} and c.agent_user_id is not null
      group by 1) x`);
}

/**
 * Rebuilds every day of some businesses (all of them by default) in one pass over their raw rows: what the first
 * sweep of a database does instead of marking each day, and what a bulk load (the bench) calls. The same
 * counters as a day's rebuild (the shared fragments above), grouped by local day instead of read day by day.
 */
export async function rebuildAll(ctx: Ctx, input: { businessIds?: number[] } = {}): Promise<void> {
  const only = input.businessIds;
  const scope = only ? sql`b.id = any(${sql.param(only)}::int[])` : sql`true`;
  await inTransaction(ctx, async (tx) => {
    const db = tx.db;
    const ids = only ?? [];
    if (only)
      for (const b of [...ids].sort((x, y) => x - y))
        await db.execute(sql`select pg_advisory_xact_lock(hashtext('analytics'), ${b})`);
    else
      await db.execute(
        sql`lock table analytics_daily, analytics_bins, analytics_agent_daily in exclusive mode`,
      );
    await db.execute(sql`set local jit = off`);
    // Each (business, install) with its zone and agency, once; install 0 holds the rows of no install.
    await db.execute(sql`create temporary table analytics_z on commit drop as
      select b.id as business_id, b.agency_id, i.install_id, analytics_tz(b.id, i.install_id) as tz
      from businesses b
      cross join lateral (select id as install_id from installs where business_id = b.id union all select 0) i
      where ${scope}`);
    await db.execute(sql`create index on analytics_z (business_id, install_id)`);
    await db.execute(sql`analyze analytics_z`);
    const mine = (t: string) => sql.raw(`${t}.business_id in (select business_id from analytics_z)`);
    await db.execute(sql`delete from analytics_daily d where ${mine('d')}`);
    await db.execute(sql`delete from analytics_agent_daily d where ${mine('d')}`);
    await db.execute(sql`delete from analytics_bins d where ${mine('d')}`);
    const callsZ = sql`calls c join analytics_z z on z.business_id = c.business_id and z.install_id = c.install_id`;
    const callDay = sql`(c.requested_at at time zone z.tz)::date`;
    await db.execute(sql`
      with c as (
        select c.business_id, c.install_id, ${callDay} as day, ${CALL_COUNTS}
        from ${callsZ} group by 1, 2, 3
      ),
      m as (
        select m.business_id, m.install_id, (m.sent_at at time zone z.tz)::date as day,
          ${messageCounts(sql`m.automated`)}
        from (
          select m.id, m.business_id, coalesce(m.install_id, 0) as install_id, m.direction, m.status, m.segments,
            m.broadcast_id, m.sent_at,
            row_number() over (partition by m.contact_id order by m.sent_at, m.id) = 1 as first,
            a.message_id is not null as automated
          from messages m
          left join (select distinct s.business_id, s.detail->>'message_id' as message_id from automation_steps s
                     where s.type = 'SendMessage') a
            on a.business_id = m.business_id and a.message_id = m.id::text
        ) m
        cross join lateral (select m.first) f
        join analytics_z z on z.business_id = m.business_id and z.install_id = m.install_id
        group by 1, 2, 3
      ),
      o as (
        select ct.business_id, coalesce(ct.install_id, 0) as install_id, (ct.opted_out_at at time zone z.tz)::date as day,
          count(*) as opt_outs
        from contacts ct join analytics_z z on z.business_id = ct.business_id and z.install_id = coalesce(ct.install_id, 0)
        where ct.opted_out_at is not null group by 1, 2, 3
      ),
      l as (
        select s.business_id, coalesce(s.install_id, 0) as install_id, (s.created_at at time zone z.tz)::date as day,
          count(*) as leads_form
        from lead_submissions s join analytics_z z on z.business_id = s.business_id and z.install_id = coalesce(s.install_id, 0)
        group by 1, 2, 3
      ),
      k as (
        select business_id, install_id, day from c union select business_id, install_id, day from m
        union select business_id, install_id, day from o union select business_id, install_id, day from l
      )
      insert into analytics_daily ${DAILY_COLUMNS}
      select k.business_id, k.install_id, k.day, z.agency_id, ${DAILY_VALUES}
      from k join analytics_z z using (business_id, install_id)
        left join c using (business_id, install_id, day)
        left join m using (business_id, install_id, day)
        left join o using (business_id, install_id, day)
        left join l using (business_id, install_id, day)`);
    await db.execute(sql`
      insert into analytics_bins (business_id, install_id, day, agency_id, series, bin, n)
      select c.business_id, c.install_id, ${callDay}, z.agency_id, 0, ${CONNECT_BIN}, count(*)
      from ${callsZ} where c.kind = 'callback' and c.connected_at is not null
      group by 1, 2, 3, 4, 5, 6
      union all
      select c.business_id, c.install_id, ${callDay}, z.agency_id, 1, ${hourBin(sql`z.tz`)}, count(*)
      from ${callsZ} where ${ANSWERED}
      group by 1, 2, 3, 4, 5, 6`);
    await db.execute(sql`
      insert into analytics_agent_daily (business_id, install_id, day, agent_user_id, agent_name, calls_answered,
        talk_seconds)
      select c.business_id, c.install_id, ${callDay}, c.agent_user_id, coalesce(max(c.agent_name), ''), count(*),
        coalesce(sum(c.duration), 0)
      from ${callsZ} where ${ANSWERED} and c.agent_user_id is not null
      group by 1, 2, 3, 4`);
    // Whatever was marked for these businesses is built now.
    await db.execute(sql`delete from analytics_dirty d where ${mine('d')}`);
  });
}

/** Rebuilds the given days now (a test, a changed time zone, the bench). */
export async function rebuildDays(ctx: Ctx, keys: DayKey[]): Promise<void> {
  for (let i = 0; i < keys.length; i += BATCH) {
    const batch = keys.slice(i, i + BATCH);
    await inTransaction(ctx, (tx) => rebuildBatch(tx.db, batch));
  }
}

/**
 * Takes marked days and rebuilds them, a batch per transaction, until none is left; answers how many. Two
 * workers never take the same marks (skip locked); a day marked again while it is rebuilt stays marked.
 */
export async function rebuildDirty(ctx: Ctx, max = Number.POSITIVE_INFINITY): Promise<number> {
  let done = 0;
  while (done < max) {
    const n = await inTransaction(ctx, async (tx) => {
      const { rows } = await tx.db.execute<{ business_id: number; install_id: number; day: string }>(sql`
        delete from analytics_dirty where ctid in (
          select ctid from analytics_dirty order by marked_at limit ${BATCH} for update skip locked)
        returning business_id, install_id, day::text as day`);
      if (rows.length > 0) await rebuildBatch(tx.db, rows);
      return rows.length;
    });
    if (n === 0) break;
    done += n;
  }
  return done;
}

/** Marks days to rebuild from a query answering (business_id, install_id, day). */
export async function markDays(ctx: Ctx, select: SQL): Promise<void> {
  await ctx.db.execute(sql`insert into analytics_dirty (business_id, install_id, day)
    select distinct business_id, install_id, day from (${select}) s
    on conflict (business_id, install_id, day) do update set marked_at = excluded.marked_at`);
}

/** The days of some calls (their request's local day). */
export const callDays = (where: SQL) =>
  sql`select business_id, install_id,
    ${localDay(sql`requested_at`, sql`business_id`, sql`install_id`)} as day from calls where ${where}`;

/** The days of some messages. */
export const messageDays = (where: SQL) =>
  sql`select business_id, coalesce(install_id, 0) as install_id,
    ${localDay(sql`sent_at`, sql`business_id`, sql`coalesce(install_id, 0)`)} as day from messages where ${where}`;

/** The days of some contacts' opt-outs. */
export const optOutDays = (where: SQL) =>
  sql`select business_id, coalesce(install_id, 0) as install_id,
    ${localDay(sql`opted_out_at`, sql`business_id`, sql`coalesce(install_id, 0)`)} as day
    from contacts where opted_out_at is not null and ${where}`;

/** The days of some lead submissions. */
export const leadDays = (where: SQL) =>
  sql`select business_id, coalesce(install_id, 0) as install_id,
    ${localDay(sql`created_at`, sql`business_id`, sql`coalesce(install_id, 0)`)} as day
    from lead_submissions where ${where}`;

/** The days of the texts some automation steps sent. */
export const automationTextDays = (where: SQL) =>
  messageDays(sql`id in (select (detail->>'message_id')::int from automation_steps
    where type = 'SendMessage' and detail ? 'message_id' and ${where})`);

/**
 * The days of some installs whose settings changed (a new time zone moves every row to another local day): the
 * days they have in the rollups now (and their businesses' rows of no install, which take the first install's
 * zone), and the local days of their raw rows in the zone they have now.
 */
export const installDays = (where: SQL) => {
  const changed = sql`select id from installs where ${where}`;
  const owners = sql`select business_id from installs where ${where}`;
  return sql`select business_id, install_id, day from analytics_daily where install_id in (${changed})
    union select business_id, install_id, day from analytics_daily where install_id = 0 and business_id in (${owners})
    union ${callDays(sql`install_id in (${changed})`)}
    union ${messageDays(sql`(install_id in (${changed}) or (install_id is null and business_id in (${owners})))`)}
    union ${optOutDays(sql`(install_id in (${changed}) or (install_id is null and business_id in (${owners})))`)}
    union ${leadDays(sql`(install_id in (${changed}) or (install_id is null and business_id in (${owners})))`)}`;
};

import type {
  TBroadcastRecipient,
  TBroadcastReport,
  TBroadcastReportQuery,
  TRecipientState,
  TSkipReason,
} from '@stn/contracts/broadcasts';
import { and, asc, count, eq, ilike, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import { type CsvCell, toCsv } from '../../platform/http/csv.ts';
import { likePattern, pageOf } from '../../platform/http/pagination.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';
import { broadcastReplies } from '../chats/service.ts';
import { asksToStop } from './opt-out-phrases.ts';
import { findBroadcast, getBroadcast } from './service.ts';
import { broadcastRecipients } from './tables.ts';

// A broadcast's report (GET /v1/broadcasts/{id}/report) and its CSV (GET /v1/broadcasts/report/download):
// the counts, failures and skips by reason, deliveries over time, and one row a recipient with its reply.

type RecipientRow = typeof broadcastRecipients.$inferSelect;
const r = broadcastRecipients;

function filters(broadcastId: number, q: Partial<TBroadcastReportQuery>): SQL | undefined {
  const digits = q.keyword?.replace(/[^\d]/g, '');
  return and(
    eq(r.broadcast_id, broadcastId),
    q.state ? eq(r.state, q.state) : undefined,
    q.replied === undefined ? undefined : q.replied ? isNotNull(r.replied_at) : isNull(r.replied_at),
    q.keyword
      ? or(ilike(r.name, likePattern(q.keyword)), digits ? ilike(r.phone, likePattern(digits)) : undefined)
      : undefined,
  );
}

/** The rows as the report shows them, each with its latest reply and whether it asks to stop in words. */
async function toRecipients(
  ctx: Ctx,
  broadcastId: number,
  rows: RecipientRow[],
): Promise<TBroadcastRecipient[]> {
  const contactIds = [...new Set(rows.flatMap((x) => (x.replied_at && x.contact_id ? [x.contact_id] : [])))];
  const replies = contactIds.length ? await broadcastReplies(ctx, { broadcastId, contactIds }) : [];
  const latest = new Map<number, string>();
  const asking = new Set<number>();
  for (const reply of replies) {
    latest.set(reply.contactId, reply.body);
    if (asksToStop(reply.body)) asking.add(reply.contactId);
  }
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return rows.map((x) => ({
    id: x.id,
    contact_id: x.contact_id,
    name: x.name,
    phone: x.phone,
    state: x.state as TRecipientState,
    skip_reason: (x.skip_reason as TSkipReason | null) ?? null,
    error_code: x.error_code,
    error_message: x.error_message,
    from_number: x.from_number,
    due_at: x.due_at.toISOString(),
    sent_at: iso(x.sent_at),
    delivered_at: iso(x.delivered_at),
    replied_at: iso(x.replied_at),
    opted_out_at: iso(x.opted_out_at),
    reply: x.contact_id !== null ? (latest.get(x.contact_id) ?? null) : null,
    asks_to_stop: x.contact_id !== null && asking.has(x.contact_id),
  }));
}

/** The bucket of the timeline: a minute for a broadcast sent within two hours, an hour within three days, else a day. */
async function timeline(ctx: Ctx, broadcastId: number): Promise<TBroadcastReport['timeline']> {
  const [span] = await ctx.db
    .select({ first: sql<string | null>`min(${r.sent_at})`, last: sql<string | null>`max(${r.sent_at})` })
    .from(r)
    .where(eq(r.broadcast_id, broadcastId));
  if (!span?.first || !span.last) return [];
  const ms = new Date(span.last).getTime() - new Date(span.first).getTime();
  const unit = ms <= 2 * 3_600_000 ? 'minute' : ms <= 3 * 86_400_000 ? 'hour' : 'day';
  const rows = await ctx.db.execute<{ at: Date | string; sent: number; delivered: number }>(sql`
    with s as (
      select date_trunc(${unit}, ${r.sent_at}, 'UTC') as at, count(*)::int as n
      from ${r} where ${r.broadcast_id} = ${broadcastId} and ${r.sent_at} is not null group by 1
    ), d as (
      select date_trunc(${unit}, ${r.delivered_at}, 'UTC') as at, count(*)::int as n
      from ${r} where ${r.broadcast_id} = ${broadcastId} and ${r.delivered_at} is not null group by 1
    )
    select coalesce(s.at, d.at) as at, coalesce(s.n, 0) as sent, coalesce(d.n, 0) as delivered
    from s full join d on s.at = d.at order by 1`);
  return rows.rows.map((x) => ({
    at: new Date(x.at).toISOString(),
    sent: Number(x.sent),
    delivered: Number(x.delivered),
  }));
}

export async function broadcastReport(
  ctx: Ctx,
  id: number,
  q: TBroadcastReportQuery,
): Promise<TBroadcastReport> {
  const cur = await findBroadcast(ctx, id);
  const where = filters(cur.id, q);
  const { limit, offset } = pageOf(q);
  const [broadcast, rows, [total], failed, skipped, line] = await Promise.all([
    getBroadcast(ctx, cur.id),
    ctx.db.select().from(r).where(where).orderBy(asc(r.id)).limit(limit).offset(offset),
    ctx.db.select({ n: count() }).from(r).where(where),
    ctx.db
      .select({
        reason: sql<string>`coalesce(${r.error_code}::text, nullif(${r.error_message}, ''), 'unknown')`,
        count: count(),
      })
      .from(r)
      .where(and(eq(r.broadcast_id, cur.id), eq(r.state, 'failed')))
      .groupBy(sql`1`)
      .orderBy(sql`2 desc`, sql`1`),
    ctx.db
      .select({ reason: sql<TSkipReason>`${r.skip_reason}`, count: count() })
      .from(r)
      .where(and(eq(r.broadcast_id, cur.id), eq(r.state, 'skipped'), isNotNull(r.skip_reason)))
      .groupBy(r.skip_reason)
      .orderBy(sql`2 desc`, sql`1`),
    timeline(ctx, cur.id),
  ]);
  return {
    broadcast,
    failed_by_reason: failed,
    skipped_by_reason: skipped,
    timeline: line,
    recipients: await toRecipients(ctx, cur.id, rows),
    meta: { total: total?.n ?? 0, page: q.page, perPage: q.perPage },
  };
}

/** The report's columns, in the CSV: the same as its rows. */
export const REPORT_CSV_COLUMNS = [
  'name',
  'phone',
  'state',
  'skip_reason',
  'error_code',
  'error_message',
  'from_number',
  'due_at',
  'sent_at',
  'delivered_at',
  'replied_at',
  'opted_out_at',
  'reply',
  'asks_to_stop',
] as const;

/** Every recipient of the broadcast as CSV, through the one CSV writer (ADR 021). */
export async function reportCsv(ctx: Ctx, id: number): Promise<{ csv: string; filename: string }> {
  const cur = await findBroadcast(ctx, id);
  const rows = await ctx.db.select().from(r).where(eq(r.broadcast_id, cur.id)).orderBy(asc(r.id));
  const list = await toRecipients(ctx, cur.id, rows);
  const out: CsvCell[][] = list.map((x) =>
    REPORT_CSV_COLUMNS.map((k) => (k === 'asks_to_stop' ? (x[k] ? 'yes' : 'no') : x[k])),
  );
  const slug =
    cur.name
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'broadcast';
  return { csv: toCsv([...REPORT_CSV_COLUMNS], out), filename: `broadcast-${cur.id}-${slug}.csv` };
}

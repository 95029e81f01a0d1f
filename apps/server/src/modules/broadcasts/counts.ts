// A broadcast's counts (the list, the report) and its progress on /ws (ADR 061): `broadcast_progress` on
// the business's channel, at most twice a second per broadcast whatever the sending rate (the last change
// is always told: a call within the window is published at its end).
import type { TBroadcastCounts, TBroadcastProgressEvent, TBroadcastStatus } from '@stn/contracts/broadcasts';
import { sql } from 'drizzle-orm';
import { channel } from '../../platform/realtime/hub.ts';
import { businessOf, type Ctx, tenantContext } from '../../platform/tenancy/context.ts';

/** The counts of a broadcast with no recipients yet. */
export const NO_COUNTS: Readonly<TBroadcastCounts> = {
  total: 0,
  pending: 0,
  sent: 0,
  delivered: 0,
  failed: 0,
  skipped: 0,
  replied: 0,
  opted_out: 0,
  credits_used: 0,
};

/** The counts of these broadcasts' recipients (a broadcast with none, or another business's: zeros). */
export async function broadcastCounts(ctx: Ctx, ids: number[]): Promise<Map<number, TBroadcastCounts>> {
  const out = new Map<number, TBroadcastCounts>(ids.map((id) => [id, { ...NO_COUNTS }]));
  if (ids.length === 0) return out;
  const { businessId } = businessOf(ctx);
  const res = await ctx.db.execute<Record<keyof TBroadcastCounts, number> & { broadcast_id: number }>(sql`
    select broadcast_id, count(*)::int as total,
           count(*) filter (where state in ('pending', 'sending'))::int as pending,
           count(*) filter (where state in ('sent', 'delivered'))::int as sent,
           count(*) filter (where state = 'delivered')::int as delivered,
           count(*) filter (where state = 'failed')::int as failed,
           count(*) filter (where state = 'skipped')::int as skipped,
           count(*) filter (where replied_at is not null)::int as replied,
           count(*) filter (where opted_out_at is not null)::int as opted_out,
           coalesce(sum(credits), 0)::int as credits_used
      from broadcast_recipients
     where business_id = ${businessId} and broadcast_id = any(${sql.param(ids)}::int[])
     group by broadcast_id`);
  for (const r of res.rows) {
    const { broadcast_id, ...counts } = r;
    out.set(broadcast_id, counts);
  }
  return out;
}

/** Publishes a broadcast's status and counts now. */
export async function publishProgress(ctx: Ctx, broadcastId: number): Promise<void> {
  const { businessId } = businessOf(ctx);
  const res = await ctx.db.execute<{ status: TBroadcastStatus }>(
    sql`select status from broadcasts where id = ${broadcastId} and business_id = ${businessId}`,
  );
  const status = res.rows[0]?.status;
  if (!status) return;
  const counts = (await broadcastCounts(ctx, [broadcastId])).get(broadcastId) ?? { ...NO_COUNTS };
  const data: TBroadcastProgressEvent = { id: broadcastId, status, counts };
  await ctx.deps.realtime.publish(channel.business(businessId), { type: 'broadcast_progress', data });
}

const PROGRESS_MS = 500;
const timers = new Map<number, { last: number; timer: NodeJS.Timeout | null }>();

/** Tells the broadcast's progress soon: at most once every PROGRESS_MS per broadcast in this process. */
export function announceProgress(ctx: Ctx, input: { broadcastId: number }): void {
  const { deps } = ctx;
  const at = { ...businessOf(ctx), broadcastId: input.broadcastId };
  const slot = timers.get(at.broadcastId) ?? { last: 0, timer: null };
  timers.set(at.broadcastId, slot);
  if (slot.timer) return;
  const wait = Math.max(0, slot.last + PROGRESS_MS - Date.now());
  slot.timer = setTimeout(() => {
    slot.timer = null;
    slot.last = Date.now();
    const ctx = tenantContext(
      deps,
      { level: 'business', agencyId: at.agencyId, businessId: at.businessId },
      { kind: 'system', source: 'job', name: 'broadcast progress' },
    );
    publishProgress(ctx, at.broadcastId).catch((err) =>
      deps.log.warn({ err, broadcastId: at.broadcastId }, 'broadcast progress not published'),
    );
    if (timers.size > 1000) timers.clear();
  }, wait);
  slot.timer.unref?.();
}

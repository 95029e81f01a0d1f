// Keeping the rollups current (ADR 081): events mark the days of what they name and a batcher rebuilds them
// at once (listeners.ts); this per-minute sweep marks the days of every row changed since its watermark, so
// that work with no event (a seed, a crash between commit and event, an edit by hand) reaches the rollups
// within a minute. The first sweep of a database has no watermark: it marks every day there is (backfill).
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Deps } from '../../platform/deps.ts';
import { defineJob } from '../../platform/queue/queue.ts';
import { type Ctx, inTransaction, platformSystemContext } from '../../platform/tenancy/context.ts';
import {
  automationTextDays,
  callDays,
  installDays,
  leadDays,
  markDays,
  messageDays,
  optOutDays,
  rebuildAll,
  rebuildDirty,
} from './rollup.ts';

/** Rows changed this long before the watermark are looked at again (transactions that committed late). */
const OVERLAP = sql`interval '2 minutes'`;

const SOURCES = [
  { source: 'calls', days: callDays, at: sql`updated_at` },
  { source: 'messages', days: messageDays, at: sql`updated_at` },
  { source: 'opt_outs', days: optOutDays, at: sql`opted_out_at` },
  { source: 'leads', days: leadDays, at: sql`created_at` },
  { source: 'automation_texts', days: automationTextDays, at: sql`finished_at` },
  // An install's new time zone moves its rows to other local days.
  { source: 'installs', days: installDays, at: sql`updated_at` },
] as const;

/**
 * Marks the days of every row changed since the last sweep, then rebuilds every marked day. The first sweep of a
 * database (no watermark yet) builds every day at once (`rebuildAll`) instead of marking each.
 */
export async function sweepAnalytics(ctx: Ctx): Promise<number> {
  const first = await inTransaction(ctx, async (tx) => {
    // One sweep at a time across processes; the next one finds what this one did not.
    const { rows } = await tx.db.execute<{ ok: boolean }>(
      sql`select pg_try_advisory_xact_lock(hashtext('analytics.sweep')) as ok`,
    );
    if (!rows[0]?.ok) return false;
    const { rows: known } = await tx.db.execute<{ n: number }>(
      sql`select count(*)::int as n from analytics_watermarks`,
    );
    const none = (known[0]?.n ?? 0) === 0;
    for (const s of SOURCES) {
      if (!none) {
        const { rows: marks } = await tx.db.execute<{ seen_until: string | null }>(
          sql`select seen_until::text as seen_until from analytics_watermarks where source = ${s.source}`,
        );
        const seen = marks[0]?.seen_until ?? null;
        await markDays(
          tx,
          s.days(seen === null ? sql`true` : sql`${s.at} > ${seen}::timestamptz - ${OVERLAP}`),
        );
      }
      await tx.db.execute(sql`insert into analytics_watermarks (source, seen_until) values (${s.source}, now())
        on conflict (source) do update set seen_until = excluded.seen_until`);
    }
    return none;
  });
  // What changes while everything is built is newer than the watermarks: the next sweep takes it.
  if (first) await rebuildAll(ctx);
  return rebuildDirty(ctx);
}

export const analyticsSweepJob = defineJob({
  name: 'analytics.sweep',
  payload: z.object({}).passthrough(),
  retry: { limit: 2, delaySeconds: 30, backoff: true },
  cron: '* * * * *',
  async handler(deps: Deps) {
    await sweepAnalytics(platformSystemContext(deps, 'job', 'analytics sweep'));
  },
});

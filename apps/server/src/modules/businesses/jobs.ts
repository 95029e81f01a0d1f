import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { defineJob } from '../../platform/queue/queue.ts';
import { businesses } from './tables.ts';

/**
 * The monthly limits of calls and messages are per calendar month (UTC): on the first of each month the
 * counters of every business start again from zero (ADR 028). pg-boss's cron enqueues it once across all
 * processes. A run missed while no worker was up is not caught up (pg-boss sends a cron job only in the
 * minute after its time); an agency can reset a business by hand.
 */
export const monthlyUsageResetJob = defineJob({
  name: 'businesses.monthly_usage_reset',
  payload: z.object({}).passthrough(),
  retry: { limit: 5, delaySeconds: 60, backoff: true },
  cron: '0 0 1 * *',
  async handler(deps) {
    await deps.db
      .update(businesses)
      .set({ number_of_calls: 0, number_of_messages: 0, updated_at: sql`now()` })
      .where(sql`${businesses.number_of_calls} <> 0 or ${businesses.number_of_messages} <> 0`);
  },
});

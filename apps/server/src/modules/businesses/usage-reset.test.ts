import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers.ts';
import { JOB_SCHEMA } from '../../platform/queue/queue.ts';
import { monthlyUsageResetJob } from './jobs.ts';
import { businesses } from './tables.ts';

// The monthly limits are per calendar month: a cron job (pg-boss, UTC) starts every business's counters
// again on the first of the month.
const c = useSuite();

describe('monthly usage reset', () => {
  it('is scheduled for the first of each month, 00:00 UTC', async () => {
    const { rows } = await c.t.pool.query(
      `select name, cron, timezone from ${JOB_SCHEMA}.schedule where name = $1`,
      [monthlyUsageResetJob.name],
    );
    expect(rows).toEqual([{ name: monthlyUsageResetJob.name, cron: '0 0 1 * *', timezone: 'UTC' }]);
  });

  it('sets calls and messages used back to zero for every business, and nothing else', async () => {
    const a = c.seed.a.business.id;
    const b = c.seed.b.business.id;
    await c.t.db
      .update(businesses)
      .set({ number_of_calls: 150, number_of_messages: 1999 })
      .where(eq(businesses.id, a));
    await c.t.db
      .update(businesses)
      .set({ number_of_calls: 7, number_of_messages: 0 })
      .where(eq(businesses.id, b));
    const [before] = await c.t.db.select().from(businesses).where(eq(businesses.id, a));

    await c.t.app.deps.queue.send(c.t.db, monthlyUsageResetJob, {});
    await c.t.app.deps.queue.drain();

    const rows = await c.t.db.select().from(businesses);
    for (const row of rows) {
      expect(row.number_of_calls).toBe(0);
      expect(row.number_of_messages).toBe(0);
    }
    const [after] = await c.t.db.select().from(businesses).where(eq(businesses.id, a));
    expect(after?.calls).toBe(before?.calls);
    expect(after?.messages).toBe(before?.messages);
  });
});

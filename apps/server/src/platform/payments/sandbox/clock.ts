import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { nextDue, runDue } from './billing.ts';
import { inAccount, type StripeObject } from './store.ts';
import { stripeSandboxAccounts } from './tables.ts';

// The account's clock: real time plus clock_offset_ms. `advance` moves it forward and runs, in time order,
// whatever falls due on the way (trial ends, renewals, cancellations at period end, incomplete expiry),
// each at its own moment (events and invoices carry that moment's time).

/** Upper bound of steps of one advance (a daily price over years is a few thousand). */
const MAX_STEPS = 20_000;

export async function advanceClock(db: Db, accountId: string, ms: number): Promise<StripeObject[]> {
  if (!Number.isFinite(ms) || ms < 0)
    throw new Error('stripe sandbox: advance takes a positive number of ms');
  const { events } = await inAccount(db, accountId, async (ctx) => {
    const target = ctx.nowMs + ms;
    for (let step = 0; step < MAX_STEPS; step++) {
      let best: { sub: StripeObject; at: number; what: Parameters<typeof runDue>[2] } | null = null;
      for (const sub of await ctx.list('subscription')) {
        const due = nextDue(sub);
        if (due && due.at * 1000 <= target && (!best || due.at < best.at)) best = { sub, ...due };
      }
      if (!best) break;
      ctx.nowMs = Math.max(ctx.nowMs, best.at * 1000);
      await runDue(ctx, best.sub, best.what);
    }
    await ctx.tx
      .update(stripeSandboxAccounts)
      .set({ clock_offset_ms: sql`${stripeSandboxAccounts.clock_offset_ms} + ${Math.round(ms)}` })
      .where(eq(stripeSandboxAccounts.id, accountId));
  });
  return events;
}

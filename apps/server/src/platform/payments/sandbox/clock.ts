import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { nextDue, runDue } from './billing.ts';
import { type AccountCtx, inAccount, type StripeObject } from './store.ts';
import { stripeSandboxAccounts } from './tables.ts';

// The account's clock: real time plus clock_offset_ms. `advance` moves it forward and runs, in time order,
// whatever falls due on the way (trial ends, renewals, cancellations at period end, incomplete expiry),
// each at its own moment (events and invoices carry that moment's time). Every API request first runs what
// real time alone has made due, so a sandbox left running renews like Stripe.

/** Upper bound of steps of one advance (a daily price over years is a few thousand). */
const MAX_STEPS = 20_000;

/** Runs, in time order, everything of the account due by `targetMs` (the clock steps to each moment). */
export async function runDueUntil(ctx: AccountCtx, targetMs: number): Promise<void> {
  for (let step = 0; step < MAX_STEPS; step++) {
    let best: { sub: StripeObject; at: number; what: Parameters<typeof runDue>[2] } | null = null;
    for (const sub of await ctx.list('subscription')) {
      const due = nextDue(sub);
      if (due && due.at * 1000 <= targetMs && (!best || due.at < best.at)) best = { sub, ...due };
    }
    if (!best) return;
    ctx.nowMs = Math.max(ctx.nowMs, best.at * 1000);
    await runDue(ctx, best.sub, best.what);
  }
}

export async function advanceClock(db: Db, accountId: string, ms: number): Promise<StripeObject[]> {
  if (!Number.isFinite(ms) || ms < 0)
    throw new Error('stripe sandbox: advance takes a positive number of ms');
  const { events } = await inAccount(db, accountId, async (ctx) => {
    const target = ctx.nowMs + ms;
    await runDueUntil(ctx, target);
    ctx.nowMs = target;
    await ctx.tx
      .update(stripeSandboxAccounts)
      .set({ clock_offset_ms: sql`${stripeSandboxAccounts.clock_offset_ms} + ${Math.round(ms)}` })
      .where(eq(stripeSandboxAccounts.id, accountId));
  });
  return events;
}

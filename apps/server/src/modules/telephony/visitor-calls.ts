// How often the business has been asked to call one visitor phone: the widget's per-destination cap
// (issue 17), so that a phone typed in again and again, from any number of addresses, is not rung all day.
import { count, eq, gte } from 'drizzle-orm';
import { businessOf, type Ctx, scope } from '../../platform/tenancy/context.ts';
import { calls } from './tables.ts';

/** The context business's callbacks to a phone (E.164) requested since `since`, whatever their outcome. */
export async function callbacksToPhoneSince(
  ctx: Ctx,
  input: { phone: string; since: Date },
): Promise<number> {
  businessOf(ctx);
  const [row] = await ctx.db
    .select({ n: count() })
    .from(calls)
    .where(
      scope(
        ctx,
        calls,
        eq(calls.visitor_phone, input.phone),
        eq(calls.kind, 'callback'),
        gte(calls.requested_at, input.since),
      ),
    );
  return row?.n ?? 0;
}

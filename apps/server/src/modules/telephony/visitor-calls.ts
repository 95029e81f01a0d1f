// How often the business has been asked to call one visitor phone: the widget's per-destination cap
// (issue 17), so that a phone typed in again and again, from any number of addresses, is not rung all day.
import { and, count, eq, gte } from 'drizzle-orm';
import { slot } from '../../platform/db/prepared.ts';
import { businessOf, type Ctx, scopedPrepared } from '../../platform/tenancy/context.ts';
import { calls } from './tables.ts';

// Every callback asks it: built once (ADR 107).
const callbacksSince = scopedPrepared(calls, (db, tenant) =>
  db
    .select({ n: count() })
    .from(calls)
    .where(
      and(
        tenant,
        eq(calls.visitor_phone, slot('phone')),
        eq(calls.kind, 'callback'),
        gte(calls.requested_at, slot('since')),
      ),
    ),
);

/** The context business's callbacks to a phone (E.164) requested since `since`, whatever their outcome. */
export async function callbacksToPhoneSince(
  ctx: Ctx,
  input: { phone: string; since: Date },
): Promise<number> {
  businessOf(ctx);
  const [row] = await callbacksSince(ctx, { phone: input.phone, since: input.since });
  return row?.n ?? 0;
}

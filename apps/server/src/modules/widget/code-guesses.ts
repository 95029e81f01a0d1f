// Wrong guesses of the visitor code (ADR 048), counted in PostgreSQL: a code locks after
// CODE_GUESSES_PER_CODE wrong guesses, a phone's codes with a business after CODE_GUESSES_PER_PHONE_DAY
// in a day, whichever process is asked and across restarts. Race-free without locks: every guess is
// written first (as wrong), then counted with the others; of guesses racing past the limit, only the
// first ones are within it. A right guess removes its own row.
import { and, count, eq, gt, lt, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/tenancy/context.ts';
import { widgetCodeGuesses } from './tables.ts';

const DAY_MS = 24 * 3_600_000;

type Key = { businessId: number; contactId: number; thread: string };
type Limits = { perCode: number; perPhoneDay: number };

async function over(ctx: Ctx, key: Key, limits: Limits, allowed: (n: number, limit: number) => boolean) {
  const since = new Date(Date.now() - DAY_MS);
  const [row] = await ctx.db
    .select({
      code: count(sql`case when ${widgetCodeGuesses.thread} = ${key.thread} then 1 end`),
      day: count(),
    })
    .from(widgetCodeGuesses)
    .where(
      and(
        eq(widgetCodeGuesses.business_id, key.businessId),
        eq(widgetCodeGuesses.contact_id, key.contactId),
        gt(widgetCodeGuesses.created_at, since),
      ),
    );
  return !allowed(row?.code ?? 0, limits.perCode) || !allowed(row?.day ?? 0, limits.perPhoneDay);
}

/**
 * Takes one guess: null when the code or the phone is locked (nothing written), else the guess's id,
 * to give back with `rightGuess` when the code matched. A code lives as long as its token (a day), so a
 * day of rows is all that is kept.
 */
export async function takeGuess(ctx: Ctx, key: Key, limits: Limits): Promise<number | null> {
  if (await over(ctx, key, limits, (n, limit) => n < limit)) return null;
  await ctx.db
    .delete(widgetCodeGuesses)
    .where(
      and(
        eq(widgetCodeGuesses.business_id, key.businessId),
        eq(widgetCodeGuesses.contact_id, key.contactId),
        lt(widgetCodeGuesses.created_at, new Date(Date.now() - DAY_MS)),
      ),
    );
  const [row] = await ctx.db
    .insert(widgetCodeGuesses)
    .values({ business_id: key.businessId, contact_id: key.contactId, thread: key.thread })
    .returning({ id: widgetCodeGuesses.id });
  if (!row) return null;
  // Counted with every guess written before it: one racing past the limit is refused (and stays counted).
  if (await over(ctx, key, limits, (n, limit) => n <= limit)) return null;
  return row.id;
}

/** The guess was right: it is no wrong guess. */
export async function rightGuess(ctx: Ctx, id: number): Promise<void> {
  await ctx.db.delete(widgetCodeGuesses).where(eq(widgetCodeGuesses.id, id));
}

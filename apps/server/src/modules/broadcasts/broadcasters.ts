import {
  BROADCASTER_RATES,
  type TBroadcaster,
  type TBroadcasterKind,
  type TBroadcasterRequest,
  type TBroadcasterUpdate,
} from '@stn/contracts/broadcasts';
import type { TListQuery } from '@stn/contracts/http';
import { and, asc, count, desc, eq, ilike, inArray, isNull, sql } from 'drizzle-orm';
import { AppError, invalid } from '../../platform/http/errors.ts';
import { likePattern, listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { businessOf, type Ctx, found, inTransaction, scope } from '../../platform/tenancy/context.ts';
import { textNumbersOf } from '../telephony/service.ts';
import { broadcasters, broadcastRecipients, broadcasts } from './tables.ts';

// The business's sending numbers for broadcasts (setting/broadcast-numbers; /v1/broadcasters): a number
// of the business that can text (telephony's numbers: purchased or landline, SMS on, not released), once
// only, with its kind (its default rate) or its own rate.

type BroadcasterRow = typeof broadcasters.$inferSelect;
const cols = { agency_id: broadcasters.agency_id, business_id: broadcasters.business_id };

export const rateOf = (row: Pick<BroadcasterRow, 'kind' | 'custom_rate'>): number =>
  row.custom_rate ?? BROADCASTER_RATES[row.kind as TBroadcasterKind] ?? 1;

async function shape(ctx: Ctx, rows: BroadcasterRow[]): Promise<TBroadcaster[]> {
  const nums = await textNumbersOf(
    ctx,
    rows.map((r) => r.number_id),
  );
  const names = new Map(nums.map((n) => [n.id, n.friendly_name]));
  return rows.map((r) => ({
    id: r.id,
    number_id: r.number_id,
    phone_number: r.phone_number,
    friendly_name: names.get(r.number_id) ?? '',
    kind: r.kind as TBroadcasterKind,
    rate: rateOf(r),
    custom_rate: r.custom_rate,
    active: r.active,
    created_at: r.created_at.toISOString(),
  }));
}

async function findBroadcaster(ctx: Ctx, id: number): Promise<BroadcasterRow> {
  const [row] = await ctx.db
    .select()
    .from(broadcasters)
    .where(scope(ctx, cols, eq(broadcasters.id, id)));
  return found(row);
}

export async function listBroadcasters(ctx: Ctx, q: TListQuery) {
  businessOf(ctx);
  const where = scope(
    ctx,
    cols,
    q.keyword ? ilike(broadcasters.phone_number, likePattern(q.keyword.replace(/[^\d+]/g, ''))) : undefined,
  );
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(broadcasters)
      .where(where)
      .orderBy(desc(broadcasters.id))
      .limit(limit)
      .offset(offset),
    ctx.db.select({ n: count() }).from(broadcasters).where(where),
  ]);
  return listEnvelope(await shape(ctx, rows), total?.n ?? 0, q);
}

/** Every broadcaster of the business (the create screen's picker), active first, oldest first. */
export async function allBroadcasters(ctx: Ctx): Promise<TBroadcaster[]> {
  businessOf(ctx);
  const rows = await ctx.db
    .select()
    .from(broadcasters)
    .where(scope(ctx, cols))
    .orderBy(desc(broadcasters.active), asc(broadcasters.id));
  return shape(ctx, rows);
}

/** These broadcasters of the business (for a broadcast's checks), in id order. */
export async function broadcastersByIds(ctx: Ctx, ids: number[]): Promise<BroadcasterRow[]> {
  if (ids.length === 0) return [];
  return ctx.db
    .select()
    .from(broadcasters)
    .where(scope(ctx, cols, inArray(broadcasters.id, ids)))
    .orderBy(asc(broadcasters.id));
}

/** The business's first active broadcaster (a test text's number when none is chosen), if any. */
export async function firstActiveBroadcaster(ctx: Ctx): Promise<BroadcasterRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(broadcasters)
    .where(scope(ctx, cols, eq(broadcasters.active, true)))
    .orderBy(asc(broadcasters.id))
    .limit(1);
  return row;
}

export async function getBroadcaster(ctx: Ctx, id: number): Promise<TBroadcaster> {
  businessOf(ctx);
  const [b] = await shape(ctx, [await findBroadcaster(ctx, id)]);
  return found(b);
}

const uniqueViolation = (err: unknown) =>
  (err as { code?: string })?.code === '23505' ||
  (err as { cause?: { code?: string } })?.cause?.code === '23505';

export async function createBroadcaster(ctx: Ctx, input: TBroadcasterRequest): Promise<TBroadcaster> {
  const { agencyId, businessId } = businessOf(ctx);
  const id = await inTransaction(ctx, async (tx) => {
    const [num] = await textNumbersOf(tx, [input.number_id]);
    if (!num) throw invalid('number_id', 'broadcasts.number_invalid');
    const [taken] = await tx.db
      .select({ id: broadcasters.id })
      .from(broadcasters)
      .where(scope(tx, cols, eq(broadcasters.number_id, num.id)));
    if (taken) throw invalid('number_id', 'broadcasts.number_taken');
    try {
      const [row] = await tx.db
        .insert(broadcasters)
        .values({
          agency_id: agencyId,
          business_id: businessId,
          number_id: num.id,
          phone_number: num.phone_number,
          kind: input.kind,
          custom_rate: input.custom_rate ?? null,
          active: input.active,
        })
        .returning({ id: broadcasters.id });
      return found(row).id;
    } catch (err) {
      // Two adds of one number at once: the unique index refuses the second.
      if (uniqueViolation(err)) throw invalid('number_id', 'broadcasts.number_taken');
      throw err;
    }
  });
  return getBroadcaster(ctx, id);
}

export async function updateBroadcaster(
  ctx: Ctx,
  id: number,
  input: TBroadcasterUpdate,
): Promise<TBroadcaster> {
  businessOf(ctx);
  const cur = await findBroadcaster(ctx, id);
  await ctx.db
    .update(broadcasters)
    .set({
      ...(input.kind !== undefined ? { kind: input.kind } : {}),
      ...(input.custom_rate !== undefined ? { custom_rate: input.custom_rate } : {}),
      ...(input.active !== undefined ? { active: input.active } : {}),
      updated_at: new Date(),
    })
    .where(eq(broadcasters.id, cur.id));
  return getBroadcaster(ctx, cur.id);
}

/**
 * Removes a broadcaster. A scheduled or sending broadcast that names it keeps it until it is stopped
 * (422); broadcasts that send from every active broadcaster simply lose it.
 */
export async function deleteBroadcaster(ctx: Ctx, id: number): Promise<void> {
  businessOf(ctx);
  await inTransaction(ctx, async (tx) => {
    const cur = await findBroadcaster(tx, id);
    const [named] = await tx.db
      .select({ id: broadcasts.id })
      .from(broadcasts)
      .where(
        scope(
          tx,
          { agency_id: broadcasts.agency_id, business_id: broadcasts.business_id },
          isNull(broadcasts.deleted_at),
          inArray(broadcasts.status, ['scheduled', 'sending']),
          sql`${broadcasts.broadcaster_ids} @> ${JSON.stringify([cur.id])}::jsonb`,
        ),
      )
      .limit(1);
    // A broadcast that sends from every active broadcaster has spread its pending rows over this one too.
    const [pending] = named
      ? [named]
      : await tx.db
          .select({ id: broadcastRecipients.id })
          .from(broadcastRecipients)
          .innerJoin(broadcasts, eq(broadcasts.id, broadcastRecipients.broadcast_id))
          .where(
            and(
              eq(broadcastRecipients.broadcaster_id, cur.id),
              inArray(broadcastRecipients.state, ['pending', 'sending']),
              inArray(broadcasts.status, ['scheduled', 'sending']),
            ),
          )
          .limit(1);
    if (pending)
      throw new AppError('VALIDATION', 'broadcasts.broadcaster_in_use', undefined, {}, 'broadcaster_in_use');
    await tx.db.delete(broadcasters).where(eq(broadcasters.id, cur.id));
  });
}

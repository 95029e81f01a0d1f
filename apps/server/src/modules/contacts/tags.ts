import type { TTag, TTagWrite } from '@stn/contracts/contacts';
import type { TListQuery } from '@stn/contracts/http';
import { and, asc, count, desc, eq, ilike, inArray, sql } from 'drizzle-orm';
import { invalid } from '../../platform/http/errors.ts';
import { likePattern, listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { businessOf, type Ctx, found, inTransaction } from '../../platform/tenancy/context.ts';
import { contactTags, tags } from './tables.ts';

// A business's tags (spec 001 "Tasks, tags"): names unique without case; a deleted tag leaves its contacts.

type TagRow = typeof tags.$inferSelect;
const mine = (ctx: Ctx) => eq(tags.business_id, businessOf(ctx).businessId);
const usage = sql<number>`(select count(*)::int from ${contactTags} where ${contactTags.tag_id} = ${tags.id})`;

const toTag = (r: TagRow, contacts: number): TTag => ({
  id: r.id,
  name: r.name,
  contacts,
  created_at: r.created_at.toISOString(),
});

const taken = (err: unknown) =>
  (err as { code?: string })?.code === '23505' ||
  (err as { cause?: { code?: string } })?.cause?.code === '23505';

/** Every tag, by name, for pickers (GET /v1/tags/all). */
export async function allTags(ctx: Ctx): Promise<{ id: number; name: string }[]> {
  return ctx.db.select({ id: tags.id, name: tags.name }).from(tags).where(mine(ctx)).orderBy(asc(tags.name));
}

export async function listTags(ctx: Ctx, q: TListQuery) {
  const where = and(mine(ctx), q.keyword ? ilike(tags.name, likePattern(q.keyword)) : undefined);
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({ tag: tags, n: usage })
      .from(tags)
      .where(where)
      .orderBy(desc(tags.id))
      .limit(limit)
      .offset(offset),
    ctx.db.select({ n: count() }).from(tags).where(where),
  ]);
  return listEnvelope(
    rows.map((r) => toTag(r.tag, r.n)),
    total?.n ?? 0,
    q,
  );
}

async function tagWithUsage(ctx: Ctx, id: number): Promise<TTag> {
  const [r] = await ctx.db
    .select({ tag: tags, n: usage })
    .from(tags)
    .where(and(mine(ctx), eq(tags.id, id)));
  const got = found(r);
  return toTag(got.tag, got.n);
}

export async function createTag(ctx: Ctx, input: TTagWrite): Promise<TTag> {
  const { businessId } = businessOf(ctx);
  try {
    const [row] = await ctx.db.insert(tags).values({ business_id: businessId, name: input.name }).returning();
    return toTag(found(row), 0);
  } catch (err) {
    if (taken(err)) throw invalid('name', 'contacts.tag_taken');
    throw err;
  }
}

export async function updateTag(ctx: Ctx, input: TTagWrite & { id: number }): Promise<TTag> {
  try {
    const [row] = await ctx.db
      .update(tags)
      .set({ name: input.name, updated_at: new Date() })
      .where(and(mine(ctx), eq(tags.id, input.id)))
      .returning();
    found(row);
  } catch (err) {
    if (taken(err)) throw invalid('name', 'contacts.tag_taken');
    throw err;
  }
  return tagWithUsage(ctx, input.id);
}

export async function deleteTag(ctx: Ctx, input: { id: number }): Promise<void> {
  const [row] = await ctx.db
    .delete(tags)
    .where(and(mine(ctx), eq(tags.id, input.id)))
    .returning();
  found(row);
}

/** Deletes several tags; every id must be a tag of the business, or nothing is deleted (422). */
export async function bulkDeleteTags(ctx: Ctx, input: { ids: number[] }): Promise<number> {
  const ids = [...new Set(input.ids)];
  return inTransaction(ctx, async (tx) => {
    const rows = await tx.db
      .delete(tags)
      .where(and(mine(tx), inArray(tags.id, ids)))
      .returning({ id: tags.id });
    if (rows.length !== ids.length) throw invalid('ids', 'contacts.tag_ids_invalid');
    return rows.length;
  });
}

/** Tags by name for the import: the business's existing ones, and new ones made for the rest. */
export async function tagIdsByName(ctx: Ctx, names: string[]): Promise<Map<string, number>> {
  const { businessId } = businessOf(ctx);
  const wanted = [...new Map(names.map((n) => [n.toLowerCase(), n])).values()];
  const out = new Map<string, number>();
  if (wanted.length === 0) return out;
  await ctx.db
    .insert(tags)
    .values(wanted.map((name) => ({ business_id: businessId, name })))
    .onConflictDoNothing();
  const rows = await ctx.db
    .select({ id: tags.id, name: tags.name })
    .from(tags)
    .where(
      and(
        mine(ctx),
        inArray(
          sql`lower(${tags.name})`,
          wanted.map((n) => n.toLowerCase()),
        ),
      ),
    );
  for (const r of rows) out.set(r.name.toLowerCase(), r.id);
  return out;
}

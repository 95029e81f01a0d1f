import type { TListQuery } from '@stn/contracts/http';
import type { TReleaseNote, TReleaseNoteListQuery, TReleaseNoteRequest } from '@stn/contracts/users';
import { and, count, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.ts';
import type { Client } from '../../platform/http/client.ts';
import { likePattern, listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { auditActorId, type Ctx, found, inTransaction } from '../../platform/tenancy/context.ts';
import { audit } from '../audit/service.ts';
import { releaseNotes } from './tables.ts';

// Release notes are platform-wide (no tenant): platform admins write them, everyone reads the published ones.

type Row = typeof releaseNotes.$inferSelect;

function toNote(r: Row): TReleaseNote {
  return {
    id: r.id,
    title: r.title,
    content: r.content,
    published: r.published,
    published_at: r.published_at.toISOString(),
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

async function page(db: Tx, q: TListQuery, ...conditions: (SQL | undefined)[]) {
  const kw = q.keyword ? likePattern(q.keyword) : undefined;
  const where = and(
    ...conditions,
    kw ? or(ilike(releaseNotes.title, kw), ilike(releaseNotes.content, kw)) : undefined,
  );
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(releaseNotes)
      .where(where)
      .orderBy(desc(releaseNotes.published_at), desc(releaseNotes.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(releaseNotes).where(where),
  ]);
  return listEnvelope(rows.map(toNote), total?.n ?? 0, q);
}

/** The public /release-notes page: published notes, newest first. */
/** Anyone's: published notes only, so a reader needs no tenant. */
export const publishedReleaseNotes = (ctx: Pick<Ctx, 'db'>, q: TListQuery) =>
  page(ctx.db, q, eq(releaseNotes.published, true));

/** Published notes newer than `after` (all when null), newest first, at most `limit`. */
export async function releaseNotesAfter(ctx: Ctx, input: { after: Date | null; limit: number }) {
  const rows = await ctx.db
    .select()
    .from(releaseNotes)
    .where(
      and(
        eq(releaseNotes.published, true), // Times reach the web app in milliseconds: compared so, the newest one shown counts as seen.
        input.after
          ? sql`date_trunc('milliseconds', ${releaseNotes.published_at}) > ${input.after}`
          : undefined,
      ),
    )
    .orderBy(desc(releaseNotes.published_at), desc(releaseNotes.id))
    .limit(input.limit);
  return rows.map(toNote);
}

export const listReleaseNotes = (ctx: Ctx, q: TReleaseNoteListQuery) =>
  page(ctx.db, q, q.status ? eq(releaseNotes.published, q.status === 'published') : undefined);

export async function getReleaseNote(ctx: Ctx, input: { id: number }): Promise<TReleaseNote> {
  const [row] = await ctx.db.select().from(releaseNotes).where(eq(releaseNotes.id, input.id));
  return toNote(found(row));
}

export async function createReleaseNote(ctx: Ctx, input: TReleaseNoteRequest) {
  const [row] = await ctx.db
    .insert(releaseNotes)
    .values({ ...input, author_id: ctx.by.kind === 'user' ? ctx.by.actor.userId : null })
    .returning();
  return toNote(found(row));
}

export async function updateReleaseNote(ctx: Ctx, input: TReleaseNoteRequest & { id: number }) {
  const { id, ...note } = input;
  const current = await getReleaseNote(ctx, { id });
  const [row] = await ctx.db
    .update(releaseNotes)
    .set({
      ...note,
      // A draft that gets published is dated from then, so it shows as new.
      ...(note.published && !current.published ? { published_at: new Date() } : {}),
      updated_at: new Date(),
    })
    .where(eq(releaseNotes.id, id))
    .returning();
  return toNote(found(row));
}

export async function deleteReleaseNote(ctx: Ctx, input: { id: number; client: Client }) {
  const { id, client } = input;
  await inTransaction(ctx, async (tx) => {
    const [deleted] = await tx.db.delete(releaseNotes).where(eq(releaseNotes.id, id)).returning();
    const row = found(deleted);
    await audit(tx, {
      action: 'release_note.delete',
      actorId: auditActorId(ctx),
      data: { release_note_id: row.id, title: row.title },
      ip: client.ip,
      requestId: client.requestId,
    });
  });
}

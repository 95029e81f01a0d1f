import type { TListQuery } from '@stn/contracts/http';
import type { TReleaseNote, TReleaseNoteListQuery, TReleaseNoteRequest } from '@stn/contracts/users';
import { and, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import { audit } from '../../platform/audit.ts';
import type { Actor } from '../../platform/auth/actor.ts';
import type { Tx } from '../../platform/db/client.ts';
import { releaseNotes } from '../../platform/db/schema.ts';
import type { Deps } from '../../platform/deps.ts';
import { notFound } from '../../platform/http/errors.ts';
import { listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { auditActor, type Client, likePattern } from './business-access.ts';

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
export const publishedReleaseNotes = (deps: Deps, q: TListQuery) =>
  page(deps.db, q, eq(releaseNotes.published, true));

export const listReleaseNotes = (deps: Deps, q: TReleaseNoteListQuery) =>
  page(deps.db, q, q.status ? eq(releaseNotes.published, q.status === 'published') : undefined);

export async function getReleaseNote(deps: Deps, id: number): Promise<TReleaseNote> {
  const [row] = await deps.db.select().from(releaseNotes).where(eq(releaseNotes.id, id));
  if (!row) throw notFound();
  return toNote(row);
}

export async function createReleaseNote(deps: Deps, actor: Actor, input: TReleaseNoteRequest) {
  const [row] = await deps.db
    .insert(releaseNotes)
    .values({ ...input, author_id: actor.userId })
    .returning();
  if (!row) throw notFound();
  return toNote(row);
}

export async function updateReleaseNote(deps: Deps, id: number, input: TReleaseNoteRequest) {
  const current = await getReleaseNote(deps, id);
  const [row] = await deps.db
    .update(releaseNotes)
    .set({
      ...input,
      // A draft that gets published is dated from then, so it shows as new.
      ...(input.published && !current.published ? { published_at: new Date() } : {}),
      updated_at: new Date(),
    })
    .where(eq(releaseNotes.id, id))
    .returning();
  if (!row) throw notFound();
  return toNote(row);
}

export async function deleteReleaseNote(deps: Deps, actor: Actor, id: number, client: Client) {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx.delete(releaseNotes).where(eq(releaseNotes.id, id)).returning();
    if (!row) throw notFound();
    await audit(tx, {
      action: 'release_note.delete',
      actorId: auditActor(actor),
      data: { release_note_id: row.id, title: row.title },
      ip: client.ip,
      requestId: client.requestId,
    });
  });
}

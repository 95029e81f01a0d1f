import {
  AGENCY_PAGE_KEYS,
  PAGE_KEYS,
  type TPage,
  type TPageKey,
  type TPageRequest,
} from '@stn/contracts/users';
import { and, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.ts';
import { forbidden, notFound } from '../../platform/http/errors.ts';
import { actingUser, type Ctx, inTransaction } from '../../platform/tenancy/context.ts';
import { pages } from './tables.ts';

// Editable pages. The platform's pages (agency_id null) are written by platform admins; an agency may
// write its own terms-of-services and privacy-policy, which its domain then shows instead.

type Row = typeof pages.$inferSelect;

function pageKey(key: string): TPageKey {
  if (!(PAGE_KEYS as readonly string[]).includes(key)) throw notFound();
  return key as TPageKey;
}

const canOverride = (key: TPageKey) => AGENCY_PAGE_KEYS.includes(key);

async function findPage(db: Tx, key: TPageKey, agencyId: number | null): Promise<Row | undefined> {
  const [row] = await db
    .select()
    .from(pages)
    .where(
      and(eq(pages.key, key), agencyId === null ? isNull(pages.agency_id) : eq(pages.agency_id, agencyId)),
    );
  return row;
}

/** The agency's own page when it may and does have one, else the platform page. */
async function effectivePage(db: Tx, key: TPageKey, agencyId: number | null) {
  if (agencyId !== null && canOverride(key)) {
    const own = await findPage(db, key, agencyId);
    if (own) return { row: own, source: 'agency' as const };
  }
  const platform = await findPage(db, key, null);
  return platform ? { row: platform, source: 'platform' as const } : undefined;
}

const toPage = (key: TPageKey, found: Awaited<ReturnType<typeof effectivePage>>): TPage =>
  found
    ? {
        key,
        title: found.row.title,
        content: found.row.content,
        source: found.source,
        updated_at: found.row.updated_at.toISOString(),
      }
    : { key, title: '', content: '', source: 'none', updated_at: null };

/** What the caller's editor or viewer shows: an empty page when nothing is written yet. */
export async function getPage(ctx: Ctx, input: { key: string }): Promise<TPage> {
  const key = pageKey(input.key);
  const agencyId = ctx.tenant.level === 'agency' ? ctx.tenant.agencyId : null;
  return toPage(key, await effectivePage(ctx.db, key, agencyId));
}

export async function putPage(ctx: Ctx, input: TPageRequest & { key: string }): Promise<TPage> {
  const key = pageKey(input.key);
  let agencyId: number | null = null;
  if (ctx.tenant.level === 'agency') {
    // Agencies read the training page; only an AgencyAdmin writes its own terms and privacy pages.
    if (actingUser(ctx).role !== 'AgencyAdmin' || !canOverride(key)) throw forbidden();
    agencyId = ctx.tenant.agencyId;
  } else if (ctx.tenant.level !== 'platform') throw forbidden();
  await inTransaction(ctx, async (tx) => {
    const existing = await findPage(tx.db, key, agencyId);
    if (existing) {
      await tx.db
        .update(pages)
        .set({ title: input.title, content: input.content, updated_at: new Date() })
        .where(eq(pages.id, existing.id));
    } else {
      await tx.db
        .insert(pages)
        .values({ agency_id: agencyId, key, title: input.title, content: input.content });
    }
  });
  return getPage(ctx, { key });
}

/**
 * The page a site shows (spec 000 §7): the host's agency's own page, else the platform page; else 404.
 * `agencyOfHost` answers which agency the site's host is (the agencies module's answer).
 */
export async function publicPage(
  ctx: Pick<Ctx, 'db'>,
  input: { key: string; agencyOfHost: () => Promise<number | null> },
) {
  const key = pageKey(input.key);
  // Training is for agencies, not a public page.
  if (!canOverride(key)) throw notFound();
  const found = await effectivePage(ctx.db, key, await input.agencyOfHost());
  if (!found) throw notFound();
  return { key, title: found.row.title, content: found.row.content };
}

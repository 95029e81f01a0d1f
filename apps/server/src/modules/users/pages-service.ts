import {
  AGENCY_PAGE_KEYS,
  PAGE_KEYS,
  type TPage,
  type TPageKey,
  type TPageRequest,
} from '@stn/contracts/users';
import { and, eq, isNull } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import type { Tx } from '../../platform/db/client.ts';
import { pages } from '../../platform/db/schema.ts';
import type { Deps } from '../../platform/deps.ts';
import { forbidden, notFound } from '../../platform/http/errors.ts';
import { agencyForHost } from '../sites/service.ts';

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
export async function getPage(deps: Deps, actor: Actor, rawKey: string): Promise<TPage> {
  const key = pageKey(rawKey);
  const agencyId = actor.roleGroup === 'Agency' ? actor.agencyId : null;
  return toPage(key, await effectivePage(deps.db, key, agencyId));
}

export async function putPage(deps: Deps, actor: Actor, rawKey: string, input: TPageRequest): Promise<TPage> {
  const key = pageKey(rawKey);
  let agencyId: number | null = null;
  if (actor.roleGroup === 'Agency') {
    // Agencies read the training page; only an AgencyAdmin writes its own terms and privacy pages.
    if (actor.role !== 'AgencyAdmin' || !canOverride(key) || !actor.agencyId) throw forbidden();
    agencyId = actor.agencyId;
  } else if (actor.roleGroup !== 'Admin') throw forbidden();
  await deps.db.transaction(async (tx) => {
    const existing = await findPage(tx, key, agencyId);
    if (existing) {
      await tx
        .update(pages)
        .set({ title: input.title, content: input.content, updated_at: new Date() })
        .where(eq(pages.id, existing.id));
    } else {
      await tx.insert(pages).values({ agency_id: agencyId, key, title: input.title, content: input.content });
    }
  });
  return getPage(deps, actor, key);
}

/** The page a site shows (spec 000 §7): the host's agency's own page, else the platform page; else 404. */
export async function publicPage(deps: Deps, rawKey: string, domain: string) {
  const key = pageKey(rawKey);
  // Training is for agencies, not a public page.
  if (!canOverride(key)) throw notFound();
  const { agency } = await agencyForHost(deps.db, deps.config, domain);
  const found = await effectivePage(deps.db, key, agency?.id ?? null);
  if (!found) throw notFound();
  return { key, title: found.row.title, content: found.row.content };
}

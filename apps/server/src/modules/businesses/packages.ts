import type { TPackage, TPackageListQuery, TPackageRequest } from '@stn/contracts/businesses';
import { asc, count, desc, eq, ilike } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import type { Tx } from '../../platform/db/client.ts';
import { packages } from '../../platform/db/schema.ts';
import type { Deps } from '../../platform/deps.ts';
import { notFound } from '../../platform/http/errors.ts';
import { likePattern, pageOf } from '../../platform/http/pagination.ts';
import { inTenant } from '../../platform/tenancy.ts';

// Add-on packages (extra messages or calls) the agency sells to its businesses.

type PackageRow = typeof packages.$inferSelect;

function toPackage(p: PackageRow): TPackage {
  return {
    id: p.id,
    agency_id: p.agency_id,
    name: p.name,
    kind: p.kind,
    quantity: p.quantity,
    price_cents: p.price_cents,
    active: p.active,
    created_at: p.created_at.toISOString(),
  };
}

const scope = (actor: Actor, ...more: Parameters<typeof inTenant>[2][]) =>
  inTenant(actor, { agency_id: packages.agency_id }, ...more);

async function findPackage(db: Tx, actor: Actor, id: number) {
  const [row] = await db
    .select()
    .from(packages)
    .where(scope(actor, eq(packages.id, id)));
  if (!row) throw notFound();
  return row;
}

export async function listPackages(deps: Deps, actor: Actor, q: TPackageListQuery) {
  const where = scope(
    actor,
    q.active !== undefined ? eq(packages.active, q.active) : undefined,
    q.kind ? eq(packages.kind, q.kind) : undefined,
    q.keyword ? ilike(packages.name, likePattern(q.keyword)) : undefined,
  );
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    deps.db.select().from(packages).where(where).orderBy(desc(packages.id)).limit(limit).offset(offset),
    deps.db.select({ n: count() }).from(packages).where(where),
  ]);
  return { data: rows.map(toPackage), total: total?.n ?? 0 };
}

/** Every package of the caller's agency; `activeOnly` for businesses, who only see what is on sale. */
export async function allPackages(deps: Deps, actor: Actor, activeOnly = false) {
  const rows = await deps.db
    .select()
    .from(packages)
    .where(scope(actor, activeOnly ? eq(packages.active, true) : undefined))
    .orderBy(asc(packages.kind), asc(packages.price_cents), asc(packages.id));
  return rows.map(toPackage);
}

export async function getPackage(deps: Deps, actor: Actor, id: number) {
  return toPackage(await findPackage(deps.db, actor, id));
}

export async function createPackage(deps: Deps, actor: Actor, input: TPackageRequest) {
  if (!actor.agencyId) throw notFound();
  const [row] = await deps.db
    .insert(packages)
    .values({ ...input, agency_id: actor.agencyId })
    .returning();
  if (!row) throw notFound();
  return toPackage(row);
}

export async function updatePackage(deps: Deps, actor: Actor, id: number, input: Partial<TPackageRequest>) {
  const [row] = await deps.db
    .update(packages)
    .set({ ...input, updated_at: new Date() })
    .where(scope(actor, eq(packages.id, id)))
    .returning();
  if (!row) throw notFound();
  return toPackage(row);
}

export async function deletePackage(deps: Deps, actor: Actor, id: number) {
  const rows = await deps.db
    .delete(packages)
    .where(scope(actor, eq(packages.id, id)))
    .returning({ id: packages.id });
  if (rows.length === 0) throw notFound();
}

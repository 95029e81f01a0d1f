import { type TPlan, type TPlanRequest, ZPlanFeatures } from '@stn/contracts/businesses';
import type { TListQuery } from '@stn/contracts/http';
import { and, asc, count, desc, eq, ilike, ne, sql } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import type { Tx } from '../../platform/db/client.ts';
import { agencies, businesses, plans } from '../../platform/db/schema.ts';
import type { Deps } from '../../platform/deps.ts';
import { AppError, invalid, notFound } from '../../platform/http/errors.ts';
import { likePattern, pageOf } from '../../platform/http/pagination.ts';
import { inTenant } from '../../platform/tenancy.ts';

// An agency's subscription plans, under /v1/agencies/{agency_id}/...: an agency user names its own
// agency (another id answers 404); a platform admin any existing agency.

type PlanRow = typeof plans.$inferSelect;
const DEFAULT_FEATURES = ZPlanFeatures.parse({});

function toPlan(p: PlanRow): TPlan {
  return {
    id: p.id,
    agency_id: p.agency_id,
    name: p.name,
    interval: p.interval,
    price_cents: p.price_cents,
    trial_days: p.trial_days,
    features: { ...DEFAULT_FEATURES, ...p.features },
    active: p.active,
    created_at: p.created_at.toISOString(),
  };
}

async function agencyOf(db: Tx, actor: Actor, agencyId: number, lock = false): Promise<number> {
  if (actor.roleGroup !== 'Admin' && actor.agencyId !== agencyId) throw notFound();
  const q = db.select({ id: agencies.id }).from(agencies).where(eq(agencies.id, agencyId));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw notFound();
  return row.id;
}

const scope = (actor: Actor, agencyId: number, ...more: Parameters<typeof inTenant>[2][]) =>
  inTenant(actor, { agency_id: plans.agency_id }, eq(plans.agency_id, agencyId), ...more);

async function findPlan(db: Tx, actor: Actor, agencyId: number, planId: number) {
  const [row] = await db
    .select()
    .from(plans)
    .where(scope(actor, agencyId, eq(plans.id, planId)));
  if (!row) throw notFound();
  return row;
}

const isDefault = sql`coalesce((${plans.features}->>'Default')::boolean, false)`;

async function defaultPlan(db: Tx, actor: Actor, agencyId: number, exceptId?: number) {
  const [row] = await db
    .select({ id: plans.id })
    .from(plans)
    .where(scope(actor, agencyId, sql`${isDefault}`, exceptId ? ne(plans.id, exceptId) : undefined))
    .limit(1);
  return row?.id ?? null;
}

export async function listPlans(deps: Deps, actor: Actor, agencyId: number, q: TListQuery) {
  await agencyOf(deps.db, actor, agencyId);
  const where = scope(actor, agencyId, q.keyword ? ilike(plans.name, likePattern(q.keyword)) : undefined);
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    deps.db.select().from(plans).where(where).orderBy(desc(plans.id)).limit(limit).offset(offset),
    deps.db.select({ n: count() }).from(plans).where(where),
  ]);
  return { data: rows.map(toPlan), total: total?.n ?? 0 };
}

export async function allPlans(deps: Deps, actor: Actor, agencyId: number) {
  await agencyOf(deps.db, actor, agencyId);
  const rows = await deps.db
    .select()
    .from(plans)
    .where(scope(actor, agencyId))
    .orderBy(asc(plans.price_cents), asc(plans.id));
  return rows.map(toPlan);
}

export async function hasDefaultPlan(deps: Deps, actor: Actor, agencyId: number) {
  await agencyOf(deps.db, actor, agencyId);
  const id = await defaultPlan(deps.db, actor, agencyId);
  return { has_default: id !== null, plan_id: id };
}

export async function getPlan(deps: Deps, actor: Actor, agencyId: number, planId: number) {
  await agencyOf(deps.db, actor, agencyId);
  return toPlan(await findPlan(deps.db, actor, agencyId, planId));
}

/** Only one Default plan per agency: the agency row is locked while that is checked. */
export async function savePlan(
  deps: Deps,
  actor: Actor,
  agencyId: number,
  input: TPlanRequest,
  planId?: number,
): Promise<TPlan> {
  const row = await deps.db.transaction(async (tx) => {
    await agencyOf(tx, actor, agencyId, true);
    if (planId) await findPlan(tx, actor, agencyId, planId);
    if (input.features.Default && (await defaultPlan(tx, actor, agencyId, planId)) !== null) {
      throw invalid('features.Default', 'businesses.plans.default_exists');
    }
    const values = {
      name: input.name,
      interval: input.interval,
      price_cents: input.price_cents,
      trial_days: input.trial_days,
      features: input.features,
      active: input.active,
    };
    const [saved] = planId
      ? await tx
          .update(plans)
          .set({ ...values, updated_at: new Date() })
          .where(and(eq(plans.id, planId), eq(plans.agency_id, agencyId)))
          .returning()
      : await tx
          .insert(plans)
          .values({ ...values, agency_id: agencyId })
          .returning();
    if (!saved) throw notFound();
    return saved;
  });
  return toPlan(row);
}

/** A plan a live business is on cannot be deleted (409). */
export async function deletePlan(deps: Deps, actor: Actor, agencyId: number, planId: number) {
  await deps.db.transaction(async (tx) => {
    await agencyOf(tx, actor, agencyId, true);
    await findPlan(tx, actor, agencyId, planId);
    const [used] = await tx
      .select({ n: count() })
      .from(businesses)
      .where(
        and(
          eq(businesses.agency_id, agencyId),
          eq(businesses.subscription_plan_id, planId),
          ne(businesses.status, 'deleted'),
        ),
      );
    if ((used?.n ?? 0) > 0)
      throw new AppError('CONFLICT', 'businesses.plans.in_use', undefined, { count: used?.n ?? 0 });
    await tx.delete(plans).where(and(eq(plans.id, planId), eq(plans.agency_id, agencyId)));
  });
}

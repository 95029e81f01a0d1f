import {
  type TPackage,
  type TPackageListQuery,
  type TPackageRequest,
  type TPlan,
  type TPlanRequest,
  type TUpdatePlanRequest,
  ZPlanFeatures,
} from '@stn/contracts/businesses';
import type { TListQuery } from '@stn/contracts/http';
import { and, asc, count, desc, eq, ilike, ne, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.ts';
import { AppError, invalid, notFound } from '../../platform/http/errors.ts';
import { likePattern, pageOf } from '../../platform/http/pagination.ts';
import { acrossTenants, type Ctx, found, inTransaction, scope } from '../../platform/tenancy/context.ts';
import { packages, plans } from './tables.ts';

// Billing: an agency's subscription plans and the add-on packages it sells to its businesses. Plans live
// under /v1/agencies/{agency_id}/...: the routes check that the named agency exists (the agencies
// module's answer) before calling here; `agencyId` is then the target of `targetAgency`.

// ---------------------------------------------------------------------------------------------------
// Plans

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
    type: p.type,
    active: p.active,
    created_at: p.created_at.toISOString(),
  };
}

type AgencyInput = { agencyId: number };

const planScope = (ctx: Ctx, agencyId: number, ...more: (SQL | undefined)[]) =>
  scope(ctx, { agency_id: plans.agency_id }, eq(plans.agency_id, agencyId), ...more);

async function findPlan(ctx: Ctx, agencyId: number, planId: number) {
  const [row] = await ctx.db
    .select()
    .from(plans)
    .where(planScope(ctx, agencyId, eq(plans.id, planId)));
  return found(row);
}

/** True when the plan is one of the agency's own (what the agency's payment popup may offer). */
export async function isAgencyPlan(ctx: Ctx, input: AgencyInput & { planId: number }): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: plans.id })
    .from(plans)
    .where(planScope(ctx, input.agencyId, eq(plans.id, input.planId)));
  return row !== undefined;
}

const isDefault = sql`coalesce((${plans.features}->>'Default')::boolean, false)`;

async function defaultPlan(ctx: Ctx, agencyId: number, exceptId?: number) {
  const [row] = await ctx.db
    .select({ id: plans.id })
    .from(plans)
    .where(planScope(ctx, agencyId, sql`${isDefault}`, exceptId ? ne(plans.id, exceptId) : undefined))
    .limit(1);
  return row?.id ?? null;
}

/**
 * Serializes the plan changes of one agency for the rest of the transaction, so that two saves cannot
 * both pass the one-Default-plan check. A lock billing owns, rather than a lock on the agencies row.
 */
async function lockPlansOf(tx: Tx, agencyId: number) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('billing.plans'), ${agencyId})`);
}

export async function listPlans(ctx: Ctx, input: AgencyInput & { query: TListQuery }) {
  const q = input.query;
  const where = planScope(
    ctx,
    input.agencyId,
    q.keyword ? ilike(plans.name, likePattern(q.keyword)) : undefined,
  );
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    ctx.db.select().from(plans).where(where).orderBy(desc(plans.id)).limit(limit).offset(offset),
    ctx.db.select({ n: count() }).from(plans).where(where),
  ]);
  return { data: rows.map(toPlan), total: total?.n ?? 0 };
}

export async function allPlans(ctx: Ctx, input: AgencyInput) {
  const rows = await ctx.db
    .select()
    .from(plans)
    .where(planScope(ctx, input.agencyId))
    .orderBy(asc(plans.price_cents), asc(plans.id));
  return rows.map(toPlan);
}

export async function hasDefaultPlan(ctx: Ctx, input: AgencyInput) {
  const id = await defaultPlan(ctx, input.agencyId);
  return { has_default: id !== null, plan_id: id };
}

export async function getPlan(ctx: Ctx, input: AgencyInput & { planId: number }) {
  return toPlan(await findPlan(ctx, input.agencyId, input.planId));
}

/** The plan an edit leaves: what the PUT names, and the stored value of every field it leaves out. */
function edited(current: TPlan, patch: TUpdatePlanRequest): TPlanRequest {
  return {
    name: patch.name ?? current.name,
    interval: patch.interval ?? current.interval,
    price_cents: patch.price_cents ?? current.price_cents,
    trial_days: patch.trial_days ?? current.trial_days,
    active: patch.active ?? current.active,
    type: patch.type ?? current.type,
    features: { ...current.features, ...patch.features },
  };
}

/** Adds a plan, or edits one (a field the edit leaves out keeps its value). Only one Default plan per agency. */
export async function savePlan(
  ctx: Ctx,
  input: AgencyInput &
    ({ plan: TPlanRequest; planId?: undefined } | { plan: TUpdatePlanRequest; planId: number }),
): Promise<TPlan> {
  const { agencyId, planId } = input;
  const row = await inTransaction(ctx, async (tx) => {
    await lockPlansOf(tx.db, agencyId);
    const plan =
      planId === undefined
        ? (input.plan as TPlanRequest)
        : edited(toPlan(await findPlan(tx, agencyId, planId)), input.plan);
    if (plan.features.Default && (await defaultPlan(tx, agencyId, planId)) !== null) {
      throw invalid('features.Default', 'businesses.plans.default_exists');
    }
    const values = {
      name: plan.name,
      interval: plan.interval,
      price_cents: plan.price_cents,
      trial_days: plan.trial_days,
      features: plan.features,
      active: plan.active,
      type: plan.type,
    };
    // Stripe's prices are immutable: a new price or period is a new Stripe price, made on the next sale.
    const repriced = planId !== undefined && (await priceChanged(tx, planId, plan));
    const [saved] = planId
      ? await tx.db
          .update(plans)
          .set({ ...values, ...(repriced ? { stripe_price_id: null } : {}), updated_at: new Date() })
          .where(and(eq(plans.id, planId), eq(plans.agency_id, agencyId)))
          .returning()
      : await tx.db
          .insert(plans)
          .values({ ...values, agency_id: agencyId })
          .returning();
    return found(saved);
  });
  return toPlan(row);
}

async function priceChanged(ctx: Ctx, planId: number, plan: TPlanRequest) {
  const [row] = await ctx.db
    .select({ price: plans.price_cents, interval: plans.interval })
    .from(plans)
    .where(eq(plans.id, planId));
  return !row || row.price !== plan.price_cents || row.interval !== plan.interval;
}

/**
 * A plan a live business is on cannot be deleted (409). Businesses are another module's rows: the
 * caller passes their count (the businesses module's service), asked inside this transaction.
 */
export async function deletePlan(
  ctx: Ctx,
  input: AgencyInput & { planId: number; businessesOnPlan: (ctx: Ctx) => Promise<number> },
) {
  const { agencyId, planId } = input;
  await inTransaction(ctx, async (tx) => {
    await lockPlansOf(tx.db, agencyId);
    await findPlan(tx, agencyId, planId);
    const used = await input.businessesOnPlan(tx);
    if (used > 0) throw new AppError('CONFLICT', 'businesses.plans.in_use', undefined, { count: used });
    await tx.db.delete(plans).where(and(eq(plans.id, planId), eq(plans.agency_id, agencyId)));
  });
}

/** Whether a plan is one of the agency's (a business may only be put on its own agency's plans). */
export async function isPlanOfAgency(ctx: Ctx, input: AgencyInput & { planId: number }) {
  const [plan] = await ctx.db
    .select({ id: plans.id })
    .from(plans)
    .where(and(eq(plans.id, input.planId), eq(plans.agency_id, input.agencyId)));
  return Boolean(plan);
}

// ---------------------------------------------------------------------------------------------------
// Packages: add-ons (extra messages or calls) the agency sells to its businesses. An agency works on its
// own; a business sees its agency's.

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
    order_bump: p.order_bump,
    created_at: p.created_at.toISOString(),
  };
}

const packageScope = (ctx: Ctx, ...more: (SQL | undefined)[]) =>
  scope(ctx, { agency_id: packages.agency_id }, ...more);

async function findPackage(ctx: Ctx, id: number) {
  const [row] = await ctx.db
    .select()
    .from(packages)
    .where(packageScope(ctx, eq(packages.id, id)));
  return found(row);
}

export async function listPackages(ctx: Ctx, q: TPackageListQuery) {
  const where = packageScope(
    ctx,
    q.active !== undefined ? eq(packages.active, q.active) : undefined,
    q.kind ? eq(packages.kind, q.kind) : undefined,
    q.keyword ? ilike(packages.name, likePattern(q.keyword)) : undefined,
  );
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    ctx.db.select().from(packages).where(where).orderBy(desc(packages.id)).limit(limit).offset(offset),
    ctx.db.select({ n: count() }).from(packages).where(where),
  ]);
  return { data: rows.map(toPackage), total: total?.n ?? 0 };
}

/** Every package of the context's agency; `activeOnly` for businesses, who only see what is on sale. */
export async function allPackages(ctx: Ctx, input: { activeOnly?: boolean } = {}) {
  const rows = await ctx.db
    .select()
    .from(packages)
    .where(packageScope(ctx, input.activeOnly ? eq(packages.active, true) : undefined))
    .orderBy(asc(packages.kind), asc(packages.price_cents), asc(packages.id));
  return rows.map(toPackage);
}

export async function getPackage(ctx: Ctx, input: { id: number }) {
  return toPackage(await findPackage(ctx, input.id));
}

export async function createPackage(ctx: Ctx, input: TPackageRequest) {
  // Packages are an agency's: the platform has none of its own.
  if (ctx.tenant.level === 'platform') throw notFound();
  const [row] = await ctx.db
    .insert(packages)
    .values({ ...input, agency_id: ctx.tenant.agencyId })
    .returning();
  return toPackage(found(row));
}

export async function updatePackage(ctx: Ctx, input: { id: number; changes: Partial<TPackageRequest> }) {
  const [row] = await ctx.db
    .update(packages)
    .set({ ...input.changes, updated_at: new Date() })
    .where(packageScope(ctx, eq(packages.id, input.id)))
    .returning();
  return toPackage(found(row));
}

export async function deletePackage(ctx: Ctx, input: { id: number }) {
  const rows = await ctx.db
    .delete(packages)
    .where(packageScope(ctx, eq(packages.id, input.id)))
    .returning({ id: packages.id });
  if (rows.length === 0) throw notFound();
}

// ---------------------------------------------------------------------------------------------------
// Plans for sale (ADR 076): what a seller offers a buyer, read by the subscriptions module. The seller of
// an agency is the main agency (its plans of type 'agency'); of a business, the business's agency.

/** A plan as sold, with its Stripe ids; null when it is not on sale to that buyer. */
export type PlanForSale = TPlan & {
  stripe_account: string | null;
  stripe_product_id: string | null;
  stripe_price_id: string | null;
};

const forSale = (p: PlanRow): PlanForSale => ({
  ...toPlan(p),
  stripe_account: p.stripe_account,
  stripe_product_id: p.stripe_product_id,
  stripe_price_id: p.stripe_price_id,
});

/** The active plans of type `type` of an agency (visible only when `visibleOnly`), cheapest first. */
export async function plansForSale(
  ctx: Ctx,
  input: { agencyId: number; type: 'agency' | 'business'; interval?: 'month' | 'year'; visibleOnly: boolean },
) {
  const rows = await acrossTenants(ctx, 'a seller’s plans are offered to its buyers')
    .db.select()
    .from(plans)
    .where(
      and(
        eq(plans.agency_id, input.agencyId),
        eq(plans.type, input.type),
        eq(plans.active, true),
        input.interval ? eq(plans.interval, input.interval) : undefined,
        input.visibleOnly ? sql`coalesce((${plans.features}->>'Visible')::boolean, true)` : undefined,
      ),
    )
    .orderBy(asc(plans.price_cents), asc(plans.id));
  return rows.map(forSale);
}

/** One plan of an agency by id (any state); null when it is not that agency's. */
export async function planOfAgency(ctx: Ctx, input: { agencyId: number; planId: number }) {
  const [row] = await acrossTenants(ctx, 'a seller’s plans are offered to its buyers')
    .db.select()
    .from(plans)
    .where(and(eq(plans.agency_id, input.agencyId), eq(plans.id, input.planId)));
  return row ? forSale(row) : null;
}

/** Keeps the Stripe product and price a plan is sold with on a Stripe account. */
export async function setPlanStripeIds(
  ctx: Ctx,
  input: { planId: number; account: string; productId: string; priceId: string },
) {
  await ctx.db
    .update(plans)
    .set({
      stripe_account: input.account,
      stripe_product_id: input.productId,
      stripe_price_id: input.priceId,
    })
    .where(eq(plans.id, input.planId));
}

/** The plan sold with a Stripe price on an account (a subscription names the price). */
export async function planByStripePrice(ctx: Ctx, input: { account: string; priceId: string }) {
  const [row] = await ctx.db
    .select()
    .from(plans)
    .where(and(eq(plans.stripe_account, input.account), eq(plans.stripe_price_id, input.priceId)));
  return row ? forSale(row) : null;
}

/** One active package of an agency; null otherwise. */
export async function packageOfAgency(ctx: Ctx, input: { agencyId: number; packageId: number }) {
  const [row] = await acrossTenants(ctx, 'a seller’s packages are offered to its buyers')
    .db.select()
    .from(packages)
    .where(
      and(
        eq(packages.agency_id, input.agencyId),
        eq(packages.id, input.packageId),
        eq(packages.active, true),
      ),
    );
  return row ? toPackage(row) : null;
}

// The context every service call takes: which tenant, who is acting, the database handle (or the
// transaction the caller runs in) and `afterCommit` for work that must only happen once the data is
// committed. A signed-in user is one kind of actor among several: a carrier webhook, a job, a widget
// visitor and an automation build their context from data, never from a pretend admin (ADR 012).
import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Actor } from '../auth/actor.ts';
import type { Db, Tx } from '../db/client.ts';
import { type Preparable, prepared, slot } from '../db/prepared.ts';
import { isTenantHandle, markTenantHandle } from '../db/tenant-db.ts';
import type { Deps } from '../deps.ts';
import { AppError, forbidden, notFound } from '../http/errors.ts';

/** The tenant levels: the platform, an agency, or a business of an agency. */
export type Tenant =
  | { level: 'platform' }
  | { level: 'agency'; agencyId: number }
  | { level: 'business'; agencyId: number; businessId: number };

/** Who is acting. */
export type Acting =
  | { kind: 'user'; actor: Actor }
  | { kind: 'visitor'; installId: number; ip?: string }
  | {
      kind: 'system';
      /** 'link': someone holding a link e-mailed to a user (reset, verification, unsubscribe) or signing in. */
      source: 'job' | 'carrier' | 'payments' | 'cli' | 'seed' | 'automation' | 'link';
      name: string;
    };

/** Who sent the request, for audit entries; absent outside a request. */
export type RequestClient = { ip?: string | null; requestId?: string | null; userAgent?: string };

export type AfterCommit = (work: () => unknown) => void;

export type Ctx = {
  tenant: Tenant;
  by: Acting;
  /** The database, or the transaction the caller runs in. */
  db: Tx;
  deps: Deps;
  /** Runs `work` once the current transaction commits (at once when there is none); never on rollback. */
  afterCommit: AfterCommit;
  /** True inside `inTransaction`. */
  inTx: boolean;
  /** The request's address and id, kept in audit entries. */
  client?: RequestClient;
};

const runNow: AfterCommit = (work) => {
  void Promise.resolve()
    .then(work)
    .catch(() => undefined);
};

/**
 * The database handle a tenant's work runs on (decision 097): the platform's for the platform, else the
 * handle whose connections carry that agency (and business) for row-level security.
 */
export function tenantDb(deps: Deps, tenant: Tenant): Tx {
  return tenant.level === 'platform'
    ? deps.db
    : deps.tenants.of({
        agencyId: tenant.agencyId,
        businessId: tenant.level === 'business' ? tenant.businessId : null,
      });
}

function make(deps: Deps, tenant: Tenant, by: Acting, client?: RequestClient): Ctx {
  return {
    tenant,
    by,
    db: tenantDb(deps, tenant),
    deps,
    afterCommit: runNow,
    inTx: false,
    ...(client ? { client } : {}),
  };
}

/**
 * The same actor working for another tenant (a seller agency's side of an order): its own handle, outside
 * any transaction of the first.
 */
export function asTenant(ctx: Ctx, tenant: Tenant): Ctx {
  return { ...ctx, tenant, db: tenantDb(ctx.deps, tenant), inTx: false, afterCommit: runNow };
}

/** The tenant a signed-in user belongs to. */
export function tenantOfActor(actor: Actor): Tenant {
  if (actor.roleGroup === 'Admin') return { level: 'platform' };
  if (actor.agencyId === null) throw forbidden();
  if (actor.roleGroup === 'Agency') return { level: 'agency', agencyId: actor.agencyId };
  if (actor.businessId === null) throw forbidden();
  return { level: 'business', agencyId: actor.agencyId, businessId: actor.businessId };
}

/** A signed-in user's context: the platform only ever for an Admin, else their own agency or business. */
export function userContext(deps: Deps, actor: Actor, client?: RequestClient): Ctx {
  return make(deps, tenantOfActor(actor), { kind: 'user', actor }, client);
}

/** An agency's or a business's context for work that no user started (a webhook, a job, a visitor). */
export function tenantContext(
  deps: Deps,
  tenant: Exclude<Tenant, { level: 'platform' }>,
  by: Exclude<Acting, { kind: 'user' }>,
): Ctx {
  return make(deps, tenant, by);
}

/**
 * A business's context for work no user started, named by its source and purpose: the context of a job,
 * a webhook or a listener's batch of that business's events (`of` is anything that carries its keys).
 */
export function businessSystemContext(
  deps: Deps,
  of: { agencyId: number; businessId: number },
  source: 'job' | 'carrier',
  name: string,
): Ctx {
  return make(
    deps,
    { level: 'business', agencyId: of.agencyId, businessId: of.businessId },
    { kind: 'system', source, name },
  );
}

/**
 * The one way, besides an Admin's request, to act platform-wide: named, so that a search finds every
 * use (start-up seeding, the CLI, platform jobs such as the mail queue, and the carrier's webhooks until
 * they have found the tenant from our own rows: the number texted, the message or call named).
 */
export function platformSystemContext(
  deps: Deps,
  source: 'job' | 'cli' | 'seed' | 'carrier' | 'payments',
  name: string,
): Ctx {
  return make(deps, { level: 'platform' }, { kind: 'system', source, name });
}

/**
 * The other named way to act platform-wide: sign-in, the e-mailed links (reset, verification,
 * unsubscribe) and the sign-up form's public checks, which look up users or domains before anyone is
 * known.
 */
export function linkHolderContext(deps: Deps, name: string, client?: RequestClient): Ctx {
  return make(deps, { level: 'platform' }, { kind: 'system', source: 'link', name }, client);
}

/**
 * Runs `fn` in one transaction with a context whose `db` is that transaction. Work given to
 * `afterCommit` runs after the commit, in order; nothing runs when `fn` throws. A nested call joins the
 * outer transaction.
 */
export async function inTransaction<T>(ctx: Ctx, fn: (tx: Ctx) => Promise<T>): Promise<T> {
  if (ctx.inTx) return fn(ctx);
  const pending: (() => unknown)[] = [];
  const root = tenantDb(ctx.deps, ctx.tenant) as Db;
  const result = await root.transaction(async (tx) => {
    if (isTenantHandle(root)) markTenantHandle(tx);
    return fn({ ...ctx, db: tx, inTx: true, afterCommit: (work) => pending.push(work) });
  });
  for (const work of pending) {
    try {
      await work();
    } catch (err) {
      ctx.deps.log.error({ err }, 'after-commit work failed');
    }
  }
  return result;
}

/**
 * The platform's handle for one read (or platform-owned write) that crosses tenants on purpose from a
 * tenant's context, outside row-level security (decision 097): named, with its reason, so that a search
 * finds every one. For instance whether an e-mail address is taken anywhere, the platform's plans and
 * templates offered to every agency, a share link of another business. Not a way around a tenant filter:
 * the caller still says which rows it wants.
 */
export function acrossTenants<C extends Pick<Ctx, 'db' | 'deps'>>(ctx: C, why: string): C {
  if (!why) throw new Error('acrossTenants: say why');
  // Already the platform's (its pool, or its transaction, which keeps seeing its own uncommitted rows).
  if (!isTenantHandle(ctx.db)) return ctx;
  return { ...ctx, db: ctx.deps.db, inTx: false, afterCommit: runNow };
}

/** The acting user, for services that only users call (profile, user management). */
export function actingUser(ctx: Ctx): Actor {
  if (ctx.by.kind !== 'user') throw forbidden();
  return ctx.by.actor;
}

/** Who really acted, for audit entries: the impersonator when impersonating; null for the system. */
export function auditActorId(ctx: Ctx): number | null {
  return ctx.by.kind === 'user' ? (ctx.by.actor.impersonatorId ?? ctx.by.actor.userId) : null;
}

/** The request details of an audit entry (address and request id), when there is a request. */
export function auditClient(ctx: Ctx): { ip: string | null; requestId: string | null } {
  return { ip: ctx.client?.ip ?? null, requestId: ctx.client?.requestId ?? null };
}

type TenantColumns = { agency_id: PgColumn; business_id?: PgColumn };

/**
 * The filter that keeps a query inside the context's tenant: nothing on the platform, the agency for an
 * agency, the agency and business for a business. Every tenant query goes through it, so another tenant's
 * row is simply not found (404), never shown.
 */
export function scope(ctx: Ctx, cols: TenantColumns, ...conditions: (SQL | undefined)[]): SQL | undefined {
  const t = ctx.tenant;
  let tenant: SQL | undefined;
  if (t.level === 'agency') tenant = eq(cols.agency_id, t.agencyId);
  else if (t.level === 'business')
    tenant = cols.business_id
      ? and(eq(cols.agency_id, t.agencyId), eq(cols.business_id, t.businessId))
      : eq(cols.agency_id, t.agencyId);
  return and(tenant, ...conditions);
}

/**
 * A query built once (`prepared`, ADR 107) with `scope`'s tenant filter: `build` gets the filter to put in
 * its `where` (undefined on the platform), made of placeholders, and each tenant level has its own built
 * query. Run it with the context and the values of the query's own placeholders.
 */
export function scopedPrepared<R>(
  cols: TenantColumns,
  build: (db: Tx, tenant: SQL | undefined) => Preparable<R>,
): (ctx: Ctx, values?: Record<string, unknown>) => Promise<R> {
  const agency = eq(cols.agency_id, slot('tenant_agency'));
  const byLevel = {
    platform: prepared((db) => build(db, undefined)),
    agency: prepared((db) => build(db, agency)),
    business: prepared((db) =>
      build(db, cols.business_id ? and(agency, eq(cols.business_id, slot('tenant_business'))) : agency),
    ),
  };
  return (ctx, values) => {
    const t = ctx.tenant;
    if (t.level === 'platform') return byLevel.platform(ctx.db, values);
    if (t.level === 'agency') return byLevel.agency(ctx.db, { ...values, tenant_agency: t.agencyId });
    return byLevel.business(ctx.db, { ...values, tenant_agency: t.agencyId, tenant_business: t.businessId });
  };
}

/**
 * For work across every tenant (a carrier's webhook before its rows name the tenant, a platform job): a
 * 403 unless the context is the platform's, so a tenant's context never reads other tenants' rows.
 */
export function platformOnly(ctx: Ctx): void {
  if (ctx.tenant.level !== 'platform') throw forbidden();
}

/** The row, or a 404. */
export function found<T>(row: T | undefined | null): T {
  if (row === undefined || row === null) throw notFound();
  return row;
}

/**
 * The agency a call targets: on the platform the agency the Admin named (required), else the context's
 * own agency, whatever was named (a named other agency is simply not this tenant's: 404).
 */
export function targetAgency(ctx: Ctx, named?: number | null): number {
  const t = ctx.tenant;
  if (t.level === 'platform') {
    if (!named) throw new AppError('VALIDATION', undefined, { agency_id: 'validation.required' });
    return named;
  }
  if (named && named !== t.agencyId) throw notFound();
  return t.agencyId;
}

/** The context's business; a 403 outside a business. */
export function businessOf(ctx: Ctx): { agencyId: number; businessId: number } {
  const t = ctx.tenant;
  if (t.level !== 'business') throw forbidden();
  return { agencyId: t.agencyId, businessId: t.businessId };
}

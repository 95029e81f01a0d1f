import type {
  TDepartment,
  TDepartmentListQuery,
  TDepartmentRequest,
  TUserSummary,
} from '@stn/contracts/users';
import { and, asc, count, eq, exists, ilike, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.ts';
import { forbidden, invalid, notFound } from '../../platform/http/errors.ts';
import { listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { auditActorId, type Ctx, inTransaction, scope } from '../../platform/tenancy/context.ts';
import { audit } from '../audit/service.ts';
import {
  type BusinessScope,
  businessUser,
  type Client,
  likePattern,
  requireBusinessPage,
} from './business-access.ts';
import { toUserSummary } from './business-users.ts';
import { departmentAgents, departments, users } from './tables.ts';

type DepartmentRow = typeof departments.$inferSelect;
const tenantCols = { agency_id: departments.agency_id, business_id: departments.business_id };

/** Departments exist only for businesses with departments enabled (dep_enabled); otherwise 403. */
async function assertEnabled(ctx: Ctx, scope: BusinessScope): Promise<{ maxDepartments: number }> {
  const biz = await ctx.deps.ports.accounts.businessLimits(ctx, { id: scope.businessId });
  if (!biz?.dep_enabled) throw forbidden('users.departments.disabled');
  return { maxDepartments: Number((biz.settings as { max_departments?: number }).max_departments ?? 0) };
}

/** Managers (departments page) for the screens; the lookup lists are open to every business user. */
async function managerScope(ctx: Ctx) {
  const business = requireBusinessPage(ctx, { page: 'departments_page' });
  return { ...business, ...(await assertEnabled(ctx, business)) };
}
async function readerScope(ctx: Ctx) {
  const business = businessUser(ctx);
  await assertEnabled(ctx, business);
  return business;
}

async function withAgents(db: Tx, rows: DepartmentRow[]): Promise<TDepartment[]> {
  const ids = rows.map((r) => r.id);
  const agents = ids.length
    ? await db
        .select({
          department_id: departmentAgents.department_id,
          channel: departmentAgents.channel,
          user: users,
        })
        .from(departmentAgents)
        .innerJoin(users, eq(users.id, departmentAgents.user_id))
        .where(inArray(departmentAgents.department_id, ids))
        .orderBy(asc(users.first_name), asc(users.id))
    : [];
  return rows.map((r) => {
    const mine = agents.filter((a) => a.department_id === r.id);
    const of = (channel: 'sms' | 'voice'): TUserSummary[] =>
      mine.filter((a) => a.channel === channel).map((a) => toUserSummary(a.user));
    return {
      id: r.id,
      name: r.name,
      active: r.active,
      sms_agents: of('sms'),
      voice_agents: of('voice'),
      created_at: r.created_at.toISOString(),
    };
  });
}

async function findInTenant(ctx: Ctx, id: number): Promise<DepartmentRow> {
  const [row] = await ctx.db
    .select()
    .from(departments)
    .where(scope(ctx, tenantCols, eq(departments.id, id)));
  if (!row) throw notFound();
  return row;
}

export async function listDepartments(ctx: Ctx, q: TDepartmentListQuery) {
  const { deps } = ctx;
  await managerScope(ctx);
  const where = scope(
    ctx,
    tenantCols,
    q.keyword ? ilike(departments.name, likePattern(q.keyword)) : undefined,
    q.status ? eq(departments.active, q.status === 'active') : undefined,
  );
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    deps.db.select().from(departments).where(where).orderBy(asc(departments.id)).limit(limit).offset(offset),
    deps.db.select({ n: count() }).from(departments).where(where),
  ]);
  return listEnvelope(await withAgents(deps.db, rows), total?.n ?? 0, q);
}

/**
 * All departments of the business; `channel` keeps the active ones with at least one agent on it
 * (the sms-departments and voice-departments lists).
 */
export async function allDepartments(ctx: Ctx, channel?: 'sms' | 'voice') {
  const { deps } = ctx;
  await readerScope(ctx);
  const conditions: (SQL | undefined)[] = [];
  if (channel) {
    conditions.push(
      eq(departments.active, true),
      exists(
        deps.db
          .select({ one: sql`1` })
          .from(departmentAgents)
          .innerJoin(users, eq(users.id, departmentAgents.user_id))
          .where(
            and(
              eq(departmentAgents.department_id, departments.id),
              eq(departmentAgents.channel, channel),
              eq(users.active, true),
            ),
          ),
      ),
    );
  }
  const rows = await deps.db
    .select()
    .from(departments)
    .where(scope(ctx, tenantCols, ...conditions))
    .orderBy(asc(departments.name), asc(departments.id));
  return withAgents(deps.db, rows);
}

export async function departmentSmsAgents(ctx: Ctx, id: number): Promise<TUserSummary[]> {
  const { deps } = ctx;
  await readerScope(ctx);
  const dep = await findInTenant(ctx, id);
  const [full] = await withAgents(deps.db, [dep]);
  return full?.sms_agents ?? [];
}

export async function getDepartment(ctx: Ctx, id: number): Promise<TDepartment> {
  const { deps } = ctx;
  await managerScope(ctx);
  const [full] = await withAgents(deps.db, [await findInTenant(ctx, id)]);
  if (!full) throw notFound();
  return full;
}

/** Agents must be users of the same business; another business's user id is a 422. */
async function assertAgents(tx: Tx, scope: BusinessScope, input: TDepartmentRequest) {
  for (const field of ['sms_agents', 'voice_agents'] as const) {
    const ids = [...new Set(input[field])];
    if (!ids.length) continue;
    const [found] = await tx
      .select({ n: count() })
      .from(users)
      .where(and(inArray(users.id, ids), eq(users.business_id, scope.businessId)));
    if ((found?.n ?? 0) !== ids.length) throw invalid(field, 'users.departments.agents_invalid');
  }
}

async function assertNameFree(tx: Tx, scope: BusinessScope, name: string, exceptId?: number) {
  const [taken] = await tx
    .select({ id: departments.id })
    .from(departments)
    .where(
      and(
        eq(departments.business_id, scope.businessId),
        sql`lower(${departments.name}) = ${name.toLowerCase()}`,
        exceptId ? ne(departments.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (taken) throw invalid('name', 'users.departments.name_taken');
}

async function writeAgents(tx: Tx, scope: BusinessScope, departmentId: number, input: TDepartmentRequest) {
  await tx.delete(departmentAgents).where(eq(departmentAgents.department_id, departmentId));
  const rows = (['sms', 'voice'] as const).flatMap((channel) =>
    [...new Set(input[channel === 'sms' ? 'sms_agents' : 'voice_agents'])].map((userId) => ({
      department_id: departmentId,
      user_id: userId,
      agency_id: scope.agencyId,
      business_id: scope.businessId,
      channel,
    })),
  );
  if (rows.length) await tx.insert(departmentAgents).values(rows);
}

export async function createDepartment(ctx: Ctx, input: TDepartmentRequest) {
  const scope = await managerScope(ctx);
  const id = await inTransaction(ctx, async (c) => {
    const tx = c.db;
    // Lock the business so that the department limit holds under concurrent creations.
    await ctx.deps.ports.accounts.businessLimits(c, { id: scope.businessId, lock: true });
    if (scope.maxDepartments > 0) {
      const [n] = await tx
        .select({ n: count() })
        .from(departments)
        .where(eq(departments.business_id, scope.businessId));
      if ((n?.n ?? 0) >= scope.maxDepartments)
        throw invalid('name', 'users.departments.limit_reached', { count: scope.maxDepartments });
    }
    await assertNameFree(tx, scope, input.name);
    await assertAgents(tx, scope, input);
    const [row] = await tx
      .insert(departments)
      .values({
        agency_id: scope.agencyId,
        business_id: scope.businessId,
        name: input.name,
        active: input.active,
      })
      .returning({ id: departments.id });
    if (!row) throw notFound();
    await writeAgents(tx, scope, row.id, input);
    return row.id;
  });
  return getDepartment(ctx, id);
}

export async function updateDepartment(ctx: Ctx, id: number, input: TDepartmentRequest) {
  const scope = await managerScope(ctx);
  await inTransaction(ctx, async (c) => {
    const tx = c.db;
    const dep = await findInTenant(c, id);
    await assertNameFree(tx, scope, input.name, dep.id);
    await assertAgents(tx, scope, input);
    await tx
      .update(departments)
      .set({ name: input.name, active: input.active, updated_at: new Date() })
      .where(eq(departments.id, dep.id));
    await writeAgents(tx, scope, dep.id, input);
  });
  return getDepartment(ctx, id);
}

export async function toggleDepartment(ctx: Ctx, id: number, active: boolean) {
  const { deps } = ctx;
  await managerScope(ctx);
  const dep = await findInTenant(ctx, id);
  await deps.db.update(departments).set({ active, updated_at: new Date() }).where(eq(departments.id, dep.id));
  return getDepartment(ctx, id);
}

export async function deleteDepartment(ctx: Ctx, id: number, client: Client) {
  await managerScope(ctx);
  await inTransaction(ctx, async (c) => {
    const tx = c.db;
    const dep = await findInTenant(c, id);
    await tx.delete(departments).where(eq(departments.id, dep.id));
    await audit(c, {
      action: 'department.delete',
      actorId: auditActorId(ctx),
      agencyId: dep.agency_id,
      businessId: dep.business_id,
      data: { department_id: dep.id, name: dep.name },
      ip: client.ip,
      requestId: client.requestId,
    });
  });
}

import type {
  TAgentsQuery,
  TBusinessUser,
  TBusinessUserListQuery,
  TChangePasswordRequest,
  TCreateBusinessUserRequest,
  TUpdateBusinessUserRequest,
  TUserSummary,
} from '@stn/contracts/users';
import { and, asc, count, eq, ilike, inArray, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import { forbidden, invalid } from '../../platform/http/errors.ts';
import { listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { actingUser, type Ctx, inTransaction, scope } from '../../platform/tenancy/context.ts';
import {
  businessUser,
  findBusinessUser,
  guardRights,
  likePattern,
  requireBusinessPage,
  rightsOf,
} from './business-access.ts';
import { withPendingEmail } from './queries.ts';
import { createUser, deleteUser, setPassword, updateUser } from './service.ts';
import { users } from './tables.ts';

type UserRow = typeof users.$inferSelect;

const tenantCols = { agency_id: users.agency_id, business_id: users.business_id };

export function toUserSummary(u: UserRow): TUserSummary {
  return {
    id: u.id,
    first_name: u.first_name,
    last_name: u.last_name,
    email: u.email,
    role: u.role,
    user_type: u.user_type,
    agent_type: u.agent_type,
    phone: u.phone,
  };
}

function toBusinessUser(u: UserRow, ownerId: number | null): TBusinessUser {
  return {
    id: u.id,
    first_name: u.first_name,
    last_name: u.last_name,
    email: u.email,
    role: u.role === 'BusinessAdmin' ? 'BusinessAdmin' : 'BusinessUser',
    user_type: u.user_type,
    agent_type: u.agent_type,
    settings: { custom_type_pages: u.settings.custom_type_pages ?? [] },
    phone: u.phone,
    active: u.active,
    is_owner: u.id === ownerId,
    created_at: u.created_at.toISOString(),
  };
}

async function ownerOf(ctx: Ctx, businessId: number): Promise<number | null> {
  const row = await ctx.deps.ports.accounts.businessLimits(ctx, { id: businessId });
  return row?.owner_id ?? null;
}

/**
 * The user limit (businesses.number_of_users active users). The business row is locked so that two
 * concurrent creations cannot both take the last seat.
 */
async function assertSeatFree(ctx: Ctx, businessId: number): Promise<void> {
  const biz = await ctx.deps.ports.accounts.businessLimits(ctx, { id: businessId, lock: true });
  const [active] = await ctx.db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.business_id, businessId), eq(users.active, true)));
  const max = biz?.number_of_users ?? 0;
  if ((active?.n ?? 0) >= max) throw invalid('users', 'users.limit_reached', { count: max });
}

/** The stored user_type and pages for a role: only a BusinessUser has a type, only type 4 has pages. */
function typeFields(input: Pick<TCreateBusinessUserRequest, 'role' | 'user_type' | 'settings'>) {
  const userType = input.role === 'BusinessUser' ? (input.user_type ?? null) : null;
  const pages = userType === '4' ? [...new Set(input.settings?.custom_type_pages ?? [])] : undefined;
  return { userType, pages };
}

/** The users whose first name, last name, full name or e-mail holds the keyword (the lists' search). */
export function userKeyword(keyword: string): SQL | undefined {
  const p = likePattern(keyword);
  return or(
    ilike(users.first_name, p),
    ilike(users.last_name, p),
    ilike(users.email, p),
    ilike(sql`${users.first_name} || ' ' || ${users.last_name}`, p),
  );
}

export async function listBusinessUsers(ctx: Ctx, q: TBusinessUserListQuery) {
  const { businessId } = requireBusinessPage(ctx, { page: 'users_page' });
  const conditions: (SQL | undefined)[] = [eq(users.role_group, 'Business')];
  if (q.keyword) conditions.push(userKeyword(q.keyword));
  if (q.status) conditions.push(eq(users.active, q.status === 'active'));
  if (q.role) conditions.push(eq(users.role, q.role));
  const where = scope(ctx, tenantCols, ...conditions);
  const { limit, offset } = pageOf(q);
  const [rows, [total], ownerId] = await Promise.all([
    ctx.db.select().from(users).where(where).orderBy(asc(users.id)).limit(limit).offset(offset),
    ctx.db.select({ n: count() }).from(users).where(where),
    ownerOf(ctx, businessId),
  ]);
  return listEnvelope(
    rows.map((r) => toBusinessUser(r, ownerId)),
    total?.n ?? 0,
    q,
  );
}

/** Every active user of the business, for pickers (any business user may read it). */
export async function allBusinessUsers(ctx: Ctx): Promise<TUserSummary[]> {
  businessUser(ctx);
  const rows = await ctx.db
    .select()
    .from(users)
    .where(scope(ctx, tenantCols, eq(users.active, true)))
    .orderBy(asc(users.first_name), asc(users.id));
  return rows.map(toUserSummary);
}

/** Active users with an agent type, for assignment; by channel when asked. */
export async function businessAgents(ctx: Ctx, q: TAgentsQuery): Promise<TUserSummary[]> {
  businessUser(ctx);
  const types =
    q.channel === 'sms'
      ? (['agent', 'smsAgent'] as const)
      : q.channel === 'voice'
        ? (['agent', 'voiceAgent'] as const)
        : null;
  const rows = await ctx.db
    .select()
    .from(users)
    .where(
      scope(
        ctx,
        tenantCols,
        eq(users.active, true),
        types ? inArray(users.agent_type, [...types]) : isNotNull(users.agent_type),
      ),
    )
    .orderBy(asc(users.first_name), asc(users.id));
  return rows.map(toUserSummary);
}

export async function getBusinessUser(ctx: Ctx, input: { id: number }): Promise<TBusinessUser> {
  const { businessId } = requireBusinessPage(ctx, { page: 'users_page' });
  const row = await findBusinessUser(ctx, input.id);
  return withPendingEmail(ctx, toBusinessUser(row, await ownerOf(ctx, businessId)));
}

export async function createBusinessUser(
  ctx: Ctx,
  input: TCreateBusinessUserRequest,
): Promise<TBusinessUser> {
  const { businessId } = requireBusinessPage(ctx, { page: 'users_page' });
  const { userType, pages } = typeFields(input);
  await guardRights(ctx, { rights: [{ role: input.role, userType, pages: pages ?? [] }] });
  const id = await inTransaction(ctx, async (tx) => {
    await assertSeatFree(tx, businessId);
    return createUser(tx, {
      email: input.email,
      password: input.password,
      role: input.role,
      firstName: input.first_name,
      lastName: input.last_name,
      businessId,
      userType,
      agentType: input.agent_type ?? null,
      phone: input.phone ?? null,
      settings: pages ? { custom_type_pages: pages } : {},
    });
  });
  return getBusinessUser(ctx, { id });
}

export async function updateBusinessUser(
  ctx: Ctx,
  input: TUpdateBusinessUserRequest & { id: number },
): Promise<TBusinessUser> {
  const actor = actingUser(ctx);
  const { businessId } = requireBusinessPage(ctx, { page: 'users_page' });
  await inTransaction(ctx, async (c) => {
    const target = await findBusinessUser(c, input.id);
    const { userType, pages } = typeFields(input);
    // Another user: both the rights they hold and the rights they get must be the caller's to give.
    // Oneself: the rights stay as they are (below).
    if (target.id !== actor.userId) {
      await guardRights(c, {
        rights: [rightsOf(target), { role: input.role, userType, pages: pages ?? [] }],
      });
    }
    const active = input.active ?? target.active;
    if (target.id === actor.userId) {
      // Nobody raises or lowers their own rights, or locks themselves out.
      const samePages =
        JSON.stringify([...(pages ?? [])].sort()) ===
        JSON.stringify([...(target.settings.custom_type_pages ?? [])].sort());
      const sameRights =
        input.role === target.role && userType === target.user_type && (userType !== '4' || samePages);
      if (!sameRights || !active) throw forbidden('users.own_role');
    }
    if (target.id === (await ownerOf(c, businessId)) && (input.role !== 'BusinessAdmin' || !active)) {
      throw invalid('role', 'users.owner_locked');
    }
    if (active && !target.active) await assertSeatFree(c, businessId);
    const { custom_type_pages: _old, ...otherSettings } = target.settings;
    await updateUser(c, {
      id: target.id,
      set: {
        first_name: input.first_name,
        last_name: input.last_name,
        email: input.email,
        role: input.role,
        user_type: userType,
        agent_type: input.agent_type ?? null,
        ...(input.phone !== undefined ? { phone: input.phone } : {}),
        settings: pages ? { ...otherSettings, custom_type_pages: pages } : otherSettings,
        active,
      },
    });
  });
  return getBusinessUser(ctx, { id: input.id });
}

export async function deleteBusinessUser(ctx: Ctx, input: { id: number }) {
  const actor = actingUser(ctx);
  const { businessId } = requireBusinessPage(ctx, { page: 'users_page' });
  await inTransaction(ctx, async (tx) => {
    const target = await findBusinessUser(tx, input.id);
    if (target.id === actor.userId) throw forbidden('users.cannot_delete_self');
    if (target.id === (await ownerOf(tx, businessId))) throw forbidden('users.cannot_delete_owner');
    await guardRights(tx, { rights: [rightsOf(target)] });
    await deleteUser(tx, {
      id: target.id,
      audit: {
        action: 'user.delete',
        data: { email: target.email, role: target.role, user_type: target.user_type },
      },
    });
  });
}

export async function changeBusinessUserPassword(ctx: Ctx, input: TChangePasswordRequest & { id: number }) {
  const actor = actingUser(ctx);
  requireBusinessPage(ctx, { page: 'users_page' });
  await inTransaction(ctx, async (tx) => {
    const target = await findBusinessUser(tx, input.id);
    // One's own password is changed from the profile, which asks for the current one.
    if (target.id === actor.userId) throw forbidden('users.change_own_password');
    await guardRights(tx, { rights: [rightsOf(target)] });
    await setPassword(tx, {
      user: target,
      password: input.password,
      audit: { action: 'user.password_change' },
    });
  });
}

import type {
  TAgencyUser,
  TCreateAgencyUserRequest,
  TUpdateAgencyUserRequest,
} from '@stn/contracts/businesses';
import type { TListQuery } from '@stn/contracts/http';
import { asc, count, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import { likePattern, pageOf } from '../../platform/http/pagination.ts';
import {
  auditActorId,
  auditClient,
  type Ctx,
  inTransaction,
  scope,
  targetAgency,
} from '../../platform/tenancy/context.ts';
import { audit } from '../audit/service.ts';
import { findAgencyUser, type UserRow, withPendingEmail } from './queries.ts';
import { createUser, deleteUser, setPassword, updateUser } from './service.ts';
import { users } from './tables.ts';

// The agency's own staff (AgencyUser: AccountManager 1, FinanaceManager 2, MarketingManager 3), managed by
// the AgencyAdmin. The AgencyAdmin is not one of them: its id answers 404 here.

const staff = (ctx: Ctx, ...more: (SQL | undefined)[]) =>
  scope(ctx, { agency_id: users.agency_id }, eq(users.role, 'AgencyUser'), ...more);

function toAgencyUser(u: UserRow): TAgencyUser {
  return {
    id: u.id,
    email: u.email,
    first_name: u.first_name,
    last_name: u.last_name,
    user_type: (u.user_type ?? '1') as TAgencyUser['user_type'],
    active: u.active,
    created_at: u.created_at.toISOString(),
  };
}

export async function listAgencyUsers(ctx: Ctx, q: TListQuery & { user_type?: '1' | '2' | '3' }) {
  const kw = q.keyword ? likePattern(q.keyword) : undefined;
  const where = staff(
    ctx,
    q.user_type ? eq(users.user_type, q.user_type) : undefined,
    kw
      ? or(ilike(users.email, kw), ilike(sql`${users.first_name} || ' ' || ${users.last_name}`, kw))
      : undefined,
  );
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    ctx.db.select().from(users).where(where).orderBy(desc(users.id)).limit(limit).offset(offset),
    ctx.db.select({ n: count() }).from(users).where(where),
  ]);
  return { data: rows.map(toAgencyUser), total: total?.n ?? 0 };
}

export async function allAgencyUsers(ctx: Ctx) {
  const rows = await ctx.db
    .select()
    .from(users)
    .where(staff(ctx, eq(users.active, true)))
    .orderBy(asc(users.first_name), asc(users.id));
  return rows.map(toAgencyUser);
}

export async function getAgencyUser(ctx: Ctx, input: { id: number }) {
  return withPendingEmail(ctx, toAgencyUser(await findAgencyUser(ctx, input.id)));
}

export async function createAgencyUser(ctx: Ctx, input: TCreateAgencyUserRequest) {
  const id = await inTransaction(ctx, (tx) =>
    createUser(tx, {
      email: input.email,
      password: input.password,
      role: 'AgencyUser',
      userType: input.user_type,
      agencyId: targetAgency(ctx),
      firstName: input.first_name,
      lastName: input.last_name,
    }),
  );
  return getAgencyUser(ctx, { id });
}

export async function updateAgencyUser(ctx: Ctx, input: TUpdateAgencyUserRequest & { id: number }) {
  await inTransaction(ctx, async (tx) => {
    const current = await findAgencyUser(tx, input.id);
    await updateUser(tx, {
      id: current.id,
      set: {
        email: input.email,
        first_name: input.first_name,
        last_name: input.last_name,
        user_type: input.user_type,
        ...(input.active !== undefined ? { active: input.active } : {}),
      },
    });
    if (input.active === false && current.active) {
      await audit(tx, {
        action: 'agency_user.deactivate',
        actorId: auditActorId(tx),
        agencyId: current.agency_id,
        targetUserId: current.id,
        ...auditClient(tx),
      });
    }
  });
  return getAgencyUser(ctx, { id: input.id });
}

export async function deleteAgencyUser(ctx: Ctx, input: { id: number }) {
  await inTransaction(ctx, async (tx) => {
    const current = await findAgencyUser(tx, input.id);
    await deleteUser(tx, {
      id: current.id,
      audit: { action: 'agency_user.delete', data: { email: current.email, user_type: current.user_type } },
    });
  });
}

export async function changeAgencyUserPassword(ctx: Ctx, input: { id: number; password: string }) {
  await inTransaction(ctx, async (tx) => {
    const current = await findAgencyUser(tx, input.id);
    await setPassword(tx, {
      user: { id: current.id, agency_id: current.agency_id, business_id: null },
      password: input.password,
      audit: { action: 'agency_user.password_change' },
    });
  });
}

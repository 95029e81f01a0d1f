import type {
  TChangePasswordRequest,
  TCreateGlobalUserRequest,
  TGlobalUser,
  TGlobalUserListQuery,
  TUpdateGlobalUserRequest,
} from '@stn/contracts/users';
import { and, asc, count, eq, type SQL } from 'drizzle-orm';
import { forbidden, notFound } from '../../platform/http/errors.ts';
import { listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { actingUser, type Ctx, inTransaction } from '../../platform/tenancy/context.ts';
import { userKeyword } from './business-users.ts';
import { withPendingEmail } from './queries.ts';
import { createUser, deleteUser, setPassword, updateUser } from './service.ts';
import { users } from './tables.ts';

// Global users are the platform's own staff (role group Admin): only a SuperAdmin manages them, and the
// routes say so. Agency and business users are not global users and are not found here.

type UserRow = typeof users.$inferSelect;

function toGlobalUser(u: UserRow): TGlobalUser {
  return {
    id: u.id,
    first_name: u.first_name,
    last_name: u.last_name,
    email: u.email,
    role: u.role === 'SuperAdmin' ? 'SuperAdmin' : 'Admin',
    active: u.active,
    created_at: u.created_at.toISOString(),
  };
}

async function findGlobal(ctx: Ctx, id: number): Promise<UserRow> {
  const [row] = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.id, id), eq(users.role_group, 'Admin')));
  if (!row) throw notFound();
  return row;
}

export async function listGlobalUsers(ctx: Ctx, q: TGlobalUserListQuery) {
  const conditions: (SQL | undefined)[] = [eq(users.role_group, 'Admin')];
  if (q.keyword) conditions.push(userKeyword(q.keyword));
  if (q.role) conditions.push(eq(users.role, q.role));
  const where = and(...conditions);
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    ctx.db.select().from(users).where(where).orderBy(asc(users.id)).limit(limit).offset(offset),
    ctx.db.select({ n: count() }).from(users).where(where),
  ]);
  return listEnvelope(rows.map(toGlobalUser), total?.n ?? 0, q);
}

export async function getGlobalUser(ctx: Ctx, input: { id: number }): Promise<TGlobalUser> {
  return withPendingEmail(ctx, toGlobalUser(await findGlobal(ctx, input.id)));
}

export async function createGlobalUser(ctx: Ctx, input: TCreateGlobalUserRequest): Promise<TGlobalUser> {
  const id = await createUser(ctx, {
    email: input.email,
    password: input.password,
    role: input.role,
    firstName: input.first_name,
    lastName: input.last_name,
    emailVerified: true,
  });
  return getGlobalUser(ctx, { id });
}

export async function updateGlobalUser(
  ctx: Ctx,
  input: TUpdateGlobalUserRequest & { id: number },
): Promise<TGlobalUser> {
  const actor = actingUser(ctx);
  await inTransaction(ctx, async (tx) => {
    const target = await findGlobal(tx, input.id);
    const active = input.active ?? target.active;
    if (target.id === actor.userId && (input.role !== target.role || !active))
      throw forbidden('users.own_role');
    await updateUser(tx, {
      id: target.id,
      set: {
        first_name: input.first_name,
        last_name: input.last_name,
        email: input.email,
        role: input.role,
        active,
      },
    });
  });
  return getGlobalUser(ctx, { id: input.id });
}

export async function deleteGlobalUser(ctx: Ctx, input: { id: number }) {
  const actor = actingUser(ctx);
  await inTransaction(ctx, async (tx) => {
    const target = await findGlobal(tx, input.id);
    if (target.id === actor.userId) throw forbidden('users.cannot_delete_self');
    await deleteUser(tx, {
      id: target.id,
      audit: { action: 'user.delete', data: { email: target.email, role: target.role } },
    });
  });
}

export async function changeGlobalUserPassword(ctx: Ctx, input: TChangePasswordRequest & { id: number }) {
  const actor = actingUser(ctx);
  await inTransaction(ctx, async (tx) => {
    const target = await findGlobal(tx, input.id);
    if (target.id === actor.userId) throw forbidden('users.change_own_password');
    await setPassword(tx, {
      user: target,
      password: input.password,
      audit: { action: 'user.password_change' },
    });
  });
}

import type {
  TChangePasswordRequest,
  TCreateGlobalUserRequest,
  TGlobalUser,
  TGlobalUserListQuery,
  TUpdateGlobalUserRequest,
} from '@stn/contracts/users';
import { and, asc, count, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import type { Tx } from '../../platform/db/client.ts';
import type { Deps } from '../../platform/deps.ts';
import { forbidden, invalid, notFound } from '../../platform/http/errors.ts';
import { listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { createUser, emailTaken } from '../accounts/service.ts';
import { audit } from '../audit/service.ts';
import { revokeAllTokens } from '../auth/service.ts';
import { auditActor, type Client, likePattern } from './business-access.ts';
import { setPasswordOf } from './business-users-service.ts';
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

async function findGlobal(db: Tx, id: number): Promise<UserRow> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), eq(users.role_group, 'Admin')));
  if (!row) throw notFound();
  return row;
}

export async function listGlobalUsers(deps: Deps, q: TGlobalUserListQuery) {
  const conditions: (SQL | undefined)[] = [eq(users.role_group, 'Admin')];
  if (q.keyword) {
    const p = likePattern(q.keyword);
    conditions.push(
      or(
        ilike(users.first_name, p),
        ilike(users.last_name, p),
        ilike(users.email, p),
        ilike(sql`${users.first_name} || ' ' || ${users.last_name}`, p),
      ),
    );
  }
  if (q.role) conditions.push(eq(users.role, q.role));
  const where = and(...conditions);
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    deps.db.select().from(users).where(where).orderBy(asc(users.id)).limit(limit).offset(offset),
    deps.db.select({ n: count() }).from(users).where(where),
  ]);
  return listEnvelope(rows.map(toGlobalUser), total?.n ?? 0, q);
}

export async function getGlobalUser(deps: Deps, id: number): Promise<TGlobalUser> {
  return toGlobalUser(await findGlobal(deps.db, id));
}

export async function createGlobalUser(deps: Deps, input: TCreateGlobalUserRequest): Promise<TGlobalUser> {
  const id = await createUser(deps.db, {
    email: input.email,
    password: input.password,
    role: input.role,
    firstName: input.first_name,
    lastName: input.last_name,
    emailVerified: true,
  });
  return getGlobalUser(deps, id);
}

export async function updateGlobalUser(
  deps: Deps,
  actor: Actor,
  id: number,
  input: TUpdateGlobalUserRequest,
): Promise<TGlobalUser> {
  await deps.db.transaction(async (tx) => {
    const target = await findGlobal(tx, id);
    const active = input.active ?? target.active;
    if (target.id === actor.userId && (input.role !== target.role || !active))
      throw forbidden('users.own_role');
    if (await emailTaken(tx, input.email, target.id)) throw invalid('email', 'validation.email_taken');
    const emailChanged = input.email.toLowerCase() !== target.email.toLowerCase();
    await tx
      .update(users)
      .set({
        first_name: input.first_name,
        last_name: input.last_name,
        email: input.email,
        role: input.role,
        active,
        // A new address is not verified yet.
        ...(emailChanged ? { email_verified_at: null } : {}),
        updated_at: new Date(),
      })
      .where(eq(users.id, target.id));
    if (!active && target.active) await revokeAllTokens(tx, target.id);
  });
  return getGlobalUser(deps, id);
}

export async function deleteGlobalUser(deps: Deps, actor: Actor, id: number, client: Client) {
  await deps.db.transaction(async (tx) => {
    const target = await findGlobal(tx, id);
    if (target.id === actor.userId) throw forbidden('users.cannot_delete_self');
    await tx.delete(users).where(eq(users.id, target.id));
    await audit(tx, {
      action: 'user.delete',
      actorId: auditActor(actor),
      targetUserId: target.id,
      data: { email: target.email, role: target.role },
      ip: client.ip,
      requestId: client.requestId,
    });
  });
}

export async function changeGlobalUserPassword(
  deps: Deps,
  actor: Actor,
  id: number,
  input: TChangePasswordRequest,
  client: Client,
) {
  await deps.db.transaction(async (tx) => {
    const target = await findGlobal(tx, id);
    if (target.id === actor.userId) throw forbidden('users.change_own_password');
    await setPasswordOf(tx, actor, target, input, client);
  });
}

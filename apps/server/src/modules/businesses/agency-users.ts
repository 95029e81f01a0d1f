import type {
  TAgencyUser,
  TCreateAgencyUserRequest,
  TUpdateAgencyUserRequest,
} from '@stn/contracts/businesses';
import type { TListQuery } from '@stn/contracts/http';
import { asc, count, desc, eq, ilike, or, sql } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import { hashPassword } from '../../platform/auth/passwords.ts';
import type { Tx } from '../../platform/db/client.ts';
import type { Deps } from '../../platform/deps.ts';
import { invalid, notFound } from '../../platform/http/errors.ts';
import { likePattern, pageOf } from '../../platform/http/pagination.ts';
import { inTenant } from '../../platform/tenancy.ts';
import { createUser, emailTaken, setPasswordOfUser } from '../accounts/service.ts';
import { audit } from '../audit/service.ts';
import { requestPasswordReset } from '../auth/email-tokens.ts';
import { revokeAllTokens } from '../auth/service.ts';
import { users } from '../users/tables.ts';
import type { Client } from './business-accounts.ts';

// The agency's own staff (AgencyUser: AccountManager 1, FinanaceManager 2, MarketingManager 3), managed by
// the AgencyAdmin. The AgencyAdmin is not one of them: its id answers 404 here.

type UserRow = typeof users.$inferSelect;

const scope = (actor: Actor, ...more: Parameters<typeof inTenant>[2][]) =>
  inTenant(actor, { agency_id: users.agency_id }, eq(users.role, 'AgencyUser'), ...more);

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

async function findAgencyUser(db: Tx, actor: Actor, id: number): Promise<UserRow> {
  const [row] = await db
    .select()
    .from(users)
    .where(scope(actor, eq(users.id, id)));
  if (!row) throw notFound();
  return row;
}

export async function listAgencyUsers(
  deps: Deps,
  actor: Actor,
  q: TListQuery & { user_type?: '1' | '2' | '3' },
) {
  const kw = q.keyword ? likePattern(q.keyword) : undefined;
  const where = scope(
    actor,
    q.user_type ? eq(users.user_type, q.user_type) : undefined,
    kw
      ? or(ilike(users.email, kw), ilike(sql`${users.first_name} || ' ' || ${users.last_name}`, kw))
      : undefined,
  );
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    deps.db.select().from(users).where(where).orderBy(desc(users.id)).limit(limit).offset(offset),
    deps.db.select({ n: count() }).from(users).where(where),
  ]);
  return { data: rows.map(toAgencyUser), total: total?.n ?? 0 };
}

export async function allAgencyUsers(deps: Deps, actor: Actor) {
  const rows = await deps.db
    .select()
    .from(users)
    .where(scope(actor, eq(users.active, true)))
    .orderBy(asc(users.first_name), asc(users.id));
  return rows.map(toAgencyUser);
}

export async function getAgencyUser(deps: Deps, actor: Actor, id: number) {
  return toAgencyUser(await findAgencyUser(deps.db, actor, id));
}

export async function createAgencyUser(deps: Deps, actor: Actor, input: TCreateAgencyUserRequest) {
  const id = await deps.db.transaction((tx) =>
    createUser(tx, {
      email: input.email,
      password: input.password,
      role: 'AgencyUser',
      userType: input.user_type,
      agencyId: actor.agencyId,
      firstName: input.first_name,
      lastName: input.last_name,
    }),
  );
  return getAgencyUser(deps, actor, id);
}

export async function updateAgencyUser(
  deps: Deps,
  actor: Actor,
  id: number,
  input: TUpdateAgencyUserRequest,
  client: Client = {},
) {
  await deps.db.transaction(async (tx) => {
    const current = await findAgencyUser(tx, actor, id);
    if (await emailTaken(tx, input.email, id)) throw invalid('email', 'validation.email_taken');
    const emailChanged = input.email.toLowerCase() !== current.email.toLowerCase();
    await tx
      .update(users)
      .set({
        email: input.email,
        first_name: input.first_name,
        last_name: input.last_name,
        user_type: input.user_type,
        ...(input.active !== undefined ? { active: input.active } : {}),
        ...(emailChanged ? { email_verified_at: null } : {}),
        updated_at: new Date(),
      })
      .where(eq(users.id, id));
    if (input.active === false && current.active) {
      await revokeAllTokens(tx, id);
      await audit(tx, {
        action: 'agency_user.deactivate',
        actorId: actor.impersonatorId ?? actor.userId,
        agencyId: current.agency_id,
        targetUserId: id,
        ip: client.ip,
        requestId: client.requestId,
      });
    }
  });
  return getAgencyUser(deps, actor, id);
}

export async function deleteAgencyUser(deps: Deps, actor: Actor, id: number, client: Client = {}) {
  await deps.db.transaction(async (tx) => {
    const current = await findAgencyUser(tx, actor, id);
    await tx.delete(users).where(eq(users.id, id));
    await audit(tx, {
      action: 'agency_user.delete',
      actorId: actor.impersonatorId ?? actor.userId,
      agencyId: current.agency_id,
      targetUserId: id,
      data: { email: current.email, user_type: current.user_type },
      ip: client.ip,
      requestId: client.requestId,
    });
  });
}

export async function changeAgencyUserPassword(
  deps: Deps,
  actor: Actor,
  id: number,
  password: string,
  client: Client = {},
) {
  const hash = await hashPassword(password);
  await deps.db.transaction(async (tx) => {
    const current = await findAgencyUser(tx, actor, id);
    await setPasswordOfUser(tx, { id, agency_id: current.agency_id, business_id: null }, hash, {
      action: 'agency_user.password_change',
      actorId: actor.impersonatorId ?? actor.userId,
      ip: client.ip,
      requestId: client.requestId,
    });
  });
}

export async function resetAgencyUserPassword(deps: Deps, actor: Actor, id: number, client: Client = {}) {
  const current = await findAgencyUser(deps.db, actor, id);
  await requestPasswordReset(deps, current.email);
  await audit(deps.db, {
    action: 'agency_user.password_reset',
    actorId: actor.impersonatorId ?? actor.userId,
    agencyId: current.agency_id,
    targetUserId: id,
    ip: client.ip,
    requestId: client.requestId,
  });
}

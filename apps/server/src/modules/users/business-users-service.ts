import type {
  TAgentsQuery,
  TBusinessUser,
  TBusinessUserListQuery,
  TChangePasswordRequest,
  TCreateBusinessUserRequest,
  TUpdateBusinessUserRequest,
  TUserSummary,
} from '@stn/contracts/users';
import { and, asc, count, eq, ilike, inArray, isNotNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import { hashPassword } from '../../platform/auth/passwords.ts';
import type { Tx } from '../../platform/db/client.ts';
import type { Deps } from '../../platform/deps.ts';
import { forbidden, invalid, notFound } from '../../platform/http/errors.ts';
import { listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { inTenant } from '../../platform/tenancy.ts';
import { createUser, emailTaken, setPasswordOfUser } from '../accounts/service.ts';
import { audit } from '../audit/service.ts';
import { requestPasswordReset } from '../auth/email-tokens.ts';
import { revokeAllTokens } from '../auth/service.ts';
import { businesses } from '../businesses/tables.ts';
import {
  auditActor,
  businessOf,
  type Client,
  grantOf,
  likePattern,
  mayGive,
  type Rights,
  requireBusinessPage,
} from './business-access.ts';
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
    active: u.active,
    is_owner: u.id === ownerId,
    created_at: u.created_at.toISOString(),
  };
}

async function ownerOf(db: Tx, businessId: number): Promise<number | null> {
  const [row] = await db
    .select({ owner_id: businesses.owner_id })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  return row?.owner_id ?? null;
}

/** A user of the caller's business, or 404. */
async function findInTenant(db: Tx, actor: Actor, id: number): Promise<UserRow> {
  const [row] = await db
    .select()
    .from(users)
    .where(inTenant(actor, tenantCols, eq(users.id, id), eq(users.role_group, 'Business')));
  if (!row) throw notFound();
  return row;
}

/** Only a BusinessAdmin manages BusinessAdmins: the other managers cannot raise or touch an admin. */
function guardAdminTarget(actor: Actor, ...roles: (string | undefined)[]) {
  if (actor.role !== 'BusinessAdmin' && roles.includes('BusinessAdmin')) throw forbidden('users.admin_only');
}

const rightsOf = (u: UserRow): Rights => ({
  role: u.role,
  userType: u.user_type,
  pages: u.settings.custom_type_pages ?? [],
});

/**
 * A manager gives only the rights it may grant, and manages only users whose rights it may grant
 * (ADR 009): the admin role first (its own message), then the user type and pages.
 */
async function guardRights(db: Tx, actor: Actor, ...rights: Rights[]) {
  guardAdminTarget(actor, ...rights.map((r) => r.role ?? undefined));
  const grant = await grantOf(db, actor);
  if (!rights.every((r) => mayGive(grant, r))) throw forbidden('users.beyond_grant');
}

/**
 * The user limit (businesses.number_of_users active users). The business row is locked so that two
 * concurrent creations cannot both take the last seat.
 */
async function assertSeatFree(tx: Tx, businessId: number): Promise<void> {
  const [biz] = await tx
    .select({ max: businesses.number_of_users })
    .from(businesses)
    .where(eq(businesses.id, businessId))
    .for('update');
  const [active] = await tx
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.business_id, businessId), eq(users.active, true)));
  const max = biz?.max ?? 0;
  if ((active?.n ?? 0) >= max) throw invalid('users', 'users.limit_reached', { max });
}

/** The stored user_type and pages for a role: only a BusinessUser has a type, only type 4 has pages. */
function typeFields(input: Pick<TCreateBusinessUserRequest, 'role' | 'user_type' | 'settings'>) {
  const userType = input.role === 'BusinessUser' ? (input.user_type ?? null) : null;
  const pages = userType === '4' ? [...new Set(input.settings?.custom_type_pages ?? [])] : undefined;
  return { userType, pages };
}

export async function listBusinessUsers(deps: Deps, actor: Actor, q: TBusinessUserListQuery) {
  const { businessId } = await requireBusinessPage(deps.db, actor, 'users_page');
  const conditions: (SQL | undefined)[] = [eq(users.role_group, 'Business')];
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
  if (q.status) conditions.push(eq(users.active, q.status === 'active'));
  if (q.role) conditions.push(eq(users.role, q.role));
  const where = inTenant(actor, tenantCols, ...conditions);
  const { limit, offset } = pageOf(q);
  const [rows, [total], ownerId] = await Promise.all([
    deps.db.select().from(users).where(where).orderBy(asc(users.id)).limit(limit).offset(offset),
    deps.db.select({ n: count() }).from(users).where(where),
    ownerOf(deps.db, businessId),
  ]);
  return listEnvelope(
    rows.map((r) => toBusinessUser(r, ownerId)),
    total?.n ?? 0,
    q,
  );
}

/** Every active user of the business, for pickers (any business user may read it). */
export async function allBusinessUsers(deps: Deps, actor: Actor): Promise<TUserSummary[]> {
  businessOf(actor);
  const rows = await deps.db
    .select()
    .from(users)
    .where(inTenant(actor, tenantCols, eq(users.active, true)))
    .orderBy(asc(users.first_name), asc(users.id));
  return rows.map(toUserSummary);
}

/** Active users with an agent type, for assignment; by channel when asked. */
export async function businessAgents(deps: Deps, actor: Actor, q: TAgentsQuery): Promise<TUserSummary[]> {
  businessOf(actor);
  const types =
    q.channel === 'sms'
      ? (['agent', 'smsAgent'] as const)
      : q.channel === 'voice'
        ? (['agent', 'voiceAgent'] as const)
        : null;
  const rows = await deps.db
    .select()
    .from(users)
    .where(
      inTenant(
        actor,
        tenantCols,
        eq(users.active, true),
        types ? inArray(users.agent_type, [...types]) : isNotNull(users.agent_type),
      ),
    )
    .orderBy(asc(users.first_name), asc(users.id));
  return rows.map(toUserSummary);
}

export async function getBusinessUser(deps: Deps, actor: Actor, id: number): Promise<TBusinessUser> {
  const { businessId } = await requireBusinessPage(deps.db, actor, 'users_page');
  const row = await findInTenant(deps.db, actor, id);
  return toBusinessUser(row, await ownerOf(deps.db, businessId));
}

export async function createBusinessUser(
  deps: Deps,
  actor: Actor,
  input: TCreateBusinessUserRequest,
): Promise<TBusinessUser> {
  const { businessId } = await requireBusinessPage(deps.db, actor, 'users_page');
  const { userType, pages } = typeFields(input);
  await guardRights(deps.db, actor, { role: input.role, userType, pages: pages ?? [] });
  const id = await deps.db.transaction(async (tx) => {
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
      settings: pages ? { custom_type_pages: pages } : {},
    });
  });
  return getBusinessUser(deps, actor, id);
}

export async function updateBusinessUser(
  deps: Deps,
  actor: Actor,
  id: number,
  input: TUpdateBusinessUserRequest,
): Promise<TBusinessUser> {
  const { businessId } = await requireBusinessPage(deps.db, actor, 'users_page');
  await deps.db.transaction(async (tx) => {
    const target = await findInTenant(tx, actor, id);
    const { userType, pages } = typeFields(input);
    // Another user: both the rights they hold and the rights they get must be the caller's to give.
    // Oneself: the rights stay as they are (below).
    if (target.id !== actor.userId) {
      await guardRights(tx, actor, rightsOf(target), { role: input.role, userType, pages: pages ?? [] });
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
    if (target.id === (await ownerOf(tx, businessId)) && (input.role !== 'BusinessAdmin' || !active)) {
      throw invalid('role', 'users.owner_locked');
    }
    if (await emailTaken(tx, input.email, target.id)) throw invalid('email', 'validation.email_taken');
    if (active && !target.active) await assertSeatFree(tx, businessId);
    const emailChanged = input.email.toLowerCase() !== target.email.toLowerCase();
    const { custom_type_pages: _old, ...otherSettings } = target.settings;
    await tx
      .update(users)
      .set({
        first_name: input.first_name,
        last_name: input.last_name,
        email: input.email,
        role: input.role,
        user_type: userType,
        agent_type: input.agent_type ?? null,
        settings: pages ? { ...otherSettings, custom_type_pages: pages } : otherSettings,
        active,
        // A new address is not verified yet.
        ...(emailChanged ? { email_verified_at: null } : {}),
        updated_at: new Date(),
      })
      .where(eq(users.id, target.id));
    // A disabled user's sessions end now.
    if (!active && target.active) await revokeAllTokens(tx, target.id);
  });
  return getBusinessUser(deps, actor, id);
}

export async function deleteBusinessUser(deps: Deps, actor: Actor, id: number, client: Client) {
  const { businessId } = await requireBusinessPage(deps.db, actor, 'users_page');
  await deps.db.transaction(async (tx) => {
    const target = await findInTenant(tx, actor, id);
    if (target.id === actor.userId) throw forbidden('users.cannot_delete_self');
    if (target.id === (await ownerOf(tx, businessId))) throw forbidden('users.cannot_delete_owner');
    await guardRights(tx, actor, rightsOf(target));
    await tx.delete(users).where(and(eq(users.id, target.id), ne(users.role_group, 'Admin')));
    await audit(tx, {
      action: 'user.delete',
      actorId: auditActor(actor),
      agencyId: target.agency_id,
      businessId: target.business_id,
      targetUserId: target.id,
      data: { email: target.email, role: target.role, user_type: target.user_type },
      ip: client.ip,
      requestId: client.requestId,
    });
  });
}

/** Sets another user's password; every session of that user ends. */
export async function setPasswordOf(
  tx: Tx,
  actor: Actor,
  target: UserRow,
  input: TChangePasswordRequest,
  client: Client,
) {
  await setPasswordOfUser(tx, target, await hashPassword(input.password), {
    action: 'user.password_change',
    actorId: auditActor(actor),
    ip: client.ip,
    requestId: client.requestId,
  });
}

export async function changeBusinessUserPassword(
  deps: Deps,
  actor: Actor,
  id: number,
  input: TChangePasswordRequest,
  client: Client,
) {
  await requireBusinessPage(deps.db, actor, 'users_page');
  await deps.db.transaction(async (tx) => {
    const target = await findInTenant(tx, actor, id);
    // One's own password is changed from the profile, which asks for the current one.
    if (target.id === actor.userId) throw forbidden('users.change_own_password');
    await guardRights(tx, actor, rightsOf(target));
    await setPasswordOf(tx, actor, target, input, client);
  });
}

/** E-mails the user a reset link (the same flow as 'forgot password'). */
export async function resetBusinessUserPassword(deps: Deps, actor: Actor, id: number, client: Client) {
  await requireBusinessPage(deps.db, actor, 'users_page');
  const target = await findInTenant(deps.db, actor, id);
  // One's own reset link is the 'forgot password' flow's anyway.
  if (target.id !== actor.userId) await guardRights(deps.db, actor, rightsOf(target));
  await audit(deps.db, {
    action: 'user.password_reset',
    actorId: auditActor(actor),
    agencyId: target.agency_id,
    businessId: target.business_id,
    targetUserId: target.id,
    ip: client.ip,
    requestId: client.requestId,
  });
  await requestPasswordReset(deps, target.email);
  return { email: target.email };
}

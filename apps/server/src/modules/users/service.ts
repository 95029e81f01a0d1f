// The users module's public functions: the only code that writes the users table, and the one place of
// each rule about a user's row (a changed e-mail is unconfirmed, a disabled user loses its sessions, a
// suspended tenant's users come back exactly). Other modules call these; they never write users.
import type { TUser } from '@stn/contracts/profile';
import {
  ROLE_GROUP_OF,
  type TAgentType,
  type TRole,
  type TUserType,
  userTypesFor,
} from '@stn/contracts/roles';
import { type TUserSummary, toE164 } from '@stn/contracts/users';
import {
  type AnyColumn,
  and,
  asc,
  count,
  eq,
  gt,
  ilike,
  inArray,
  isNull,
  ne,
  or,
  type SQL,
  type SQLWrapper,
  sql,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { endCredentialLinks, endLinks, issueLink, pendingEmailOf } from '../../platform/auth/links.ts';
import { hashPassword } from '../../platform/auth/passwords.ts';
import { revokeSessionsOf } from '../../platform/auth/sessions.ts';
import { authTokens } from '../../platform/auth/tables.ts';
import { anyOf } from '../../platform/db/any-of.ts';
import { prepared, slot } from '../../platform/db/prepared.ts';
import { publish } from '../../platform/events/events.ts';
import { AppError, forbidden, invalid, notFound } from '../../platform/http/errors.ts';
import {
  actingUser,
  auditActorId,
  auditClient,
  businessOf,
  type Ctx,
  inTransaction,
  scope,
  type Tenant,
} from '../../platform/tenancy/context.ts';
import { audit } from '../audit/service.ts';
import { findBusinessUser, guardRights, requireBusinessPage, rightsOf } from './business-access.ts';
import { emailChangeRequested, userInvited, verificationNeeded } from './events.ts';
import { emailTaken, findAgencyUser, findUserRow, type UserRow, userCols } from './queries.ts';
import { departmentAgents, departments, type UserSettings, users } from './tables.ts';

export type { UserRow };
export { emailChangeRequested, userInvited, verificationNeeded };

/** Asks for the invitation of a user created without a password: mailed by auth once `ctx` commits. */
export function inviteUser(ctx: Ctx, input: { email: string }): void {
  publish(ctx, userInvited, input);
}

/** Asks for a confirmation link to the user's address: mailed by auth once `ctx` commits. */
export function askEmailVerification(ctx: Ctx, input: { email: string }): void {
  publish(ctx, verificationNeeded, input);
}

export type CreateUserInput = {
  email: string;
  /** The password, or its Argon2id hash made already (as `setPassword` takes it). */
  password: string | { hash: string };
  role: TRole;
  firstName?: string;
  lastName?: string;
  agencyId?: number | null;
  businessId?: number | null;
  userType?: TUserType | null;
  agentType?: TAgentType | null;
  settings?: UserSettings;
  emailVerified?: boolean;
  /** The staff phone; stored in E.164 (a number that is not one is a 422 on `phone`). */
  phone?: string | null;
};

/** A staff phone in E.164, or null for none; anything else is a 422 'Wrong phone number format!!'. */
function staffPhone(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined || raw.trim() === '') return null;
  const e164 = toE164(raw);
  if (!e164) throw invalid('phone', 'validation.phone');
  return e164;
}

/** Creates a user after checking that role, tenant and user type fit together (spec 000 §6). */
export async function createUser(ctx: Ctx, input: CreateUserInput): Promise<number> {
  const { db } = ctx;
  const roleGroup = ROLE_GROUP_OF[input.role];
  let agencyId = input.agencyId ?? null;
  const businessId = input.businessId ?? null;
  if (roleGroup === 'Admin' && (agencyId || businessId)) throw invalid('agency', 'validation.invalid');
  if (roleGroup === 'Business') {
    if (!businessId) throw invalid('business', 'validation.required');
    // The businesses and agencies modules sit above this one: they answer through a port (ADR 054).
    const bizAgency = await ctx.deps.ports.accounts.agencyOfBusiness(ctx, { businessId });
    if (bizAgency === null) throw invalid('business', 'validation.invalid');
    if (agencyId && agencyId !== bizAgency) throw invalid('agency', 'validation.invalid');
    agencyId = bizAgency;
  }
  if (roleGroup === 'Agency') {
    if (!agencyId) throw invalid('agency', 'validation.required');
    if (businessId) throw invalid('business', 'validation.invalid');
    if (!(await ctx.deps.ports.accounts.agencyExists(ctx, { id: agencyId })))
      throw invalid('agency', 'validation.invalid');
  }
  const allowedTypes = userTypesFor(input.role);
  const userType = input.userType ?? null;
  if (userType && !allowedTypes.includes(userType)) throw invalid('user_type', 'validation.in');
  if (!userType && allowedTypes.length > 0) throw invalid('user_type', 'validation.required');
  const email = input.email.trim().toLowerCase();
  const phone = staffPhone(input.phone);
  if (await emailTaken(ctx, { email })) throw invalid('email', 'validation.email_taken');

  const [row] = await db
    .insert(users)
    .values({
      email,
      password_hash:
        typeof input.password === 'string' ? await hashPassword(input.password) : input.password.hash,
      first_name: input.firstName ?? '',
      last_name: input.lastName ?? '',
      role_group: roleGroup,
      role: input.role,
      user_type: userType,
      agent_type: input.agentType ?? null,
      phone,
      agency_id: agencyId,
      business_id: businessId,
      settings: input.settings ?? {},
      email_verified_at: input.emailVerified ? new Date() : null,
    })
    .returning({ id: users.id });
  if (!row) throw new AppError('CONFLICT');
  return row.id;
}

/** Whether another user already has this address (case does not matter). */
export async function isEmailTaken(ctx: Ctx, input: { email: string; exceptUserId?: number }) {
  return emailTaken(ctx, input);
}

/** A user by e-mail, on any tenant: for sign-in and the e-mailed links only. */
export async function findUserByEmail(ctx: Ctx, email: string): Promise<UserRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return row;
}

/** A user of the context's tenant, or undefined. */
export async function getUser(ctx: Ctx, id: number): Promise<UserRow | undefined> {
  return findUserRow(ctx, id);
}

const impersonator = alias(users, 'impersonator');
const parentToken = alias(authTokens, 'parent');

/**
 * A live session and who holds it, in one statement (one round trip on every API request): the token by its
 * hash (not revoked, not expired) and whether the session it was started from is live, the user, whether
 * its tenant lets it in (`accountOk`, the condition the agencies and businesses modules give, composed at
 * app build) and whether the impersonator is enabled. Undefined for an unknown token or user.
 */
export async function sessionHolder(
  ctx: Pick<Ctx, 'db'>,
  input: {
    tokenHash: string;
    now: Date;
    accountOk: (user: { agency_id: AnyColumn; business_id: AnyColumn }) => SQL<boolean>;
  },
) {
  const [row] = await ctx.db
    .select({
      token: authTokens,
      parentLive: sql<boolean>`${parentToken.id} is not null and ${parentToken.revoked_at} is null and ${parentToken.expires_at} > now()`,
      user: {
        id: users.id,
        role_group: users.role_group,
        role: users.role,
        user_type: users.user_type,
        agency_id: users.agency_id,
        business_id: users.business_id,
        active: users.active,
        settings: users.settings,
      },
      accountOk: input.accountOk(users),
      impersonatorActive: sql<boolean>`coalesce(${impersonator.active}, false)`,
    })
    .from(authTokens)
    .innerJoin(users, eq(users.id, authTokens.user_id))
    .leftJoin(parentToken, eq(parentToken.id, authTokens.parent_token_id))
    .leftJoin(impersonator, eq(impersonator.id, authTokens.impersonator_id))
    .where(
      and(
        eq(authTokens.token_hash, input.tokenHash),
        isNull(authTokens.revoked_at),
        gt(authTokens.expires_at, input.now),
      ),
    )
    .limit(1);
  return row;
}

/**
 * The person really acting behind an impersonation, usually of another tenant (an Admin, the agency):
 * the token named them, so they are read by id whatever the context's tenant.
 */
export async function impersonatorOf(ctx: Ctx): Promise<UserRow | undefined> {
  const actor = actingUser(ctx);
  if (!actor.impersonatorId) return undefined;
  const [row] = await ctx.db.select().from(users).where(eq(users.id, actor.impersonatorId));
  return row;
}

export type UserChanges = Partial<{
  email: string;
  first_name: string;
  last_name: string;
  avatar: string | null;
  role: TRole;
  user_type: TUserType | null;
  agent_type: TAgentType | null;
  settings: UserSettings;
  active: boolean;
  /** Stored in E.164; null removes it. */
  phone: string | null;
}>;

/**
 * Ends the sessions of users who were just disabled. The one place of the rule "a disabled user loses
 * its sessions": every way of disabling a user (edit, suspension of its tenant) comes through here.
 */
async function disabled(ctx: Ctx, ids: number[]): Promise<void> {
  await revokeSessionsOf(ctx, ids);
}

/**
 * An impersonation token never changes an e-mail or a password, and never sends a password link (reset,
 * invitation resent): 403 `credentials.impersonation` (ADR 050). Asked by `guardCredentials` and by the
 * modules that send links.
 */
export function refuseImpersonation(ctx: Ctx): void {
  if (ctx.by.kind === 'user' && ctx.by.actor.tokenKind === 'impersonation')
    throw forbidden('credentials.impersonation');
}

/**
 * Who may change a user's e-mail or password, the keys to the account (ADR 019). The one place of the
 * rule; `updateUser` and `setPassword` ask it of every path (profile, user management, agencies,
 * businesses, reset links):
 * - an impersonation token never changes anyone's e-mail or password, not even the impersonated
 *   user's own through the profile: the person behind it is someone else (ADR 019, 050);
 * - the caller changes their own only through the profile, which has checked the current password
 *   (`proven`);
 * - within a business, only the owner changes the owner's: a second BusinessAdmin cannot take it over.
 * Links and the system (a reset link, the CLI, a job) are not users: the link is the proof.
 */
export async function guardCredentials(
  ctx: Ctx,
  input: { target: { id: number; business_id: number | null }; proven?: boolean },
): Promise<void> {
  if (ctx.by.kind !== 'user') return;
  const actor = ctx.by.actor;
  const { target } = input;
  // Whoever the target is (the impersonated user, one of their staff, a business's owner): the person
  // behind an impersonation token acts with someone else's rights, never with the keys to accounts.
  refuseImpersonation(ctx);
  if (target.id === actor.userId) {
    if (!input.proven) throw forbidden('credentials.own');
    return;
  }
  if (target.business_id !== null && actor.businessId === target.business_id) {
    const biz = await ctx.deps.ports.accounts.businessLimits(ctx, { id: target.business_id });
    if (biz?.owner_id === target.id) throw forbidden('credentials.owner');
  }
}

/** How long the link that confirms a new address stays valid. */
const EMAIL_CHANGE_TTL_SECONDS = 7 * 24 * 3600;

/**
 * Changes a user of the context's tenant. A new e-mail must be free (`emailField` names the field of the
 * 422) and may only be asked for by whom `guardCredentials` lets (`proven`: the profile checked the current
 * password); it does not replace the address yet: a link goes to the new address and the change happens
 * when it is followed (`confirmEmailChange`; ADR 050), and the request is in the audit log. A disabled
 * user loses its sessions, and an enable or disable by hand clears a suspension mark, so that a tenant's
 * restore never overrides it.
 */
export async function updateUser(
  ctx: Ctx,
  input: { id: number; set: UserChanges; emailField?: string; proven?: boolean },
): Promise<UserRow> {
  return inTransaction(ctx, async (tx) => {
    const current = await findUserRow(tx, input.id, true);
    if (!current) throw notFound();
    const { email, active, phone, ...rest } = input.set;
    const emailChanged = email !== undefined && email.toLowerCase() !== current.email.toLowerCase();
    if (emailChanged) await guardCredentials(tx, { target: current, proven: input.proven });
    if (emailChanged && (await emailTaken(tx, { email, exceptUserId: current.id }))) {
      throw invalid(input.emailField ?? 'email', 'validation.email_taken');
    }
    const activeChanged = active !== undefined && active !== current.active;
    const [row] = await tx.db
      .update(users)
      .set({
        ...rest,
        // Only the letter case: the same address, no confirmation needed.
        ...(email !== undefined && !emailChanged ? { email } : {}),
        ...(phone !== undefined ? { phone: staffPhone(phone) } : {}),
        ...(activeChanged ? { active, suspended_by: null } : {}),
        updated_at: new Date(),
      })
      .where(eq(users.id, current.id))
      .returning();
    if (!row) throw notFound();
    if (emailChanged && email !== undefined) await requestEmailChange(tx, { user: row, email });
    if (activeChanged && !active) await disabled(tx, [row.id]);
    return row;
  });
}

/**
 * A new address waits for its confirmation: only the newest request counts (older links end), the link goes
 * to the new address and the old one is told (the auth module's mail, after commit), and the audit log
 * says who asked, for whom, from which address to which.
 */
async function requestEmailChange(ctx: Ctx, input: { user: UserRow; email: string }): Promise<void> {
  const { user, email } = input;
  await endLinks(ctx.db, user.id, ['email_change']);
  const token = await issueLink(ctx.db, {
    user,
    purpose: 'email_change',
    ttlSeconds: EMAIL_CHANGE_TTL_SECONDS,
    email,
  });
  await audit(ctx, {
    action: 'user.email_change_requested',
    actorId: auditActorId(ctx),
    agencyId: user.agency_id,
    businessId: user.business_id,
    targetUserId: user.id,
    data: { from: user.email, to: email },
    ...auditClient(ctx),
  });
  publish(ctx, emailChangeRequested, { userId: user.id, token, from: user.email, to: email });
}

/**
 * The link sent to a new address was followed: the address becomes the user's, confirmed, unless another
 * account took it meanwhile (then false, and nothing changes); every other outstanding link ends, and the
 * log says so. Called by the auth module with the link already spent, in its transaction.
 */
export async function confirmEmailChange(
  ctx: Ctx,
  input: { userId: number; email: string },
): Promise<boolean> {
  const [current] = await ctx.db.select().from(users).where(eq(users.id, input.userId));
  if (!current) throw notFound();
  if (await emailTaken(ctx, { email: input.email, exceptUserId: current.id })) return false;
  await ctx.db
    .update(users)
    .set({ email: input.email, email_verified_at: new Date(), updated_at: new Date() })
    .where(eq(users.id, current.id));
  await endCredentialLinks(ctx.db, current.id);
  await audit(ctx, {
    action: 'user.email_changed',
    actorId: auditActorId(ctx),
    agencyId: current.agency_id,
    businessId: current.business_id,
    targetUserId: current.id,
    data: { from: current.email, to: input.email },
    ...auditClient(ctx),
  });
  return true;
}

/** Enables or disables a user of the context's tenant (a disabled one loses its sessions). */
export async function setActive(ctx: Ctx, input: { id: number; active: boolean }): Promise<UserRow> {
  return updateUser(ctx, { id: input.id, set: { active: input.active } });
}

/** Merges keys into a user's settings (language, notification choices, unsubscribe). */
export async function mergeSettings(ctx: Ctx, input: { id: number; settings: UserSettings }) {
  await ctx.db
    .update(users)
    .set({
      settings: sql`${users.settings} || ${JSON.stringify(input.settings)}::jsonb`,
      updated_at: new Date(),
    })
    .where(scope(ctx, userCols, eq(users.id, input.id)));
}

export async function setCountries(ctx: Ctx, input: { id: number; countries: string[] }) {
  await ctx.db
    .update(users)
    .set({ countries: [...new Set(input.countries)], updated_at: new Date() })
    .where(scope(ctx, userCols, eq(users.id, input.id)));
}

/** The address is confirmed (a link was followed, or an agency vouched for it). */
export async function markEmailVerified(ctx: Ctx, input: { id: number }) {
  await ctx.db
    .update(users)
    .set({ email_verified_at: new Date() })
    .where(scope(ctx, userCols, eq(users.id, input.id)));
}

/**
 * Replaces a user's password, if `guardCredentials` lets the caller (`proven`: the profile checked the
 * current one): every session of that user ends (but `keepTokenId`, the caller's own session when they
 * change their own password), every outstanding link ends, and with `audit` the log says who did it.
 */
export async function setPassword(
  ctx: Ctx,
  input: {
    user: { id: number; agency_id: number | null; business_id: number | null };
    /** The new password, or its hash from a caller that hashes before opening its own transaction. */
    password: string | { hash: string };
    keepTokenId?: number;
    proven?: boolean;
    audit?: { action: string };
  },
): Promise<void> {
  await guardCredentials(ctx, { target: input.user, proven: input.proven });
  // Argon2 is slow: hash before the transaction holds any lock.
  const passwordHash =
    typeof input.password === 'string' ? await hashPassword(input.password) : input.password.hash;
  await inTransaction(ctx, async (tx) => {
    const now = new Date();
    const updated = await tx.db
      .update(users)
      .set({ password_hash: passwordHash, password_changed_at: now, updated_at: now })
      .where(scope(tx, userCols, eq(users.id, input.user.id)))
      .returning({ id: users.id });
    if (updated.length === 0) throw notFound();
    await revokeSessionsOf(tx, [input.user.id], input.keepTokenId);
    await endCredentialLinks(tx.db, input.user.id);
    if (input.audit) {
      await audit(tx, {
        action: input.audit.action,
        actorId: auditActorId(tx),
        agencyId: input.user.agency_id,
        businessId: input.user.business_id,
        targetUserId: input.user.id,
        ...auditClient(tx),
      });
    }
  });
}

/** Deletes a user of the context's tenant (never a platform user from a tenant) and logs who did it. */
export async function deleteUser(
  ctx: Ctx,
  input: { id: number; audit: { action: string; data?: Record<string, unknown> } },
): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const current = await findUserRow(tx, input.id, true);
    if (!current) throw notFound();
    // Its sessions end first, so that their open sockets close (the rows go with the user).
    await revokeSessionsOf(tx, [current.id]);
    await tx.db.delete(users).where(eq(users.id, current.id));
    await audit(tx, {
      action: input.audit.action,
      actorId: auditActorId(tx),
      agencyId: current.agency_id,
      businessId: current.business_id,
      targetUserId: current.id,
      data: input.audit.data,
      ...auditClient(tx),
    });
  });
}

type SuspendingTenant = Exclude<Tenant, { level: 'platform' }>;

/** The mark a suspension leaves on the users it disabled. */
const suspensionMark = (tenant: SuspendingTenant) =>
  tenant.level === 'agency' ? `agency:${tenant.agencyId}` : `business:${tenant.businessId}`;

const usersOf = (tenant: SuspendingTenant) =>
  tenant.level === 'agency'
    ? eq(users.agency_id, tenant.agencyId)
    : and(eq(users.agency_id, tenant.agencyId), eq(users.business_id, tenant.businessId));

/**
 * An agency archived or a business deleted: its active users are disabled and signed out, and marked as
 * suspended by that tenant. Users already disabled keep their own state. Returns the ids disabled.
 */
export async function suspendTenantUsers(ctx: Ctx, tenant: SuspendingTenant): Promise<number[]> {
  return inTransaction(ctx, async (tx) => {
    const rows = await tx.db
      .update(users)
      .set({ active: false, suspended_by: suspensionMark(tenant), updated_at: new Date() })
      .where(scope(tx, userCols, usersOf(tenant), eq(users.active, true)))
      .returning({ id: users.id });
    const ids = rows.map((r) => r.id);
    await disabled(tx, ids);
    return ids;
  });
}

/**
 * A tenant locked out without its users being disabled (a business archived or switched off): every
 * session of its users ends, through the one path that announces ended sessions, so their open sockets
 * close at once (ADR 050). Users stay enabled: once the tenant is back they sign in again.
 */
export async function endTenantSessions(ctx: Ctx, tenant: SuspendingTenant): Promise<number> {
  const rows = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(scope(ctx, userCols, usersOf(tenant)));
  return revokeSessionsOf(
    ctx,
    rows.map((r) => r.id),
  );
}

/**
 * The tenant is back: exactly the users its suspension disabled are enabled again (their old sessions
 * stay ended); a user disabled on its own, before or during the suspension, stays disabled.
 */
export async function resumeTenantUsers(ctx: Ctx, tenant: SuspendingTenant): Promise<number[]> {
  const rows = await ctx.db
    .update(users)
    .set({ active: true, suspended_by: null, updated_at: new Date() })
    .where(
      scope(
        ctx,
        userCols,
        usersOf(tenant),
        eq(users.active, false),
        eq(users.suspended_by, suspensionMark(tenant)),
      ),
    )
    .returning({ id: users.id });
  return rows.map((r) => r.id);
}

/**
 * A manager asks for a reset link for one of its users (a business's users, an agency's staff): checks that
 * the caller manages that user, logs the request, and returns the address; the auth module sends the link.
 */
export async function resetLinkTarget(
  ctx: Ctx,
  input: { id: number; kind: 'business_user' | 'agency_user' },
): Promise<{ email: string }> {
  const actor = actingUser(ctx);
  refuseImpersonation(ctx);
  let target: UserRow;
  if (input.kind === 'business_user') {
    requireBusinessPage(ctx, { page: 'users_page' });
    target = await findBusinessUser(ctx, input.id);
    // One's own reset link is the 'forgot password' flow's anyway.
    if (target.id !== actor.userId) await guardRights(ctx, { rights: [rightsOf(target)] });
  } else {
    target = await findAgencyUser(ctx, input.id);
  }
  await audit(ctx, {
    action: input.kind === 'business_user' ? 'user.password_reset' : 'agency_user.password_reset',
    actorId: auditActorId(ctx),
    agencyId: target.agency_id,
    businessId: input.kind === 'business_user' ? target.business_id : undefined,
    targetUserId: target.id,
    ...auditClient(ctx),
  });
  return { email: target.email };
}

/** What the profile shows of a user's agency and business, which the modules above this one give. */
export type UserAccount = Pick<
  TUser,
  | 'agency'
  | 'business'
  | 'subscriptions'
  | 'has_twilio_setup'
  | 'carrier_sandbox'
  | 'agency_has_stripe_config'
  | 'max_departments'
  | 'stripe_active'
  | 'subscribed'
  | 'has_payment_method'
>;

/**
 * The profile of spec 000 §3, as the web app stores it. The user's agency and business come from the
 * caller (`account`), as those modules sit above this one (ADR 054).
 */
export async function loadUser(
  ctx: Ctx,
  input: {
    userId: number;
    account: (ids: { agencyId: number | null; businessId: number | null }) => Promise<UserAccount>;
  },
): Promise<TUser> {
  const [user] = await ctx.db.select().from(users).where(eq(users.id, input.userId));
  if (!user) throw notFound();
  const account = await input.account({ agencyId: user.agency_id, businessId: user.business_id });
  return {
    id: user.id,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    email_verified: user.email_verified_at !== null,
    pending_email: await pendingEmailOf(ctx.db, user.id),
    avatar: user.avatar,
    role: user.role,
    role_group: user.role_group,
    user_type: user.user_type,
    agent_type: user.agent_type,
    settings: user.settings,
    subscriptions: account.subscriptions,
    has_twilio_setup: account.has_twilio_setup,
    carrier_sandbox: account.carrier_sandbox,
    stripe_active: account.stripe_active,
    subscribed: account.subscribed,
    has_payment_method: account.has_payment_method,
    agency_has_stripe_config: account.agency_has_stripe_config,
    max_departments: account.max_departments,
    open_install_wizard: false,
    support_widget_key: null,
    number_of_messages: 0,
    number_of_tasks: 0,
    countries: user.countries,
    agency: account.agency,
    business: account.business,
  };
}

// ---------------------------------------------------------------------------------------------------
// What the agencies module reads of its users (by agency id: the caller has already checked the agency).

/** The AgencyAdmins of these agencies, oldest first (the first is the agency's own user). */
export async function agencyAdmins(ctx: Ctx, input: { agencyIds: number[] }): Promise<UserRow[]> {
  if (input.agencyIds.length === 0) return [];
  return ctx.db
    .select()
    .from(users)
    .where(and(inArray(users.agency_id, input.agencyIds), eq(users.role, 'AgencyAdmin')))
    .orderBy(asc(users.id));
}

/** Every user of the agency, its staff and its businesses' users, by id (the users export). */
export async function usersOfAgency(ctx: Ctx, input: { agencyId: number }): Promise<UserRow[]> {
  return ctx.db.select().from(users).where(eq(users.agency_id, input.agencyId)).orderBy(asc(users.id));
}

/** The enabled BusinessAdmins of these businesses of the agency (the recipients of its notifications). */
export async function activeBusinessAdminIds(
  ctx: Ctx,
  input: { agencyId: number; businessIds: number[] },
): Promise<number[]> {
  return (await activeBusinessAdmins(ctx, input)).map((r) => r.id);
}

const activeBusinessAdminsQuery = prepared((db) =>
  db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(
      and(
        eq(users.agency_id, slot('agency')),
        sql`${users.business_id} = any(${slot('businesses')})`,
        eq(users.role, 'BusinessAdmin'),
        eq(users.active, true),
      ),
    ),
);

/** activeBusinessAdminIds with their e-mail addresses, in the same one read. */
export async function activeBusinessAdmins(
  ctx: Ctx,
  input: { agencyId: number; businessIds: number[] },
): Promise<{ id: number; email: string }[]> {
  if (input.businessIds.length === 0) return [];
  return activeBusinessAdminsQuery(ctx.db, { agency: input.agencyId, businesses: [...input.businessIds] });
}

/** The e-mail addresses of these users, by id. */
export async function emailsOf(ctx: Ctx, input: { ids: number[] }): Promise<Map<number, string>> {
  if (input.ids.length === 0) return new Map();
  const rows = await ctx.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(anyOf(users.id, input.ids));
  return new Map(rows.map((r) => [r.id, r.email]));
}

// ---------------------------------------------------------------------------------------------------
// What the businesses module reads of its owners.

export type OwnerSummary = {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  active: boolean;
};

/** The owners shown with businesses, by id. */
export async function ownerSummaries(ctx: Ctx, input: { ids: number[] }): Promise<Map<number, OwnerSummary>> {
  if (input.ids.length === 0) return new Map();
  const rows = await ctx.db
    .select({
      id: users.id,
      email: users.email,
      first_name: users.first_name,
      last_name: users.last_name,
      active: users.active,
    })
    .from(users)
    .where(anyOf(users.id, input.ids));
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * A condition for another module's query: the user of that id matches the search pattern (e-mail or full
 * name, case-insensitive); false for no user.
 */
export function userMatches(userId: SQLWrapper, pattern: string): SQL {
  return sql`${userId} in (select ${users.id} from ${users} where ${users.email} ilike ${pattern}
    or (${users.first_name} || ' ' || ${users.last_name}) ilike ${pattern})`;
}

/** The business's owner (when it is one of its BusinessAdmins), or else its first BusinessAdmin. */
export async function businessAdminOf(
  ctx: Ctx,
  input: { businessId: number; ownerId: number | null },
): Promise<UserRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.business_id, input.businessId), eq(users.role, 'BusinessAdmin')))
    .orderBy(sql`${users.id} = ${input.ownerId ?? 0} desc`, asc(users.id))
    .limit(1);
  return row;
}

// ---------------------------------------------------------------------------------------------------
// What the auth module's impersonation reads of users.

/**
 * The enabled users of these role groups in the context's tenant, but one, by id: searchable by e-mail,
 * name, or whatever else `alsoMatches` says of a user (its business's or agency's name).
 */
export async function impersonableUserRows(
  ctx: Ctx,
  input: {
    roleGroups: UserRow['role_group'][];
    exceptId: number;
    keyword?: string;
    alsoMatches?: (user: { agency_id: AnyColumn; business_id: AnyColumn }) => SQL[];
    limit: number;
    offset: number;
  },
): Promise<{ rows: UserRow[]; total: number }> {
  const kw = input.keyword;
  const where = scope(
    ctx,
    { agency_id: users.agency_id },
    inArray(users.role_group, input.roleGroups),
    eq(users.active, true),
    ne(users.id, input.exceptId),
    kw
      ? or(
          ilike(users.email, kw),
          ilike(sql`${users.first_name} || ' ' || ${users.last_name}`, kw),
          ...(input.alsoMatches?.(users) ?? []),
        )
      : undefined,
  );
  const [rows, [total]] = await Promise.all([
    ctx.db.select().from(users).where(where).orderBy(asc(users.id)).limit(input.limit).offset(input.offset),
    ctx.db.select({ n: count() }).from(users).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/**
 * The voice agents of one of the business's departments who have a phone (E.164) to ring for callbacks,
 * active users only, in id order.
 */
export async function departmentVoiceAgents(
  ctx: Ctx,
  input: { businessId: number; departmentId: number },
): Promise<{ id: number; name: string; phone: string }[]> {
  const rows = await ctx.db
    .select({ id: users.id, first: users.first_name, last: users.last_name, phone: users.phone })
    .from(departmentAgents)
    .innerJoin(users, eq(users.id, departmentAgents.user_id))
    .where(
      and(
        eq(departmentAgents.department_id, input.departmentId),
        eq(departmentAgents.business_id, input.businessId),
        eq(departmentAgents.channel, 'voice'),
        eq(users.active, true),
        sql`${users.phone} is not null`,
      ),
    )
    .orderBy(asc(users.id));
  return rows.map((r) => ({ id: r.id, name: `${r.first} ${r.last}`.trim(), phone: r.phone ?? '' }));
}

// ---------------------------------------------------------------------------------------------------
// What the installs module reads of a business's users and departments (agents of an install).

/** Of these ids, the users of that business (active or not), as summaries in the order asked. */
export async function businessUserSummaries(
  ctx: Ctx,
  input: { businessId: number; ids: number[] },
): Promise<TUserSummary[]> {
  if (input.ids.length === 0) return [];
  const rows = await ctx.db
    .select()
    .from(users)
    .where(and(anyOf(users.id, input.ids), eq(users.business_id, input.businessId)));
  const byId = new Map<number, TUserSummary>(
    rows.map((u) => [
      u.id,
      {
        id: u.id,
        first_name: u.first_name,
        last_name: u.last_name,
        email: u.email,
        role: u.role,
        user_type: u.user_type,
        agent_type: u.agent_type,
        phone: u.phone,
      },
    ]),
  );
  return input.ids.flatMap((id) => byId.get(id) ?? []);
}

/** Of these ids, the departments of that business. */
export async function businessDepartmentIds(
  ctx: Ctx,
  input: { businessId: number; ids: number[] },
): Promise<number[]> {
  if (input.ids.length === 0) return [];
  const rows = await ctx.db
    .select({ id: departments.id })
    .from(departments)
    .where(and(inArray(departments.id, input.ids), eq(departments.business_id, input.businessId)));
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------------------------------------------
// What the chats module reads of a business's users (who may see a conversation, ADR 045).

/** An enabled user of a business, as the capability table judges it (role, user type, custom pages). */
export type BusinessSubject = {
  id: number;
  role: UserRow['role'];
  user_type: UserRow['user_type'];
  pages: string[];
};

/**
 * The enabled users of the context's business (BusinessSubject), by id, as one JSON array: a subquery for
 * another module's statement (the inbox's viewers are read with the installs' SMS agents in one round
 * trip; `businessSubjectsFrom` reads its value).
 */
export function businessSubjectsSql(ctx: Ctx): SQL<unknown> {
  return businessSubjectsOfSql(sql`${businessOf(ctx).businessId}::int`);
}

/** `businessSubjectsSql` of the business `business` names (a value, or a prepared statement's `slot`). */
export function businessSubjectsOfSql(business: SQL): SQL<unknown> {
  return sql`(select coalesce(json_agg(json_build_object('id', u.id, 'role', u.role, 'user_type', u.user_type,
      'pages', coalesce(u.settings -> 'custom_type_pages', '[]'::jsonb)) order by u.id), '[]'::json)
    from users u where u.business_id = ${business} and u.active)`;
}

/** What `businessSubjectsSql` answered. */
export function businessSubjectsFrom(value: unknown): BusinessSubject[] {
  return (Array.isArray(value) ? value : []).map((u: BusinessSubject) => ({
    id: Number(u.id),
    role: u.role,
    user_type: u.user_type,
    pages: Array.isArray(u.pages) ? u.pages : [],
  }));
}

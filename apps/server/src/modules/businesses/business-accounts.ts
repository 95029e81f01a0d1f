import crypto from 'node:crypto';
import type {
  TBusiness,
  TBusinessListQuery,
  TBusinessResetPasswordRequest,
  TCreateBusinessRequest,
  TUpdateBusinessRequest,
} from '@stn/contracts/businesses';
import { BUSINESS_CREATE_DEFAULTS } from '@stn/contracts/constants';
import { and, asc, count, desc, eq, ilike, ne, or, sql } from 'drizzle-orm';
import type { Client as RequestClient } from '../../platform/http/client.ts';
import { AppError, invalid, notFound } from '../../platform/http/errors.ts';
import { likePattern, pageOf } from '../../platform/http/pagination.ts';
import {
  actingUser,
  auditActorId,
  auditClient,
  type Ctx,
  inTransaction,
  scope,
} from '../../platform/tenancy/context.ts';
import { audit } from '../audit/service.ts';
import { requestPasswordReset } from '../auth/service.ts';
import { isPlanOfAgency } from '../billing/service.ts';
import {
  askEmailVerification,
  businessAdminOf,
  createUser,
  endTenantSessions,
  inviteUser,
  isEmailTaken,
  markEmailVerified,
  ownerSummaries,
  resumeTenantUsers,
  setPassword,
  suspendTenantUsers,
  updateUser,
  userMatches,
} from '../users/service.ts';
import { forgetBusinessSettings } from './service.ts';
import { businesses } from './tables.ts';

/** Who asked, when known (services called outside a request pass nothing). */
export type Client = Partial<RequestClient>;
type BusinessRow = typeof businesses.$inferSelect;
type OwnerRow = { id: number; email: string; first_name: string; last_name: string; active: boolean } | null;

const tenant = { agency_id: businesses.agency_id };

/** The owners of these businesses, by id (users module). */
async function ownersOf(ctx: Ctx, rows: BusinessRow[]) {
  return ownerSummaries(ctx, { ids: [...new Set(rows.flatMap((b) => (b.owner_id ? [b.owner_id] : [])))] });
}

/** An account SID as the API shows it: AC, stars, the last four characters. */
const maskedSid = (sid: string) =>
  `${sid.slice(0, 2)}${'*'.repeat(Math.max(0, sid.length - 6))}${sid.slice(-4)}`;

export function toBusiness(b: BusinessRow, owner: OwnerRow, agencyName: string): TBusiness {
  return {
    id: b.id,
    agency_id: b.agency_id,
    agency_name: agencyName,
    name: b.name,
    owner_id: b.owner_id,
    owner: owner?.id ? owner : null,
    status: b.status,
    active: b.active,
    free_fee: b.free_fee,
    is_template: b.is_template,
    widget_type: b.widget_type,
    is_on_trial: b.is_on_trial,
    calls: b.calls,
    number_of_calls: b.number_of_calls,
    messages: b.messages,
    number_of_messages: b.number_of_messages,
    number_of_users: b.number_of_users,
    number_of_installs: b.number_of_installs,
    number_of_automations: b.number_of_automations,
    caller_id_enabled: b.caller_id_enabled,
    custom_number_enabled: b.custom_number_enabled,
    form_enabled: b.form_enabled,
    dep_enabled: b.dep_enabled,
    sendgrid_enabled: b.sendgrid_enabled,
    ai_enabled: b.ai_enabled,
    has_sales_user_extension: b.has_sales_user_extension,
    subscription_plan_id: b.subscription_plan_id,
    opt_out_msg: b.opt_out_msg,
    report_emails: b.report_emails,
    report_schedules: b.report_schedules,
    settings: b.settings,
    carrier_account: b.twilio_config?.accountSid
      ? { accountSid: maskedSid(b.twilio_config.accountSid), sandbox: b.twilio_config.sandbox === true }
      : null,
    deleted_at: b.deleted_at?.toISOString() ?? null,
    created_at: b.created_at.toISOString(),
  };
}

/** The names of the agencies of these businesses (the agencies module sits above: its port, ADR 054). */
async function agencyNamesOf(ctx: Ctx, rows: BusinessRow[]) {
  return ctx.deps.ports.agencies.names(ctx, { ids: [...new Set(rows.map((b) => b.agency_id))] });
}

/** One business with its owner, by id, regardless of tenant: callers have checked the tenant already. */
export async function loadBusiness(ctx: Ctx, input: { id: number }): Promise<TBusiness> {
  const [row] = await ctx.db.select().from(businesses).where(eq(businesses.id, input.id));
  if (!row) throw notFound();
  const [owners, names] = await Promise.all([ownersOf(ctx, [row]), agencyNamesOf(ctx, [row])]);
  const agencyName = names.get(row.agency_id);
  if (agencyName === undefined) throw notFound();
  return toBusiness(row, (row.owner_id && owners.get(row.owner_id)) || null, agencyName);
}

/** The caller's business by id, inside the caller's tenant (another agency's business: 404). */
async function findBusiness(ctx: Ctx, id: number, lock = false): Promise<BusinessRow> {
  const q = ctx.db
    .select()
    .from(businesses)
    .where(scope(ctx, tenant, eq(businesses.id, id)));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw notFound();
  return row;
}

export async function getBusiness(ctx: Ctx, input: { id: number }): Promise<TBusiness> {
  await findBusiness(ctx, input.id);
  return loadBusiness(ctx, input);
}

export async function listBusinesses(ctx: Ctx, q: TBusinessListQuery) {
  const kw = q.keyword ? likePattern(q.keyword) : undefined;
  const where = scope(
    ctx,
    tenant,
    eq(businesses.status, q.status),
    ctx.tenant.level === 'platform' && q.agency_id ? eq(businesses.agency_id, q.agency_id) : undefined,
    kw ? or(ilike(businesses.name, kw), userMatches(businesses.owner_id, kw)) : undefined,
  );
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(businesses)
      .where(where)
      .orderBy(desc(businesses.created_at), desc(businesses.id))
      .limit(limit)
      .offset(offset),
    ctx.db.select({ n: count() }).from(businesses).where(where),
  ]);
  const [owners, names] = await Promise.all([ownersOf(ctx, rows), agencyNamesOf(ctx, rows)]);
  // A business always has its agency (a foreign key): the inner join of old, kept.
  return {
    data: rows.flatMap((b) => {
      const agencyName = names.get(b.agency_id);
      return agencyName === undefined
        ? []
        : [toBusiness(b, (b.owner_id && owners.get(b.owner_id)) || null, agencyName)];
    }),
    total: total?.n ?? 0,
  };
}

/** id and name of the agency's active businesses (pickers). */
export async function businessNames(ctx: Ctx) {
  return ctx.db
    .select({ id: businesses.id, name: businesses.name })
    .from(businesses)
    .where(scope(ctx, tenant, eq(businesses.status, 'active')))
    .orderBy(asc(businesses.name), asc(businesses.id));
}

/**
 * Installs of an agency: its allowance (properties.installs; none set means none), the installs its
 * non-deleted businesses hold, and what is left. `exceptBusinessId` leaves one business out of `used`.
 */
export async function installStats(ctx: Ctx, input: { agencyId: number; exceptBusinessId?: number }) {
  const { agencyId, exceptBusinessId } = input;
  const allowance = await ctx.deps.ports.agencies.installAllowance(ctx, { agencyId });
  if (allowance === null) throw notFound();
  const [row] = await ctx.db
    .select({ used: sql<number>`coalesce(sum(${businesses.number_of_installs}), 0)`.mapWith(Number) })
    .from(businesses)
    .where(
      and(
        eq(businesses.agency_id, agencyId),
        ne(businesses.status, 'deleted'),
        exceptBusinessId ? ne(businesses.id, exceptBusinessId) : undefined,
      ),
    );
  const total = allowance;
  const used = row?.used ?? 0;
  return { total_installs: total, used, available_installs: Math.max(0, total - used) };
}

/** The agency whose installs the caller asks about: platform admins name it, agency users have theirs. */
export async function installStatsFor(ctx: Ctx, input: { agencyId?: number }) {
  const id = ctx.tenant.level === 'platform' ? input.agencyId : ctx.tenant.agencyId;
  if (!id) throw invalid('agency_id', 'validation.required');
  return installStats(ctx, { agencyId: id });
}

/** Locks the agency row so that concurrent adds cannot both spend the last installs (false: no agency). */
async function lockAgency(ctx: Ctx, agencyId: number): Promise<boolean> {
  return (await ctx.deps.ports.agencies.installAllowance(ctx, { agencyId, lock: true })) !== null;
}

async function assertInstallsFit(ctx: Ctx, agencyId: number, wanted: number, exceptBusinessId?: number) {
  const stats = await installStats(ctx, { agencyId, exceptBusinessId });
  if (wanted > stats.available_installs) {
    throw invalid('number_of_installs', 'businesses.no_installs', { available: stats.available_installs });
  }
}

async function assertPlanOfAgency(ctx: Ctx, agencyId: number, planId: number | null | undefined) {
  if (!planId) return;
  if (!(await isPlanOfAgency(ctx, { agencyId, planId })))
    throw invalid('subscription_plan_id', 'validation.in');
}

/**
 * Adds a business with its owner (a BusinessAdmin) in one transaction, within the agency's installs.
 * Without a password the owner is e-mailed a link to choose one.
 */
export async function createBusiness(ctx: Ctx, input: TCreateBusinessRequest): Promise<TBusiness> {
  const actor = actingUser(ctx);
  const agencyId = actor.roleGroup === 'Admin' ? input.agency_id : actor.agencyId;
  if (!agencyId) throw invalid('agency_id', 'validation.required');
  const { owner, agency_id: _ignored, ...fields } = input;
  const id = await inTransaction(ctx, async (c) => {
    const tx = c.db;
    if (!(await lockAgency(c, agencyId))) throw invalid('agency_id', 'validation.in');
    if (await isEmailTaken(c, { email: owner.email })) throw invalid('owner.email', 'validation.email_taken');
    await assertPlanOfAgency(c, agencyId, fields.subscription_plan_id);
    await assertInstallsFit(c, agencyId, fields.number_of_installs);
    const [business] = await tx
      .insert(businesses)
      .values({ ...fields, agency_id: agencyId })
      .returning({ id: businesses.id });
    if (!business) throw new AppError('CONFLICT');
    const ownerId = await createUser(c, {
      email: owner.email,
      password: owner.password ?? crypto.randomBytes(24).toString('base64url'),
      role: 'BusinessAdmin',
      businessId: business.id,
      firstName: owner.first_name,
      lastName: owner.last_name,
    });
    await tx.update(businesses).set({ owner_id: ownerId }).where(eq(businesses.id, business.id));
    await audit(c, {
      action: 'business.create',
      actorId: auditActorId(c),
      agencyId,
      businessId: business.id,
      targetUserId: ownerId,
      ...auditClient(c),
    });
    if (!owner.password) inviteUser(c, { email: owner.email });
    return business.id;
  });
  return loadBusiness(ctx, { id });
}

export async function updateBusiness(
  ctx: Ctx,
  input: TUpdateBusinessRequest & { id: number },
): Promise<TBusiness> {
  actingUser(ctx);
  const { owner, id, ...fields } = input;
  await inTransaction(ctx, async (c) => {
    const tx = c.db;
    const current = await findBusiness(c, id);
    await lockAgency(c, current.agency_id);
    await assertPlanOfAgency(c, current.agency_id, fields.subscription_plan_id);
    if (
      fields.number_of_installs !== undefined &&
      fields.number_of_installs > current.number_of_installs &&
      current.status !== 'deleted'
    ) {
      await assertInstallsFit(c, current.agency_id, fields.number_of_installs, id);
    }
    if (owner && Object.keys(owner).length > 0) {
      if (!current.owner_id) throw invalid('owner', 'businesses.no_owner');
      await updateUser(c, { id: current.owner_id, set: owner, emailField: 'owner.email' });
    }
    await tx
      .update(businesses)
      .set({ ...fields, updated_at: new Date() })
      .where(eq(businesses.id, id));
  });
  forgetBusinessSettings(ctx, { businessId: id });
  return loadBusiness(ctx, { id });
}

type Transition = 'archive' | 'restore' | 'delete';
const FROM: Record<Transition, BusinessRow['status'][]> = {
  archive: ['active'],
  restore: ['archived', 'deleted'],
  delete: ['active', 'archived'],
};

/**
 * archive: active -> archived. delete: active or archived -> deleted; the business's users can no longer
 * sign in (suspended: disabled, sessions revoked). restore: archived or deleted -> active, resuming exactly
 * the users the delete suspended (within the agency's installs, since a deleted business holds none).
 */
export async function changeStatus(ctx: Ctx, input: { id: number; transition: Transition }): Promise<void> {
  actingUser(ctx);
  const { id, transition } = input;
  await inTransaction(ctx, async (c) => {
    const tx = c.db;
    const current = await findBusiness(c, id, true);
    if (!FROM[transition].includes(current.status))
      throw new AppError('VALIDATION', 'businesses.status_invalid');
    const now = new Date();
    const tenant = { level: 'business' as const, agencyId: current.agency_id, businessId: id };
    let affectedUsers: number[] = [];
    if (transition === 'archive') {
      // Its users stay enabled (a restore needs nothing of them) but are signed out: an archived
      // business's users are refused, and their open sockets must not go on hearing its news.
      await endTenantSessions(c, tenant);
      await tx.update(businesses).set({ status: 'archived', updated_at: now }).where(eq(businesses.id, id));
    } else if (transition === 'delete') {
      affectedUsers = await suspendTenantUsers(c, tenant);
      await tx
        .update(businesses)
        .set({ status: 'deleted', deleted_at: now, updated_at: now })
        .where(eq(businesses.id, id));
    } else {
      if (current.status === 'deleted') {
        await lockAgency(c, current.agency_id);
        await assertInstallsFit(c, current.agency_id, current.number_of_installs, id);
        affectedUsers = await resumeTenantUsers(c, tenant);
      }
      await tx
        .update(businesses)
        .set({ status: 'active', deleted_at: null, updated_at: now })
        .where(eq(businesses.id, id));
    }
    await audit(c, {
      action: `business.${transition}`,
      actorId: auditActorId(c),
      agencyId: current.agency_id,
      businessId: id,
      data: { from: current.status, users: affectedUsers },
      ...auditClient(c),
    });
  });
}

/** The business's owner, or else its first BusinessAdmin. */
async function ownerOf(ctx: Ctx, business: BusinessRow) {
  return businessAdminOf(ctx, { businessId: business.id, ownerId: business.owner_id });
}

/**
 * With a password: sets the business admin's password and ends their sessions. Without: e-mails them a
 * reset link. Returns which of the two happened.
 */
export async function resetBusinessPassword(
  ctx: Ctx,
  input: TBusinessResetPasswordRequest & { id: number },
): Promise<'set' | 'sent'> {
  const business = await findBusiness(ctx, input.id);
  const owner = await ownerOf(ctx, business);
  if (!owner) throw new AppError('VALIDATION', 'businesses.no_owner');
  if (input.password) {
    await setPassword(ctx, {
      user: owner,
      password: input.password,
      audit: { action: 'business.password_set' },
    });
    return 'set';
  }
  await requestPasswordReset(ctx, { email: owner.email });
  await audit(ctx, {
    action: 'business.password_reset_link',
    actorId: auditActorId(ctx),
    agencyId: business.agency_id,
    businessId: business.id,
    targetUserId: owner.id,
    ...auditClient(ctx),
  });
  return 'sent';
}

/**
 * The business admin's e-mail address: send them a confirmation link (spec 001 send-verification), or mark
 * it confirmed on the agency's word (verify-email).
 */
export async function verifyOwnerEmail(ctx: Ctx, input: { id: number; how: 'send' | 'mark' }): Promise<void> {
  const business = await findBusiness(ctx, input.id);
  const owner = await ownerOf(ctx, business);
  if (!owner) throw new AppError('VALIDATION', 'businesses.no_owner');
  if (input.how === 'send') {
    // In a transaction so that the mail is out, as ever, when the call answers (listeners run after commit).
    await inTransaction(ctx, async (c) => askEmailVerification(c, { email: owner.email }));
    return;
  }
  await markEmailVerified(ctx, { id: owner.id });
  await audit(ctx, {
    action: 'business.owner_email_verified',
    actorId: auditActorId(ctx),
    agencyId: business.agency_id,
    businessId: business.id,
    targetUserId: owner.id,
    ...auditClient(ctx),
  });
}

export async function resetUsage(ctx: Ctx, input: { id: number }) {
  const { id } = input;
  await inTransaction(ctx, async (c) => {
    const tx = c.db;
    const b = await findBusiness(c, id, true);
    await tx
      .update(businesses)
      .set({ number_of_calls: 0, number_of_messages: 0, updated_at: new Date() })
      .where(eq(businesses.id, id));
    await audit(c, {
      action: 'business.reset_usage',
      actorId: auditActorId(c),
      agencyId: b.agency_id,
      businessId: id,
      data: { number_of_calls: b.number_of_calls, number_of_messages: b.number_of_messages },
      ...auditClient(c),
    });
  });
}

/** Switches a business on or off; off signs its users out (as an archive does, ADR 050). */
export async function setBusinessActive(ctx: Ctx, input: { id: number; active: boolean }) {
  actingUser(ctx);
  const { id, active } = input;
  await inTransaction(ctx, async (c) => {
    const tx = c.db;
    const b = await findBusiness(c, id, true);
    await tx.update(businesses).set({ active, updated_at: new Date() }).where(eq(businesses.id, id));
    if (!active) await endTenantSessions(c, { level: 'business', agencyId: b.agency_id, businessId: id });
    await audit(c, {
      action: active ? 'business.activate' : 'business.deactivate',
      actorId: auditActorId(c),
      agencyId: b.agency_id,
      businessId: id,
      ...auditClient(c),
    });
  });
}

/**
 * A business that signed up on its agency's order page (or popup) and its owner, a BusinessAdmin, with the
 * create defaults of spec 000 §9 (the plan's limits come with the subscription), in the caller's
 * transaction: the caller subscribes it before committing. Takes one of the agency's installs.
 */
export async function createSignupBusiness(
  ctx: Ctx,
  input: {
    agencyId: number;
    name: string;
    planId: number | null;
    owner: { email: string; password: string; firstName: string; lastName: string; phone?: string | null };
  },
): Promise<{ businessId: number; userId: number }> {
  const { agencyId, owner } = input;
  return inTransaction(ctx, async (c) => {
    if (!(await lockAgency(c, agencyId))) throw notFound();
    if (await isEmailTaken(c, { email: owner.email })) throw invalid('email', 'validation.email_taken');
    const stats = await installStats(c, { agencyId });
    if (stats.available_installs < BUSINESS_CREATE_DEFAULTS.number_of_installs)
      throw invalid('plan_id', 'businesses.no_installs', { available: stats.available_installs });
    const [business] = await c.db
      .insert(businesses)
      .values({
        agency_id: agencyId,
        name: input.name,
        widget_type: BUSINESS_CREATE_DEFAULTS.widget_type,
        calls: BUSINESS_CREATE_DEFAULTS.calls,
        messages: BUSINESS_CREATE_DEFAULTS.messages,
        number_of_users: BUSINESS_CREATE_DEFAULTS.number_of_users,
        number_of_installs: BUSINESS_CREATE_DEFAULTS.number_of_installs,
        number_of_automations: BUSINESS_CREATE_DEFAULTS.number_of_automations,
        subscription_plan_id: input.planId,
      })
      .returning({ id: businesses.id });
    if (!business) throw new AppError('CONFLICT');
    const userId = await createUser(c, {
      email: owner.email,
      password: owner.password,
      role: 'BusinessAdmin',
      businessId: business.id,
      firstName: owner.firstName,
      lastName: owner.lastName,
      phone: owner.phone ?? null,
    });
    await c.db.update(businesses).set({ owner_id: userId }).where(eq(businesses.id, business.id));
    await audit(c, {
      action: 'business.signup',
      actorId: null,
      agencyId,
      businessId: business.id,
      targetUserId: userId,
      ...auditClient(c),
    });
    return { businessId: business.id, userId };
  });
}

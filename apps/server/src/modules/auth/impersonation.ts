import type { TListQuery } from '@stn/contracts/http';
import type { TRoleGroup } from '@stn/contracts/roles';
import { asc, count, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import { issueToken, revokeToken, sessionExpiresAt } from '../../platform/auth/sessions.ts';
import { AppError, forbidden, notFound } from '../../platform/http/errors.ts';
import { likePattern, pageOf } from '../../platform/http/pagination.ts';
import { actingUser, auditClient, type Ctx, inTransaction, scope } from '../../platform/tenancy/context.ts';
import { agencies } from '../agencies/tables.ts';
import { audit } from '../audit/service.ts';
import { businesses } from '../businesses/tables.ts';
import { users } from '../users/tables.ts';

/**
 * Rules: an Admin may impersonate agency and business users; an agency user the users of its own
 * businesses; nobody impersonates an Admin; an impersonation cannot start another one.
 */
export async function startImpersonation(ctx: Ctx, input: { targetId: number }) {
  const actor = actingUser(ctx);
  const { deps } = ctx;
  const targetId = input.targetId;
  if (actor.tokenKind === 'impersonation') throw forbidden('impersonation.no_chain');
  if (actor.roleGroup === 'Business') throw forbidden('impersonation.not_allowed');
  // The target is looked up inside the caller's tenant: another agency's user is not found.
  const [target] = await deps.db
    .select({ user: users, agency: agencies })
    .from(users)
    .leftJoin(agencies, eq(agencies.id, users.agency_id))
    .where(scope(ctx, { agency_id: users.agency_id }, eq(users.id, targetId)))
    .limit(1);
  if (!target) throw notFound();
  const allowed =
    target.user.id !== actor.userId &&
    target.user.active &&
    target.user.role_group !== 'Admin' &&
    (actor.roleGroup === 'Admin' || target.user.role_group === 'Business');
  if (!allowed) throw forbidden('impersonation.not_allowed');

  const parentExpiresAt = await sessionExpiresAt(deps.db, actor.tokenId);
  return inTransaction(ctx, async ({ db: tx }) => {
    const issued = await issueToken(tx, {
      userId: target.user.id,
      agencyId: target.user.agency_id,
      businessId: target.user.business_id,
      ttlSeconds: deps.config.impersonationTtlSeconds,
      client: { ip: ctx.client?.ip ?? '', userAgent: ctx.client?.userAgent },
      impersonatorId: actor.userId,
      parentTokenId: actor.tokenId,
      notAfter: parentExpiresAt,
    });
    await audit(tx, {
      action: 'impersonation.start',
      actorId: actor.userId,
      targetUserId: target.user.id,
      agencyId: target.user.agency_id,
      businessId: target.user.business_id,
      data: { token_id: issued.id, impersonator_role: actor.role, target_role: target.user.role },
      ...auditClient(ctx),
    });
    return {
      token: issued.token,
      expiresAt: issued.expiresAt,
      roleGroup: target.user.role_group,
      isTemplate: Boolean(target.agency?.is_template),
      name: `${target.user.first_name} ${target.user.last_name}`.trim() || target.user.email,
    };
  });
}

export async function stopImpersonation(ctx: Ctx): Promise<{ roleGroup: TRoleGroup }> {
  const actor = actingUser(ctx);
  if (actor.tokenKind !== 'impersonation' || !actor.impersonatorId) {
    throw new AppError('BAD_REQUEST', 'impersonation.not_impersonating');
  }
  const impersonatorId = actor.impersonatorId;
  return inTransaction(ctx, async ({ db: tx }) => {
    // An impersonation starts no other, so this ends exactly the impersonation.
    await revokeToken(tx, actor.tokenId);
    await audit(tx, {
      action: 'impersonation.stop',
      actorId: impersonatorId,
      targetUserId: actor.userId,
      agencyId: actor.agencyId,
      businessId: actor.businessId,
      data: { token_id: actor.tokenId },
      ...auditClient(ctx),
    });
    const [impersonator] = await tx
      .select({ role_group: users.role_group })
      .from(users)
      .where(eq(users.id, impersonatorId));
    return { roleGroup: impersonator?.role_group ?? 'Admin' };
  });
}

/** The users the caller may impersonate, for the drawer: searchable by name, e-mail or business. */
export async function impersonableUsers(ctx: Ctx, q: TListQuery) {
  const actor = actingUser(ctx);
  const { deps } = ctx;
  const groups = actor.roleGroup === 'Admin' ? (['Agency', 'Business'] as const) : (['Business'] as const);
  const kw = q.keyword ? likePattern(q.keyword) : undefined;
  const where = scope(
    ctx,
    { agency_id: users.agency_id },
    inArray(users.role_group, [...groups]),
    eq(users.active, true),
    ne(users.id, actor.userId),
    kw
      ? or(
          ilike(users.email, kw),
          ilike(sql`${users.first_name} || ' ' || ${users.last_name}`, kw),
          ilike(businesses.name, kw),
          ilike(agencies.name, kw),
        )
      : undefined,
  );
  const base = () =>
    deps.db
      .select({ user: users, agency: agencies, business: { name: businesses.name } })
      .from(users)
      .leftJoin(agencies, eq(agencies.id, users.agency_id))
      .leftJoin(businesses, eq(businesses.id, users.business_id))
      .where(where);
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    base().orderBy(asc(users.id)).limit(limit).offset(offset),
    deps.db
      .select({ n: count() })
      .from(users)
      .leftJoin(agencies, eq(agencies.id, users.agency_id))
      .leftJoin(businesses, eq(businesses.id, users.business_id))
      .where(where),
  ]);
  const main = deps.config.mainDomain;
  return {
    total: total?.n ?? 0,
    data: rows.map((r) => ({
      id: r.user.id,
      name: `${r.user.first_name} ${r.user.last_name}`.trim(),
      email: r.user.email,
      role: r.user.role,
      role_group: r.user.role_group,
      subdomain_url: r.agency?.subdomain ? `${r.agency.subdomain}.${main}` : r.agency?.is_main ? main : null,
      domain: r.agency?.domain ?? null,
      business: r.business?.name ?? null,
    })),
  };
}

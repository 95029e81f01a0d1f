import type { TListQuery } from '@stn/contracts/http';
import type { TRoleGroup } from '@stn/contracts/roles';
import { issueToken, revokeToken, sessionExpiresAt } from '../../platform/auth/sessions.ts';
import { AppError, forbidden, notFound } from '../../platform/http/errors.ts';
import { likePattern, pageOf } from '../../platform/http/pagination.ts';
import { actingUser, auditClient, type Ctx, inTransaction } from '../../platform/tenancy/context.ts';
import { agencyNameMatches, agencySummaries } from '../agencies/service.ts';
import { audit } from '../audit/service.ts';
import { businessNameMatches, businessNames } from '../businesses/service.ts';
import { getUser, impersonableUserRows, impersonatorOf } from '../users/service.ts';

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
  const user = await getUser(ctx, targetId);
  if (!user) throw notFound();
  const [agency] = user.agency_id ? await agencySummaries(ctx, { ids: [user.agency_id] }) : [];
  const target = { user, agency };
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
  return inTransaction(ctx, async (txCtx) => {
    const tx = txCtx.db;
    // An impersonation starts no other, so this ends exactly the impersonation.
    await revokeToken(txCtx, actor.tokenId);
    await audit(tx, {
      action: 'impersonation.stop',
      actorId: impersonatorId,
      targetUserId: actor.userId,
      agencyId: actor.agencyId,
      businessId: actor.businessId,
      data: { token_id: actor.tokenId },
      ...auditClient(ctx),
    });
    const impersonator = await impersonatorOf(txCtx);
    return { roleGroup: impersonator?.role_group ?? 'Admin' };
  });
}

/** The users the caller may impersonate, for the drawer: searchable by name, e-mail or business. */
export async function impersonableUsers(ctx: Ctx, q: TListQuery) {
  const actor = actingUser(ctx);
  const { deps } = ctx;
  const groups = actor.roleGroup === 'Admin' ? (['Agency', 'Business'] as const) : (['Business'] as const);
  const kw = q.keyword ? likePattern(q.keyword) : undefined;
  const { limit, offset } = pageOf(q);
  const { rows: users, total } = await impersonableUserRows(ctx, {
    roleGroups: [...groups],
    exceptId: actor.userId,
    keyword: kw,
    alsoMatches: (u) =>
      kw ? [businessNameMatches(u.business_id, kw), agencyNameMatches(u.agency_id, kw)] : [],
    limit,
    offset,
  });
  const ids = (pick: (u: (typeof users)[number]) => number | null) => [
    ...new Set(users.flatMap((u) => (pick(u) ? [pick(u) as number] : []))),
  ];
  const [agencyRows, names] = await Promise.all([
    agencySummaries(ctx, { ids: ids((u) => u.agency_id) }),
    businessNames(ctx, { ids: ids((u) => u.business_id) }),
  ]);
  const agencyOf = new Map(agencyRows.map((a) => [a.id, a]));
  const rows = users.map((user) => ({
    user,
    agency: user.agency_id ? agencyOf.get(user.agency_id) : undefined,
    business:
      user.business_id && names.has(user.business_id) ? { name: names.get(user.business_id) } : undefined,
  }));
  const main = deps.config.mainDomain;
  return {
    total,
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

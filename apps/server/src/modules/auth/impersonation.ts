import type { TRoleGroup } from '@stn/contracts/roles';
import { issueToken, revokeToken, sessionExpiresAt } from '../../platform/auth/sessions.ts';
import { AppError, forbidden, notFound } from '../../platform/http/errors.ts';
import { actingUser, auditClient, type Ctx, inTransaction } from '../../platform/tenancy/context.ts';
import { audit } from '../audit/service.ts';
import { getUser, impersonatorOf } from '../users/service.ts';

/**
 * Rules: an Admin may impersonate agency and business users; an agency user the users of its own
 * businesses; nobody impersonates an Admin; an impersonation cannot start another one. Whether the
 * target's agency is a template is the caller's to say (`isTemplate`: agencies sit above auth, ADR 054).
 */
export async function startImpersonation(
  ctx: Ctx,
  input: { targetId: number; isTemplate: (agencyId: number) => Promise<boolean> },
) {
  const actor = actingUser(ctx);
  const { deps } = ctx;
  const targetId = input.targetId;
  if (actor.tokenKind === 'impersonation') throw forbidden('impersonation.no_chain');
  if (actor.roleGroup === 'Business') throw forbidden('impersonation.not_allowed');
  // The target is looked up inside the caller's tenant: another agency's user is not found.
  const user = await getUser(ctx, targetId);
  if (!user) throw notFound();
  const target = { user, isTemplate: user.agency_id ? await input.isTemplate(user.agency_id) : false };
  const allowed =
    target.user.id !== actor.userId &&
    target.user.active &&
    target.user.role_group !== 'Admin' &&
    (actor.roleGroup === 'Admin' || target.user.role_group === 'Business');
  if (!allowed) throw forbidden('impersonation.not_allowed');

  const parentExpiresAt = await sessionExpiresAt(deps.db, actor.tokenId);
  return inTransaction(ctx, async (c) => {
    const tx = c.db;
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
    await audit(c, {
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
      isTemplate: target.isTemplate,
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
    // An impersonation starts no other, so this ends exactly the impersonation.
    await revokeToken(txCtx, actor.tokenId);
    await audit(txCtx, {
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

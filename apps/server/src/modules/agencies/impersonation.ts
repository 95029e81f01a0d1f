// Impersonation as the agencies module sees it (ADR 054): the drawer's list of users, which names their
// agencies and businesses, and the start, which tells the auth module whether the target's agency is a
// template. Both compose lower modules (users, businesses, auth), so they live here, not in auth.
import type { TListQuery } from '@stn/contracts/http';
import { likePattern, pageOf } from '../../platform/http/pagination.ts';
import { actingUser, type Ctx } from '../../platform/tenancy/context.ts';
import { startImpersonation } from '../auth/service.ts';
import { businessNameMatches, businessNames } from '../businesses/service.ts';
import { impersonableUserRows } from '../users/service.ts';
import { agencyNameMatches, agencySummaries } from './service.ts';

/** Starts impersonating a user (the auth module's rules), with whether the target's agency is a template. */
export async function impersonate(ctx: Ctx, input: { targetId: number }) {
  return startImpersonation(ctx, {
    targetId: input.targetId,
    isTemplate: async (agencyId) =>
      Boolean((await agencySummaries(ctx, { ids: [agencyId] }))[0]?.is_template),
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

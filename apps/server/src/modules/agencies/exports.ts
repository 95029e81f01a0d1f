import { toCsv } from '../../platform/http/csv.ts';
import { invalid } from '../../platform/http/errors.ts';
import { actingUser, type Ctx } from '../../platform/tenancy/context.ts';
import { businessNames, liveBusinessesOf } from '../businesses/service.ts';
import { emailsOf, usersOfAgency } from '../users/service.ts';
import { findAgency } from './queries.ts';

/** An Admin names the agency with ?agency_id=; an agency user always exports its own. */
async function exportAgency(ctx: Ctx, agencyId: number | undefined) {
  const actor = actingUser(ctx);
  const id = actor.roleGroup === 'Admin' ? agencyId : (agencyId ?? actor.agencyId ?? undefined);
  if (!id) throw invalid('agency_id', 'validation.required');
  return findAgency(ctx, { id });
}

export async function exportUsers(ctx: Ctx, input: { agencyId?: number }) {
  const agency = await exportAgency(ctx, input.agencyId);
  const users = await usersOfAgency(ctx, { agencyId: agency.id });
  const names = await businessNames(ctx, {
    ids: [...new Set(users.flatMap((u) => (u.business_id ? [u.business_id] : [])))],
  });
  const csv = toCsv(
    [
      'id',
      'first_name',
      'last_name',
      'email',
      'role',
      'user_type',
      'business_id',
      'business',
      'active',
      'created_at',
    ],
    users.map((user) => [
      user.id,
      user.first_name,
      user.last_name,
      user.email,
      user.role,
      user.user_type,
      user.business_id,
      user.business_id ? names.get(user.business_id) : undefined,
      user.active ? 'yes' : 'no',
      user.created_at,
    ]),
  );
  return { csv, filename: `agency-${agency.id}-users.csv` };
}

export async function exportBusinesses(ctx: Ctx, input: { agencyId?: number }) {
  const agency = await exportAgency(ctx, input.agencyId);
  const businesses = await liveBusinessesOf(ctx, { agencyId: agency.id });
  const owners = await emailsOf(ctx, {
    ids: [...new Set(businesses.flatMap((b) => (b.owner_id ? [b.owner_id] : [])))],
  });
  const csv = toCsv(
    [
      'id',
      'name',
      'owner_email',
      'status',
      'active',
      'widget_type',
      'number_of_users',
      'number_of_installs',
      'calls',
      'number_of_calls',
      'messages',
      'number_of_messages',
      'created_at',
    ],
    businesses.map((b) => [
      b.id,
      b.name,
      b.owner_id ? owners.get(b.owner_id) : undefined,
      b.status,
      b.active ? 'yes' : 'no',
      b.widget_type,
      b.number_of_users,
      b.number_of_installs,
      b.calls,
      b.number_of_calls,
      b.messages,
      b.number_of_messages,
      b.created_at,
    ]),
  );
  return { csv, filename: `agency-${agency.id}-businesses.csv` };
}

import type { Actor } from '../../platform/auth/actor.ts';
import type { Deps } from '../../platform/deps.ts';
import { toCsv } from '../../platform/http/csv.ts';
import { invalid } from '../../platform/http/errors.ts';
import { userContext } from '../../platform/tenancy/context.ts';
import { businessNames, liveBusinessesOf } from '../businesses/service.ts';
import { emailsOf, usersOfAgency } from '../users/service.ts';
import { findAgency } from './queries.ts';

/** An Admin names the agency with ?agency_id=; an agency user always exports its own. */
async function exportAgency(deps: Deps, actor: Actor, agencyId: number | undefined) {
  const id = actor.roleGroup === 'Admin' ? agencyId : (agencyId ?? actor.agencyId ?? undefined);
  if (!id) throw invalid('agency_id', 'validation.required');
  return findAgency(deps.db, actor, id);
}

export async function exportUsers(deps: Deps, actor: Actor, agencyId?: number) {
  const agency = await exportAgency(deps, actor, agencyId);
  const users = await usersOfAgency(userContext(deps, actor), { agencyId: agency.id });
  const names = await businessNames(userContext(deps, actor), {
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

export async function exportBusinesses(deps: Deps, actor: Actor, agencyId?: number) {
  const agency = await exportAgency(deps, actor, agencyId);
  const businesses = await liveBusinessesOf(userContext(deps, actor), { agencyId: agency.id });
  const owners = await emailsOf(userContext(deps, actor), {
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

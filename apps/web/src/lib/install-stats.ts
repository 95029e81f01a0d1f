import type { TUser } from '@stn/contracts/profile';
import { queryOptions } from '@tanstack/react-query';
import { api } from './api-client.ts';
import { keys } from './query-keys.ts';

// Installs an agency may still give its businesses (spec 000 §7 POST /v1/agencies/{id}/install-stats,
// data.available_installs): the 'Add Business' entry points ask it before the form opens (spec §8).

type InstallStats = { data: { total_installs: number; available_installs: number } };

/** The agency whose installs count for this user: agency users only (Admins have no install limit). */
export function installAgencyOf(user: TUser | null): number | undefined {
  return user?.role_group === 'Agency' ? user.agency?.id : undefined;
}

export const installStatsQuery = (agencyId: number) =>
  queryOptions({
    queryKey: [...keys.installStats.all, agencyId],
    queryFn: () =>
      api<InstallStats>(`/v1/agencies/${agencyId}/install-stats`, { method: 'POST', silent: true }),
  });

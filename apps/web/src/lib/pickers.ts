import type { TInstallPick } from '@stn/contracts/installs';
import type { TUserSummary } from '@stn/contracts/users';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';
import { keys } from './query-keys.ts';

// The pickers several features show (features do not import each other): the business's active installs
// (GET /v1/installs/all) and its agents of a channel (GET /v1/businesses/users/agents).

type Data<T> = { success: true; data: T };

export type AgentChannel = 'sms' | 'voice';

export function useInstallOptions() {
  return useQuery({
    queryKey: keys.installs.picker(),
    queryFn: async () => (await api<Data<TInstallPick[]>>('/v1/installs/all', { silent: true })).data,
  });
}

export const agentsQuery = (channel: AgentChannel) =>
  queryOptions({
    queryKey: keys.users.agents(channel),
    queryFn: async () =>
      (await api<Data<TUserSummary[]>>('/v1/businesses/users/agents', { query: { channel }, silent: true }))
        .data,
  });

export function useAgents(channel: AgentChannel) {
  return useQuery(agentsQuery(channel));
}

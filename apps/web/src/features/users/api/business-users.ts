import type {
  TBusinessUser,
  TChangePasswordRequest,
  TCreateBusinessUserRequest,
  TUpdateBusinessUserRequest,
} from '@stn/contracts/users';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';

export { type AgentChannel, agentsQuery, useAgents } from '../../../lib/pickers.ts';

// The business users calls (spec 001 §7 "Business users"): list, one, add, edit, delete, passwords, agents.

export const BUSINESS_USERS_PATH = '/v1/businesses/users';

type Data<T> = { success: true; data: T };
type Message = { success: true; message: string };
type MessageData<T> = Message & { data: T };

/** A user change can change every list of users, each user and the agent pickers. */
function invalidateUsers() {
  void queryClient.invalidateQueries({ queryKey: keys.users.kind('business') });
}

export const businessUserQuery = (id: number) =>
  queryOptions({
    queryKey: keys.users.detail('business', id),
    queryFn: async () =>
      (await api<Data<TBusinessUser>>(`${BUSINESS_USERS_PATH}/${id}`, { silent: true })).data,
  });

export function useBusinessUser(id: number) {
  return useQuery({ ...businessUserQuery(id), enabled: id > 0 });
}

/** Active users with an agent type for a channel (agents and smsAgents, or agents and voiceAgents). */
export function useCreateBusinessUser() {
  return useMutation({
    mutationFn: (body: TCreateBusinessUserRequest) =>
      api<MessageData<TBusinessUser>>(BUSINESS_USERS_PATH, { method: 'POST', body }),
    onSuccess: invalidateUsers,
  });
}

export function useUpdateBusinessUser(id: number) {
  return useMutation({
    mutationFn: (body: TUpdateBusinessUserRequest) =>
      api<MessageData<TBusinessUser>>(`${BUSINESS_USERS_PATH}/${id}`, { method: 'PUT', body }),
    onSuccess: (res) => {
      queryClient.setQueryData(keys.users.detail('business', id), res.data);
      invalidateUsers();
    },
  });
}

export function useDeleteBusinessUser() {
  return useMutation({
    mutationFn: (id: number) => api<Message>(`${BUSINESS_USERS_PATH}/${id}`, { method: 'DELETE' }),
    onSettled: invalidateUsers,
  });
}

export function useChangeUserPassword(id: number) {
  return useMutation({
    mutationFn: (body: TChangePasswordRequest) =>
      api<Message>(`${BUSINESS_USERS_PATH}/${id}/change-password`, { method: 'PUT', body }),
  });
}

export function useSendResetLink() {
  return useMutation({
    mutationFn: (id: number) =>
      api<Message>(`${BUSINESS_USERS_PATH}/${id}/reset-password`, { method: 'POST' }),
  });
}

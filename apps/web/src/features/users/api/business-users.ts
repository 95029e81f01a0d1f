import type {
  TBusinessUser,
  TChangePasswordRequest,
  TCreateBusinessUserRequest,
  TUpdateBusinessUserRequest,
} from '@stn/contracts/users';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { keys } from '../../../lib/query-keys.ts';
import { type Message, resourceCalls } from '../../../lib/resource-api.ts';

export { type AgentChannel, agentsQuery, useAgents } from '../../../lib/pickers.ts';

// The business users calls (spec 001 §7 "Business users"): list, one, add, edit, delete, passwords, agents.

export const BUSINESS_USERS_PATH = '/v1/businesses/users';

const users = resourceCalls<TBusinessUser, TCreateBusinessUserRequest, TUpdateBusinessUserRequest>({
  path: BUSINESS_USERS_PATH,
  keys: { all: keys.users.kind('business'), detail: (id: number) => keys.users.detail('business', id) },
  deleteRefresh: 'onSettled',
});

export const businessUserQuery = users.oneQuery;
export const useBusinessUser = users.useOne;
export const useCreateBusinessUser = users.useCreate;
export const useUpdateBusinessUser = users.useUpdate;
export const useDeleteBusinessUser = users.useDelete;

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

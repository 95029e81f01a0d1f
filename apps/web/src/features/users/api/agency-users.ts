import type {
  TAgencyUser,
  TCreateAgencyUserRequest,
  TUpdateAgencyUserRequest,
} from '@stn/contracts/businesses';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { keys } from '../../../lib/query-keys.ts';
import { type Message, resourceCalls } from '../../../lib/resource-api.ts';

// The agency's own users (spec 001 §7 "Agency users"), AgencyAdmin only.

export const AGENCY_USERS_PATH = '/v1/agency/users';

const users = resourceCalls<TAgencyUser, TCreateAgencyUserRequest, TUpdateAgencyUserRequest>({
  path: AGENCY_USERS_PATH,
  keys: { all: keys.users.kind('agency'), detail: (id: number) => keys.users.detail('agency', id) },
  deleteRefresh: 'onSuccess',
});

export const agencyUserQuery = users.oneQuery;
export const useAgencyUser = users.useOne;
export const useCreateAgencyUser = users.useCreate;
export const useUpdateAgencyUser = users.useUpdate;
export const useDeleteAgencyUser = users.useDelete;

export function useChangeAgencyUserPassword(id: number) {
  return useMutation({
    mutationFn: (body: { password: string; password_confirmation: string }) =>
      api<Message>(`${AGENCY_USERS_PATH}/${id}/change-password`, { method: 'PUT', body }),
  });
}

export function useResetAgencyUserPassword() {
  return useMutation({
    mutationFn: (id: number) => api<Message>(`${AGENCY_USERS_PATH}/${id}/reset-password`, { method: 'POST' }),
  });
}

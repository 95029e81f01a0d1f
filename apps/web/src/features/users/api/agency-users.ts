import type {
  TAgencyUser,
  TCreateAgencyUserRequest,
  TUpdateAgencyUserRequest,
} from '@stn/contracts/businesses';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';

// The agency's own users (spec 001 §7 "Agency users"), AgencyAdmin only.

export const AGENCY_USERS_PATH = '/v1/agency/users';

type Data<T> = { success: true; data: T };
type Message = { success: true; message: string };
type MessageData<T> = Message & { data: T };

function invalidateUsers() {
  void queryClient.invalidateQueries({ queryKey: keys.users.kind('agency') });
}

export const agencyUserQuery = (id: number) =>
  queryOptions({
    queryKey: keys.users.detail('agency', id),
    queryFn: async () => (await api<Data<TAgencyUser>>(`${AGENCY_USERS_PATH}/${id}`, { silent: true })).data,
  });

export function useAgencyUser(id: number) {
  return useQuery({ ...agencyUserQuery(id), enabled: id > 0 });
}

export function useCreateAgencyUser() {
  return useMutation({
    mutationFn: (body: TCreateAgencyUserRequest) =>
      api<MessageData<TAgencyUser>>(AGENCY_USERS_PATH, { method: 'POST', body }),
    onSuccess: invalidateUsers,
  });
}

export function useUpdateAgencyUser(id: number) {
  return useMutation({
    mutationFn: (body: TUpdateAgencyUserRequest) =>
      api<MessageData<TAgencyUser>>(`${AGENCY_USERS_PATH}/${id}`, { method: 'PUT', body }),
    onSuccess: (res) => {
      queryClient.setQueryData(keys.users.detail('agency', id), res.data);
      invalidateUsers();
    },
  });
}

export function useDeleteAgencyUser() {
  return useMutation({
    mutationFn: (id: number) => api<Message>(`${AGENCY_USERS_PATH}/${id}`, { method: 'DELETE' }),
    onSuccess: invalidateUsers,
  });
}

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

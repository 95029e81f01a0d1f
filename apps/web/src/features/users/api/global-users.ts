import type {
  TChangePasswordRequest,
  TCreateGlobalUserRequest,
  TGlobalUser,
  TUpdateGlobalUserRequest,
} from '@stn/contracts/users';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';

// Platform users, SuperAdmin and Admin (spec 001 §7 "Global users"; SuperAdmin only).

export const USERS_PATH = '/v1/users';

type Answer = { success: true; message?: string; data: TGlobalUser };
type Message = { success: true; message: string };

export const globalUserQuery = (id: number) =>
  queryOptions({
    queryKey: keys.users.detail('global', id),
    queryFn: async () => (await api<Answer>(`${USERS_PATH}/${id}`, { silent: true })).data,
  });

export function useGlobalUser(id: number) {
  return useQuery(globalUserQuery(id));
}

const invalidate = () => queryClient.invalidateQueries({ queryKey: keys.users.kind('global') });

export function useCreateGlobalUser() {
  return useMutation({
    mutationFn: (body: TCreateGlobalUserRequest) => api<Answer>(USERS_PATH, { method: 'POST', body }),
    onSuccess: () => void invalidate(),
  });
}

export function useUpdateGlobalUser(id: number) {
  return useMutation({
    mutationFn: (body: TUpdateGlobalUserRequest) =>
      api<Answer>(`${USERS_PATH}/${id}`, { method: 'PUT', body }),
    onSuccess: (res) => {
      queryClient.setQueryData(keys.users.detail('global', id), res.data);
      void invalidate();
    },
  });
}

export function useDeleteGlobalUser() {
  return useMutation({
    mutationFn: (id: number) => api<Message>(`${USERS_PATH}/${id}`, { method: 'DELETE' }),
    onSettled: invalidate,
  });
}

export function useChangeGlobalUserPassword(id: number) {
  return useMutation({
    mutationFn: (body: TChangePasswordRequest) =>
      api<Message>(`${USERS_PATH}/${id}/change-password`, { method: 'PUT', body }),
  });
}

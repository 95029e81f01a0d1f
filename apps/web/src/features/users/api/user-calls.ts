import type { TChangePasswordRequest } from '@stn/contracts/users';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { keys } from '../../../lib/query-keys.ts';
import { type Message, resourceCalls } from '../../../lib/resource-api.ts';

/**
 * The calls of one kind of users at `path`: the resource's one/create/update/delete, and a user's password
 * change and reset link. Agency users and business users are built from it.
 */
export function userCalls<T extends { id: number }, Create, Update>(
  kind: 'agency' | 'business',
  path: string,
  deleteRefresh: 'onSuccess' | 'onSettled',
) {
  const calls = resourceCalls<T, Create, Update>({
    path,
    keys: { all: keys.users.kind(kind), detail: (id: number) => keys.users.detail(kind, id) },
    deleteRefresh,
  });
  const useChangePassword = (id: number) =>
    useMutation({
      mutationFn: (body: TChangePasswordRequest) =>
        api<Message>(`${path}/${id}/change-password`, { method: 'PUT', body }),
    });
  const useResetPassword = () =>
    useMutation({
      mutationFn: (id: number) => api<Message>(`${path}/${id}/reset-password`, { method: 'POST' }),
    });
  return { ...calls, useChangePassword, useResetPassword };
}

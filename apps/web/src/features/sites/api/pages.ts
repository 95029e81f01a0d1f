import type { TPage, TPageKey, TPageRequest } from '@stn/contracts/users';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';

// Editable pages (training, terms, privacy) of the platform.

type Answer = { success: true; message?: string; data: TPage };

export const pageQuery = (key: TPageKey) =>
  queryOptions({
    queryKey: keys.pages.detail(key),
    queryFn: async () => (await api<Answer>(`/v1/pages/${key}`, { silent: true })).data,
  });

export function usePage(key: TPageKey) {
  return useQuery(pageQuery(key));
}

export function useSavePage(key: TPageKey) {
  return useMutation({
    mutationFn: (body: TPageRequest) => api<Answer>(`/v1/pages/${key}`, { method: 'PUT', body }),
    onSuccess: (res) => queryClient.setQueryData(keys.pages.detail(key), res.data),
  });
}

import type { TPackage, TPackageRequest } from '@stn/contracts/businesses';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';

// The agency's packages of extra messages or calls (spec 001 §7 "packages": CRUD and toggleActive).

export const PACKAGES_PATH = '/v1/packages';

type Data<T> = { success: true; data: T };
type Message = { success: true; message: string };
type MessageData<T> = Message & { data: T };

function invalidatePackages() {
  void queryClient.invalidateQueries({ queryKey: keys.packages.all });
}

export const packageQuery = (id: number) =>
  queryOptions({
    queryKey: keys.packages.detail(id),
    queryFn: async () => (await api<Data<TPackage>>(`${PACKAGES_PATH}/${id}`, { silent: true })).data,
  });

export function usePackage(id: number) {
  return useQuery({ ...packageQuery(id), enabled: id > 0 });
}

export function useSavePackage(id?: number) {
  return useMutation({
    mutationFn: (body: TPackageRequest) =>
      id
        ? api<MessageData<TPackage>>(`${PACKAGES_PATH}/${id}`, { method: 'PUT', body })
        : api<MessageData<TPackage>>(PACKAGES_PATH, { method: 'POST', body }),
    onSuccess: (res) => {
      queryClient.setQueryData(keys.packages.detail(res.data.id), res.data);
      invalidatePackages();
    },
  });
}

export function useTogglePackage() {
  return useMutation({
    mutationFn: ({ id, active }: { id: number; active: boolean }) =>
      api<MessageData<TPackage>>(`${PACKAGES_PATH}/${id}/toggleActive`, { method: 'PUT', body: { active } }),
    onSettled: invalidatePackages,
  });
}

export function useDeletePackage() {
  return useMutation({
    mutationFn: (id: number) => api<Message>(`${PACKAGES_PATH}/${id}`, { method: 'DELETE' }),
    onSuccess: invalidatePackages,
  });
}

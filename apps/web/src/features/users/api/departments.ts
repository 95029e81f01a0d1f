import type { TDepartment, TDepartmentRequest } from '@stn/contracts/users';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';

// The departments calls (spec 001 §7 "Departments"): list, one, add, edit, toggle, delete.

export const DEPARTMENTS_PATH = '/v1/departments';

type Data<T> = { success: true; data: T };
type Message = { success: true; message: string };
type MessageData<T> = Message & { data: T };

function invalidateDepartments() {
  void queryClient.invalidateQueries({ queryKey: keys.departments.all });
}

/** One page of one department: answers, or rejects with the server's 403 when departments are off. */
export function useDepartmentsAccess() {
  return useQuery({
    queryKey: keys.departments.access(),
    queryFn: () => api<unknown>(DEPARTMENTS_PATH, { query: { page: 1, perPage: 1 }, silent: true }),
  });
}

export const departmentQuery = (id: number) =>
  queryOptions({
    queryKey: keys.departments.detail(id),
    queryFn: async () => (await api<Data<TDepartment>>(`${DEPARTMENTS_PATH}/${id}`, { silent: true })).data,
  });

export function useDepartment(id: number) {
  return useQuery({ ...departmentQuery(id), enabled: id > 0 });
}

export function useSaveDepartment(id: number | null) {
  return useMutation({
    mutationFn: (body: TDepartmentRequest) =>
      id
        ? api<MessageData<TDepartment>>(`${DEPARTMENTS_PATH}/${id}`, { method: 'PUT', body })
        : api<MessageData<TDepartment>>(DEPARTMENTS_PATH, { method: 'POST', body }),
    onSuccess: (res) => {
      queryClient.setQueryData(keys.departments.detail(res.data.id), res.data);
      invalidateDepartments();
    },
  });
}

export function useToggleDepartment() {
  return useMutation({
    mutationFn: ({ id, active }: { id: number; active: boolean }) =>
      api<MessageData<TDepartment>>(`${DEPARTMENTS_PATH}/${id}/toggle-active`, {
        method: 'PUT',
        body: { active },
      }),
    onSettled: invalidateDepartments,
  });
}

export function useDeleteDepartment() {
  return useMutation({
    mutationFn: (id: number) => api<Message>(`${DEPARTMENTS_PATH}/${id}`, { method: 'DELETE' }),
    onSettled: invalidateDepartments,
  });
}

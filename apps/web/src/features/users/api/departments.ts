import type { TDepartment, TDepartmentRequest } from '@stn/contracts/users';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { keys } from '../../../lib/query-keys.ts';
import { resourceCalls } from '../../../lib/resource-api.ts';

// The departments calls (spec 001 §7 "Departments"): list, one, add, edit, toggle, delete.

export const DEPARTMENTS_PATH = '/v1/departments';

const departments = resourceCalls<TDepartment, TDepartmentRequest>({
  path: DEPARTMENTS_PATH,
  keys: keys.departments,
});

/** One page of one department: answers, or rejects with the server's 403 when departments are off. */
export function useDepartmentsAccess() {
  return useQuery({
    queryKey: keys.departments.access(),
    queryFn: () => api<unknown>(DEPARTMENTS_PATH, { query: { page: 1, perPage: 1 }, silent: true }),
  });
}

export const departmentQuery = departments.oneQuery;
export const useDepartment = departments.useOne;
export const useSaveDepartment = departments.useSave;
export const useToggleDepartment = departments.useToggle;
export const useDeleteDepartment = departments.useDelete;

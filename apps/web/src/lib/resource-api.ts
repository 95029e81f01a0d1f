import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';
import { queryClient } from './query-client.ts';

// The calls a resource with a list and a form answers alike (templates, departments, packages, agency and
// business users): one row, save (POST new, PUT existing) or create and update, toggle active, delete. A
// feature's api file names the ones it has.

export type Data<T> = { success: true; data: T };
export type Message = { success: true; message: string };
export type MessageData<T> = Message & { data: T };

export function resourceCalls<T extends { id: number }, Body, UpdateBody = Body>(opts: {
  path: string;
  keys: { all: readonly unknown[]; detail: (id: number) => readonly unknown[] };
  /** The toggle's last path segment (the spec spells it both ways). */
  toggle?: 'toggle-active' | 'toggleActive';
  /** When a delete refreshes the lists: after it succeeded, or after it ended either way. */
  deleteRefresh?: 'onSuccess' | 'onSettled';
}) {
  const { path, keys } = opts;
  const invalidate = () => void queryClient.invalidateQueries({ queryKey: keys.all });
  const oneQuery = (id: number) =>
    queryOptions({
      queryKey: keys.detail(id),
      queryFn: async () => (await api<Data<T>>(`${path}/${id}`, { silent: true })).data,
    });
  return {
    invalidate,
    oneQuery,
    useOne: (id: number) => useQuery({ ...oneQuery(id), enabled: id > 0 }),
    useSave: (id?: number | null) =>
      useMutation({
        mutationFn: (body: Body) =>
          id
            ? api<MessageData<T>>(`${path}/${id}`, { method: 'PUT', body })
            : api<MessageData<T>>(path, { method: 'POST', body }),
        onSuccess: (res) => {
          queryClient.setQueryData(keys.detail(res.data.id), res.data);
          invalidate();
        },
      }),
    /** Add only (the list refreshes). */
    useCreate: () =>
      useMutation({
        mutationFn: (body: Body) => api<MessageData<T>>(path, { method: 'POST', body }),
        onSuccess: invalidate,
      }),
    /** Edit row `id`: its answer is the row, the lists refresh. */
    useUpdate: (id: number) =>
      useMutation({
        mutationFn: (body: UpdateBody) => api<MessageData<T>>(`${path}/${id}`, { method: 'PUT', body }),
        onSuccess: (res) => {
          queryClient.setQueryData(keys.detail(id), res.data);
          invalidate();
        },
      }),
    useToggle: () =>
      useMutation({
        mutationFn: ({ id, active }: { id: number; active: boolean }) =>
          api<MessageData<T>>(`${path}/${id}/${opts.toggle ?? 'toggle-active'}`, {
            method: 'PUT',
            body: { active },
          }),
        onSettled: invalidate,
      }),
    useDelete: () =>
      useMutation({
        mutationFn: (id: number) => api<Message>(`${path}/${id}`, { method: 'DELETE' }),
        ...(opts.deleteRefresh === 'onSuccess' ? { onSuccess: invalidate } : { onSettled: invalidate }),
      }),
  };
}

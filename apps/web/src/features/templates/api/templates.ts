import type { TTemplate, TTemplateRequest } from '@stn/contracts/templates';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';

// The templates calls (spec 001 "templates"): list, one, add, edit, toggle-active, delete.

export const TEMPLATES_PATH = '/v1/templates';

type Data<T> = { success: true; data: T };
type Message = { success: true; message: string };
type MessageData<T> = Message & { data: T };

function invalidate() {
  void queryClient.invalidateQueries({ queryKey: keys.templates.all });
}

export const templateQuery = (id: number) =>
  queryOptions({
    queryKey: keys.templates.detail(id),
    queryFn: async () => (await api<Data<TTemplate>>(`${TEMPLATES_PATH}/${id}`, { silent: true })).data,
  });

export function useTemplate(id: number) {
  return useQuery({ ...templateQuery(id), enabled: id > 0 });
}

export function useSaveTemplate(id: number | null) {
  return useMutation({
    mutationFn: (body: TTemplateRequest) =>
      id
        ? api<MessageData<TTemplate>>(`${TEMPLATES_PATH}/${id}`, { method: 'PUT', body })
        : api<MessageData<TTemplate>>(TEMPLATES_PATH, { method: 'POST', body }),
    onSuccess: (res) => {
      queryClient.setQueryData(keys.templates.detail(res.data.id), res.data);
      invalidate();
    },
  });
}

export function useToggleTemplate() {
  return useMutation({
    mutationFn: ({ id, active }: { id: number; active: boolean }) =>
      api<MessageData<TTemplate>>(`${TEMPLATES_PATH}/${id}/toggle-active`, {
        method: 'PUT',
        body: { active },
      }),
    onSettled: invalidate,
  });
}

export function useDeleteTemplate() {
  return useMutation({
    mutationFn: (id: number) => api<Message>(`${TEMPLATES_PATH}/${id}`, { method: 'DELETE' }),
    onSettled: invalidate,
  });
}

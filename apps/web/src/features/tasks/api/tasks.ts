import type { TTask, TTaskRequest } from '@stn/contracts/tasks';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';
import { loadProfile } from '../../../lib/session.ts';

// The tasks calls (spec 001 "Tasks"): list, one, add, edit (and done), delete.

export const TASKS_PATH = '/v1/tasks';

type Message = { success: true; message: string };
type MessageData<T> = Message & { data: T };
export type TContactChoice = { id: number; name: string; phone: string };

/** A task change moves the list and, for the signed-in user, the task badge (profile's number_of_tasks). */
function refresh() {
  void queryClient.invalidateQueries({ queryKey: keys.tasks.all });
  void loadProfile().catch(() => undefined);
}

/** Contacts matching `keyword`, for the task's contact picker (empty when the caller may not list contacts). */
export function useContactChoices(keyword: string) {
  return useQuery({
    queryKey: [...keys.tasks.all, 'contact-choices', keyword],
    queryFn: async () =>
      (
        await api<{ data: TContactChoice[] }>('/v1/contacts', {
          query: { keyword: keyword || undefined, page: 1, perPage: 20 },
          silent: true,
        }).catch(() => ({ data: [] as TContactChoice[] }))
      ).data,
  });
}

export function useSaveTask(id: number | null) {
  return useMutation({
    mutationFn: (body: TTaskRequest) =>
      id
        ? api<MessageData<TTask>>(`${TASKS_PATH}/${id}`, { method: 'PUT', body })
        : api<MessageData<TTask>>(TASKS_PATH, { method: 'POST', body }),
    onSuccess: refresh,
  });
}

/** Marks a task done or open again (the edit call with the task's own fields). */
export function useSetTaskStatus() {
  return useMutation({
    mutationFn: ({ task, done }: { task: TTask; done: boolean }) =>
      api<MessageData<TTask>>(`${TASKS_PATH}/${task.id}`, {
        method: 'PUT',
        body: {
          title: task.title,
          description: task.description,
          contact_id: task.contact_id,
          user_id: task.user_id,
          due_date: task.due_date,
          status: done ? 'done' : 'open',
        },
      }),
    onSettled: refresh,
  });
}

export function useDeleteTask() {
  return useMutation({
    mutationFn: (id: number) => api<Message>(`${TASKS_PATH}/${id}`, { method: 'DELETE' }),
    onSettled: refresh,
  });
}

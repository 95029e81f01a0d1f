import type { TTag, TTagWrite } from '@stn/contracts/contacts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';

// The tags calls of the contacts module (spec 001 "Tasks, tags, broadcasts"): list, add, rename, delete,
// and DELETE /v1/tags/bulk with the ids in the body.

export const TAGS_PATH = '/v1/tags';

/** A tag as the tags list answers it (contacts: how many contacts carry it). */
export type TTagRow = TTag;
type Message = { success: true; message: string };

function invalidate() {
  void queryClient.invalidateQueries({ queryKey: keys.tags.all });
}

export function useSaveTag(id: number | null) {
  return useMutation({
    mutationFn: (body: TTagWrite) =>
      id
        ? api<Message>(`${TAGS_PATH}/${id}`, { method: 'PUT', body })
        : api<Message>(TAGS_PATH, { method: 'POST', body }),
    onSuccess: invalidate,
  });
}

export function useDeleteTag() {
  return useMutation({
    mutationFn: (id: number) => api<Message>(`${TAGS_PATH}/${id}`, { method: 'DELETE' }),
    onSettled: invalidate,
  });
}

export function useBulkDeleteTags() {
  return useMutation({
    mutationFn: (ids: number[]) => api<Message>(`${TAGS_PATH}/bulk`, { method: 'DELETE', body: { ids } }),
    onSettled: invalidate,
  });
}

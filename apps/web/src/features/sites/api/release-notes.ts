import type { TReleaseNote, TReleaseNoteRequest } from '@stn/contracts/users';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';

// Release notes (spec 001 §7 "Release notes"): the admin CRUD; the public page reads /list.

export const RELEASE_NOTES_PATH = '/v1/release-notes';

type Answer = { success: true; message?: string; data: TReleaseNote };

export const releaseNoteQuery = (id: number) =>
  queryOptions({
    queryKey: keys.releaseNotes.detail(id),
    queryFn: async () => (await api<Answer>(`${RELEASE_NOTES_PATH}/${id}`, { silent: true })).data,
  });

export function useReleaseNote(id: number) {
  return useQuery(releaseNoteQuery(id));
}

const invalidate = () => queryClient.invalidateQueries({ queryKey: keys.releaseNotes.all });

export function useSaveReleaseNote(id?: number) {
  return useMutation({
    mutationFn: (body: TReleaseNoteRequest) =>
      id === undefined
        ? api<Answer>(RELEASE_NOTES_PATH, { method: 'POST', body })
        : api<Answer>(`${RELEASE_NOTES_PATH}/${id}`, { method: 'PUT', body }),
    onSuccess: (res) => {
      queryClient.setQueryData(keys.releaseNotes.detail(res.data.id), res.data);
      void invalidate();
    },
  });
}

export function useDeleteReleaseNote() {
  return useMutation({
    mutationFn: (id: number) =>
      api<{ success: true; message: string }>(`${RELEASE_NOTES_PATH}/${id}`, { method: 'DELETE' }),
    onSettled: invalidate,
  });
}

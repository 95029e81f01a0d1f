// The business's media library (spec 001 "GET /v1/medias (paged; results are appended)", ADR 036/039):
// pages of 10, newest first, appended by "Load more"; an uploaded image joins it. Shared by every screen
// that attaches an image (the inbox's send box today).
import type { TMedia } from '@stn/contracts/templates';
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { api } from './api-client.ts';
import { queryClient } from './query-client.ts';
import { keys } from './query-keys.ts';

export type LibraryMedia = TMedia;
export const MEDIA_PAGE_SIZE = 10;
type Page = { data: TMedia[]; meta: { total: number } };

export function useMediaLibrary(enabled: boolean) {
  return useInfiniteQuery({
    queryKey: keys.medias.list(),
    queryFn: ({ pageParam, signal }) =>
      api<Page>('/v1/medias', { query: { page: pageParam, perPage: MEDIA_PAGE_SIZE }, silent: true, signal }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      pages.reduce((n, p) => n + p.data.length, 0) < last.meta.total ? pages.length + 1 : undefined,
    enabled,
  });
}

/** Uploads an image (a data URL) to the library; the library is read again so it shows first. */
export function useUploadMedia() {
  return useMutation({
    mutationFn: async (input: { data: string; name: string }) =>
      (await api<{ data: TMedia }>('/v1/medias', { method: 'POST', body: input })).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.medias.all }),
  });
}

/** A file as a data URL (what the library upload and the send box take). */
export function fileDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

import type {
  TBroadcast,
  TBroadcastProgressEvent,
  TBroadcastReport,
  TRecipientState,
} from '@stn/contracts/broadcasts';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, apiBlob } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/files.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';
import { onRealtime } from '../../../lib/realtime.ts';
import { BROADCASTS_PATH } from '../api/broadcasts.ts';

// The report's calls (spec 001 "Tasks, tags, broadcasts"): {id}/report, report/download (blob), {id}/refresh,
// {id}/stop, {id}/rerun, {id}/tag, {id}/bulk-optout; and the realtime `broadcast_progress` (ADR 065).

/** The broadcasts resource's root key: whatever screen shows a broadcast refreshes with it. */
const BROADCASTS_KEY = keys.broadcasts.all;
export const reportKey = (id: number) => [...BROADCASTS_KEY, 'report', id] as const;

export type ReportFilters = {
  page: number;
  perPage: number;
  state?: TRecipientState;
  replied?: boolean;
};

type Data<T> = { success?: true; message?: string; data: T };

/** One broadcast's report, its recipients paged and filtered. */
export function useBroadcastReport(id: number, filters: ReportFilters) {
  return useQuery({
    queryKey: [...reportKey(id), filters],
    queryFn: async () =>
      (
        await api<Data<TBroadcastReport>>(`${BROADCASTS_PATH}/${id}/report`, {
          silent: true,
          query: {
            page: filters.page,
            perPage: filters.perPage,
            state: filters.state,
            replied: filters.replied === undefined ? undefined : String(filters.replied),
          },
        })
      ).data,
    enabled: id > 0,
    placeholderData: keepPreviousData,
  });
}

/**
 * While the report is open, `broadcast_progress` events of this broadcast update its status and counts in
 * place (the stat cards move at once), and the rest of the report (timeline, reasons, rows) is read again
 * at most every `everyMs` while they keep coming, and once more when the status changes.
 */
export function useLiveProgress(id: number, everyMs = 2000) {
  useEffect(() => {
    let timer: number | undefined;
    let last = 0;
    const reload = () => {
      last = Date.now();
      timer = undefined;
      void queryClient.invalidateQueries({ queryKey: reportKey(id) });
    };
    const off = onRealtime((event) => {
      if (event.type !== 'broadcast_progress') return;
      const data = event.data as TBroadcastProgressEvent | undefined;
      if (!data || data.id !== id) return;
      let statusChanged = false;
      queryClient.setQueriesData<TBroadcastReport>({ queryKey: reportKey(id) }, (old) => {
        if (!old) return old;
        if (old.broadcast.status !== data.status) statusChanged = true;
        return { ...old, broadcast: { ...old.broadcast, status: data.status, counts: data.counts } };
      });
      if (statusChanged) {
        window.clearTimeout(timer);
        reload();
      } else if (timer === undefined) {
        timer = window.setTimeout(reload, Math.max(0, last + everyMs - Date.now()));
      }
    });
    return () => {
      off();
      window.clearTimeout(timer);
    };
  }, [id, everyMs]);
}

/** After an action: the report and every other broadcasts screen read again. */
const refreshReport = () => queryClient.invalidateQueries({ queryKey: BROADCASTS_KEY });

/** An action on the broadcast that answers it (stop, rerun, refresh). */
function useBroadcastAction<V>(id: number, action: 'stop' | 'rerun' | 'refresh', body?: (v: V) => unknown) {
  return useMutation({
    mutationFn: (v: V) =>
      api<Data<TBroadcast>>(`${BROADCASTS_PATH}/${id}/${action}`, {
        method: 'POST',
        body: body ? body(v) : {},
      }),
    onSettled: () => refreshReport(),
  });
}

export const useStopBroadcast = (id: number) => useBroadcastAction<void>(id, 'stop');
export const useRefreshStatuses = (id: number) => useBroadcastAction<void>(id, 'refresh');
export const useRerunBroadcast = (id: number) =>
  useBroadcastAction<{ include_new: boolean }>(id, 'rerun', (v) => v);

export function useTagRecipients(id: number) {
  return useMutation({
    mutationFn: (v: { tag_ids: number[]; who: 'recipients' | 'replied' }) =>
      api<Data<unknown>>(`${BROADCASTS_PATH}/${id}/tag`, { method: 'POST', body: v }),
    onSettled: () => refreshReport(),
  });
}

/** How many a bulk action touched, read from its answer whatever its envelope calls it. */
export function countOf(answer: unknown): number | null {
  const data = (answer as { data?: unknown } | null)?.data;
  if (typeof data === 'number') return data;
  if (data && typeof data === 'object') {
    for (const k of ['count', 'opted_out', 'updated', 'tagged']) {
      const v = (data as Record<string, unknown>)[k];
      if (typeof v === 'number') return v;
      if (Array.isArray(v)) return v.length;
    }
  }
  return null;
}

export function useBulkOptout(id: number) {
  return useMutation({
    mutationFn: () =>
      api<Data<unknown>>(`${BROADCASTS_PATH}/${id}/bulk-optout`, { method: 'POST', body: {} }),
    onSettled: () => refreshReport(),
  });
}

/** The report's recipients as a CSV file, saved through the browser (the one CSV writer on the server). */
export async function downloadReport(id: number, name: string): Promise<void> {
  const blob = await apiBlob(`${BROADCASTS_PATH}/report/download?id=${id}`);
  const safe = name.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^-+|-+$/g, '') || 'broadcast';
  saveBlob(blob, `${safe}-report.csv`);
}

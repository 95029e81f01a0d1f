import type { TInstallPick } from '@stn/contracts/installs';
import type { TCallDetail, TCallsReport } from '@stn/contracts/telephony';
import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError, api, apiBlob } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';

// The calls calls (spec 000 §2 calls, schedule/calls, voice-records, calls-report; ADR 028): the calls list
// and one call with its legs, its recording, voice records, scheduled calls and the calls report.

export const CALLS_PATH = '/v1/calls';
export const SCHEDULED_CALLS_PATH = '/v1/scheduled-calls';
export const VOICE_RECORDS_PATH = '/v1/voice-records';
export const CALLS_REPORT_PATH = '/v1/calls-report';

export const callRecordingPath = (id: number) => `${CALLS_PATH}/${id}/recording`;
export const voiceRecordAudioPath = (id: number) => `${VOICE_RECORDS_PATH}/${id}/audio`;

type Data<T> = { success?: true; data: T };
type Message = { success: true; message?: string };

export const callQuery = (id: number) =>
  queryOptions({
    queryKey: keys.calls.detail(id),
    queryFn: async () => (await api<Data<TCallDetail>>(`${CALLS_PATH}/${id}`, { silent: true })).data,
  });

/** One call with its legs; while it is still in progress it refreshes every 2 s (a call takes seconds). */
export function useCall(id: number | null) {
  return useQuery({
    ...callQuery(id ?? 0),
    enabled: Boolean(id),
    refetchInterval: (q) => (q.state.data?.outcome === 'in_progress' ? 2000 : false),
  });
}

/** The business's active installs, for the install pickers (filters and the schedule form). */
export type InstallOption = TInstallPick;
export { useInstallOptions } from '../../../lib/pickers.ts';

/**
 * Audio behind the bearer token (a call's recording, a voicemail) as an object URL for an <audio>
 * element, fetched only once `enabled` (a person asked to play it) and revoked when it is no longer shown.
 */
export function useAudioUrl(path: string | null, enabled = true) {
  const [state, setState] = useState<{ url: string | null; error: ApiError | null; loading: boolean }>({
    url: null,
    error: null,
    loading: false,
  });
  useEffect(() => {
    if (!path || !enabled) return;
    let cancelled = false;
    let url: string | null = null;
    setState({ url: null, error: null, loading: true });
    apiBlob(path, { silent: true })
      .then((blob) => {
        if (cancelled) return;
        url = URL.createObjectURL(blob);
        setState({ url, error: null, loading: false });
      })
      .catch((err: unknown) => {
        if (cancelled) return;
        const error = err instanceof ApiError ? err : new ApiError(0, { code: 'NETWORK' });
        setState({ url: null, error, loading: false });
      });
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [path, enabled]);
  return state;
}

export function useDeleteVoiceRecord() {
  return useMutation({
    mutationFn: (id: number) => api<Message>(`${VOICE_RECORDS_PATH}/${id}`, { method: 'DELETE' }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: keys.voiceRecords.all }),
  });
}

export type ScheduleCallBody = { install_id: number; phone: string; name?: string; scheduled_at: string };

export function useScheduleCall() {
  return useMutation({
    mutationFn: (body: ScheduleCallBody) =>
      api<Message & { data?: unknown }>(SCHEDULED_CALLS_PATH, { method: 'POST', body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.calls.all }),
  });
}

export function useCancelScheduledCall() {
  return useMutation({
    mutationFn: (id: number) => api<Message>(`${SCHEDULED_CALLS_PATH}/${id}`, { method: 'DELETE' }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: keys.calls.all }),
  });
}

export type ReportQuery = { from?: string; to?: string; install_id?: number };

export function useCallsReport(query: ReportQuery) {
  return useQuery({
    queryKey: keys.callsReport.report(query),
    queryFn: async () => (await api<Data<TCallsReport>>(CALLS_REPORT_PATH, { query, silent: true })).data,
    placeholderData: keepPreviousData,
  });
}

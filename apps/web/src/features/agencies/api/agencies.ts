import type {
  TAgency,
  TAgencyImageType,
  TAgencySettingsRequest,
  TCreateAgencyRequest,
  TStripeSettingRequest,
  TUpdateAgencyRequest,
} from '@stn/contracts/agencies';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api-client.ts';
import { auth } from '../../../lib/auth-store.ts';
import { saveBlob } from '../../../lib/files.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';
import { toastError } from '../../../lib/toast.ts';

// The agencies module's calls (spec 001 §7 "Agencies") for the admin screens.

export type AgencyStatus = 'active' | 'archived';

export const AGENCIES_PATH = '/v1/agencies';

type Data<T> = { success: true; data: T };
type Message = { success: true; message: string };
type MessageData<T> = Message & { data: T };

/** Every agency list, every agency, and the white-label list (a host lives in both). */
function invalidateAgencies() {
  void queryClient.invalidateQueries({ queryKey: keys.agencies.all });
  void queryClient.invalidateQueries({ queryKey: keys.whitelabels.all });
}

export const agencyQuery = (id: number) =>
  queryOptions({
    queryKey: keys.agencies.detail(id),
    queryFn: async () => (await api<Data<TAgency>>(`${AGENCIES_PATH}/${id}`, { silent: true })).data,
  });

export function useAgency(id: number) {
  return useQuery(agencyQuery(id));
}

export function useInstallStats(id: number) {
  return useQuery({
    queryKey: keys.agencies.installStats(id),
    queryFn: async () =>
      (
        await api<Data<{ total_installs: number; available_installs: number }>>(
          `${AGENCIES_PATH}/${id}/install-stats`,
          { method: 'POST', silent: true },
        )
      ).data,
  });
}

export function useCreateAgency() {
  return useMutation({
    mutationFn: (body: TCreateAgencyRequest) =>
      api<MessageData<TAgency>>(AGENCIES_PATH, { method: 'POST', body }),
    onSuccess: invalidateAgencies,
  });
}

export function useUpdateAgency(id: number) {
  return useMutation({
    mutationFn: (body: TUpdateAgencyRequest) =>
      api<MessageData<TAgency>>(`${AGENCIES_PATH}/${id}`, { method: 'PUT', body }),
    onSuccess: (res) => {
      queryClient.setQueryData(keys.agencies.detail(id), res.data);
      invalidateAgencies();
    },
  });
}

/** Archive, restore and permanent delete, one agency or several (the bulk calls take ids). */
export type AgencyAction = 'archive' | 'restore' | 'delete';

function actionCall(action: AgencyAction, ids: number[]): Promise<Message> {
  const single = ids.length === 1 ? ids[0] : undefined;
  if (action === 'archive')
    return single !== undefined
      ? api(`${AGENCIES_PATH}/${single}`, { method: 'DELETE' })
      : api(`${AGENCIES_PATH}/bulk-archive`, { method: 'DELETE', body: { ids } });
  if (action === 'restore')
    return single !== undefined
      ? api(`${AGENCIES_PATH}/${single}/restore`, { method: 'POST' })
      : api(`${AGENCIES_PATH}/bulk-restore`, { method: 'POST', body: { ids } });
  // There is no single permanent delete: the bulk call with one id.
  return api(`${AGENCIES_PATH}/bulk`, { method: 'DELETE', body: { ids } });
}

export function useAgencyAction() {
  return useMutation({
    mutationFn: ({ action, ids }: { action: AgencyAction; ids: number[] }) => actionCall(action, ids),
    onSettled: invalidateAgencies,
  });
}

export function useUpdateAgencySettings(id: number) {
  return useMutation({
    mutationFn: (body: TAgencySettingsRequest) =>
      api<MessageData<TAgency>>(`${AGENCIES_PATH}/${id}/settings`, { method: 'PUT', body }),
    onSuccess: (res) => {
      queryClient.setQueryData(keys.agencies.detail(id), res.data);
      invalidateAgencies();
    },
  });
}

export function useUpdateStripeSetting(id: number) {
  return useMutation({
    mutationFn: (body: TStripeSettingRequest) =>
      api<MessageData<TAgency>>(`${AGENCIES_PATH}/${id}/stripe-setting`, { method: 'PUT', body }),
    onSuccess: (res) => {
      queryClient.setQueryData(keys.agencies.detail(id), res.data);
      invalidateAgencies();
    },
  });
}

/**
 * "Use the Stripe sandbox" (ADR 076): the platform makes a sandbox Stripe account for the agency and stores
 * its two keys; the answer is the agency, as for the keys typed in.
 */
export function useStripeSandbox(id: number) {
  return useMutation({
    mutationFn: () =>
      api<MessageData<TAgency>>(`${AGENCIES_PATH}/${id}/stripe-setting`, {
        method: 'PUT',
        body: { sandbox: true },
      }),
    onSuccess: (res) => {
      queryClient.setQueryData(keys.agencies.detail(id), res.data);
      invalidateAgencies();
    },
  });
}

export function useChangeAgencyPassword(id: number) {
  return useMutation({
    mutationFn: (body: { password: string; password_confirmation: string }) =>
      api<Message>(`${AGENCIES_PATH}/${id}/change-password`, { method: 'PUT', body }),
  });
}

export function useAgencyImage(id: number) {
  return useMutation({
    mutationFn: (v: { type: TAgencyImageType; data: string | null }) =>
      v.data === null
        ? api<Message>(`${AGENCIES_PATH}/image/${id}/${v.type}`, { method: 'DELETE' })
        : api<Message>(`${AGENCIES_PATH}/image/${id}`, {
            method: 'POST',
            body: { type: v.type, data: v.data },
          }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: keys.agencies.detail(id) });
    },
  });
}

export type ExportKind = 'users' | 'businesses';

/**
 * Downloads an agency's users or businesses as CSV. The api client parses JSON, so this fetches with the
 * bearer token itself and hands the file to the browser through a Blob link.
 */
export async function downloadAgencyCsv(kind: ExportKind, agencyId: number): Promise<void> {
  const url = new URL(`/api${AGENCIES_PATH}/export-${kind}`, window.location.origin);
  url.searchParams.set('agency_id', String(agencyId));
  const token = auth.get().token;
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!res.ok) {
    const body = await res.json().catch(() => null);
    const error = new ApiError(res.status, body);
    toastError(error.message);
    throw error;
  }
  const blob = await res.blob();
  const disposition = res.headers.get('content-disposition') ?? '';
  const filename = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? `agency-${agencyId}-${kind}.csv`;
  saveBlob(blob, filename);
}

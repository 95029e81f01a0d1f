import type {
  TInstall,
  TInstallCreate,
  TInstallSettings,
  TInstallStatus,
  TInstallUpdate,
} from '@stn/contracts/installs';
import type { TAvailableNumber, TNumberSearch } from '@stn/contracts/telephony';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';

// The installs calls (spec 001 "Installs" and "Business lifecycle"): lists by status, one, create, edit,
// settings, archive, restore, delete, toggle active, embed code, can-create-install, widget icon and logo,
// and the two number calls the wizard uses (search, purchase).

export const INSTALLS_PATH = '/v1/installs';

type Data<T> = { success?: boolean; message?: string; data: T };
type Message = { success: true; message?: string };

export type TCanCreateInstall = {
  can_create: boolean;
  total_installs: number;
  used_installs: number;
  available_installs: number;
};
export type TEmbedCode = { code: string; key: string };
export type TInstallImage = 'widgetIcon' | 'logo';

/** A change to an install refreshes it wherever it is shown (lists, pickers, the edit screen). */
export function invalidateInstalls() {
  void queryClient.invalidateQueries({ queryKey: keys.installs.all });
}

function remember(install: TInstall) {
  queryClient.setQueryData(keys.installs.detail(install.id), install);
}

export const installQuery = (id: number) =>
  queryOptions({
    queryKey: keys.installs.detail(id),
    queryFn: async () => (await api<Data<TInstall>>(`${INSTALLS_PATH}/${id}`, { silent: true })).data,
  });

export function useInstall(id: number) {
  return useQuery({ ...installQuery(id), enabled: id > 0 });
}

export const embedCodeQuery = (id: number) =>
  queryOptions({
    queryKey: keys.installs.embedCode(id),
    queryFn: async () =>
      (await api<Data<TEmbedCode>>(`${INSTALLS_PATH}/${id}/embed-code`, { silent: true })).data,
  });

export function createInstall(body: TInstallCreate) {
  return api<Data<TInstall>>(INSTALLS_PATH, { method: 'POST', body, silent: true }).then((res) => {
    remember(res.data);
    invalidateInstalls();
    return res.data;
  });
}

/** PUT /v1/installs/{id}: name, website and settings (a partial deep-merged by the server). */
export function updateInstall(id: number, body: TInstallUpdate, opts: { silent?: boolean } = {}) {
  return api<Data<TInstall>>(`${INSTALLS_PATH}/${id}`, { method: 'PUT', body, silent: opts.silent }).then(
    (res) => {
      remember(res.data);
      invalidateInstalls();
      return res.data;
    },
  );
}

/** PUT /v1/installs/{id}/setting: settings only ({ settings: partial }, deep-merged by the server). */
export function updateInstallSettings(id: number, settings: Partial<TInstallSettings>) {
  return api<Data<TInstall>>(`${INSTALLS_PATH}/${id}/setting`, { method: 'PUT', body: { settings } }).then(
    (res) => {
      remember(res.data);
      invalidateInstalls();
      return res.data;
    },
  );
}

export function toggleInstallActive(id: number, active: boolean, opts: { silent?: boolean } = {}) {
  return api<Data<TInstall> | Message>(`${INSTALLS_PATH}/${id}/toggle-active`, {
    method: 'POST',
    body: { active },
    silent: opts.silent,
  }).finally(invalidateInstalls);
}

export function useToggleInstall() {
  return useMutation({
    mutationFn: ({ id, active }: { id: number; active: boolean }) => toggleInstallActive(id, active),
  });
}

export type InstallLifecycle = 'archive' | 'restore' | 'delete';

export function useInstallLifecycle() {
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: InstallLifecycle }) =>
      action === 'delete'
        ? api<Message>(`${INSTALLS_PATH}/${id}`, { method: 'DELETE' })
        : api<Message>(`${INSTALLS_PATH}/${id}/${action}`, { method: 'PUT' }),
    onSettled: invalidateInstalls,
  });
}

/** POST /v1/business/can-create-install, asked afresh each time (another tab may have used the last one). */
export async function canCreateInstall(): Promise<TCanCreateInstall> {
  const res = await api<Data<TCanCreateInstall>>('/v1/business/can-create-install', {
    method: 'POST',
    silent: true,
  });
  return res.data;
}

export function fetchCanCreateInstall() {
  return queryClient.fetchQuery({
    queryKey: keys.installs.canCreate(),
    queryFn: canCreateInstall,
    staleTime: 0,
  });
}

/** The install's widget icon or logo: upload as a data URL, or remove. */
export function useInstallImage(id: number) {
  return useMutation({
    mutationFn: ({ type, data }: { type: TInstallImage; data: string | null }) =>
      data === null
        ? api<Data<TInstall> | Message>(`${INSTALLS_PATH}/${id}/${type}`, { method: 'DELETE' })
        : api<Data<TInstall> | Message>(`${INSTALLS_PATH}/${id}/${type}`, { method: 'POST', body: { data } }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: keys.installs.detail(id) });
      invalidateInstalls();
    },
  });
}

/** POST /v1/installs/search-phonenumber: the carrier's available numbers. */
export async function searchNumbers(body: Partial<TNumberSearch>): Promise<TAvailableNumber[]> {
  const res = await api<Data<TAvailableNumber[]>>(`${INSTALLS_PATH}/search-phonenumber`, {
    method: 'POST',
    body,
  });
  return res.data;
}

/** POST /v1/installs/{id}/purchase-phonenumber: buys the number for the install. */
export async function purchaseNumber(id: number, phoneNumber: string) {
  const res = await api<Data<unknown>>(`${INSTALLS_PATH}/${id}/purchase-phonenumber`, {
    method: 'POST',
    body: { phone_number: phoneNumber },
  });
  void queryClient.invalidateQueries({ queryKey: keys.installs.detail(id) });
  invalidateInstalls();
  void queryClient.invalidateQueries({ queryKey: keys.numbers.all });
  return res;
}

export const statusOfRoute: Record<string, TInstallStatus> = {
  'business.installs': 'active',
  'business.installs.archived': 'archived',
  'business.installs.deleted': 'deleted',
};

import type { TAgency, TAgencySettingsRequest, TPopupPaymentRequest } from '@stn/contracts/agencies';
import type { TPage } from '@stn/contracts/users';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';

// The agency's own settings (spec 001 §7 "Agencies", "Whitelabel and international") and training page.

export const agencySettingsKeys = {
  all: ['agency', 'own'] as const,
  agency: (id: number) => [...agencySettingsKeys.all, 'agency', id] as const,
  internationals: () => [...agencySettingsKeys.all, 'internationals'] as const,
  training: () => [...agencySettingsKeys.all, 'training'] as const,
};

type Data<T> = { success: true; data: T };
type MessageData<T> = { success: true; message: string; data: T };

export const ownAgencyQuery = (id: number) =>
  queryOptions({
    queryKey: agencySettingsKeys.agency(id),
    queryFn: async () => (await api<Data<TAgency>>(`/v1/agencies/${id}`, { silent: true })).data,
  });

/** The signed-in user's agency, with its branding, settings and properties. */
export function useOwnAgency(id: number) {
  return useQuery({ ...ownAgencyQuery(id), enabled: id > 0 });
}

function storeAgency(agency: TAgency) {
  queryClient.setQueryData(agencySettingsKeys.agency(agency.id), agency);
  // The site data (title, support e-mail, custom script) comes from the same agency.
  void queryClient.invalidateQueries({ queryKey: ['site-data'] });
}

export function useUpdateAgencySettings() {
  return useMutation({
    mutationFn: (body: TAgencySettingsRequest) =>
      api<MessageData<TAgency>>('/v1/agencies/settings', { method: 'PUT', body }),
    onSuccess: (res) => storeAgency(res.data),
  });
}

export function useUpdateCustomScript() {
  return useMutation({
    mutationFn: (custom_script: string | null) =>
      api<MessageData<TAgency>>('/v1/agencies/custom-script', { method: 'PUT', body: { custom_script } }),
    onSuccess: (res) => storeAgency(res.data),
  });
}

export function useUpdatePopup(agencyId: number) {
  return useMutation({
    mutationFn: (body: TPopupPaymentRequest) =>
      api<MessageData<TAgency>>(`/v1/agencies/${agencyId}/popup-payment`, { method: 'PUT', body }),
    onSuccess: (res) => storeAgency(res.data),
  });
}

export function useInternationals() {
  return useQuery({
    queryKey: agencySettingsKeys.internationals(),
    queryFn: async () =>
      (await api<Data<{ allowed_countries: string[] }>>('/v1/internationals', { silent: true })).data
        .allowed_countries,
  });
}

export function useSetInternationals() {
  return useMutation({
    mutationFn: (countries: string[]) =>
      api<MessageData<{ allowed_countries: string[] }>>('/v1/internationals', {
        method: 'POST',
        body: { countries },
      }),
    onSuccess: (res) => {
      queryClient.setQueryData(agencySettingsKeys.internationals(), res.data.allowed_countries);
      void queryClient.invalidateQueries({ queryKey: agencySettingsKeys.all });
    },
  });
}

/** The training page written by the platform admins; no answer (or none written) shows the empty state. */
export function useTrainingPage() {
  return useQuery({
    queryKey: agencySettingsKeys.training(),
    queryFn: async () => (await api<Data<TPage>>('/v1/pages/training', { silent: true })).data,
  });
}

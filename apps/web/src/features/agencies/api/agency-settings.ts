import type { TAgency, TAgencySettingsRequest, TPopupPaymentRequest } from '@stn/contracts/agencies';
import type { TLandingTexts } from '@stn/contracts/site';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';

// The agency's own settings (spec 001 §7 "Agencies", "Whitelabel and international") and training page.

type Data<T> = { success: true; data: T };
type MessageData<T> = { success: true; message: string; data: T };

export const ownAgencyQuery = (id: number) =>
  queryOptions({
    queryKey: keys.agencies.detail(id),
    queryFn: async () => (await api<Data<TAgency>>(`/v1/agencies/${id}`, { silent: true })).data,
  });

/** The signed-in user's agency, with its branding, settings and properties. */
export function useOwnAgency(id: number) {
  return useQuery({ ...ownAgencyQuery(id), enabled: id > 0 });
}

function storeAgency(agency: TAgency) {
  queryClient.setQueryData(keys.agencies.detail(agency.id), agency);
  // The site data (title, support e-mail, custom script) comes from the same agency.
  void queryClient.invalidateQueries({ queryKey: keys.siteData.all });
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

export function useUpdateLandingTexts() {
  return useMutation({
    mutationFn: (landingTexts: TLandingTexts) =>
      api<MessageData<TAgency>>('/v1/agencies/landing-texts', { method: 'PUT', body: { landingTexts } }),
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
    queryKey: keys.internationals.all,
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
      queryClient.setQueryData(keys.internationals.all, res.data.allowed_countries);
      void queryClient.invalidateQueries({ queryKey: keys.agencies.all });
    },
  });
}

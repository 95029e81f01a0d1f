import type {
  TGoogleAccountLocation,
  TGoogleAuthorize,
  TGoogleConnectRequest,
  TGoogleIntegration,
  TGoogleLocation,
  TGoogleLocationRequest,
} from '@stn/contracts/google';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';
import { queryClient } from './query-client.ts';
import type { Data, Message, MessageData } from './resource-api.ts';

// Google Business locations (spec 001 "Integrations"; ADR 091): the business's Google connections, the
// connected account's locations, and the locations tied to installs (each one's review link). In lib, as
// the settings screen's card (components/google-locations-card.tsx) and the location screen
// (features/integrations) both use them.

const integrationsKey = ['google-integrations'] as const;
const locationsKey = ['google-locations'] as const;

export function useGoogleIntegrations() {
  return useQuery({
    queryKey: integrationsKey,
    queryFn: async () =>
      (await api<Data<TGoogleIntegration[]>>('/v1/google-integrations', { silent: true })).data,
  });
}

/** The account's locations as Google lists them (a connection picked). */
export function useAccountLocations(integrationId: number | null) {
  return useQuery({
    queryKey: [...integrationsKey, integrationId, 'locations'],
    enabled: integrationId !== null,
    queryFn: async () =>
      (await api<Data<TGoogleAccountLocation[]>>(`/v1/businesses/locations-by-google/${integrationId}`)).data,
  });
}

/** The screen Google sends the browser back to with its code. */
export const googleReturnUrl = (path: string) => `${window.location.origin}${path}`;

/** Starts connecting: the browser goes to Google's consent page (the stand-in's on a laptop). */
export function useStartGoogle() {
  return useMutation({
    mutationFn: async (redirectUri: string) =>
      (
        await api<Data<TGoogleAuthorize>>(
          `/v1/google-integrations/authorize?redirect_uri=${encodeURIComponent(redirectUri)}`,
        )
      ).data,
    onSuccess: (data) => window.location.assign(data.url),
  });
}

export function useFinishGoogle() {
  return useMutation({
    mutationFn: (body: TGoogleConnectRequest) =>
      api<MessageData<TGoogleIntegration>>('/v1/google-integrations', { method: 'POST', body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: integrationsKey }),
  });
}

export function useDisconnectGoogle() {
  return useMutation({
    mutationFn: (id: number) => api<Message>(`/v1/google-integrations/${id}`, { method: 'DELETE' }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: integrationsKey });
      void queryClient.invalidateQueries({ queryKey: locationsKey });
    },
  });
}

export function useGoogleLocations() {
  return useQuery({
    queryKey: locationsKey,
    queryFn: async () => (await api<Data<TGoogleLocation[]>>('/v1/google-locations', { silent: true })).data,
  });
}

export function useGoogleLocation(id: number) {
  return useQuery({
    queryKey: [...locationsKey, id],
    enabled: id > 0,
    queryFn: async () =>
      (await api<Data<TGoogleLocation>>(`/v1/google-locations/${id}`, { silent: true })).data,
  });
}

export function useSaveGoogleLocation(id: number | null) {
  return useMutation({
    mutationFn: (body: TGoogleLocationRequest) =>
      id
        ? api<MessageData<TGoogleLocation>>(`/v1/google-locations/${id}`, { method: 'PUT', body })
        : api<MessageData<TGoogleLocation>>('/v1/google-locations', { method: 'POST', body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: locationsKey }),
  });
}

export function useDeleteGoogleLocation() {
  return useMutation({
    mutationFn: (id: number) => api<Message>(`/v1/google-locations/${id}`, { method: 'DELETE' }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: locationsKey }),
  });
}

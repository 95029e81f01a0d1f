import type { TCarrierAccountInput } from '@stn/contracts/agencies';
import type {
  TBusiness,
  TBusinessResetPasswordRequest,
  TCreateBusinessRequest,
  TUpdateBusinessRequest,
} from '@stn/contracts/businesses';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';

// The agency's business accounts (spec 001 §4, §7 "Business", "Business lifecycle", send-notification).

export type BusinessStatus = 'active' | 'archived' | 'deleted';

export const BUSINESS_LIST_PATH = '/v1/business';

type Data<T> = { success: true; data: T };
type Message = { success: true; message: string };
type MessageData<T> = Message & { data: T };

/** A business moves between lists and its usage shows in them: every business query goes stale. */
function invalidateBusinesses() {
  void queryClient.invalidateQueries({ queryKey: keys.businesses.all });
  // The app shell's 'Add Business' button reads the agency's available installs under this key.
  void queryClient.invalidateQueries({ queryKey: keys.installStats.all });
}

export const businessQuery = (id: number) =>
  queryOptions({
    queryKey: keys.businesses.detail(id),
    queryFn: async () => (await api<Data<TBusiness>>(`/v1/business/${id}`, { silent: true })).data,
  });

export function useBusiness(id: number) {
  return useQuery({ ...businessQuery(id), enabled: id > 0 });
}

export function useCreateBusiness() {
  return useMutation({
    mutationFn: (body: TCreateBusinessRequest) =>
      api<MessageData<TBusiness>>(BUSINESS_LIST_PATH, { method: 'POST', body }),
    onSuccess: invalidateBusinesses,
  });
}

export function useUpdateBusiness(id: number) {
  return useMutation({
    mutationFn: (body: TUpdateBusinessRequest) =>
      api<MessageData<TBusiness>>(`/v1/business/${id}`, { method: 'PUT', body }),
    onSuccess: (res) => {
      queryClient.setQueryData(keys.businesses.detail(id), res.data);
      invalidateBusinesses();
    },
  });
}

export type BusinessTransition = 'archive' | 'restore' | 'delete';

export function useBusinessTransition() {
  return useMutation({
    mutationFn: ({ id, transition }: { id: number; transition: BusinessTransition }) =>
      transition === 'delete'
        ? api<Message>(`/v1/business/${id}`, { method: 'DELETE' })
        : api<Message>(`/v1/business/${id}/${transition}`, { method: 'PUT' }),
    onSuccess: invalidateBusinesses,
  });
}

export function useSetBusinessActive() {
  return useMutation({
    mutationFn: ({ id, active }: { id: number; active: boolean }) =>
      api<Message>(`/v1/businesses/${id}/active`, { method: 'PUT', body: { active } }),
    onSettled: invalidateBusinesses,
  });
}

export function useResetBusinessPassword() {
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: TBusinessResetPasswordRequest }) =>
      api<Message>(`/v1/business/${id}/reset-password`, { method: 'POST', body }),
  });
}

export function useResetUsage() {
  return useMutation({
    mutationFn: (id: number) => api<Message>(`/v1/businesses/${id}/reset-usage`, { method: 'PUT' }),
    onSuccess: invalidateBusinesses,
  });
}

export type SendNotificationBody = { business_ids?: number[]; subject: string; message: string };

export function useSendNotification() {
  return useMutation({
    mutationFn: (body: SendNotificationBody) =>
      api<MessageData<{ sent: number }>>('/v1/agencies/send-notification', { method: 'POST', body }),
  });
}

/**
 * The business's own carrier account (ADR 093): PUT /v1/agencies/{business_id}/twilio-config as its
 * AgencyAdmin, with a Twilio account (checked by the server with Twilio), `{ sandbox: true }` or
 * `{ inherit: true }` (back to the agency's account). Answers the business.
 */
export function useSetBusinessCarrierAccount(id: number) {
  return useMutation({
    mutationFn: (body: TCarrierAccountInput) =>
      api<MessageData<TBusiness>>(`/v1/agencies/${id}/twilio-config`, { method: 'PUT', body }),
    onSuccess: (res) => {
      queryClient.setQueryData(keys.businesses.detail(id), res.data);
      invalidateBusinesses();
    },
  });
}

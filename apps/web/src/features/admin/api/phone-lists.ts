import type { TPhoneList, TPhoneListEntry, TPhoneListRequest } from '@stn/contracts/users';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';

// The platform blacklist and whitelist (spec 001 §7 "Blacklist, whitelist").

export const phoneListKeys = {
  all: ['admin', 'phone-lists'] as const,
  list: (list: TPhoneList) => [...phoneListKeys.all, list] as const,
};

export const phoneListPath = (list: TPhoneList) => `/v1/${list}`;

export function useAddPhone(list: TPhoneList) {
  return useMutation({
    mutationFn: (body: TPhoneListRequest) =>
      api<{ success: true; message: string; data: TPhoneListEntry }>(phoneListPath(list), {
        method: 'POST',
        body,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: phoneListKeys.list(list) }),
  });
}

export function useDeletePhone(list: TPhoneList) {
  return useMutation({
    mutationFn: (id: number) =>
      api<{ success: true; message: string }>(`${phoneListPath(list)}/${id}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: phoneListKeys.list(list) }),
  });
}

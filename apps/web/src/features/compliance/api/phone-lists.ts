import type {
  TPhoneImportRequest,
  TPhoneList,
  TPhoneListEntry,
  TPhoneListRequest,
} from '@stn/contracts/users';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';

// The blacklist and whitelist calls (spec 001 §7 "Blacklist, whitelist"): list, add, remove, import. The
// server answers the caller's list: the platform's for admins, the business's for business users.

export const phoneListPath = (list: TPhoneList) => `/v1/${list}`;

type Message = { success: true; message: string };
type MessageData<T> = Message & { data: T };
export type ImportResult = { imported: number; skipped: number; invalid: string[] };

const invalidate = (list: TPhoneList) => () =>
  void queryClient.invalidateQueries({ queryKey: keys.phoneLists.list(list) });

export function useAddToPhoneList(list: TPhoneList) {
  return useMutation({
    mutationFn: (body: TPhoneListRequest) =>
      api<MessageData<TPhoneListEntry>>(phoneListPath(list), { method: 'POST', body }),
    onSuccess: invalidate(list),
  });
}

export function useRemoveFromPhoneList(list: TPhoneList) {
  return useMutation({
    mutationFn: (id: number) => api<Message>(`${phoneListPath(list)}/${id}`, { method: 'DELETE' }),
    onSettled: invalidate(list),
  });
}

/** Only the blacklist has an import call. */
export function useImportBlacklist() {
  return useMutation({
    mutationFn: (body: TPhoneImportRequest) =>
      api<MessageData<ImportResult>>('/v1/blacklist/import', { method: 'POST', body }),
    onSuccess: invalidate('blacklist'),
  });
}

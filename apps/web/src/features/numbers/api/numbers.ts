import type {
  TAvailableNumber,
  TNumber,
  TNumberCreate,
  TNumberSearch,
  TNumberUpdate,
} from '@stn/contracts/telephony';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';

// The numbers calls (spec 001 "Installs" number calls and /v1/numbers): list, one, add, edit, release;
// search and buy a number for an install; the carrier's caller-id verification.

export const NUMBERS_PATH = '/v1/numbers';

type Data<T> = { data: T };
type MessageData<T> = { success: true; message: string; data: T };
export type CallerIdVerification = { phone_number: string; validation_code: string; verified: boolean };
/** An install as the pickers show it (GET /v1/installs/all). */
export type InstallPick = { id: number; name: string; number?: string | null };

const invalidateNumbers = () => void queryClient.invalidateQueries({ queryKey: keys.numbers.all });
// A bought or released number changes the install's number too.
const invalidateInstalls = () => void queryClient.invalidateQueries({ queryKey: ['installs'] });

export const numberQuery = (id: number) =>
  queryOptions({
    queryKey: keys.numbers.detail(id),
    queryFn: async () => (await api<Data<TNumber>>(`${NUMBERS_PATH}/${id}`, { silent: true })).data,
  });

export function useNumber(id: number) {
  return useQuery({ ...numberQuery(id), enabled: id > 0 });
}

/** The business's installs for the pickers. */
export { useInstallOptions as useInstallPicks } from '../../../lib/pickers.ts';

export function useSearchNumbers() {
  return useMutation({
    mutationFn: async (body: TNumberSearch) =>
      (await api<Data<TAvailableNumber[]>>('/v1/installs/search-phonenumber', { method: 'POST', body })).data,
  });
}

export function usePurchaseNumber() {
  return useMutation({
    mutationFn: (input: { installId: number; phone_number: string }) =>
      api<MessageData<TNumber>>(`/v1/installs/${input.installId}/purchase-phonenumber`, {
        method: 'POST',
        body: { phone_number: input.phone_number },
      }),
    onSuccess: () => {
      invalidateNumbers();
      invalidateInstalls();
    },
  });
}

export function useCreateNumber() {
  return useMutation({
    mutationFn: (body: TNumberCreate) => api<MessageData<TNumber>>(NUMBERS_PATH, { method: 'POST', body }),
    onSuccess: invalidateNumbers,
  });
}

export function useUpdateNumber(id: number) {
  return useMutation({
    mutationFn: (body: TNumberUpdate) =>
      api<MessageData<TNumber>>(`${NUMBERS_PATH}/${id}`, { method: 'PUT', body }),
    onSuccess: () => {
      invalidateNumbers();
      invalidateInstalls();
    },
  });
}

export function useReleaseNumber() {
  return useMutation({
    mutationFn: (id: number) => api<{ success: true }>(`${NUMBERS_PATH}/${id}`, { method: 'DELETE' }),
    onSettled: () => {
      invalidateNumbers();
      invalidateInstalls();
    },
  });
}

export function useStartVerification() {
  return useMutation({
    mutationFn: async (phone_number: string) =>
      (
        await api<MessageData<CallerIdVerification>>('/v1/installs/verify-phone-number', {
          method: 'POST',
          body: { phone_number },
        })
      ).data,
    onSuccess: invalidateNumbers,
  });
}

/** Asks the carrier every few seconds whether the number is verified, while `enabled`. */
export function useCallerIdCheck(phone: string, enabled: boolean) {
  return useQuery({
    queryKey: keys.numbers.callerId(phone),
    queryFn: async () =>
      (
        await api<Data<CallerIdVerification>>('/v1/installs/check-caller-id', {
          method: 'POST',
          body: { phone_number: phone },
          silent: true,
        })
      ).data,
    enabled,
    refetchInterval: (q) => (q.state.data?.verified ? false : 3000),
  });
}

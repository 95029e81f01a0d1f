import type {
  TBroadcast,
  TBroadcaster,
  TBroadcasterRequest,
  TBroadcasterUpdate,
  TBroadcastRequest,
  TBroadcastTestRequest,
  TMessageCredit,
  TMessageCreditRequest,
} from '@stn/contracts/broadcasts';
import { LIST_MAX_PAGE_SIZE } from '@stn/contracts/constants';
import type { TNumber } from '@stn/contracts/telephony';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { keys } from '../../../lib/query-keys.ts';
import { resourceCalls } from '../../../lib/resource-api.ts';

// The broadcasts calls (spec 001 "Tasks, tags, broadcasts"): /v1/broadcasts list, get, create, update,
// delete, message-credit, test, {id}/stop, {id}/rerun; /v1/broadcasters list, create, update, delete. The
// pickers the form needs (tags, SMS templates, the business's numbers, its time zone) are read here too:
// a feature does not import another feature.

export const BROADCASTS_PATH = '/v1/broadcasts';
export const BROADCASTERS_PATH = '/v1/broadcasters';

type Data<T> = { success: true; data: T };
type MessageData<T> = { success: true; message: string; data: T };

const broadcasts = resourceCalls<TBroadcast, TBroadcastRequest>({
  path: BROADCASTS_PATH,
  keys: keys.broadcasts,
});

export const useBroadcast = broadcasts.useOne;
/** Save a broadcast: POST a new one (create, duplicate), PUT an existing one (edit). */
export const useSaveBroadcast = broadcasts.useSave;
export const useDeleteBroadcast = broadcasts.useDelete;

/** Stop (nothing more goes out) or rerun (to recipients not yet sent or failed) a broadcast. */
export function useBroadcastAction(action: 'stop' | 'rerun') {
  return useMutation({
    mutationFn: ({ id, include_new }: { id: number; include_new?: boolean }) =>
      api<MessageData<TBroadcast>>(`${BROADCASTS_PATH}/${id}/${action}`, {
        method: 'POST',
        body: action === 'rerun' ? { include_new: include_new ?? false } : {},
      }),
    onSettled: () => broadcasts.invalidate(),
  });
}

/**
 * The audience's recipient count and the message's credits (POST message-credit), asked again whenever
 * the (debounced) input changes; the last answer stays shown while the next is on its way.
 */
export function useMessageCredit(input: TMessageCreditRequest, enabled: boolean) {
  return useQuery({
    queryKey: keys.broadcasts.credit(input),
    queryFn: async ({ signal }) =>
      (
        await api<Data<TMessageCredit>>(`${BROADCASTS_PATH}/message-credit`, {
          method: 'POST',
          body: input,
          silent: true,
          signal,
        })
      ).data,
    enabled,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useSendTest() {
  return useMutation({
    mutationFn: (body: TBroadcastTestRequest) =>
      api<{ success: true; message: string }>(`${BROADCASTS_PATH}/test`, { method: 'POST', body }),
  });
}

// ---------------------------------------------------------------- broadcasters

const broadcasters = resourceCalls<TBroadcaster, TBroadcasterRequest, TBroadcasterUpdate>({
  path: BROADCASTERS_PATH,
  keys: keys.broadcasters,
});

export const useCreateBroadcaster = broadcasters.useCreate;
export const useDeleteBroadcaster = broadcasters.useDelete;

/** Edit a broadcaster given with the call (the list edits rows in place: active, kind, rate). */
export function useUpdateBroadcaster() {
  return useMutation({
    mutationFn: ({ id, ...body }: TBroadcasterUpdate & { id: number }) =>
      api<MessageData<TBroadcaster>>(`${BROADCASTERS_PATH}/${id}`, { method: 'PUT', body }),
    onSettled: () => broadcasters.invalidate(),
  });
}

/** Every broadcaster of the business (the form's sending numbers, the settings screen). */
export function useBroadcasters() {
  return useQuery({
    queryKey: keys.broadcasters.list(),
    queryFn: async () =>
      (
        await api<{ data: TBroadcaster[] }>(BROADCASTERS_PATH, {
          query: { perPage: LIST_MAX_PAGE_SIZE },
          silent: true,
        })
      ).data,
  });
}

// ---------------------------------------------------------------- pickers (tags and SMS templates: lib/pickers.ts)

/** The business's phone numbers (GET /v1/numbers, first 100): the ones a broadcaster may be made of. */
export function useBusinessNumbers() {
  return useQuery({
    queryKey: [...keys.numbers.list(), 'broadcasters'],
    queryFn: async () =>
      (
        await api<{ data: TNumber[] }>('/v1/numbers', {
          query: { perPage: LIST_MAX_PAGE_SIZE },
          silent: true,
        })
      ).data,
  });
}

/** The server's time zone of a business that has not set one (businesses' `businessTimeZone`). */
export const DEFAULT_TIME_ZONE = 'America/New_York';

/**
 * The business's time zone for a new broadcast. Every broadcast answers it (`time_zone`), so the newest
 * one is asked first; a business without broadcasts yet is read (GET /v1/businesses/info, which only its
 * admins may read); else the server's default.
 */
export function useBusinessTimeZone(): string {
  const newest = useQuery({
    queryKey: [...keys.broadcasts.lists(), 'time-zone'],
    queryFn: async () =>
      (await api<{ data: TBroadcast[] }>(BROADCASTS_PATH, { query: { perPage: 1 }, silent: true })).data[0]
        ?.time_zone ?? null,
    staleTime: 5 * 60_000,
  });
  const info = useQuery({
    queryKey: [...keys.businesses.own(), 'time-zone'],
    queryFn: async () =>
      (await api<{ data: { settings?: Record<string, unknown> } }>('/v1/businesses/info', { silent: true }))
        .data,
    enabled: newest.isSuccess && !newest.data,
    retry: false,
    staleTime: 5 * 60_000,
  });
  const zone = newest.data ?? info.data?.settings?.timezone;
  return typeof zone === 'string' && zone ? zone : DEFAULT_TIME_ZONE;
}

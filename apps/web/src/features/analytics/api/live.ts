import type { TLiveData } from '@stn/contracts/live';
import { PRESENCE_WINDOW_SECONDS } from '@stn/contracts/presence';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { keys } from '../../../lib/query-keys.ts';

// The live view (GET /v1/live-data, ADR 083): calls ringing and in progress, visitors with the widget open.
// The realtime `live_data` message invalidates keys.liveData.all (lib/realtime.ts), so it refetches as
// calls move and visitors come; a visitor whose tab vanished without a goodbye only drops out when the
// window passes, so the query also refreshes itself once per window.

export const LIVE_DATA_PATH = '/v1/live-data';

export const liveDataQuery = () =>
  queryOptions({
    queryKey: keys.liveData.all,
    queryFn: async () => (await api<{ data: TLiveData }>(LIVE_DATA_PATH, { silent: true })).data,
  });

export function useLiveData() {
  return useQuery({ ...liveDataQuery(), refetchInterval: PRESENCE_WINDOW_SECONDS * 1000 });
}

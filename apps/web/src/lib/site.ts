import type { TSiteData } from '@stn/contracts/site';
import { useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';

export const siteQuery = {
  queryKey: ['site-data', window.location.host],
  queryFn: async () =>
    (
      await api<{ data: TSiteData }>(`/v1/settings/site-data/${encodeURIComponent(window.location.host)}`, {
        silent: true,
      })
    ).data,
  staleTime: Number.POSITIVE_INFINITY,
};

export function useSite() {
  return useQuery(siteQuery);
}

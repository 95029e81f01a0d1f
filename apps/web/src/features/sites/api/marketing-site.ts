import type { TAgency } from '@stn/contracts/agencies';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';

// The main agency's external marketing site (issue 23, ADR 077): where '/' on the main domain goes. It is
// one of the main agency's settings (PUT /v1/agencies/{id}/settings); site data carries it.

export function useSaveMarketingSite(mainAgencyId: number) {
  return useMutation({
    mutationFn: (body: { marketingUrl: string | null; custom_script: string | null }) =>
      api<{ success: true; message: string; data: TAgency }>(`/v1/agencies/${mainAgencyId}/settings`, {
        method: 'PUT',
        body,
      }),
    onSuccess: (res) => {
      queryClient.setQueryData(keys.agencies.detail(mainAgencyId), res.data);
      void queryClient.invalidateQueries({ queryKey: keys.siteData.all });
    },
  });
}

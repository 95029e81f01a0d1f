import type { TPlan } from '@stn/contracts/businesses';
import { useQuery } from '@tanstack/react-query';
import { api } from '../lib/api-client.ts';
import { keys } from '../lib/query-keys.ts';

/** Every plan of an agency, unpaged, as select options (the popup's and the business form's plan pickers). */
export function usePlanOptions(agencyId: number) {
  const plans = useQuery({
    queryKey: keys.plans.everything(agencyId),
    queryFn: async () =>
      (await api<{ data: TPlan[] }>(`/v1/agencies/${agencyId}/subscription/plans/all`, { silent: true }))
        .data,
    enabled: agencyId > 0,
  });
  return (plans.data ?? []).map((p) => ({ value: String(p.id), label: p.name }));
}

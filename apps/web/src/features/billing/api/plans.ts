import type { TPlan, TPlanRequest } from '@stn/contracts/businesses';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';

// The agency's subscription plans (spec 001 §7 "Agencies": /v1/agencies/{agency_id}/subscription/plans).

export const plansPath = (agencyId: number) => `/v1/agencies/${agencyId}/subscription/plans`;

type Data<T> = { success: true; data: T };
type Message = { success: true; message: string };
type MessageData<T> = Message & { data: T };

function invalidatePlans() {
  void queryClient.invalidateQueries({ queryKey: keys.plans.all });
}

export const planQuery = (agencyId: number, id: number) =>
  queryOptions({
    queryKey: keys.plans.detail(agencyId, id),
    queryFn: async () => (await api<Data<TPlan>>(`${plansPath(agencyId)}/${id}`, { silent: true })).data,
  });

export function usePlan(agencyId: number, id: number) {
  return useQuery({ ...planQuery(agencyId, id), enabled: agencyId > 0 && id > 0 });
}

export function useSavePlan(agencyId: number, id?: number) {
  return useMutation({
    mutationFn: (body: TPlanRequest) =>
      id
        ? api<MessageData<TPlan>>(`${plansPath(agencyId)}/${id}`, { method: 'PUT', body })
        : api<MessageData<TPlan>>(plansPath(agencyId), { method: 'POST', body }),
    onSuccess: (res) => {
      queryClient.setQueryData(keys.plans.detail(agencyId, res.data.id), res.data);
      invalidatePlans();
    },
  });
}

export function useDeletePlan(agencyId: number) {
  return useMutation({
    mutationFn: (id: number) => api<Message>(`${plansPath(agencyId)}/${id}`, { method: 'DELETE' }),
    onSuccess: invalidatePlans,
  });
}

import type { TCoupon, TCouponRequest } from '@stn/contracts/subscriptions';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';
import type { Data, MessageData } from '../../../lib/resource-api.ts';

// An agency's coupon codes on its own Stripe account (ADR 076: an agency on the Stripe sandbox has no
// Stripe dashboard to make them in): /v1/agencies/{agency_id}/subscription/coupons.

export const couponsPath = (agencyId: number) => `/v1/agencies/${agencyId}/subscription/coupons`;

const refreshCoupons = () => void queryClient.invalidateQueries({ queryKey: keys.coupons.all });

export function useCoupons(agencyId: number) {
  return useQuery({
    queryKey: keys.coupons.list(agencyId),
    queryFn: async () => (await api<Data<TCoupon[]>>(couponsPath(agencyId), { silent: true })).data,
    enabled: agencyId > 0,
  });
}

export function useCreateCoupon(agencyId: number) {
  return useMutation({
    mutationFn: (body: TCouponRequest) =>
      api<MessageData<TCoupon>>(couponsPath(agencyId), { method: 'POST', body }),
    onSuccess: refreshCoupons,
  });
}

/** Switches a code off: Stripe keeps it (its row stays, marked Off). */
export function useEndCoupon(agencyId: number) {
  return useMutation({
    mutationFn: (code: string) =>
      api<MessageData<TCoupon>>(`${couponsPath(agencyId)}/${encodeURIComponent(code)}`, {
        method: 'DELETE',
      }),
    onSuccess: (res) => {
      queryClient.setQueryData<TCoupon[]>(keys.coupons.list(agencyId), (list) =>
        list?.map((c) => (c.code === res.data.code ? res.data : c)),
      );
      refreshCoupons();
    },
  });
}

import type { TOrderPlans, TProductData, TRegisterResponse } from '@stn/contracts/orders';
import type { TCouponInfo } from '@stn/contracts/subscriptions';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';

// The order pages' calls (issue 22): public, for the seller of the site the page is on.

export const host = () => window.location.host;

/** What the site sells `buyer` (the main domain sells agencies on /trial and businesses on /business/register). */
export function useOrderPlans(buyer: OrderKind) {
  return useQuery({
    queryKey: ['order-page', 'plans', host(), buyer],
    queryFn: async () =>
      (
        await api<{ data: TOrderPlans }>('/v1/order-page/plans', {
          query: { domain: host(), buyer },
          silent: true,
        })
      ).data,
  });
}

export function useProductData(slug: string) {
  return useQuery({
    queryKey: ['product-data', host(), slug],
    queryFn: async () =>
      (
        await api<{ data: TProductData }>(`/v1/settings/product-data/${encodeURIComponent(slug)}`, {
          query: { domain: host() },
          silent: true,
        })
      ).data,
    retry: false,
  });
}

/** The setup intent of the site's seller, for the card form (POST /v1/subscriptions/secret/{domain}). */

export async function couponInfo(code: string, planId: number | null) {
  return (
    await api<{ data: TCouponInfo }>(`/v1/discounts/${encodeURIComponent(code)}`, {
      query: { domain: host(), plan_id: planId ?? undefined },
      silent: true,
    })
  ).data;
}

export type OrderKind = 'agency' | 'business';

export async function register(kind: OrderKind, body: Record<string, unknown>, slug?: string) {
  const path = slug
    ? '/v1/register/from-product'
    : kind === 'agency'
      ? '/v1/register/agency'
      : '/v1/business/order';
  return api<TRegisterResponse>(path, {
    method: 'POST',
    body: slug ? { slug, ...body } : body,
    silent: true,
  });
}

export async function buyOrderBump(packageId: number) {
  return api('/v1/register/order-bump', { method: 'POST', body: { package_id: packageId }, silent: true });
}

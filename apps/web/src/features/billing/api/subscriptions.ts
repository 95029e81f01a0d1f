import type { TPackage } from '@stn/contracts/businesses';
import type { TUser } from '@stn/contracts/profile';
import type {
  TCouponInfo,
  TInvoice,
  TPackagePurchase,
  TPaymentMethod,
  TPlanOffer,
  TSubscribeRequest,
  TSubscriptionState,
} from '@stn/contracts/subscriptions';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { auth } from '../../../lib/auth-store.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';
import type { Data } from '../../../lib/resource-api.ts';
import { loadProfile } from '../../../lib/session.ts';
import { sameUser } from './same-user.ts';

// Billing on Stripe (ADR 076 "The calls"): the account's subscription, the plans it can buy, its cards,
// invoices, the card form's setup intent, and the business's packages. Every change refreshes the whole
// billing cache; an answer carrying the caller's user replaces the stored one (spec 001 §7), so the guards
// and the top bar see the new state at once.

const S = '/v1/subscriptions';

/** The answer of subscribe, cancel, resume, coupon/apply and unlimited-plan. */
type Change = { success: true; message?: string; data: TSubscriptionState; user?: unknown };
/** The answer of purchase-package and order-bump. */
type Purchase = { success: true; message?: string; data: TPackagePurchase; user?: unknown };
type BusinessPackages = { packages: TPackage[]; purchases: TPackagePurchase[] };

/** Spec §4: a returned user that is the stored user replaces it. */
export function replaceStoredUser(user: unknown): void {
  if (sameUser(auth.get().user, user)) auth.setUser(user as TUser);
}

const refreshBilling = () => void queryClient.invalidateQueries({ queryKey: keys.subscriptions.all });

/** A card call answers no user: the profile is read again (has_payment_method; a past-due account paid). */
const refreshProfile = () => void loadProfile().catch(() => undefined);

function changed(res: Change) {
  queryClient.setQueryData(keys.subscriptions.current(), res.data);
  refreshBilling();
  replaceStoredUser(res.user);
}

// ------------------------------------------------------------------------------------------- reads

export function useSubscriptionState(enabled = true) {
  return useQuery({
    queryKey: keys.subscriptions.current(),
    enabled,
    queryFn: async () => (await api<Data<TSubscriptionState>>(`${S}/current`, { silent: true })).data,
  });
}

/** What the account can buy: every plan, or one period's (GET /type/{period}/plans). */
export function usePlanOffers(period: 'all' | TPlanOffer['interval']) {
  return useQuery({
    queryKey: keys.subscriptions.offers(period),
    queryFn: async () =>
      (
        await api<Data<TPlanOffer[]>>(period === 'all' ? `${S}/plans` : `${S}/type/${period}/plans`, {
          silent: true,
        })
      ).data,
  });
}

export function usePaymentMethods() {
  return useQuery({
    queryKey: keys.subscriptions.paymentMethods(),
    queryFn: async () => (await api<Data<TPaymentMethod[]>>(`${S}/payment-methods`, { silent: true })).data,
  });
}

export function useInvoices() {
  return useQuery({
    queryKey: keys.subscriptions.invoices(),
    queryFn: async () => (await api<Data<TInvoice[]>>(`${S}/invoices`, { silent: true })).data,
  });
}

export function useBusinessPackages() {
  return useQuery({
    queryKey: keys.businessPackages.all,
    queryFn: async () =>
      (await api<Data<BusinessPackages>>('/v1/businesses/packages', { silent: true })).data,
  });
}

// ----------------------------------------------------------------------------------------- changes

/** Subscribe or change plan (prorated); a card named here is attached and made the default first. */
export function useSubscribe() {
  return useMutation({
    mutationFn: (body: TSubscribeRequest) => api<Change>(`${S}/subscribe`, { method: 'POST', body }),
    onSuccess: changed,
  });
}

export function useCancelSubscription() {
  return useMutation({
    mutationFn: (userId: number) => api<Change>(`${S}/${userId}/cancel`, { method: 'POST' }),
    onSuccess: changed,
  });
}

export function useResumeSubscription() {
  return useMutation({
    mutationFn: (userId: number) => api<Change>(`${S}/${userId}/resume`, { method: 'POST' }),
    onSuccess: changed,
  });
}

/** A coupon on the live subscription. */
export function useApplyCoupon() {
  return useMutation({
    mutationFn: (code: string) => api<Change>(`${S}/coupon/apply`, { method: 'POST', body: { code } }),
    onSuccess: changed,
  });
}

/** Move to the seller's unlimited plan of a period. */
export function useUnlimitedPlan() {
  return useMutation({
    mutationFn: (planType: TPlanOffer['interval']) =>
      api<Change>(`${S}/unlimited-plan`, { method: 'POST', body: { planType } }),
    onSuccess: changed,
  });
}

/** What a coupon takes off (of a plan when named). Silent: the coupon field shows an unknown code. */
export function useCouponInfo() {
  return useMutation({
    mutationFn: async (body: { code: string; plan_id?: number }) =>
      (await api<Data<TCouponInfo>>(`${S}/coupon-info`, { method: 'POST', body, silent: true })).data,
  });
}

function cardsChanged(cards: TPaymentMethod[]) {
  queryClient.setQueryData(keys.subscriptions.paymentMethods(), cards);
  refreshBilling();
  refreshProfile();
}

/** Saves the card a confirmed setup intent made (the first card becomes the default). */
export function useAddPaymentMethod() {
  return useMutation({
    mutationFn: async (paymentMethod: string) =>
      (await api<Data<TPaymentMethod[]>>(`${S}/payment-methods`, { method: 'POST', body: { paymentMethod } }))
        .data,
    onSuccess: cardsChanged,
  });
}

/** Makes a card the default; while past due that pays the open invoice. */
export function useMakeDefaultCard() {
  return useMutation({
    mutationFn: async (id: string) =>
      (
        await api<Data<TPaymentMethod[]>>(`${S}/payment-methods/${encodeURIComponent(id)}`, {
          method: 'POST',
        })
      ).data,
    onSuccess: cardsChanged,
  });
}

export function useDeleteCard() {
  return useMutation({
    mutationFn: async (id: string) =>
      (
        await api<Data<TPaymentMethod[]>>(`${S}/payment-methods/${encodeURIComponent(id)}`, {
          method: 'DELETE',
        })
      ).data,
    onSuccess: cardsChanged,
  });
}

/** Buys a package once with the default card; its quantity raises the business's cap at once. */
export function usePurchasePackage() {
  return useMutation({
    mutationFn: (packageId: number) =>
      api<Purchase>('/v1/businesses/purchase-package', { method: 'POST', body: { package_id: packageId } }),
    onSuccess: (res) => {
      replaceStoredUser(res.user);
      void queryClient.invalidateQueries({ queryKey: keys.businessPackages.all });
      refreshBilling();
    },
  });
}

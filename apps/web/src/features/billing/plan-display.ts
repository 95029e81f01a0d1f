import type { TPlanFeatures } from '@stn/contracts/businesses';
import type { TCouponInfo, TPlanOffer, TSubscriptionState } from '@stn/contracts/subscriptions';

// What a plan card and the current-subscription card show, as data: the features a buyer compares, the
// price a coupon leaves, the status badge.

const COUNTS = ['Users', 'Installs', 'Automations', 'Messages', 'Calls'] as const;
const SWITCHES = ['RemoveBranding', 'Zapier', 'Department', 'AiIntegration'] as const;
/** Caps where 0 means no cap at all (ADR 076 "the unlimited plan"). */
const ZERO_IS_UNLIMITED = new Set<string>(['Messages', 'Calls']);

export type FeatureRow =
  | { key: (typeof COUNTS)[number]; kind: 'count'; value: number }
  | { key: (typeof COUNTS)[number]; kind: 'unlimited' }
  | { key: (typeof SWITCHES)[number]; kind: 'switch'; value: boolean };

/** The plan's features in the order a card lists them: the caps, then what it includes or not. */
export function featureRows(features: TPlanFeatures): FeatureRow[] {
  return [
    ...COUNTS.map((key): FeatureRow => {
      const value = features[key];
      return ZERO_IS_UNLIMITED.has(key) && value === 0
        ? { key, kind: 'unlimited' }
        : { key, kind: 'count', value };
    }),
    ...SWITCHES.map((key): FeatureRow => ({ key, kind: 'switch', value: features[key] })),
  ];
}

/**
 * A price after a coupon: the server's figure when it priced this very plan, else the coupon's percent or
 * amount off (never below 0).
 */
export function priceAfterCoupon(priceCents: number, coupon: TCouponInfo): number {
  if (coupon.discounted_cents !== null && coupon.price_cents === priceCents) return coupon.discounted_cents;
  if (coupon.percent_off !== null)
    return Math.max(0, Math.round((priceCents * (100 - coupon.percent_off)) / 100));
  if (coupon.amount_off_cents !== null) return Math.max(0, priceCents - coupon.amount_off_cents);
  return priceCents;
}

export type StatusBadge = { key: string; color: string; date?: string | null };

/** The subscription's badge: its locale key under billing.status, a colour, the date it names. */
export function statusBadge(state: TSubscriptionState): StatusBadge {
  switch (state.status) {
    case 'trialing':
      return { key: 'trialing', color: 'yellow', date: state.trial_end };
    case 'active':
      return state.cancel_at_period_end
        ? { key: 'cancels_on', color: 'orange', date: state.current_period_end }
        : { key: 'active', color: 'green' };
    case 'past_due':
      return { key: 'past_due', color: 'red' };
    case 'unpaid':
      return { key: 'unpaid', color: 'red' };
    case 'incomplete':
      return { key: 'incomplete', color: 'orange' };
    case 'canceled':
      return { key: 'canceled', color: 'gray' };
    default:
      return { key: 'none', color: 'gray' };
  }
}

/** Whether the account owes money Stripe could not take: the screen offers Pay now. */
export function needsPayment(state: TSubscriptionState): boolean {
  return ['past_due', 'unpaid', 'incomplete'].includes(state.status);
}

/** A subscription that can be canceled, changed or resumed (not none, not canceled). */
export function isLive(state: TSubscriptionState): boolean {
  return state.status !== 'none' && state.status !== 'canceled';
}

/** The period the plans list starts on: the current plan's, else monthly. */
export function startPeriod(state: TSubscriptionState | undefined): TPlanOffer['interval'] {
  return state?.plan?.interval ?? 'month';
}

import { ZPlanFeatures } from '@stn/contracts/businesses';
import type { TCouponInfo, TSubscriptionState } from '@stn/contracts/subscriptions';
import { describe, expect, it } from 'vitest';
import { featureRows, needsPayment, priceAfterCoupon, statusBadge } from './plan-display.ts';

describe('featureRows', () => {
  it('lists the caps, 0 messages or calls as unlimited, then the included switches', () => {
    const rows = featureRows(
      ZPlanFeatures.parse({ Users: 3, Installs: 2, Automations: 0, Messages: 0, Calls: 0, Zapier: true }),
    );
    expect(rows).toEqual([
      { key: 'Users', kind: 'count', value: 3 },
      { key: 'Installs', kind: 'count', value: 2 },
      { key: 'Automations', kind: 'count', value: 0 },
      { key: 'Messages', kind: 'unlimited' },
      { key: 'Calls', kind: 'unlimited' },
      { key: 'RemoveBranding', kind: 'switch', value: false },
      { key: 'Zapier', kind: 'switch', value: true },
      { key: 'Department', kind: 'switch', value: false },
      { key: 'AiIntegration', kind: 'switch', value: false },
    ]);
  });
  it('shows a set cap as its number', () => {
    const rows = featureRows(ZPlanFeatures.parse({ Messages: 500, Calls: 20 }));
    expect(rows.find((r) => r.key === 'Messages')).toEqual({ key: 'Messages', kind: 'count', value: 500 });
  });
});

const coupon = (c: Partial<TCouponInfo>): TCouponInfo => ({
  code: 'SAVE',
  name: null,
  percent_off: null,
  amount_off_cents: null,
  duration: 'once',
  duration_in_months: null,
  price_cents: null,
  discounted_cents: null,
  ...c,
});

describe('priceAfterCoupon', () => {
  it('takes a percent or an amount off, never below 0', () => {
    expect(priceAfterCoupon(4900, coupon({ percent_off: 20 }))).toBe(3920);
    expect(priceAfterCoupon(4999, coupon({ percent_off: 50 }))).toBe(2500);
    expect(priceAfterCoupon(4900, coupon({ amount_off_cents: 1000 }))).toBe(3900);
    expect(priceAfterCoupon(500, coupon({ amount_off_cents: 1000 }))).toBe(0);
    expect(priceAfterCoupon(500, coupon({}))).toBe(500);
  });
  it("prefers the server's figure for the plan it priced", () => {
    const c = coupon({ percent_off: 20, price_cents: 4900, discounted_cents: 3919 });
    expect(priceAfterCoupon(4900, c)).toBe(3919);
    expect(priceAfterCoupon(9900, c)).toBe(7920);
  });
});

const state = (s: Partial<TSubscriptionState>): TSubscriptionState => ({
  status: 'none',
  plan: null,
  current_period_end: null,
  trial_end: null,
  cancel_at_period_end: false,
  coupon: null,
  last_error: null,
  can_buy: true,
  has_payment_method: false,
  ...s,
});

describe('statusBadge', () => {
  it('names the trial with its end, a cancel at period end with its date, past due in red', () => {
    expect(statusBadge(state({ status: 'trialing', trial_end: '2026-12-01T00:00:00Z' }))).toEqual({
      key: 'trialing',
      color: 'yellow',
      date: '2026-12-01T00:00:00Z',
    });
    expect(
      statusBadge(state({ status: 'active', cancel_at_period_end: true, current_period_end: '2027-01-01' })),
    ).toEqual({ key: 'cancels_on', color: 'orange', date: '2027-01-01' });
    expect(statusBadge(state({ status: 'active' }))).toEqual({ key: 'active', color: 'green' });
    expect(statusBadge(state({ status: 'past_due' })).color).toBe('red');
    expect(statusBadge(state({ status: 'canceled' })).key).toBe('canceled');
    expect(statusBadge(state({})).key).toBe('none');
  });
  it('asks for payment while past due, unpaid or incomplete', () => {
    expect(needsPayment(state({ status: 'past_due' }))).toBe(true);
    expect(needsPayment(state({ status: 'active' }))).toBe(false);
  });
});

import type { TPaymentMethod } from '@stn/contracts/subscriptions';

/** 'Visa •••• 4242' (Stripe's brand names are lower case: 'visa', 'mastercard', 'amex'). */
export function cardLabel(card: Pick<TPaymentMethod, 'brand' | 'last4'>): string {
  const brand = card.brand ? card.brand.charAt(0).toUpperCase() + card.brand.slice(1) : '';
  return `${brand} •••• ${card.last4}`.trim();
}

/** '08/29'. */
export function cardExpiry(card: Pick<TPaymentMethod, 'exp_month' | 'exp_year'>): string {
  return `${String(card.exp_month).padStart(2, '0')}/${String(card.exp_year % 100).padStart(2, '0')}`;
}

import crypto from 'node:crypto';
import { cardError, type StripeApiError } from './errors.ts';

// Stripe's test cards and what each does when it is set up (setup intent), attached, or charged.

/** How a card behaves. */
export type CardBehaviour =
  | 'ok'
  /** Declined everywhere (0002: generic_decline; 9995: insufficient_funds). */
  | 'decline'
  | 'insufficient'
  /** 3155: a setup needs authentication; once set up, off-session charges succeed. */
  | 'authenticate'
  /** 0341: attaches fine, every charge fails. */
  | 'charge_fails';

const SPECIAL: Record<string, CardBehaviour> = {
  '4000000000000002': 'decline',
  '4000000000009995': 'insufficient',
  '4000002500003155': 'authenticate',
  '4000000000000341': 'charge_fails',
};

/** The test payment method ids real Stripe test mode accepts wherever a payment method id goes. */
export const TEST_PAYMENT_METHODS: Record<string, string> = {
  pm_card_visa: '4242424242424242',
  pm_card_mastercard: '5555555555554444',
  pm_card_amex: '378282246310005',
  pm_card_chargeDeclined: '4000000000000002',
  pm_card_chargeDeclinedInsufficientFunds: '4000000000009995',
  pm_card_authenticationRequired: '4000002500003155',
  pm_card_chargeCustomerFail: '4000000000000341',
};

export type RawCard = { number: string; exp_month: number; exp_year: number; cvc?: string };

export type CardDetails = {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  fingerprint: string;
  behaviour: CardBehaviour;
};

export function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let d = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function brandOf(number: string): string {
  if (number.startsWith('4')) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  if (number.startsWith('5')) return 'mastercard';
  if (number.startsWith('3')) return 'amex';
  if (number.startsWith('6')) return 'discover';
  return 'unknown';
}

export const behaviourOf = (number: string): CardBehaviour => SPECIAL[number] ?? 'ok';

/**
 * Checks a raw card as Stripe does when it is collected: a number failing Luhn, a past expiry or a bad cvc
 * is a 402 card_error. `nowSec` is the account's clock.
 */
export function checkRawCard(card: RawCard, nowSec: number): CardDetails {
  const number = String(card.number ?? '').replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !luhn(number))
    throw cardError('incorrect_number', 'Your card number is incorrect.', undefined, 'number');
  const month = Number(card.exp_month);
  let year = Number(card.exp_year);
  if (year < 100) year += 2000;
  if (!Number.isInteger(month) || month < 1 || month > 12)
    throw cardError(
      'invalid_expiry_month',
      "Your card's expiration month is invalid.",
      undefined,
      'exp_month',
    );
  if (!Number.isInteger(year))
    throw cardError('invalid_expiry_year', "Your card's expiration year is invalid.");
  const now = new Date(nowSec * 1000);
  const nowYm = now.getUTCFullYear() * 12 + now.getUTCMonth();
  if (year * 12 + (month - 1) < nowYm)
    throw cardError('expired_card', 'Your card has expired.', 'expired_card');
  if (card.cvc !== undefined && !/^\d{3,4}$/.test(String(card.cvc)))
    throw cardError('invalid_cvc', "Your card's security code is invalid.", 'incorrect_cvc', 'cvc');
  return {
    brand: brandOf(number),
    last4: number.slice(-4),
    exp_month: month,
    exp_year: year,
    fingerprint: crypto.createHash('sha256').update(number).digest('base64url').slice(0, 16),
    behaviour: behaviourOf(number),
  };
}

/** The card of a test payment method id (pm_card_visa…), valid until the year after the account's clock. */
export function testCard(token: string, nowSec: number): CardDetails | null {
  const number = TEST_PAYMENT_METHODS[token];
  if (!number) return null;
  return checkRawCard(
    { number, exp_month: 12, exp_year: new Date(nowSec * 1000).getUTCFullYear() + 3, cvc: '123' },
    nowSec,
  );
}

export const declined = (): StripeApiError =>
  cardError('card_declined', 'Your card was declined.', 'generic_decline');
export const insufficientFunds = (): StripeApiError =>
  cardError('card_declined', 'Your card has insufficient funds.', 'insufficient_funds');
export const authenticationRequired = (): StripeApiError =>
  cardError(
    'authentication_required',
    'Your card was declined. This transaction requires authentication.',
    'authentication_required',
  );

/** The decline (if any) of setting up or attaching a card of this behaviour. */
export function setupDecline(b: CardBehaviour): StripeApiError | null {
  if (b === 'decline') return declined();
  if (b === 'insufficient') return insufficientFunds();
  return null;
}

/** The decline (if any) of charging a card; `authenticated`: a 3155 card that went through a setup. */
export function chargeDecline(b: CardBehaviour, authenticated: boolean): StripeApiError | null {
  if (b === 'decline' || b === 'charge_fails') return declined();
  if (b === 'insufficient') return insufficientFunds();
  if (b === 'authenticate' && !authenticated) return authenticationRequired();
  return null;
}

import { describe, expect, it } from 'vitest';
import { cardExpiry, cardLabel } from './card-label.ts';
import { formatMoney } from './money.ts';

describe('card labels', () => {
  it('names the brand and the last four digits, and the expiry as MM/YY', () => {
    expect(cardLabel({ brand: 'visa', last4: '4242' })).toBe('Visa •••• 4242');
    expect(cardExpiry({ exp_month: 8, exp_year: 2029 })).toBe('08/29');
  });
  it("formats money in the offer's currency", () => {
    expect(formatMoney(4900, 'usd', 'en')).toBe('$49.00');
    expect(formatMoney(4900, 'eur', 'en')).toBe('€49.00');
    expect(formatMoney(4900, '', 'en')).toBe('$49.00');
  });
});

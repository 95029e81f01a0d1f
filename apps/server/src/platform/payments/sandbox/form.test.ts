import { describe, expect, it } from 'vitest';
import { luhn } from './cards.ts';
import { parseForm } from './form.ts';

describe('Stripe sandbox form parser', () => {
  it('parses bracket notation into nested objects and arrays', () => {
    const p = parseForm(
      'customer=cus_1&items[0][price]=price_a&items[1][price]=price_b&items[1][quantity]=2&expand[0]=latest_invoice&metadata[plan]=pro%20plan&discounts[0][coupon]=X',
    );
    expect(p).toEqual({
      customer: 'cus_1',
      items: [{ price: 'price_a' }, { price: 'price_b', quantity: '2' }],
      expand: ['latest_invoice'],
      metadata: { plan: 'pro plan' },
      discounts: [{ coupon: 'X' }],
    });
  });

  it('appends empty indices, keeps empty values and orders numeric indices', () => {
    expect(parseForm('expand[]=a&expand[]=b&discounts=&x[10]=k&x[2]=j')).toEqual({
      expand: ['a', 'b'],
      discounts: '',
      x: ['j', 'k'],
    });
    expect(parseForm('a+b=c+d')).toEqual({ 'a b': 'c d' });
    expect(parseForm('bad=%E0%A4%A')).toEqual({ bad: '%E0%A4%A' });
  });

  it('checks Luhn', () => {
    expect(luhn('4242424242424242')).toBe(true);
    expect(luhn('4242424242424241')).toBe(false);
  });
});

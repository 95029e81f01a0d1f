import { describe, expect, it } from 'vitest';
import {
  cardOf,
  cardProblems,
  formatCardNumber,
  formatExpiry,
  luhnValid,
  parseExpiry,
  setupIntentId,
} from './card-model.ts';

describe('setupIntentId', () => {
  it('is the client secret before _secret_', () => {
    expect(setupIntentId('seti_1AbC_secret_xyz')).toBe('seti_1AbC');
    expect(setupIntentId('seti_plain')).toBe('seti_plain');
  });
});

describe('formatCardNumber', () => {
  it('groups digits by four and drops anything else', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4000-0000 00')).toBe('4000 0000 00');
    expect(formatCardNumber('4242 ')).toBe('4242');
    expect(formatCardNumber('12345678901234567890123')).toBe('1234 5678 9012 3456 789');
  });
});

describe('formatExpiry', () => {
  it('puts the slash after the month as the user types', () => {
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('12')).toBe('12');
    expect(formatExpiry('123')).toBe('12/3');
    expect(formatExpiry('1234')).toBe('12/34');
    expect(formatExpiry('12/345')).toBe('12/34');
  });
  it('pads a month that can only be one digit', () => {
    expect(formatExpiry('4')).toBe('04');
    expect(formatExpiry('3/')).toBe('03/');
    expect(formatExpiry('1/28')).toBe('01/28');
  });
  it('keeps a typed slash, and lets it be deleted', () => {
    expect(formatExpiry('12/')).toBe('12/');
    expect(formatExpiry('12')).toBe('12');
  });
});

describe('parseExpiry', () => {
  it('reads MM/YY and MM/YYYY', () => {
    expect(parseExpiry('12/34')).toEqual({ exp_month: 12, exp_year: 2034 });
    expect(parseExpiry('1/2030')).toEqual({ exp_month: 1, exp_year: 2030 });
  });
  it('refuses what is not a month and year', () => {
    expect(parseExpiry('13/30')).toBeNull();
    expect(parseExpiry('00/30')).toBeNull();
    expect(parseExpiry('1230')).toBeNull();
    expect(parseExpiry('')).toBeNull();
  });
});

describe('cardProblems', () => {
  const now = new Date(2026, 10, 15); // November 2026
  const good = { number: '4242 4242 4242 4242', expiry: '11/26', cvc: '123' };
  it('accepts a test card that has not expired', () => {
    expect(luhnValid('4000000000000002')).toBe(true);
    expect(cardProblems(good, now)).toEqual({});
  });
  it('names each field that is missing or wrong', () => {
    expect(cardProblems({ number: '', expiry: '', cvc: '' }, now)).toEqual({
      number: 'number_required',
      expiry: 'expiry_required',
      cvc: 'cvc_required',
    });
    expect(cardProblems({ number: '4242 4242 4242 4241', expiry: '10/26', cvc: '12' }, now)).toEqual({
      number: 'number_invalid',
      expiry: 'expiry_past',
      cvc: 'cvc_invalid',
    });
    expect(cardProblems({ ...good, expiry: '99/99' }, now)).toEqual({ expiry: 'expiry_invalid' });
  });
});

describe('cardOf', () => {
  it("is Stripe's card fields", () => {
    expect(cardOf({ number: '4242 4242 4242 4242', expiry: '08/29', cvc: ' 314 ' })).toEqual({
      number: '4242424242424242',
      exp_month: 8,
      exp_year: 2029,
      cvc: '314',
    });
  });
});

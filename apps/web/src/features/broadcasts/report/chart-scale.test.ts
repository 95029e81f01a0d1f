import { describe, expect, it } from 'vitest';
import { niceMax, ticks } from './chart-scale.ts';

describe('the deliveries chart scale', () => {
  it('rounds the top up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 1, 2, 3, 7, 10, 11, 180, 2001].map(niceMax)).toEqual([1, 1, 2, 5, 10, 10, 20, 200, 5000]);
  });
  it('draws the half only when it is a whole number of messages', () => {
    expect(ticks(5)).toEqual([0, 5]);
    expect(ticks(1)).toEqual([0, 1]);
    expect(ticks(20)).toEqual([0, 10, 20]);
  });
});

import { describe, expect, it } from 'vitest';
import { isOpenAt, type THours, WEEKDAYS } from './installs.ts';

const every = (from: string, to: string) =>
  Object.fromEntries(WEEKDAYS.map((d) => [d, { open: true, from, to }])) as THours;

describe('isOpenAt', () => {
  it("an install open 12:00AM-11:59PM is open in the day's last minute (11:59PM means until midnight)", () => {
    const hours = every('12:00AM', '11:59PM');
    expect(isOpenAt({ hours, timezone: 'UTC' }, new Date('2026-11-29T23:59:30Z'))).toBe(true);
    expect(isOpenAt({ hours, timezone: 'UTC' }, new Date('2026-11-30T00:00:00Z'))).toBe(true);
  });

  it('other closing times still close at their minute', () => {
    const hours = every('09:00AM', '05:00PM');
    expect(isOpenAt({ hours, timezone: 'UTC' }, new Date('2026-11-30T16:59:59Z'))).toBe(true);
    expect(isOpenAt({ hours, timezone: 'UTC' }, new Date('2026-11-30T17:00:00Z'))).toBe(false);
    expect(isOpenAt({ hours, timezone: 'UTC' }, new Date('2026-11-30T08:59:00Z'))).toBe(false);
  });

  it('10:00PM-11:58PM closes at 11:58PM in the install zone', () => {
    const hours = every('10:00PM', '11:58PM');
    const tz = 'America/New_York';
    expect(isOpenAt({ hours, timezone: tz }, new Date('2026-12-01T04:57:00Z'))).toBe(true);
    expect(isOpenAt({ hours, timezone: tz }, new Date('2026-12-01T04:58:00Z'))).toBe(false);
  });
});

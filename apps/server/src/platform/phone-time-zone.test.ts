// The time zone of a phone (quiet hours of broadcasts): NANP area codes by their zone, other countries by
// their main zone, nothing for what cannot be told.
import { describe, expect, it } from 'vitest';
import { timeZoneOfPhone } from './phone-time-zone.ts';

describe('timeZoneOfPhone', () => {
  it.each([
    ['+12125550100', 'America/New_York'],
    ['+13125550100', 'America/Chicago'],
    ['+13035550100', 'America/Denver'],
    ['+16025550100', 'America/Phoenix'],
    ['+14155550100', 'America/Los_Angeles'],
    ['+18085550100', 'Pacific/Honolulu'],
    ['+19075550100', 'America/Anchorage'],
    ['+14165550100', 'America/Toronto'],
    ['+16045550100', 'America/Vancouver'],
    ['+15145550100', 'America/Toronto'],
    ['+17095550100', 'America/St_Johns'],
    ['+13135550100', 'America/Detroit'],
    ['+13175550100', 'America/Indiana/Indianapolis'],
    ['+19155550100', 'America/Denver'],
    ['+17875550100', 'America/Puerto_Rico'],
  ])('a NANP area code: %s is in %s', (phone, zone) => {
    expect(timeZoneOfPhone(phone)).toBe(zone);
  });

  it.each([
    ['+442079460000', 'Europe/London'],
    ['+34912345678', 'Europe/Madrid'],
    ['+5511987654321', 'America/Sao_Paulo'],
    ['+18765550100', 'America/Jamaica'],
    ['+61291234567', 'Australia/Sydney'],
    ['+79161234567', 'Europe/Moscow'],
    ['+525512345678', 'America/Mexico_City'],
  ])('another country: %s is in its main zone %s', (phone, zone) => {
    expect(timeZoneOfPhone(phone)).toBe(zone);
  });

  it('gives only zones the runtime knows, for every area code', () => {
    const zones = new Set<string>();
    for (let area = 200; area <= 999; area++) {
      const zone = timeZoneOfPhone(`+1${area}5550100`);
      if (zone) zones.add(zone);
    }
    for (const zone of zones)
      expect(() => new Intl.DateTimeFormat('en', { timeZone: zone }), zone).not.toThrow();
    expect(zones.size).toBeGreaterThan(20);
  });

  it('tells nothing of what is not a phone', () => {
    // An area code not assigned (or not in the table yet): unknown, not some zone of a continent.
    expect(timeZoneOfPhone('+12005550100')).toBeNull();
    for (const bad of ['', '2125550100', '+0123456789', 'not a phone', '+999123456789'])
      expect(timeZoneOfPhone(bad), bad).toBeNull();
  });

  it('names only zones the runtime knows, and the offsets quiet hours rely on', () => {
    const zone = timeZoneOfPhone('+16025550100') ?? '';
    // Phoenix keeps standard time all year; Denver does not.
    const hour = (z: string, iso: string) =>
      Number(
        new Intl.DateTimeFormat('en-US', { timeZone: z, hour: 'numeric', hourCycle: 'h23' }).format(
          new Date(iso),
        ),
      );
    expect(hour(zone, '2026-07-01T15:00:00Z')).toBe(8);
    expect(hour(timeZoneOfPhone('+13035550100') ?? '', '2026-07-01T15:00:00Z')).toBe(9);
  });
});

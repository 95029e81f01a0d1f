import { describe, expect, it } from 'vitest';
import { isoToZoned, zonedToIso } from './zoned-time.ts';

describe('a wall-clock time in a named zone', () => {
  it('is the instant it names there, in winter and summer', () => {
    expect(zonedToIso('2026-01-15', '09:00', 'America/New_York')).toBe('2026-01-15T14:00:00.000Z');
    expect(zonedToIso('2026-07-15', '09:00', 'America/New_York')).toBe('2026-07-15T13:00:00.000Z');
    expect(zonedToIso('2026-07-15', '09:00', 'Asia/Kolkata')).toBe('2026-07-15T03:30:00.000Z');
    expect(zonedToIso('2026-07-15', '09:00', 'UTC')).toBe('2026-07-15T09:00:00.000Z');
  });

  it('reads back as the same date and time', () => {
    for (const zone of ['America/Los_Angeles', 'Europe/Madrid', 'America/Sao_Paulo', 'Pacific/Auckland']) {
      const iso = zonedToIso('2026-03-29', '23:45', zone);
      expect(iso && isoToZoned(iso, zone)).toEqual({ date: '2026-03-29', time: '23:45' });
    }
  });

  it('answers null for what is not a date or a time', () => {
    expect(zonedToIso('', '09:00', 'UTC')).toBeNull();
    expect(zonedToIso('2026-01-15', '9am', 'UTC')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { paramsWith, presetOf, presetRange, rangeFromParams } from './range.ts';

// 2026-03-10, mid-morning local time.
const now = new Date(2026, 2, 10, 9, 30);

describe('dashboard range', () => {
  it('presets count both ends and follow the local calendar', () => {
    expect(presetRange('last_7', now)).toEqual({ from: '2026-03-04', to: '2026-03-10' });
    expect(presetRange('last_30', now)).toEqual({ from: '2026-02-09', to: '2026-03-10' });
    expect(presetRange('this_month', now)).toEqual({ from: '2026-03-01', to: '2026-03-10' });
    expect(presetRange('last_month', now)).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(presetRange('last_month', new Date(2026, 0, 5))).toEqual({ from: '2025-12-01', to: '2025-12-31' });
  });

  it('knows which preset a range is', () => {
    expect(presetOf({ from: '2026-03-01', to: '2026-03-10' }, now)).toBe('this_month');
    expect(presetOf({ from: '2026-03-02', to: '2026-03-10' }, now)).toBeNull();
  });

  it('reads the address, the last 30 days when it names no range', () => {
    expect(rangeFromParams(new URLSearchParams(''), 'installs', now)).toEqual({
      from: '2026-02-09',
      to: '2026-03-10',
      ids: [],
    });
    expect(
      rangeFromParams(new URLSearchParams('from=2026-01-01&to=2025-12-01&installs=3,x,3,4'), 'installs', now),
    ).toEqual({ from: '2026-01-01', to: '2025-12-01', ids: [3, 4] });
    expect(rangeFromParams(new URLSearchParams('from=yesterday'), 'installs', now).from).toBe('2026-02-09');
  });

  it('writes the address, keeping other params and dropping an empty filter', () => {
    const p = paramsWith(new URLSearchParams('tab=x&installs=2'), 'installs', {
      from: '2026-01-01',
      to: '2026-01-31',
      ids: [],
    });
    expect(p.toString()).toBe('tab=x&from=2026-01-01&to=2026-01-31');
    expect(paramsWith(p, 'installs', { ids: [5, 6] }).get('installs')).toBe('5,6');
  });
});

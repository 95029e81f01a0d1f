// The calls screens' pure helpers: durations, times to connect, the legs' order, the filters' query and the
// schedule form's instant (node, no browser).
import type { TCallDetail } from '@stn/contracts/telephony';
import { ZCallListQuery, ZScheduleCallInput } from '@stn/contracts/telephony';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { keys } from '../../lib/query-keys.ts';
import {
  callFilterQuery,
  callMilestones,
  claimingLeg,
  dateRange,
  formatConnectTime,
  formatSeconds,
  legTimeline,
  localInstant,
  NO_FILTERS,
  offsetFrom,
  todayLocal,
} from './call-format.ts';

type Leg = TCallDetail['legs'][number];
const leg = (p: Partial<Leg>): Leg => ({
  call_sid: 'CA1',
  role: 'staff',
  to: '+15005550001',
  status: 'ringing',
  answered_by: null,
  digits: null,
  updated_at: '2026-11-23T10:00:00.000Z',
  ...p,
});

describe('durations', () => {
  it('writes seconds as m:ss or h:mm:ss, N/A when there are none', () => {
    expect(formatSeconds(0)).toBe('0:00');
    expect(formatSeconds(42)).toBe('0:42');
    expect(formatSeconds(65)).toBe('1:05');
    expect(formatSeconds(3723)).toBe('1:02:03');
    expect(formatSeconds(null)).toBe('N/A');
    expect(formatSeconds(undefined)).toBe('N/A');
    expect(formatSeconds(-1)).toBe('N/A');
  });

  it('writes a time to connect in seconds with one decimal under a minute', () => {
    expect(formatConnectTime(9.44)).toBe('9.4 s');
    expect(formatConnectTime(14)).toBe('14 s');
    expect(formatConnectTime(75)).toBe('1:15');
    expect(formatConnectTime(null)).toBe('N/A');
  });

  it('places a leg in seconds after the request', () => {
    expect(offsetFrom('2026-11-23T10:00:00.000Z', '2026-11-23T10:00:03.240Z')).toBe('+3.2 s');
    expect(offsetFrom('2026-11-23T10:00:00.000Z', '2026-11-23T10:01:30.000Z')).toBe('+1:30');
    expect(offsetFrom('2026-11-23T10:00:00.000Z', 'not a date')).toBe('N/A');
  });
});

describe('legs', () => {
  it('orders legs by their last change, staff before the visitor on a tie', () => {
    const legs = [
      leg({ call_sid: 'V', role: 'visitor', updated_at: '2026-11-23T10:00:05.000Z' }),
      leg({ call_sid: 'S2', updated_at: '2026-11-23T10:00:05.000Z' }),
      leg({ call_sid: 'S1', updated_at: '2026-11-23T10:00:01.000Z' }),
    ];
    expect(legTimeline(legs).map((l) => l.call_sid)).toEqual(['S1', 'S2', 'V']);
    // The input is not reordered in place (it is the query's cached data).
    expect(legs.map((l) => l.call_sid)).toEqual(['V', 'S2', 'S1']);
  });

  it('finds the staff leg that claimed the call: the one that pressed, on the agent phone', () => {
    const legs = [
      leg({ call_sid: 'S1', to: '+15005550001', status: 'canceled' }),
      leg({ call_sid: 'S2', to: '+15005550002', digits: '1', status: 'completed' }),
      leg({ call_sid: 'V', role: 'visitor', to: '+15005550009', status: 'completed' }),
    ];
    expect(claimingLeg({ legs, agent_phone: '+15005550002' })?.call_sid).toBe('S2');
    expect(claimingLeg({ legs, agent_phone: null })).toBeNull();
  });
});

describe('filters', () => {
  it('sends only the chosen filters, and a query the contract accepts', () => {
    expect(callFilterQuery(NO_FILTERS)).toEqual({
      outcome: undefined,
      kind: undefined,
      install_id: undefined,
      from: undefined,
      to: undefined,
    });
    const q = callFilterQuery({
      outcome: 'missed',
      kind: 'callback',
      installId: '7',
      from: '2026-11-01',
      to: '',
    });
    expect(q).toEqual({
      outcome: 'missed',
      kind: 'callback',
      install_id: 7,
      from: '2026-11-01',
      to: undefined,
    });
    expect(ZCallListQuery.safeParse(q).success).toBe(true);
  });

  it('reads a backwards date range the other way round and drops half-typed dates', () => {
    expect(dateRange('2026-11-20', '2026-11-01')).toEqual(['2026-11-01', '2026-11-20']);
    expect(dateRange('2026-11', '2026-11-30')).toEqual([undefined, '2026-11-30']);
  });
});

describe('the schedule form', () => {
  it('writes the typed wall clock with the browser zone offset, which the contract accepts', () => {
    const at = localInstant('2026-12-01', '15:30');
    expect(at).toMatch(/^2026-12-01T15:30:00[+-]\d{2}:\d{2}$/);
    // The same instant as the wall clock in this zone.
    expect(Date.parse(at ?? '')).toBe(new Date(2026, 11, 1, 15, 30).getTime());
    expect(
      ZScheduleCallInput.safeParse({ install_id: 1, phone: '+12133734253', scheduled_at: at }).success,
    ).toBe(true);
  });

  it('refuses dates that do not exist and missing parts', () => {
    expect(localInstant('2026-02-31', '10:00')).toBeNull();
    expect(localInstant('2026-12-01', '')).toBeNull();
    expect(localInstant('', '10:00')).toBeNull();
    expect(localInstant('2026-12-01', '25:00')).toBeNull();
  });

  it('knows today in the browser zone', () => {
    expect(todayLocal(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
});

describe('query keys of the calls resources', () => {
  async function reaches(by: readonly unknown[], key: readonly unknown[]): Promise<boolean> {
    const client = new QueryClient();
    client.setQueryData(key, 1);
    await client.invalidateQueries({ queryKey: by });
    return client.getQueryState(key)?.isInvalidated ?? false;
  }

  it('a change to calls refreshes the calls list, a call and the scheduled calls; not voice records', async () => {
    const page = { page: 1, perPage: '10', keyword: '' };
    expect(await reaches(keys.calls.all, [...keys.calls.list(), page])).toBe(true);
    expect(await reaches(keys.calls.all, keys.calls.detail(3))).toBe(true);
    expect(await reaches(keys.calls.all, [...keys.scheduledCalls.list(), page])).toBe(true);
    expect(await reaches(keys.calls.all, keys.voiceRecords.list())).toBe(false);
    expect(await reaches(keys.scheduledCalls.all, keys.calls.detail(3))).toBe(false);
  });
});

describe('milestones', () => {
  it('lists the moments a call reached, in order, and skips the ones it did not', () => {
    const base = {
      requested_at: '2026-11-23T10:00:00Z',
      scheduled_for: null,
      claimed_at: '2026-11-23T10:00:04Z',
      connected_at: '2026-11-23T10:00:07Z',
      ended_at: '2026-11-23T10:01:00Z',
    };
    expect(callMilestones(base).map((m) => m.key)).toEqual(['requested', 'claimed', 'connected', 'ended']);
    expect(callMilestones({ ...base, claimed_at: null, connected_at: null }).map((m) => m.key)).toEqual([
      'requested',
      'ended',
    ]);
  });
});

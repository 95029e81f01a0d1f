// Pure helpers of the calls screens (no DOM, no i18n): durations, outcome colours, the legs' timeline,
// the filters' query and the schedule form's instant. Tested in call-format.test.ts.

import { EMPTY_DATE } from '@stn/contracts/format';
import type { TCallDetail, TCallOutcome } from '@stn/contracts/telephony';

/** Seconds as m:ss or h:mm:ss (a call's duration, a time to connect); 'N/A' when there is none. */
export function formatSeconds(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value) || value < 0) return EMPTY_DATE;
  const total = Math.round(value);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/**
 * A time to connect, which the product promises in seconds (14 s): under a minute it reads "9.4 s", one
 * decimal, so the difference between 3 and 13 seconds is visible; longer ones read like durations.
 */
export function formatConnectTime(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value) || value < 0) return EMPTY_DATE;
  if (value < 60) return `${Math.round(value * 10) / 10} s`;
  return formatSeconds(value);
}

const OUTCOME_COLORS: Record<TCallOutcome, string> = {
  in_progress: 'blue',
  completed: 'green',
  missed: 'red',
  no_answer: 'orange',
  scheduled: 'grape',
  canceled: 'gray',
  failed: 'red',
};
export const outcomeColor = (outcome: TCallOutcome) => OUTCOME_COLORS[outcome];

type Leg = TCallDetail['legs'][number];

/** The legs in the order they last changed (oldest first), the staff legs before the visitor's on a tie. */
export function legTimeline(legs: readonly Leg[]): Leg[] {
  const rank = { staff: 0, visitor: 1, missed_message: 2 } as const;
  return [...legs].sort((a, b) => {
    const byTime = Date.parse(a.updated_at) - Date.parse(b.updated_at);
    return byTime !== 0 && Number.isFinite(byTime) ? byTime : rank[a.role] - rank[b.role];
  });
}

/** The staff leg that claimed the call (pressed the key), when one did. */
export function claimingLeg(call: Pick<TCallDetail, 'legs' | 'agent_phone'>): Leg | null {
  const staff = call.legs.filter((l) => l.role === 'staff');
  return (
    staff.find((l) => l.digits !== null && l.to === call.agent_phone) ??
    staff.find((l) => l.to === call.agent_phone && call.agent_phone !== null) ??
    null
  );
}

export type CallFilters = {
  outcome: string | null;
  kind: string | null;
  installId: string | null;
  from: string;
  to: string;
};

export const NO_FILTERS: CallFilters = { outcome: null, kind: null, installId: null, from: '', to: '' };

/**
 * The list call's query parameters for the filters (ZCallListQuery): empty ones left out; a range given
 * backwards (to before from) is read the other way round rather than answering nothing.
 */
export function callFilterQuery(f: CallFilters): Record<string, string | number | undefined> {
  const [from, to] = dateRange(f.from, f.to);
  return {
    outcome: f.outcome || undefined,
    kind: f.kind || undefined,
    install_id: f.installId ? Number(f.installId) : undefined,
    from,
    to,
  };
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A date range of YYYY-MM-DD strings, each optional, in order. */
export function dateRange(from: string, to: string): [string | undefined, string | undefined] {
  const a = ISO_DATE.test(from) ? from : undefined;
  const b = ISO_DATE.test(to) ? to : undefined;
  if (a && b && a > b) return [b, a];
  return [a, b];
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The instant a person means by a date (YYYY-MM-DD) and a time (HH:mm) typed in the browser: that wall
 * clock in the browser's own zone, written as ISO 8601 with its offset (what ZScheduleCallInput takes),
 * e.g. '2026-11-24T15:30:00-05:00'. Null when either part is missing or not a real date.
 */
export function localInstant(date: string, time: string): string | null {
  if (!ISO_DATE.test(date) || !/^\d{2}:\d{2}$/.test(time)) return null;
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const [h, mi] = time.split(':').map(Number) as [number, number];
  const at = new Date(y, mo - 1, d, h, mi, 0, 0);
  // new Date rolls 31 February over into March: such a date is not the one typed.
  if (at.getFullYear() !== y || at.getMonth() !== mo - 1 || at.getDate() !== d || at.getHours() !== h)
    return null;
  const offset = -at.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  return `${date}T${pad(h)}:${pad(mi)}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** Today as YYYY-MM-DD in the browser's zone (the schedule form's earliest date). */
export function todayLocal(now: Date = new Date()): string {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** "+3.2 s" from the request to a leg's last change: the timeline reads in seconds, as the promise does. */
export function offsetFrom(start: string, at: string): string {
  const ms = Date.parse(at) - Date.parse(start);
  if (!Number.isFinite(ms)) return EMPTY_DATE;
  const s = Math.max(0, ms) / 1000;
  return s < 60 ? `+${Math.round(s * 10) / 10} s` : `+${formatSeconds(s)}`;
}

export type MilestoneKey = 'requested' | 'scheduled_for' | 'claimed' | 'connected' | 'ended';

/** The moments a call went through, in order, each with its time: the detail's timeline. */
export function callMilestones(
  call: Pick<TCallDetail, 'requested_at' | 'scheduled_for' | 'claimed_at' | 'connected_at' | 'ended_at'>,
): { key: MilestoneKey; at: string }[] {
  const all: [MilestoneKey, string | null][] = [
    ['requested', call.requested_at],
    ['scheduled_for', call.scheduled_for],
    ['claimed', call.claimed_at],
    ['connected', call.connected_at],
    ['ended', call.ended_at],
  ];
  return all.filter((m): m is [MilestoneKey, string] => Boolean(m[1])).map(([key, at]) => ({ key, at }));
}

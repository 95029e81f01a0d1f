// Local times for the blocks that act at a time of day (ADR 068): ProcessBetween's window, and any block
// that waits for "the next HH:MM in a zone" (SendVoiceMail). Intl only; a DST shift is corrected once.
import { localParts } from '@stn/contracts/installs';

const WEEKDAY_INDEX: Record<string, number> = {
  sunday: 0,
  monday: 1,
  tuesday: 2,
  wednesday: 3,
  thursday: 4,
  friday: 5,
  saturday: 6,
};

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** A zone Intl knows, else UTC. */
export function safeZone(zone: string | null | undefined): string {
  if (!zone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}

/** The instant `dayOffset` local days after `now`'s local day, at local minute `minute` (DST corrected). */
function localInstant(now: Date, zone: string, dayOffset: number, minute: number): Date {
  const here = localParts(now, zone);
  const startOfMinute = Math.floor(now.getTime() / 60_000) * 60_000;
  let at = startOfMinute + (dayOffset * 1440 + minute - here.minutes) * 60_000;
  const got = localParts(new Date(at), zone).minutes;
  if (got !== minute) {
    let diff = minute - got;
    if (diff > 720) diff -= 1440;
    if (diff < -720) diff += 1440;
    at += diff * 60_000;
  }
  return new Date(at);
}

/**
 * When a window from–to (HH:MM) on `days` (0 Sunday … 6 Saturday) in `zone` is next open: `now` itself
 * when it is open now, else the next opening.
 */
export function nextOpening(now: Date, w: { from: string; to: string; days: number[] }, zone: string): Date {
  const z = safeZone(zone);
  const here = localParts(now, z);
  const today = WEEKDAY_INDEX[here.weekday] ?? 0;
  const from = minutesOf(w.from);
  const to = minutesOf(w.to);
  for (let d = 0; d <= 7; d++) {
    if (!w.days.includes((today + d) % 7)) continue;
    if (d === 0) {
      if (here.minutes >= from && here.minutes < to) return now;
      if (here.minutes >= to) continue;
    }
    return localInstant(now, z, d, from);
  }
  return now;
}

/** The next time it is `at` (HH:MM) in `zone` after `now` (now itself when it is that minute). */
export function nextLocalTime(now: Date, at: string, zone: string): Date {
  const z = safeZone(zone);
  const minute = minutesOf(at);
  const here = localParts(now, z);
  if (here.minutes === minute) return now;
  return localInstant(now, z, here.minutes < minute ? 0 : 1, minute);
}

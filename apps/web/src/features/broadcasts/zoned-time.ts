// A wall-clock date and time in a named time zone <-> an instant, with Intl only (no date library in the
// web bundle, ADR 060): a broadcast is scheduled "at 09:00 in the business's time zone", whatever the
// browser's zone is.

/** The zone's offset from UTC at `at`, in minutes (New York in winter: -300). */
export function zoneOffsetMinutes(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return Math.round((wall - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

/**
 * `date` (YYYY-MM-DD) at `time` (HH:mm) in `timeZone` as an ISO instant (UTC), or null when either is not
 * a date or time. A time skipped by a clock change resolves to the instant an hour later.
 */
export function zonedToIso(date: string, time: string, timeZone: string): string | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) return null;
  const wall = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(t[1]), Number(t[2]));
  if (Number.isNaN(wall)) return null;
  // The offset at the guess, then at the corrected instant (right on both sides of a clock change).
  let at = wall - zoneOffsetMinutes(new Date(wall), timeZone) * 60_000;
  at = wall - zoneOffsetMinutes(new Date(at), timeZone) * 60_000;
  return new Date(at).toISOString();
}

/** An instant as the date (YYYY-MM-DD) and time (HH:mm) it is in `timeZone`. */
export function isoToZoned(iso: string, timeZone: string): { date: string; time: string } {
  const at = new Date(iso);
  const wall = new Date(at.getTime() + zoneOffsetMinutes(at, timeZone) * 60_000).toISOString();
  return { date: wall.slice(0, 10), time: wall.slice(11, 16) };
}

/** An instant for people: the date and time it is in `timeZone`, in `language`. */
export function formatInZone(iso: string, timeZone: string, language: string): string {
  return new Intl.DateTimeFormat(language === 'br' ? 'pt-BR' : language, {
    timeZone,
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(iso));
}

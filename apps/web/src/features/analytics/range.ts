// The dashboards' range of local days, kept in the address (?from=&to=&installs=1,2) so a reload or a shared
// link shows the same figures. Days are YYYY-MM-DD in the browser's own calendar: "today" is the user's.

export type Range = { from: string; to: string };
export const PRESETS = ['last_7', 'last_30', 'this_month', 'last_month'] as const;
export type Preset = (typeof PRESETS)[number];

const pad = (n: number) => String(n).padStart(2, '0');
/** A date's local day as YYYY-MM-DD. */
export const dayOf = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

const addDays = (d: Date, n: number) => new Date(d.getFullYear(), d.getMonth(), d.getDate() + n);

/** The range a preset names, as of `now`. */
export function presetRange(preset: Preset, now: Date = new Date()): Range {
  const today = dayOf(now);
  switch (preset) {
    case 'last_7':
      return { from: dayOf(addDays(now, -6)), to: today };
    case 'last_30':
      return { from: dayOf(addDays(now, -29)), to: today };
    case 'this_month':
      return { from: dayOf(new Date(now.getFullYear(), now.getMonth(), 1)), to: today };
    case 'last_month':
      return {
        from: dayOf(new Date(now.getFullYear(), now.getMonth() - 1, 1)),
        to: dayOf(new Date(now.getFullYear(), now.getMonth(), 0)),
      };
  }
}

/** The preset a range is, if any (the control shows it as chosen). */
export function presetOf(range: Range, now: Date = new Date()): Preset | null {
  return (
    PRESETS.find((p) => {
      const r = presetRange(p, now);
      return r.from === range.from && r.to === range.to;
    }) ?? null
  );
}

const looksLikeDay = (v: string | null): v is string => v !== null && /^\d{4}-\d{2}-\d{2}$/.test(v);

/**
 * The range and ids the address asks for; the last 30 days when it names none. A malformed date falls back
 * to the default; a well-formed but impossible range (end before start) is kept, and the server says why.
 */
export function rangeFromParams(params: URLSearchParams, idsParam: string, now: Date = new Date()) {
  const fallback = presetRange('last_30', now);
  const from = params.get('from');
  const to = params.get('to');
  const ids = (params.get(idsParam) ?? '')
    .split(',')
    .map((v) => Number(v))
    .filter((n) => Number.isInteger(n) && n > 0);
  return {
    from: looksLikeDay(from) ? from : fallback.from,
    to: looksLikeDay(to) ? to : fallback.to,
    ids: [...new Set(ids)],
  };
}

/** The address's search params for a range and ids (other params kept). */
export function paramsWith(
  params: URLSearchParams,
  idsParam: string,
  next: { from?: string; to?: string; ids?: number[] },
): URLSearchParams {
  const out = new URLSearchParams(params);
  if (next.from !== undefined) out.set('from', next.from);
  if (next.to !== undefined) out.set('to', next.to);
  if (next.ids !== undefined) {
    if (next.ids.length > 0) out.set(idsParam, next.ids.join(','));
    else out.delete(idsParam);
  }
  return out;
}

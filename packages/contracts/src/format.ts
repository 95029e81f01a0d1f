import { TEXT_PRUNE_LENGTH, type TLanguage } from './constants.ts';

// The display formats of spec 000 §9, shared by the web app's screens and the server's messages.

/** What a date that is not there (or not a date) shows. */
export const EMPTY_DATE = 'N/A';

/**
 * The spec's date formats (moment tokens): short `h:mma MM/DD`, long `h:mma MMMM DD, YYYY`, date
 * `MM-DD YYYY`, birthday `MMM Do`.
 */
export type TDateFormat = 'short' | 'long' | 'date' | 'birthday';

/** The BCP 47 locale of each language, for Intl (plurals, month names): 'br' is Brazilian Portuguese. */
export const INTL_LOCALES: Record<TLanguage, string> = { en: 'en-US', es: 'es', br: 'pt-BR' };
const pad = (n: number) => String(n).padStart(2, '0');

function toDate(value: Date | string | number | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** 'Do': 1st, 2nd, 3rd, 4th, 11th, 22nd in English; 1º, 2º in Spanish and Portuguese. */
function ordinal(day: number, lang: TLanguage): string {
  if (lang !== 'en') return `${day}º`;
  const tens = day % 100;
  if (tens >= 11 && tens <= 13) return `${day}th`;
  return `${day}${['th', 'st', 'nd', 'rd'][day % 10] ?? 'th'}`;
}

/** `h:mma`: 3:05pm, 12:00am. */
function time(d: Date): string {
  const h = d.getHours();
  return `${h % 12 === 0 ? 12 : h % 12}:${pad(d.getMinutes())}${h < 12 ? 'am' : 'pm'}`;
}

const monthName = (d: Date, lang: TLanguage, month: 'long' | 'short') =>
  new Intl.DateTimeFormat(INTL_LOCALES[lang], { month }).format(d);

/** A date or time in one of the spec's formats, in the viewer's time zone; 'N/A' when empty. */
export function formatDate(
  value: Date | string | number | null | undefined,
  format: TDateFormat = 'date',
  lang: TLanguage = 'en',
): string {
  const d = toDate(value);
  if (!d) return EMPTY_DATE;
  const mm = pad(d.getMonth() + 1);
  const dd = pad(d.getDate());
  switch (format) {
    case 'short':
      return `${time(d)} ${mm}/${dd}`;
    case 'long':
      return `${time(d)} ${monthName(d, lang, 'long')} ${dd}, ${d.getFullYear()}`;
    case 'birthday':
      return `${monthName(d, lang, 'short')} ${ordinal(d.getDate(), lang)}`;
    default:
      return `${mm}-${dd} ${d.getFullYear()}`;
  }
}

const SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;

/** A file size in the spec's units: Bytes to YB, base 1024, at most 2 decimals ('1.5 KB', '0 Bytes'). */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const i = Math.min(SIZE_UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  return `${Number.parseFloat((bytes / 1024 ** i).toFixed(2))} ${SIZE_UNITS[i]}`;
}

/**
 * A long text cut for a list (spec 000 §9: prune at 38 characters): whole words where the cut allows it,
 * then '…'. A text of `length` characters or less is returned as it is.
 */
export function pruneText(text: string, length: number = TEXT_PRUNE_LENGTH): string {
  if (text.length <= length) return text;
  const head = text.slice(0, length);
  if (/\s/.test(text.charAt(length))) return `${head.trimEnd()}…`;
  const space = head.search(/\s\S*$/);
  return `${(space > length / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}

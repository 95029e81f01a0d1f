// The one place screens format dates and file sizes (spec 000 §9): the formats live in the contracts,
// shared with the server's messages; the date here takes the app's current language.
import { formatDate as format, type TDateFormat } from '@stn/contracts/format';
import { isLanguage } from '@stn/contracts/language';
import { i18next } from './i18n.ts';

export { EMPTY_DATE, formatSize, type TDateFormat } from '@stn/contracts/format';

/** A date in the spec's `kind` (short, long, date, birthday) in the current language; 'N/A' when empty. */
export function formatDate(
  value: Date | string | number | null | undefined,
  kind: TDateFormat = 'date',
): string {
  const lang = i18next.language;
  return format(value, kind, isLanguage(lang) ? lang : 'en');
}

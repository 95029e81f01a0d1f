import { isLanguage } from '@stn/contracts/language';
import type { TLandingTextKey, TLandingTexts } from '@stn/contracts/site';

// An agency's own landing texts (issue 23): each replaces one text of the landing locale files, in one
// language; a text the agency left out shows the default.

export { LANDING_TEXT_DEFAULTS } from './landing-text-defaults.ts';

/** The agency's text for a key in a language (the app's codes are the contracts' en, es, br), if it set one. */
export function agencyLandingText(
  texts: TLandingTexts | undefined,
  lang: string,
  key: TLandingTextKey,
): string | undefined {
  const code = isLanguage(lang) ? lang : lang.toLowerCase().startsWith('pt') ? 'br' : undefined;
  const text = code ? texts?.[code]?.[key]?.trim() : undefined;
  return text || undefined;
}

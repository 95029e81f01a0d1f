// The languages themselves, without any text: which codes exist, the one a browser asks for, the plural
// rule, how message files merge. Kept apart from i18n.ts (which holds every message in every language) so that the web app's first
// load can pick its language without carrying all three catalogues (ADR 060).
import { DEFAULT_LANGUAGE, LANGUAGES, type TLanguage } from './constants.ts';
import { INTL_LOCALES } from './format.ts';

export function isLanguage(value: unknown): value is TLanguage {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Picks a supported language from an Accept-Language header ('pt' maps to 'br'). */
export function languageFromHeader(header: string | undefined): TLanguage {
  if (!header) return DEFAULT_LANGUAGE;
  for (const part of header.split(',')) {
    const tag = part.split(';')[0]?.trim().toLowerCase() ?? '';
    const base = tag.split('-')[0] ?? '';
    if (base === 'pt' || base === 'br') return 'br';
    if (isLanguage(base)) return base;
  }
  return DEFAULT_LANGUAGE;
}

const pluralRules = Object.fromEntries(
  LANGUAGES.map((l) => [l, new Intl.PluralRules(INTL_LOCALES[l])]),
) as Record<TLanguage, Intl.PluralRules>;

/**
 * The plural form of `count`, as i18next names its keys (`key_one`, `key_other`). Our three languages
 * need only these two: CLDR's 'many' (es and pt for a million and more) reads as 'other'.
 */
export function pluralCategory(lang: TLanguage, count: number): 'one' | 'other' {
  return pluralRules[lang].select(count) === 'one' ? 'one' : 'other';
}

/** A tree of messages, as a locale file holds it. */
export type Catalogue = { [key: string]: string | Catalogue };

/** `b`'s messages over `a`'s, subtree by subtree: how a language's locale files become one catalogue. */
export function mergeCatalogues(a: Catalogue, b: Catalogue): Catalogue {
  const out: Catalogue = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const cur = out[k];
    out[k] = typeof v === 'object' && typeof cur === 'object' ? mergeCatalogues(cur, v) : v;
  }
  return out;
}

import br from '../locales/br.json' with { type: 'json' };
import en from '../locales/en.json' with { type: 'json' };
import es from '../locales/es.json' with { type: 'json' };
import { DEFAULT_LANGUAGE, LANGUAGES, type TLanguage } from './constants.ts';

type Catalogue = { [key: string]: string | Catalogue };
const catalogues: Record<TLanguage, Catalogue> = { en, es, br };

function lookup(cat: Catalogue, key: string): string | undefined {
  let node: string | Catalogue | undefined = cat;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

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

/**
 * Translates a message key with `{name}` placeholders, falling back to en and then to the key itself,
 * so that a message that is not a key (a literal text) passes through unchanged.
 */
export function translate(
  key: string,
  lang: TLanguage = DEFAULT_LANGUAGE,
  params: Record<string, string | number> = {},
): string {
  const text = lookup(catalogues[lang], key) ?? lookup(catalogues.en, key) ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export function hasKey(key: string): boolean {
  return lookup(catalogues.en, key) !== undefined;
}

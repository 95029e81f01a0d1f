import agenciesBr from '../locales/agencies.br.json' with { type: 'json' };
import agenciesEn from '../locales/agencies.en.json' with { type: 'json' };
import agenciesEs from '../locales/agencies.es.json' with { type: 'json' };
import br from '../locales/br.json' with { type: 'json' };
import businessesBr from '../locales/businesses.br.json' with { type: 'json' };
import businessesEn from '../locales/businesses.en.json' with { type: 'json' };
import businessesEs from '../locales/businesses.es.json' with { type: 'json' };
import credentialsBr from '../locales/credentials.br.json' with { type: 'json' };
import credentialsEn from '../locales/credentials.en.json' with { type: 'json' };
import credentialsEs from '../locales/credentials.es.json' with { type: 'json' };
import en from '../locales/en.json' with { type: 'json' };
import es from '../locales/es.json' with { type: 'json' };
import usersBr from '../locales/users.br.json' with { type: 'json' };
import usersEn from '../locales/users.en.json' with { type: 'json' };
import usersEs from '../locales/users.es.json' with { type: 'json' };
import { DEFAULT_LANGUAGE, LANGUAGES, type TLanguage } from './constants.ts';

type Catalogue = { [key: string]: string | Catalogue };
// Each domain keeps its messages in its own files (locales/<domain>.<lang>.json), merged here.
export const SERVER_CATALOGUES: Record<TLanguage, Catalogue[]> = {
  en: [en, agenciesEn, businessesEn, usersEn, credentialsEn],
  es: [es, agenciesEs, businessesEs, usersEs, credentialsEs],
  br: [br, agenciesBr, businessesBr, usersBr, credentialsBr],
};

function merge(a: Catalogue, b: Catalogue): Catalogue {
  const out: Catalogue = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const cur = out[k];
    out[k] = typeof v === 'object' && typeof cur === 'object' ? merge(cur, v) : v;
  }
  return out;
}

const catalogues: Record<TLanguage, Catalogue> = {
  en: SERVER_CATALOGUES.en.reduce(merge, {}),
  es: SERVER_CATALOGUES.es.reduce(merge, {}),
  br: SERVER_CATALOGUES.br.reduce(merge, {}),
};

/** The merged message tree of a language (the web app adds its own screens' texts to it). */
export function serverMessages(lang: TLanguage): Catalogue {
  return catalogues[lang];
}

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

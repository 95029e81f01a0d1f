import type { TLanguage } from '@stn/contracts/constants';
import { isLanguage, languageFromHeader, pluralCategory } from '@stn/contracts/language';
import { issueMessageWith } from '@stn/contracts/zod';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { setApiLanguage } from './api-client.ts';
import { local } from './storage-fallback.ts';
import type { Texts } from './texts.ts';

// Each language's texts are a chunk of their own (locales/texts.<lang>.ts): the first load carries only the
// user's language (ADR 060). No fallback language is loaded: every key exists in en, es and br
// (packages/contracts/src/locale-keys.test.ts).
const TEXTS: Record<TLanguage, () => Promise<{ default: Texts }>> = {
  en: () => import('../locales/texts.en.ts'),
  es: () => import('../locales/texts.es.ts'),
  br: () => import('../locales/texts.br.ts'),
};

/** Loads a language's texts into i18next once; later calls answer at once. */
export async function loadLanguage(lang: TLanguage): Promise<void> {
  if (i18next.hasResourceBundle(lang, 'translation')) return;
  i18next.addResourceBundle(lang, 'translation', (await TEXTS[lang]()).default);
}

export const LANG_KEY = 'lang';
const stored = local.getItem(LANG_KEY);

/**
 * The language before anyone chose one (the sign-in pages): the browser's preferred languages, the way
 * the server reads Accept-Language (es* -> es, pt* -> br, else en).
 */
export function browserLanguage(languages: readonly string[] = navigator.languages ?? []): TLanguage {
  return languageFromHeader(languages.join(','));
}

/** The user's choice (stored once chosen or loaded with the profile), else the browser's. */
const initial: TLanguage = isLanguage(stored) ? stored : browserLanguage();

// The server's messages (validation, auth) and the web app's screens; the texts arrive with `i18nReady`.
void i18next.use(initReactI18next).init({
  resources: {},
  lng: initial,
  fallbackLng: 'en',
  // The spec's and the server's placeholders are {name}.
  interpolation: { escapeValue: false, prefix: '{', suffix: '}' },
  returnNull: false,
});
// 'br' is our code for Brazilian Portuguese, but to Intl it is Breton (five plural forms): every language
// takes the contracts' plural rule, the one the server uses, with the one/other keys the locale files have.
const pluralResolver = i18next.services.pluralResolver as { getRule: (code: string) => unknown };
pluralResolver.getRule = (code: string) => ({
  select: (count: number) => pluralCategory(isLanguage(code) ? code : 'en', count),
  resolvedOptions: () => ({ pluralCategories: ['one', 'other'] }),
});
setApiLanguage(i18next.language);
document.documentElement.lang = htmlLang(initial);

/** Settles once the first language's texts are in: main.tsx renders the app after it. */
export const i18nReady: Promise<void> = loadLanguage(initial);

function htmlLang(lang: string): string {
  return lang === 'br' ? 'pt-BR' : lang;
}

/** Switches the language, loading its texts first when they are not in yet. */
export function changeLanguage(lang: string): Promise<unknown> {
  if (isLanguage(lang) && !i18next.hasResourceBundle(lang, 'translation'))
    return loadLanguage(lang).then(() => changeLanguage(lang));
  local.setItem(LANG_KEY, lang);
  setApiLanguage(lang);
  document.documentElement.lang = htmlLang(lang);
  return i18next.changeLanguage(lang);
}

/** A zod issue message from the contracts (a key with params) in the current language. */
export function issueText(message: string, path: readonly PropertyKey[]): string {
  return issueMessageWith(message, path, (key, params) => i18next.t(key, params));
}

export { i18next };

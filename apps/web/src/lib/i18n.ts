import type { TLanguage } from '@stn/contracts/constants';
import { isLanguage, languageFromHeader, pluralCategory, serverMessages } from '@stn/contracts/i18n';
import { issueMessageWith } from '@stn/contracts/zod';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import adminBr from '../locales/admin.br.json';
import adminEn from '../locales/admin.en.json';
import adminEs from '../locales/admin.es.json';
import agencyBr from '../locales/agency.br.json';
import agencyEn from '../locales/agency.en.json';
import agencyEs from '../locales/agency.es.json';
import br from '../locales/br.json';
import businessBr from '../locales/business.br.json';
import businessEn from '../locales/business.en.json';
import businessEs from '../locales/business.es.json';
import contactsBr from '../locales/contacts.br.json';
import contactsEn from '../locales/contacts.en.json';
import contactsEs from '../locales/contacts.es.json';
import en from '../locales/en.json';
import es from '../locales/es.json';
import inboxBr from '../locales/inbox.br.json';
import inboxEn from '../locales/inbox.en.json';
import inboxEs from '../locales/inbox.es.json';
import installsBr from '../locales/installs.br.json';
import installsEn from '../locales/installs.en.json';
import installsEs from '../locales/installs.es.json';
import layoutBr from '../locales/layout.br.json';
import layoutEn from '../locales/layout.en.json';
import layoutEs from '../locales/layout.es.json';
import mediaBr from '../locales/media.br.json';
import mediaEn from '../locales/media.en.json';
import mediaEs from '../locales/media.es.json';
import numbersSetupBr from '../locales/numbers-setup.br.json';
import numbersSetupEn from '../locales/numbers-setup.en.json';
import numbersSetupEs from '../locales/numbers-setup.es.json';
import sandboxBr from '../locales/sandbox.br.json';
import sandboxEn from '../locales/sandbox.en.json';
import sandboxEs from '../locales/sandbox.es.json';
import screensBr from '../locales/screens.br.json';
import screensEn from '../locales/screens.en.json';
import screensEs from '../locales/screens.es.json';
import tasksBr from '../locales/tasks.br.json';
import tasksEn from '../locales/tasks.en.json';
import tasksEs from '../locales/tasks.es.json';
import { setApiLanguage } from './api-client.ts';

type Tree = { [k: string]: string | Tree };
function merge(a: Tree, b: Tree): Tree {
  const out: Tree = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const cur = out[k];
    out[k] = typeof v === 'object' && typeof cur === 'object' ? merge(cur, v) : v;
  }
  return out;
}

export const LANG_KEY = 'lang';
const stored = localStorage.getItem(LANG_KEY);

/**
 * The language before anyone chose one (the sign-in pages): the browser's preferred languages, the way
 * the server reads Accept-Language (es* -> es, pt* -> br, else en).
 */
export function browserLanguage(languages: readonly string[] = navigator.languages ?? []): TLanguage {
  return languageFromHeader(languages.join(','));
}

/** The user's choice (stored once chosen or loaded with the profile), else the browser's. */
const initial: TLanguage = isLanguage(stored) ? stored : browserLanguage();

// One set of texts: the server's messages (validation, auth) and the web app's screens, in en, es and br.
void i18next.use(initReactI18next).init({
  resources: {
    en: {
      translation: [
        en,
        layoutEn,
        screensEn,
        adminEn,
        agencyEn,
        businessEn,
        installsEn,
        inboxEn,
        mediaEn,
        numbersSetupEn,
        sandboxEn,
        contactsEn,
        tasksEn,
      ].reduce(merge, serverMessages('en') as Tree),
    },
    es: {
      translation: [
        es,
        layoutEs,
        screensEs,
        adminEs,
        agencyEs,
        businessEs,
        installsEs,
        inboxEs,
        mediaEs,
        numbersSetupEs,
        sandboxEs,
        contactsEs,
        tasksEs,
      ].reduce(merge, serverMessages('es') as Tree),
    },
    br: {
      translation: [
        br,
        layoutBr,
        screensBr,
        adminBr,
        agencyBr,
        businessBr,
        installsBr,
        inboxBr,
        mediaBr,
        numbersSetupBr,
        sandboxBr,
        contactsBr,
        tasksBr,
      ].reduce(merge, serverMessages('br') as Tree),
    },
  },
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

function htmlLang(lang: string): string {
  return lang === 'br' ? 'pt-BR' : lang;
}

export function changeLanguage(lang: string) {
  localStorage.setItem(LANG_KEY, lang);
  setApiLanguage(lang);
  document.documentElement.lang = htmlLang(lang);
  return i18next.changeLanguage(lang);
}

/** A zod issue message from the contracts (a key with params) in the current language. */
export function issueText(message: string, path: readonly PropertyKey[]): string {
  return issueMessageWith(message, path, (key, params) => i18next.t(key, params));
}

export { i18next };

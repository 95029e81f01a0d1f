// The few texts the light sign-in page shows, picked from the locale files the app uses (the contracts'
// server messages, then the web app's files over them, as lib/i18n.ts merges them). Build-time only:
// `npx tsx scripts/login-texts.ts` writes apps/web/src/login/texts.json; its test keeps the two equal.
import fs from 'node:fs';
import path from 'node:path';
import { serverMessages } from '@stn/contracts/i18n';
import br from '../apps/web/src/locales/br.json' with { type: 'json' };
import en from '../apps/web/src/locales/en.json' with { type: 'json' };
import es from '../apps/web/src/locales/es.json' with { type: 'json' };
import screensBr from '../apps/web/src/locales/screens.br.json' with { type: 'json' };
import screensEn from '../apps/web/src/locales/screens.en.json' with { type: 'json' };
import screensEs from '../apps/web/src/locales/screens.es.json' with { type: 'json' };

export const LOGIN_TEXT_KEYS = [
  'screens.login.title',
  'auth.login',
  'auth.email',
  'auth.password',
  'auth.forgot_link',
  'auth.sign_in',
  'app.maintenance',
  'validation.required',
  'validation.email',
  'fields.email',
  'fields.password',
  'errors.server',
] as const;

type Tree = { [k: string]: string | Tree };
const LANGS: Record<'en' | 'es' | 'br', Tree[]> = {
  en: [en, screensEn],
  es: [es, screensEs],
  br: [br, screensBr],
};

function lookup(trees: Tree[], key: string): string | undefined {
  for (const tree of [...trees].reverse()) {
    let node: string | Tree | undefined = tree;
    for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
    if (typeof node === 'string') return node;
  }
  return undefined;
}

export function pickLoginTexts(): Record<keyof typeof LANGS, Record<string, string>> {
  const out = {} as Record<keyof typeof LANGS, Record<string, string>>;
  for (const [lang, files] of Object.entries(LANGS) as [keyof typeof LANGS, Tree[]][]) {
    const trees = [serverMessages(lang) as Tree, ...files];
    out[lang] = {};
    for (const key of LOGIN_TEXT_KEYS) {
      const text = lookup(trees, key);
      if (text === undefined) throw new Error(`no ${lang} text for ${key}`);
      out[lang][key] = text;
    }
  }
  return out;
}

export const TEXTS_FILE = path.join(import.meta.dirname, '../apps/web/src/login/texts.json');

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  fs.writeFileSync(TEXTS_FILE, `${JSON.stringify(pickLoginTexts(), null, 2)}\n`);
  console.log(`wrote ${TEXTS_FILE}`);
}

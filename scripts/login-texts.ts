// The few texts the light sign-in page shows, picked from the locale files the app uses (the contracts'
// server messages, then the web app's files over them, as lib/i18n.ts merges them). Build-time only:
// `npx tsx scripts/login-texts.ts` writes apps/web/src/login/texts.json; its test keeps the two equal.
import path from 'node:path';
import { serverMessages } from '@stn/contracts/i18n';
import br from '../apps/web/src/locales/br.json' with { type: 'json' };
import en from '../apps/web/src/locales/en.json' with { type: 'json' };
import es from '../apps/web/src/locales/es.json' with { type: 'json' };
import screensBr from '../apps/web/src/locales/screens.br.json' with { type: 'json' };
import screensEn from '../apps/web/src/locales/screens.en.json' with { type: 'json' };
import screensEs from '../apps/web/src/locales/screens.es.json' with { type: 'json' };
import zapierBr from '../apps/web/src/locales/zapier.br.json' with { type: 'json' };
import zapierEn from '../apps/web/src/locales/zapier.en.json' with { type: 'json' };
import zapierEs from '../apps/web/src/locales/zapier.es.json' with { type: 'json' };
import { type Lang, type PickedTexts, pickTexts, type Tree, writeWhenRun } from './pick-texts.ts';

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
  'zapier.consent.title',
  'zapier.consent.text',
  'zapier.consent.hint',
  'zapier.consent.allow',
  'zapier.consent.deny',
] as const;

const LANGS: Record<Lang, Tree[]> = {
  en: [serverMessages('en') as Tree, en, screensEn, zapierEn],
  es: [serverMessages('es') as Tree, es, screensEs, zapierEs],
  br: [serverMessages('br') as Tree, br, screensBr, zapierBr],
};

export function pickLoginTexts(): PickedTexts {
  return pickTexts(LOGIN_TEXT_KEYS, LANGS);
}

export const TEXTS_FILE = path.join(import.meta.dirname, '../apps/web/src/login/texts.json');

writeWhenRun(import.meta.filename, TEXTS_FILE, pickLoginTexts);

// The texts the light landing page shows (ADR 080), picked from the locale files the app uses: every text
// of the landing locale files, the opt-in answers (the contracts' `optins` messages) and the tab's name
// (`menu.landing`), per language. Build-time only: `npx tsx scripts/landing-texts.ts` writes
// apps/web/src/landing/texts.json; src/landing/texts.test.ts keeps the two equal.
import path from 'node:path';
import br from '../apps/web/src/locales/br.json' with { type: 'json' };
import en from '../apps/web/src/locales/en.json' with { type: 'json' };
import es from '../apps/web/src/locales/es.json' with { type: 'json' };
import landingBr from '../apps/web/src/locales/landing.br.json' with { type: 'json' };
import landingEn from '../apps/web/src/locales/landing.en.json' with { type: 'json' };
import landingEs from '../apps/web/src/locales/landing.es.json' with { type: 'json' };
import optinsBr from '../packages/contracts/locales/optins.br.json' with { type: 'json' };
import optinsEn from '../packages/contracts/locales/optins.en.json' with { type: 'json' };
import optinsEs from '../packages/contracts/locales/optins.es.json' with { type: 'json' };
import { type Lang, leaves, type PickedTexts, pickTexts, type Tree, writeWhenRun } from './pick-texts.ts';

const LANGS: Record<Lang, Tree[]> = {
  en: [optinsEn, en, landingEn],
  es: [optinsEs, es, landingEs],
  br: [optinsBr, br, landingBr],
};

/** The keys besides every `landing.*` text. */
export const EXTRA_KEYS = ['optins.submitted', 'optins.failed', 'menu.landing'] as const;

export function pickLandingTexts(): PickedTexts {
  return pickTexts([...leaves(landingEn as Tree), ...EXTRA_KEYS], LANGS);
}

export const TEXTS_FILE = path.join(import.meta.dirname, '../apps/web/src/landing/texts.json');

writeWhenRun(import.meta.filename, TEXTS_FILE, pickLandingTexts);

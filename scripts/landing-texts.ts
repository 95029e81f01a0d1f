// The texts the light landing page shows (ADR 080), picked from the locale files the app uses: every text
// of the landing locale files, the opt-in answers (the contracts' `optins` messages) and the tab's name
// (`menu.landing`), per language. Build-time only: `npx tsx scripts/landing-texts.ts` writes
// apps/web/src/landing/texts.json; src/landing/texts.test.ts keeps the two equal.
import fs from 'node:fs';
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

type Tree = { [k: string]: string | Tree };
const LANGS: Record<'en' | 'es' | 'br', Tree[]> = {
  en: [optinsEn, en, landingEn],
  es: [optinsEs, es, landingEs],
  br: [optinsBr, br, landingBr],
};

/** The keys besides every `landing.*` text. */
export const EXTRA_KEYS = ['optins.submitted', 'optins.failed', 'menu.landing'] as const;

function leaves(tree: Tree, prefix: string): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : leaves(v, `${prefix}${k}.`),
  );
}

function lookup(trees: Tree[], key: string): string | undefined {
  for (const tree of [...trees].reverse()) {
    let node: string | Tree | undefined = tree;
    for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
    if (typeof node === 'string') return node;
  }
  return undefined;
}

export function pickLandingTexts(): Record<keyof typeof LANGS, Record<string, string>> {
  const keys = [...leaves(landingEn as Tree, ''), ...EXTRA_KEYS];
  const out = {} as Record<keyof typeof LANGS, Record<string, string>>;
  for (const [lang, trees] of Object.entries(LANGS) as [keyof typeof LANGS, Tree[]][]) {
    out[lang] = {};
    for (const key of keys) {
      const text = lookup(trees, key);
      if (text === undefined) throw new Error(`no ${lang} text for ${key}`);
      out[lang][key] = text;
    }
  }
  return out;
}

export const TEXTS_FILE = path.join(import.meta.dirname, '../apps/web/src/landing/texts.json');

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  fs.writeFileSync(TEXTS_FILE, `${JSON.stringify(pickLandingTexts(), null, 2)}\n`);
  console.log(`wrote ${TEXTS_FILE}`);
}

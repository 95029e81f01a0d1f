// Every text exists in en, es and br: a missing key shows English (or the raw key) to a Spanish or
// Portuguese user, and no other test would notice. One check serves both sets of locale files: the web
// app's texts and the server's messages.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const LANGS = ['en', 'es', 'br'] as const;

const FOLDERS = [
  { name: 'web locale files', dir: path.resolve(import.meta.dirname, '../../../apps/web/src/locales') },
  { name: 'contracts locale files (server messages)', dir: path.resolve(import.meta.dirname, '../locales') },
];

function keyPaths(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keyPaths(v, prefix ? `${prefix}.${k}` : k));
}

describe.each(FOLDERS)('$name', ({ dir }) => {
  const read = (file: string) => keyPaths(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'))).sort();

  /** `X.en.json` → `X`, `en.json` → ``: one group per set of three files. */
  const groups = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.en.json') || f === 'en.json')
    .map((f) => f.replace(/(^|\.)en\.json$/, ''));

  it('are found', () => {
    expect(groups).toContain('');
    expect(groups.length).toBeGreaterThan(1);
  });

  it.each(groups)('%s has the same keys in en, es and br', (group) => {
    const file = (lang: string) => (group ? `${group}.${lang}.json` : `${lang}.json`);
    const en = read(file('en'));
    for (const lang of LANGS.slice(1)) {
      expect(fs.existsSync(path.join(dir, file(lang))), `${file(lang)} exists`).toBe(true);
      expect(read(file(lang)), `${file(lang)} against ${file('en')}`).toEqual(en);
    }
  });

  it('has no es or br file without its en file', () => {
    const stray = fs
      .readdirSync(dir)
      .filter((f) => /(^|\.)(es|br)\.json$/.test(f))
      .filter((f) => !fs.existsSync(path.join(dir, f.replace(/(es|br)\.json$/, 'en.json'))));
    expect(stray).toEqual([]);
  });
});

// What the texts say, beyond having the same keys (locale-keys.test.ts): Spanish names one verb for
// adding ('Agregar', never 'Añadir'), and counted texts come as i18next plural pairs (_one and _other).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { translate } from './i18n.ts';

const DIRS = [
  path.resolve(import.meta.dirname, '../../../apps/web/src/locales'),
  path.resolve(import.meta.dirname, '../locales'),
];

function entries(value: unknown, prefix = ''): [string, string][] {
  if (typeof value === 'string') return [[prefix, value]];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => entries(v, prefix ? `${prefix}.${k}` : k));
}

const files = DIRS.flatMap((dir) =>
  fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({ file: f, texts: entries(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))) })),
);

describe('locale texts', () => {
  it('Spanish says "Agregar", never "Añadir"', () => {
    const es = files.filter((f) => /(^|\.)es\.json$/.test(f.file));
    expect(es.length).toBeGreaterThan(1);
    const stray = es.flatMap((f) =>
      f.texts.filter(([, t]) => /añad/i.test(t)).map(([k]) => `${f.file}: ${k}`),
    );
    expect(stray).toEqual([]);
  });

  it('every plural key comes in a pair, and each form shows the count', () => {
    for (const { file, texts } of files) {
      const keys = new Set(texts.map(([k]) => k));
      for (const [key, text] of texts) {
        const m = /^(.*)_(one|other)$/.exec(key);
        if (!m) continue;
        expect(keys.has(`${m[1]}_${m[2] === 'one' ? 'other' : 'one'}`), `${file}: ${key}`).toBe(true);
        if (m[2] === 'other') expect(text, `${file}: ${key}`).toContain('{count}');
      }
    }
  });

  it('the server picks the plural form by count, as i18next does', () => {
    expect(translate('agencies.bulk_archived', 'en', { count: 1 })).toBe('1 agency archived.');
    expect(translate('agencies.bulk_archived', 'en', { count: 3 })).toBe('3 agencies archived.');
    expect(translate('agencies.bulk_archived', 'es', { count: 1 })).toBe('1 agencia archivada.');
    // Portuguese reads 0 and 1 in the singular; a million is CLDR 'many', written with the plural.
    expect(translate('users.phone_lists.imported', 'br', { count: 0, skipped: 2 })).toBe(
      '0 número importado, 2 ignorados.',
    );
    expect(translate('users.phone_lists.imported', 'es', { count: 1_000_000, skipped: 0 })).toBe(
      '1000000 números importados, 0 omitidos.',
    );
  });
});

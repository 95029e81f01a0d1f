import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pickLandingTexts, TEXTS_FILE } from '../../../../scripts/landing-texts.ts';
import { LANDING_TEXT_DEFAULTS } from '../lib/landing-text-defaults.ts';

const shipped = JSON.parse(fs.readFileSync(TEXTS_FILE, 'utf8')) as Record<string, Record<string, string>>;
const html = fs.readFileSync(path.join(import.meta.dirname, '../../landing.html'), 'utf8');

describe('the light landing page (ADR 080)', () => {
  it('ships exactly the texts of the locale files (run `npx tsx scripts/landing-texts.ts` after editing them)', () => {
    expect(shipped).toEqual(pickLandingTexts());
  });

  it("landing.html's English is the English of the locale files, and every key it names exists", () => {
    const en = shipped.en ?? {};
    const tagged = [...html.matchAll(/data-t="([^"]+)"[^>]*>([^<]*)</g)];
    expect(tagged.length).toBeGreaterThan(40);
    for (const [, key, text] of tagged) expect(text, key).toBe(en[key ?? '']);
    for (const [, key, text] of html.matchAll(/data-lt="([^"]+)"[^>]*>([^<]*)</g)) {
      const localeKey = LANDING_TEXT_DEFAULTS[key as keyof typeof LANDING_TEXT_DEFAULTS];
      expect(localeKey, key).toBeDefined();
      expect(text, key).toBe(en[localeKey]);
    }
  });
});

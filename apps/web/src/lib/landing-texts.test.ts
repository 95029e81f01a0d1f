import { LANDING_TEXT_KEYS } from '@stn/contracts/site';
import { describe, expect, it } from 'vitest';
import en from '../locales/landing.en.json' with { type: 'json' };
import { agencyLandingText, LANDING_TEXT_DEFAULTS } from './landing-texts.ts';

const texts = {
  en: { headline: 'Calls that close' },
  br: { headline: 'Ligações que vendem', stats_one: '  ' },
};

describe('agencyLandingText', () => {
  it("answers the agency's text in the language asked, the app's code or a browser's", () => {
    expect(agencyLandingText(texts, 'en', 'headline')).toBe('Calls that close');
    expect(agencyLandingText(texts, 'br', 'headline')).toBe('Ligações que vendem');
    expect(agencyLandingText(texts, 'pt-BR', 'headline')).toBe('Ligações que vendem');
  });

  it('answers nothing for a language or key without a text, a blank text, or an unknown language', () => {
    expect(agencyLandingText(texts, 'es', 'headline')).toBeUndefined();
    expect(agencyLandingText(texts, 'en', 'subheadline')).toBeUndefined();
    expect(agencyLandingText(texts, 'br', 'stats_one')).toBeUndefined();
    expect(agencyLandingText(texts, 'fr', 'headline')).toBeUndefined();
    expect(agencyLandingText({}, 'en', 'headline')).toBeUndefined();
  });
});

describe('LANDING_TEXT_DEFAULTS', () => {
  it('names an existing landing text for every key', () => {
    for (const key of LANDING_TEXT_KEYS) {
      const value = LANDING_TEXT_DEFAULTS[key]
        .split('.')
        .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], en);
      expect(typeof value, key).toBe('string');
    }
  });
});

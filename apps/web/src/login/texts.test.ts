import fs from 'node:fs';
import { ZLoginRequest } from '@stn/contracts/auth';
import { fieldName, languageFromHeader, translate } from '@stn/contracts/i18n';
import { describe, expect, it } from 'vitest';
import { pickLoginTexts, TEXTS_FILE } from '../../../../scripts/login-texts.ts';
import { pickLanguage, safeRedirect, validateLogin } from './rules.ts';

const shipped = JSON.parse(fs.readFileSync(TEXTS_FILE, 'utf8')) as Record<string, Record<string, string>>;

describe('the light sign-in page (ADR 025)', () => {
  it('ships exactly the texts of the locale files (run `npx tsx scripts/login-texts.ts` after editing them)', () => {
    expect(shipped).toEqual(pickLoginTexts());
  });

  it('picks the language as the app does: the stored choice, else the browser (es, pt -> br, else en)', () => {
    expect(pickLanguage('br', ['es-ES'])).toBe('br');
    expect(pickLanguage('xx', ['es-ES'])).toBe('es');
    for (const langs of [['es-MX'], ['pt-BR', 'en'], ['pt'], ['de-DE', 'es'], ['de'], [], ['EN-gb']])
      expect(pickLanguage(null, langs), langs.join()).toBe(languageFromHeader(langs.join(',')));
  });

  it('validates like the contracts: the same fields refused, with the same messages', () => {
    const cases: [string, string][] = [
      ['', ''],
      ['  ', 'x'],
      ['not-an-email', 'secret'],
      ['a@b', 'secret'],
      ['a..b@example.com', 'secret'],
      ['Owner@Acme.test ', ''],
      ['owner@acme.test', 'secret'],
    ];
    for (const lang of ['en', 'es', 'br'] as const) {
      const t = shipped[lang] ?? {};
      for (const [email, password] of cases) {
        const mine = validateLogin(email, password, t);
        const parsed = ZLoginRequest.safeParse({ email, password });
        const theirs = new Set(parsed.success ? [] : parsed.error.issues.map((i) => String(i.path[0])));
        expect(new Set(Object.keys(mine)), `${lang} ${email}/${password}`).toEqual(theirs);
      }
      expect(validateLogin('', '', t)).toEqual({
        email: translate('validation.required', lang, { name: fieldName(['email'], lang) }),
        password: translate('validation.required', lang, { name: fieldName(['password'], lang) }),
      });
      expect(validateLogin('nope', 'x', t).email).toBe(
        translate('validation.email', lang, { name: fieldName(['email'], lang) }),
      );
    }
  });

  it('follows only same-site paths after sign-in', () => {
    expect(safeRedirect('/business/tasks?filter=open')).toBe('/business/tasks?filter=open');
    for (const bad of ['//evil.example', '/\\evil.example', 'https://evil.example', 'javascript:x', '', null])
      expect(safeRedirect(bad)).toBeNull();
  });
});

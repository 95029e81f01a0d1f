import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, DEMO, hasChromium, type Platform, signIn, startPlatform } from './harness.ts';

// Issue 8, "A new user's first hour": the sign-in pages follow the browser's language until the user
// chooses one; validation messages name the field in that language; the tab title names the screen.

let p: Platform;
const ACME = 'acme.localhost';
const WAIT = { timeout: 15_000 };

/** The text of the field's own error: the input is invalid and its wrapper holds the described error. */
async function fieldError(page: Page, testId: string): Promise<string | null> {
  const input = page.getByTestId(testId);
  await expect
    .poll(() => input.evaluate((el) => el.getAttribute('aria-invalid') === 'true'), WAIT)
    .toBe(true);
  return input.evaluate((el) => {
    const id = (el.getAttribute('aria-describedby') ?? '').split(' ').find((x) => x.endsWith('-error'));
    const error = id ? document.getElementById(id) : null;
    // A Mantine field in the app, a data-field wrapper on the light sign-in page (ADR 025).
    const wrapper = el.closest('.mantine-InputWrapper-root, [data-field]');
    return error && wrapper?.contains(error) ? error.textContent : null;
  });
}

const heading = (page: Page) => page.getByRole('heading', { level: 2 }).first().textContent();
const screenTitle = (page: Page) => page.getByTestId('page-title').textContent();

describe.skipIf(!hasChromium)('languages, messages and titles in the browser', () => {
  beforeAll(async () => {
    p = await startPlatform();
  }, 120_000);
  afterAll(() => p?.stop());

  it('a browser in Spanish gets the sign-in page in Spanish, and its messages name the field in Spanish', async () => {
    const { page, context } = await p.newPage({ locale: 'es-ES' });
    await page.goto(p.url('/login'));
    await expect.poll(() => heading(page), WAIT).toBe('Inicia sesión en tu cuenta');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
    await expect.poll(() => page.title(), WAIT).toBe('Iniciar sesión - Start Texting Now');
    await page.getByTestId('login-submit').click();
    expect(await fieldError(page, 'login-email')).toBe('El campo correo electrónico es obligatorio');
    await context.close();
  });

  it('a browser in Brazilian Portuguese gets it in Portuguese; any other language gets English', async () => {
    const pt = await p.newPage({ locale: 'pt-BR' });
    await pt.page.goto(p.url('/login'));
    await expect.poll(() => heading(pt.page), WAIT).toBe('Entre na sua conta');
    await pt.context.close();
    const de = await p.newPage({ locale: 'de-DE' });
    await de.page.goto(p.url('/login'));
    await expect.poll(() => heading(de.page), WAIT).toBe('Sign in to your account');
    await de.context.close();
  });

  it("the user's own choice wins over the browser's language", async () => {
    const { page, context } = await p.newPage({ locale: 'es-ES' });
    await page.goto(p.url('/login'));
    await page.evaluate(() => localStorage.setItem('lang', 'en'));
    await page.reload();
    await expect.poll(() => heading(page), WAIT).toBe('Sign in to your account');
    await context.close();
  });

  it('in Spanish, an empty first name on the profile says "El campo nombre es obligatorio"; the tab names the screen', async () => {
    const { page, context } = await p.newPage({ locale: 'es-ES' });
    await signIn(page, p.url('/login', ACME), DEMO.dentalSales);
    await page.waitForURL(/\/business\//, WAIT);
    await page.goto(p.url('/business/profile', ACME));
    await expect.poll(() => page.title(), WAIT).toBe('Perfil - Acme Callbacks - Start Texting Now');
    const first = page.getByTestId('profile-first-name');
    await first.fill('');
    await page.getByTestId('profile-save').click();
    expect(await fieldError(page, 'profile-first-name')).toBe('El campo nombre es obligatorio');
    // An avatar that is not an http(s) URL is refused with the spec's text.
    await first.fill('Sally');
    await page.getByTestId('profile-avatar-url').fill('javascript:alert(1)');
    await page.getByTestId('profile-save').click();
    expect(await fieldError(page, 'profile-avatar-url')).toBe('El formato de la URL no es válido.');
    await context.close();
  });

  it('choosing a language on the profile switches the interface at once and keeps the choice, no Save needed', async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login', ACME), DEMO.dentalAdmin);
    await page.waitForURL(/\/business\//, WAIT);
    await page.goto(p.url('/business/profile', ACME));
    await expect.poll(() => screenTitle(page), WAIT).toBe('My profile');
    await page.getByTestId('profile-language').selectOption('es');
    // The whole interface, not only this form, and without pressing Save.
    await expect.poll(() => screenTitle(page), WAIT).toBe('Mi perfil');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang), WAIT).toBe('es');
    const api = await apiAs(p, DEMO.dentalAdmin);
    const language = async () =>
      (await api<{ data: { user: { settings: { language?: string } } } }>('/v1/profile')).body.data.user
        .settings.language;
    await expect.poll(language, WAIT).toBe('es');
    // Another browser (no local choice) signs in in Spanish: the choice is the account's.
    const other = await p.newPage();
    await signIn(other.page, p.url('/login', ACME), DEMO.dentalAdmin);
    await other.page.waitForURL(/\/business\//, WAIT);
    await other.page.goto(p.url('/business/profile', ACME));
    await expect.poll(() => screenTitle(other.page), WAIT).toBe('Mi perfil');
    await other.context.close();
    // Back to English the same way.
    await page.getByTestId('profile-language').selectOption('en');
    await expect.poll(() => screenTitle(page), WAIT).toBe('My profile');
    await expect.poll(language, WAIT).toBe('en');
    await context.close();
  });
});

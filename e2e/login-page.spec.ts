import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, hasChromium, type Platform, signIn, startPlatform } from './harness.ts';

// Issue 8, "Heavy first load" (ADR 025): /login is a light page of its own, usable as soon as its HTML
// arrives, that signs in and hands over to the app.

let p: Platform;
const ACME = 'acme.localhost';
const WAIT = { timeout: 15_000 };

/** The message shown under a field (the input is marked invalid and points at it), or null. */
function fieldError(page: Page, testId: string): Promise<string | null> {
  return page.getByTestId(testId).evaluate((el) => {
    if (el.getAttribute('aria-invalid') !== 'true') return null;
    const error = document.getElementById(el.getAttribute('aria-describedby') ?? '');
    return error && !error.hidden ? error.textContent : null;
  });
}

describe.skipIf(!hasChromium)('the light sign-in page', () => {
  beforeAll(async () => {
    p = await startPlatform();
  }, 120_000);
  afterAll(() => p?.stop());

  it('is its own small page: the form is in the HTML, one small script, none of the app', async () => {
    const html = await (await fetch(p.url('/login'))).text();
    for (const id of ['login-email', 'login-password', 'login-submit', 'login-forgot'])
      expect(html).toContain(`data-testid="${id}"`);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script (CSP script-src 'self')
    expect(await (await fetch(p.url('/auth/login'))).text()).toBe(html);

    const { page, context } = await p.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await page.goto(p.url('/login'));
    await expect.poll(() => page.title(), WAIT).toBe('Sign in - Start Texting Now');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'login-email',
    );
    expect(scripts.some((s) => /\/assets\/login-[\w-]+\.js$/.test(s))).toBe(true);
    expect(scripts.filter((s) => /\/assets\/(index|i18n)-/.test(s))).toEqual([]);
    await context.close();
  });

  it('a browser in Spanish: Spanish texts, required messages naming the fields, the server answering in Spanish', async () => {
    const { page, context } = await p.newPage({ locale: 'es-ES' });
    await page.goto(p.url('/login'));
    await expect
      .poll(() => page.getByRole('heading', { level: 2 }).textContent(), WAIT)
      .toBe('Inicia sesión en tu cuenta');
    expect(await page.getByLabel('Correo electrónico').getAttribute('data-testid')).toBe('login-email');
    expect(await page.getByLabel('Contraseña').getAttribute('data-testid')).toBe('login-password');
    expect(await page.getByTestId('login-submit').textContent()).toBe('Iniciar sesión');
    expect(await page.getByTestId('login-forgot').textContent()).toBe('¿Olvidaste tu contraseña?');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');

    await page.getByTestId('login-submit').click();
    expect(await fieldError(page, 'login-email')).toBe('El campo correo electrónico es obligatorio');
    expect(await fieldError(page, 'login-password')).toBe('El campo contraseña es obligatorio');
    await page.getByTestId('login-email').fill('not-an-email');
    await page.getByTestId('login-password').fill('x');
    await page.getByTestId('login-submit').click();
    expect(await fieldError(page, 'login-email')).toBe(
      'El campo correo electrónico debe ser un correo electrónico válido.',
    );
    expect(await fieldError(page, 'login-password')).toBeNull();

    await page.getByTestId('login-email').fill(DEMO.superAdmin.email);
    await page.getByTestId('login-password').fill('wrong-password');
    await page.getByTestId('login-submit').click();
    await expect
      .poll(() => fieldError(page, 'login-email'), WAIT)
      .toBe('Estas credenciales no coinciden con nuestros registros.');
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
    await context.close();
  });

  it('the right password lands in the role area, with the token stored as the app keeps it', async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login', ACME), DEMO.dentalAdmin);
    await page.waitForURL('**/business/messaging', WAIT);
    await page.getByTestId('sidebar').waitFor(WAIT);
    expect(await page.evaluate(() => localStorage.getItem('role_group'))).toBe('Business');
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeTruthy();
    // Signed in, /login goes straight back into the app.
    await page.goto(p.url('/login', ACME));
    await page.waitForURL('**/business/messaging', WAIT);
    // Logging out lands on the light page.
    await page.getByTestId('logout-button').click();
    await page.waitForURL(/\/login$/, WAIT);
    await page.locator('#login-form').waitFor(WAIT);
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
    await context.close();
  });

  it('shows the white-label title and logo of the site', async () => {
    const { page, context } = await p.newPage();
    await page.goto(p.url('/login', ACME));
    await expect.poll(() => page.title(), WAIT).toBe('Sign in - Acme Callbacks - Start Texting Now');
    await expect.poll(() => page.getByTestId('login-logo').getAttribute('alt'), WAIT).toBe('Acme Callbacks');
    await context.close();
  });

  it('honours ?redirect= on this site and ignores one to another site', async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login?redirect=%2Fbusiness%2Fcontacts%3Fq%3Da', ACME), DEMO.dentalAdmin);
    await page.waitForURL('**/business/contacts?q=a', WAIT);
    await context.close();

    for (const evil of ['//evil.example/x', 'https://evil.example/x', '/\\evil.example']) {
      const other = await p.newPage();
      await signIn(other.page, p.url(`/login?redirect=${encodeURIComponent(evil)}`, ACME), DEMO.dentalAdmin);
      await other.page.waitForURL('**/business/messaging', WAIT);
      expect(new URL(other.page.url()).host).toBe(`${ACME}:${p.port}`);
      await other.context.close();
    }
  });

  it('a throttled sign-in shows the server message in an alert', async () => {
    const { page, context } = await p.newPage();
    await page.goto(p.url('/login'));
    await page.getByTestId('login-email').fill('nobody@nowhere.test');
    await page.getByTestId('login-password').fill('wrong-password');
    const alert = page.getByTestId('login-alert');
    for (let i = 0; i < 8 && !(await alert.isVisible()); i++) {
      await page.getByTestId('login-submit').click();
      await expect.poll(() => page.getByTestId('login-submit').getAttribute('aria-busy'), WAIT).toBeNull();
    }
    expect(await alert.textContent()).toMatch(
      /^Too many sign-in attempts\. Please try again in \d+ minutes?\.$/,
    );
    await context.close();
  });
});

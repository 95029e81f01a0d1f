import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiFrom,
  DEMO,
  fieldError,
  hasChromium,
  type Platform,
  signedInPage,
  startPlatform,
} from './harness.ts';

// Issue 23: an agency writes its landing page's texts per language; the main agency's '/' goes to the
// marketing site the Admin sets on Settings (ADR 077).

let p: Platform;
let marketing: http.Server;
let marketingUrl = '';
const ACME = 'acme.localhost';
const WAIT = { timeout: 30_000 };

const ES_HEADLINE = 'Llamadas que cierran ventas, hoy mismo';
const EN_GUARANTEE = 'Full refund within 30 days from Acme, no questions asked.';
const EN_DEFAULT_HEADLINE = 'Turn your website visitors into customers with calls and texts';
const ES_DEFAULT_HEADLINE = 'Convierta a los visitantes de su sitio web en clientes con llamadas y mensajes';

beforeAll(async () => {
  if (!hasChromium) return;
  // The marketing site: a page of another origin, served here.
  marketing = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>Marketing</title><h1>Marketing</h1>');
  });
  await new Promise<void>((resolve) => marketing.listen(0, '127.0.0.1', resolve));
  marketingUrl = `http://127.0.0.1:${(marketing.address() as AddressInfo).port}/`;
  p = await startPlatform();
}, 180_000);
afterAll(async () => {
  await p?.stop();
  await new Promise((resolve) => (marketing ? marketing.close(resolve) : resolve(undefined)));
});

const field = (page: Page, key: string) => page.getByTestId(`landing-text-${key}`);
async function chooseLanguage(page: Page, label: 'English' | 'Español' | 'Português') {
  await page.getByTestId('landing-texts-language').getByText(label, { exact: true }).click();
}
async function save(page: Page, testId: string, path: string) {
  const answer = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith(path));
  await page.getByTestId(testId).click();
  return (await answer).status();
}
type SiteData = {
  data: { landingTexts: Record<string, Record<string, string>>; marketingUrl: string | null };
};
const siteData = async (page: Page, host: string) =>
  (await apiFrom<SiteData>(page, 'GET', `/v1/settings/site-data/${host}`)).body.data;

describe.skipIf(!hasChromium)("an agency's landing texts", () => {
  it('Acme writes a Spanish headline and an English guarantee text; its landing page shows each in its language', async () => {
    const page = await signedInPage(p, DEMO.acmeAgency, '**/agency/**', ACME);
    await page.goto(p.url('/agency/landing-page', ACME));
    await page.getByTestId('landing-texts').waitFor(WAIT);

    // Each language's fields show that language's default as the placeholder.
    await expect
      .poll(() => field(page, 'headline').getAttribute('placeholder'), WAIT)
      .toBe(EN_DEFAULT_HEADLINE);
    await chooseLanguage(page, 'Español');
    await expect.poll(() => field(page, 'headline').getAttribute('placeholder')).toBe(ES_DEFAULT_HEADLINE);
    await field(page, 'headline').fill(ES_HEADLINE);
    await chooseLanguage(page, 'English');
    expect(await field(page, 'headline').inputValue()).toBe('');
    await field(page, 'guarantee_text').fill(EN_GUARANTEE);
    // Switching back and forth keeps what was typed in each language.
    await chooseLanguage(page, 'Português');
    expect(await field(page, 'headline').inputValue()).toBe('');
    expect(await field(page, 'guarantee_text').inputValue()).toBe('');
    await chooseLanguage(page, 'Español');
    expect(await field(page, 'headline').inputValue()).toBe(ES_HEADLINE);
    expect(await field(page, 'guarantee_text').inputValue()).toBe('');
    await chooseLanguage(page, 'English');
    expect(await field(page, 'guarantee_text').inputValue()).toBe(EN_GUARANTEE);

    expect(await save(page, 'landing-texts-save', '/api/v1/agencies/landing-texts')).toBe(200);
    expect((await siteData(page, ACME)).landingTexts).toEqual({
      en: { guarantee_text: EN_GUARANTEE },
      es: { headline: ES_HEADLINE },
    });
    // The screen links to the agency's own site.
    expect(await page.getByTestId('landing-texts-view').getAttribute('href')).toBe(p.url('/', ACME));
    await page.context().close();

    // A visitor in English: the English guarantee, the default headline.
    const visitor = await p.newPage({ locale: 'en-US' });
    await visitor.page.goto(p.url('/', ACME));
    await visitor.page.getByTestId('landing-page').waitFor(WAIT);
    const guarantee = visitor.page.getByTestId('landing-section-guarantee');
    expect(await guarantee.innerText()).toContain(EN_GUARANTEE);
    expect(await visitor.page.getByTestId('landing-hero').innerText()).toContain(EN_DEFAULT_HEADLINE);
    expect(await visitor.page.getByTestId('landing-hero').innerText()).not.toContain(ES_HEADLINE);

    // The same visitor in Spanish: the Spanish headline; the guarantee is Spanish's default again.
    await visitor.page.evaluate(() => localStorage.setItem('lang', 'es'));
    await visitor.page.reload();
    await visitor.page.getByTestId('landing-page').waitFor(WAIT);
    await expect
      .poll(() => visitor.page.getByTestId('landing-hero').innerText(), WAIT)
      .toContain(ES_HEADLINE);
    const esGuarantee = await visitor.page.getByTestId('landing-section-guarantee').innerText();
    expect(esGuarantee).not.toContain(EN_GUARANTEE);
    expect(esGuarantee).toContain('Pruébelo durante 30 días');
    await visitor.context.close();
  });

  it('a text of 501 characters shows its error (in its own language) and nothing is saved', async () => {
    const page = await signedInPage(p, DEMO.acmeAgency, '**/agency/**', ACME);
    await page.goto(p.url('/agency/landing-page', ACME));
    await page.getByTestId('landing-texts').waitFor(WAIT);
    await expect.poll(() => field(page, 'guarantee_text').inputValue(), WAIT).toBe(EN_GUARANTEE);
    await field(page, 'stats_one').fill('x'.repeat(501));
    await chooseLanguage(page, 'Español');
    await field(page, 'headline').fill('Otro titular que no se guarda');
    let puts = 0;
    page.on('request', (r) => {
      if (r.method() === 'PUT') puts++;
    });
    await page.getByTestId('landing-texts-save').click();
    // The form shows the language that has the error, and the error under its field.
    expect(await fieldError(page, 'landing-text-stats_one')).toContain('500');
    expect(await field(page, 'stats_one').inputValue()).toHaveLength(501);
    expect(puts).toBe(0);
    expect((await siteData(page, ACME)).landingTexts).toEqual({
      en: { guarantee_text: EN_GUARANTEE },
      es: { headline: ES_HEADLINE },
    });
    await page.context().close();
  });
});

describe.skipIf(!hasChromium)("the main agency's marketing site", () => {
  it("an Admin sets it on Settings and the main host's '/' goes there; cleared, '/' goes to sign in", async () => {
    const page = await signedInPage(p, DEMO.superAdmin, '**/admin/**');
    await page.goto(p.url('/admin/settings'));
    const url = page.getByTestId('marketing-site-url');
    await url.waitFor(WAIT);
    expect(await url.inputValue()).toBe('');

    await url.fill('not a url');
    await page.getByTestId('marketing-site-save').click();
    expect(await fieldError(page, 'marketing-site-url')).toBe('URL format is invalid.');

    await url.fill(marketingUrl);
    expect(await save(page, 'marketing-site-save', '/settings')).toBe(200);
    expect((await siteData(page, 'localhost')).marketingUrl).toBe(marketingUrl);

    const visitor = await p.newPage();
    await visitor.page.goto(p.url('/'));
    await visitor.page.waitForURL(marketingUrl, WAIT);
    expect(await visitor.page.locator('h1').innerText()).toBe('Marketing');
    await visitor.context.close();

    // The setting shows what is saved, and clearing it restores sign-in.
    await page.reload();
    await expect.poll(() => url.inputValue(), WAIT).toBe(marketingUrl);
    await url.fill('');
    expect(await save(page, 'marketing-site-save', '/settings')).toBe(200);
    expect((await siteData(page, 'localhost')).marketingUrl).toBeNull();
    await page.context().close();

    const again = await p.newPage();
    await again.page.goto(p.url('/'));
    await again.page.waitForURL(/\/login(\?|$)/, WAIT);
    await again.context.close();
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiAs,
  checkPageModal,
  DEMO,
  hasChromium,
  type Platform,
  renderedFrames,
  signedInPage,
  startPlatform,
} from './harness.ts';

// Issue 23's landing page, end to end (spec 000 §2 "Landing page", "Opt-in demo modal", §4, §5, §8, §9):
// Acme's site (acme.localhost) has a landing page; the main agency's host, with no marketing
// site set, goes to sign in (ADR 077; e2e/landing-texts.spec.ts sets one).

let p: Platform;
const ACME = 'acme.localhost';
/** Acme's custom script: counts its runs. */
const SCRIPT = 'window.__landingScript = (window.__landingScript || 0) + 1;';
const runs = (page: Page) =>
  page.evaluate(() => (window as unknown as { __landingScript?: number }).__landingScript ?? 0);
const WAIT = { timeout: 30_000 };
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

beforeAll(async () => {
  if (!hasChromium) return;
  p = await startPlatform();
  const acme = await apiAs(p, DEMO.acmeAgency);
  const script = await acme('/v1/agencies/custom-script', {
    method: 'PUT',
    body: { custom_script: SCRIPT },
  });
  expect(script.status, JSON.stringify(script.body)).toBe(200);
  const terms = await acme('/v1/pages/terms-of-services', {
    method: 'PUT',
    body: { title: 'Acme Terms', content: '<p>Be nice to <strong>Acme</strong>.</p>' },
  });
  expect(terms.status, JSON.stringify(terms.body)).toBe(200);
  const privacy = await acme('/v1/pages/privacy-policy', {
    method: 'PUT',
    body: { title: 'Acme Privacy', content: '<h2>What Acme keeps</h2><ul><li>Your e-mail</li></ul>' },
  });
  expect(privacy.status, JSON.stringify(privacy.body)).toBe(200);
}, 180_000);
afterAll(async () => p?.stop());

async function landing(page: Page) {
  await page.goto(p.url('/', ACME));
  await page.getByTestId('landing-page').waitFor(WAIT);
}

describe.skipIf(!hasChromium)('the landing page (/)', () => {
  it("shows Acme's landing page with its sections", async () => {
    const { page, context } = await p.newPage();
    await landing(page);
    for (const id of [
      'landing-header',
      'landing-hero',
      'landing-platforms',
      'landing-section-stats',
      'landing-section-how-it-works',
      'landing-screenshot',
      'landing-section-features',
      'landing-section-additional-features',
      'testimonial-slider',
      'landing-section-generate',
      'landing-section-guarantee',
      'landing-footer',
    ])
      expect(await page.getByTestId(id).isVisible(), id).toBe(true);
    const text = await page.getByTestId('landing-page').innerText();
    expect(text).toContain('under 5 minutes');
    expect(text).toContain('under 10 minutes');
    expect(text).toContain('30 Day Money Back Guarantee');
    expect(text).toContain('Start Generating More Business');
    expect(text).toContain(`© ${new Date().getFullYear()} Acme Callbacks`);
    // The badges are upper-cased by CSS: their text is what the page holds.
    const platforms = await page.getByTestId('landing-platforms').textContent();
    for (const name of ['WordPress', 'Wix', 'Squarespace', 'Shopify', 'Webflow'])
      expect(platforms).toContain(name);
    expect(await page.getByTestId('landing-header-button').innerText()).toBe('Request A Free Demo');
    expect(await page.getByTestId('landing-login').isVisible()).toBe(true);
    await context.close();
  });

  it('goes to sign in on the main agency host (no marketing address, ADR 077)', async () => {
    const { page, context } = await p.newPage();
    await page.goto(p.url('/'));
    await page.waitForURL(/\/login(\?|$)/, WAIT);
    expect(await page.getByTestId('landing-page').count()).toBe(0);
    await context.close();
  });

  it('a signed-in user gets Dashboard in the header and no Login link', async () => {
    const page = await signedInPage(p, DEMO.acmeAgency, '**/agency/**', ACME);
    await landing(page);
    const button = page.getByTestId('landing-header-button');
    expect(await button.innerText()).toBe('Dashboard');
    expect(await page.getByTestId('landing-login').count()).toBe(0);
    await page.context().close();
  });

  it('the slider shows 3 slides on desktop and 1 with a phone user agent; a drag of 70 px moves it', async () => {
    const desktop = await p.newPage();
    await landing(desktop.page);
    const slider = desktop.page.getByTestId('testimonial-slider');
    expect(await slider.getAttribute('data-per-view')).toBe('3');
    expect(await desktop.page.getByTestId('testimonial-slide').count()).toBe(5);
    await slider.scrollIntoViewIfNeeded();
    const box = await slider.boundingBox();
    if (!box) throw new Error('no slider box');
    const y = box.y + box.height / 2;
    const x = box.x + box.width / 2;
    // 40 px is no slide; 80 px is one.
    await desktop.page.mouse.move(x, y);
    await desktop.page.mouse.down();
    await desktop.page.mouse.move(x - 40, y, { steps: 4 });
    await desktop.page.mouse.up();
    await renderedFrames(desktop.page);
    expect(await slider.getAttribute('data-index')).toBe('0');
    await desktop.page.mouse.move(x, y);
    await desktop.page.mouse.down();
    await desktop.page.mouse.move(x - 80, y, { steps: 4 });
    await desktop.page.mouse.up();
    await expect.poll(() => slider.getAttribute('data-index')).toBe('1');
    await desktop.context.close();

    const phone = await p.newPage({ userAgent: IPHONE, viewport: { width: 390, height: 844 } });
    await landing(phone.page);
    expect(await phone.page.getByTestId('testimonial-slider').getAttribute('data-per-view')).toBe('1');
    await phone.context.close();
  });

  it('runs the custom script on the landing document; leaving it (a full load) ends the script with it', async () => {
    const page = await signedInPage(p, DEMO.acmeAgency, '**/agency/**', ACME);
    await landing(page);
    const script = page.locator('[data-landing-script]');
    await script.waitFor({ state: 'attached', ...WAIT });
    // The element carries the site's script, and it ran, once: the landing document's nonce (ADR 079).
    expect(await script.textContent()).toBe(SCRIPT);
    await expect.poll(() => runs(page)).toBe(1);
    // The landing page is a document of its own (ADR 080): Dashboard is a full load of the app, and the
    // new document has neither the element nor what the script set, well within the 3 s of spec §9.
    const leftAt = await page.evaluate(() => Date.now());
    await page.getByTestId('landing-header-button').click();
    await page.waitForURL('**/agency/**', WAIT);
    await page.waitForFunction(() => document.readyState !== 'loading', undefined, WAIT);
    const gone = await page.evaluate(() => ({
      at: Date.now(),
      elements: document.querySelectorAll('[data-landing-script]').length,
      global: (window as unknown as { __landingScript?: number }).__landingScript ?? null,
    }));
    expect(gone.elements).toBe(0);
    expect(gone.global).toBeNull();
    expect(gone.at - leftAt).toBeLessThan(3000);
    await page.context().close();
  });

  it('runs the custom script again, once, when the visitor comes back to the landing page', async () => {
    const page = await signedInPage(p, DEMO.acmeAgency, '**/agency/**', ACME);
    await landing(page);
    const script = page.locator('[data-landing-script]');
    await script.waitFor({ state: 'attached', ...WAIT });
    await page.getByTestId('landing-header-button').click();
    await page.waitForURL('**/agency/**', WAIT);
    await page.goBack();
    await page.getByTestId('landing-page').waitFor(WAIT);
    await script.waitFor({ state: 'attached', ...WAIT });
    // A new document (ADR 080): one element, and the script ran once in it.
    expect(await script.count()).toBe(1);
    await expect.poll(() => runs(page)).toBe(1);
    await page.context().close();
  });

  it('a pasted tracking snippet runs, with the script it loads; other documents keep the strict policy', async () => {
    // A third-party script host on another origin (a tracking vendor): its script counts its runs.
    const vendor = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end('window.__vendor = (window.__vendor || 0) + 1;');
    });
    await new Promise<void>((r) => vendor.listen(0, '127.0.0.1', r));
    const { port } = vendor.address() as AddressInfo;
    const acme = await apiAs(p, DEMO.acmeAgency);
    const snippet = `<!-- Vendor tag -->\n<script async src="http://127.0.0.1:${port}/tag.js"></script>\n<script>window.__inline = 'ran';</script>`;
    try {
      const set = await acme('/v1/agencies/custom-script', {
        method: 'PUT',
        body: { custom_script: snippet },
      });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      const { page, context } = await p.newPage();
      const response = await page.goto(p.url('/', ACME));
      const policy = (await response?.headerValue('content-security-policy')) ?? '';
      expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' https:/);
      await page.getByTestId('landing-page').waitFor(WAIT);
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { __inline?: string }).__inline ?? null))
        .toBe('ran');
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { __vendor?: number }).__vendor ?? 0))
        .toBe(1);
      // A nonce is for one document: another load of '/' has another.
      const again = await page.goto(p.url('/', ACME));
      expect((await again?.headerValue('content-security-policy')) ?? '').not.toBe(policy);
      // The sign-in page and the app's pages keep the strict policy: no nonce, nothing from elsewhere.
      for (const path of ['/login', '/agency/business/accounts', '/f/pro']) {
        const other = await page.goto(p.url(path, ACME));
        const csp = (await other?.headerValue('content-security-policy')) ?? '';
        expect(csp, path).toContain("script-src 'self'");
        expect(csp, path).not.toContain('nonce-');
        expect(await page.locator('meta[name="custom-script-nonce"]').count(), path).toBe(0);
      }
      await context.close();
    } finally {
      await acme('/v1/agencies/custom-script', { method: 'PUT', body: { custom_script: SCRIPT } });
      await new Promise((r) => vendor.close(r));
    }
  });

  it('the opt-in: empty fields are marked and nothing is sent; a submit shows Submitting... then the answer', async () => {
    const { page, context } = await p.newPage();
    await landing(page);
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/optin-users')) posts.push(r.url());
    });
    await page.getByTestId('landing-header-button').click();
    // The modal's root has no box of its own: its content is what shows.
    await page.getByTestId('optin-submit').waitFor(WAIT);
    expect(await page.getByTestId('optin-modal').count()).toBe(1);
    expect(await page.getByText('Trusted by over 1000 companies').isVisible()).toBe(true);
    await page.getByTestId('optin-submit').click();
    for (const f of ['email', 'full_name', 'business_name', 'phone'])
      await expect.poll(() => page.getByTestId(`optin-${f}`).getAttribute('aria-invalid')).toBe('true');
    await renderedFrames(page);
    expect(posts).toEqual([]);

    const fill = async () => {
      await page.getByTestId('optin-email').fill('visitor@example.test');
      await page.getByTestId('optin-full_name').fill('Vera Visitor');
      await page.getByTestId('optin-business_name').fill('Vera Bakes');
      await page.getByTestId('optin-phone').fill('555 0100');
    };
    await fill();
    let held: Route | null = null;
    let body: unknown = null;
    await page.route('**/api/v1/agencies/optin-users', (route) => {
      held = route;
      body = route.request().postDataJSON();
    });
    const submit = page.getByTestId('optin-submit');
    await submit.click();
    await expect.poll(() => held !== null).toBe(true);
    expect(await submit.innerText()).toBe('Submitting...');
    expect(body).toEqual({
      email: 'visitor@example.test',
      full_name: 'Vera Visitor',
      business_name: 'Vera Bakes',
      phone: '555 0100',
      domain: `${ACME}:${p.port}`,
    });
    await (held as unknown as Route).continue();
    await page.getByTestId('optin-success').waitFor(WAIT);
    expect(await page.getByTestId('optin-success').innerText()).toBe(
      'Thanks for your submission. We will reach out to you soon!',
    );
    expect(await submit.innerText()).toBe('Request A Free Demo Today!');

    await page.unroute('**/api/v1/agencies/optin-users');
    await page.route('**/api/v1/agencies/optin-users', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"success":false}' }),
    );
    await fill();
    await submit.click();
    await page.getByTestId('optin-failure').waitFor(WAIT);
    expect(await page.getByTestId('optin-failure').innerText()).toBe(
      'Ops, Something went wrong. Please try again later!',
    );
    await context.close();
  });

  it("the footer's Terms of Service and Privacy Policy open the site's pages in the page modal", async () => {
    const { page, context } = await p.newPage();
    await landing(page);
    await checkPageModal(page, 'landing-terms', {
      title: 'Acme Terms',
      html: { selector: 'strong', text: 'Acme' },
    });
    await checkPageModal(page, 'landing-privacy', {
      title: 'Acme Privacy',
      html: { selector: 'li', text: 'Your e-mail' },
    });
    await context.close();
  });
});

describe.skipIf(!hasChromium)('an agency without a landing page', () => {
  it("'/' goes to sign in, and a signed-in user of the agency to their dashboard", async () => {
    const acme = await apiAs(p, DEMO.acmeAgency);
    const off = await acme('/v1/agencies/settings', { method: 'PUT', body: { landingPage: false } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    try {
      const site = await fetch(p.url(`/api/v1/settings/site-data/${ACME}`));
      expect(((await site.json()) as { data: { landingPage: boolean } }).data.landingPage).toBe(false);
      const { page, context } = await p.newPage();
      await page.goto(p.url('/', ACME));
      await page.waitForURL((u) => u.pathname === '/login', WAIT);
      // The app's route goes to /login in the page first, then loads the sign-in document: its form.
      await page.getByTestId('login-email').waitFor(WAIT);
      expect(new URL(page.url()).host).toBe(`${ACME}:${p.port}`);
      expect(await page.getByTestId('landing-page').count()).toBe(0);
      await context.close();

      const signedIn = await signedInPage(p, DEMO.acmeAgency, '**/agency/**', ACME);
      await signedIn.goto(p.url('/', ACME));
      await signedIn.waitForURL((u) => u.pathname.startsWith('/agency/'), WAIT);
      await signedIn.getByTestId('page-title').waitFor(WAIT);
      expect(await signedIn.getByTestId('landing-page').count()).toBe(0);
      await signedIn.context().close();
    } finally {
      const on = await acme('/v1/agencies/settings', { method: 'PUT', body: { landingPage: true } });
      expect(on.status, JSON.stringify(on.body)).toBe(200);
    }
  });
});

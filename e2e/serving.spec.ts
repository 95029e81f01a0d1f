// How the app reaches a browser (issue 8, ADR 022): opened over plain http by a name other than
// localhost it works (no HSTS or upgrade-insecure-requests sends the browser to https); the splash, and a
// script chunk that fails or hangs past spec's 120 s is reported with a reload button, never a blank page.
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BROWSER_BINARY,
  BROWSER_MOTION,
  DEMO,
  hasChromium,
  type Platform,
  startPlatform,
} from './harness.ts';

// Chromium treats localhost and 127.0.0.1 as trustworthy; a made-up name mapped to the loopback is not,
// which is what a colleague opening http://<machine>:3000 gets.
const HOST = 'stn-box.test';

let p: Platform;
let browser: Browser;

async function openPage() {
  const context = await browser.newContext({
    locale: 'en-US',
    viewport: { width: 1280, height: 800 },
    reducedMotion: BROWSER_MOTION,
  });
  return { context, page: await context.newPage() };
}

describe.skipIf(!hasChromium)('serving the web app', () => {
  beforeAll(async () => {
    p = await startPlatform({ MAIN_DOMAIN: HOST });
    browser = await chromium.launch({
      executablePath: BROWSER_BINARY,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        `--host-resolver-rules=MAP ${HOST} 127.0.0.1`,
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await p?.stop();
  });

  it('opened over http by a non-localhost name, the sign-in page renders and signs in', async () => {
    const { page, context } = await openPage();
    const https: string[] = [];
    const failed: string[] = [];
    page.on('request', (r) => {
      if (r.url().startsWith('https:')) https.push(r.url());
    });
    page.on('requestfailed', (r) => failed.push(r.url()));
    const res = await page.goto(`http://${HOST}:${p.port}/login`);
    expect(res?.headers()['strict-transport-security']).toBeUndefined();
    expect(res?.headers()['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
    await page.getByTestId('login-email').fill(DEMO.superAdmin.email);
    await page.getByTestId('login-password').fill(DEMO.superAdmin.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL('**/admin/agency/accounts');
    await page.getByTestId('sidebar').waitFor();
    expect(https).toEqual([]);
    expect(failed).toEqual([]);
    await context.close();
  });

  it('index.html carries the splash, which the app replaces when it mounts', async () => {
    const { page, context } = await openPage();
    // The app's own pages (the sign-in page is a light page of its own, ADR 025).
    const html = await (await fetch(p.url('/password/email'))).text();
    expect(html).toContain('data-testid="splash"');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script (CSP script-src 'self')
    await page.goto(`http://${HOST}:${p.port}/password/email`);
    await page.getByTestId('password-email-email').waitFor();
    expect(await page.getByTestId('splash').count()).toBe(0);
    await context.close();
  });

  it('a screen chunk that fails to load shows the message and a reload button that recovers', async () => {
    const { page, context } = await openPage();
    await page.route('**/assets/password-email-page-*.js', (route) => route.abort('connectionreset'));
    await page.goto(`http://${HOST}:${p.port}/password/email`);
    await page.getByTestId('chunk-load-failed').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe(
      'The page could not be loaded. Check your connection and reload the page.',
    );
    await page.unroute('**/assets/password-email-page-*.js');
    await page.getByTestId('chunk-load-reload').click();
    await page.getByTestId('password-email-email').waitFor();
    expect(await page.getByTestId('chunk-load-failed').count()).toBe(0);
    await context.close();
  });

  it('a screen chunk that never arrives is reported after 120 s, not before', async () => {
    const { page, context } = await openPage();
    await page.clock.install();
    // The chunk's request hangs: never answered.
    await page.route('**/assets/password-email-page-*.js', () => undefined);
    await page.goto(`http://${HOST}:${p.port}/password/email`);
    await page.getByTestId('chunk-loading').waitFor();
    await page.clock.fastForward('01:58');
    expect(await page.getByTestId('chunk-load-failed').count()).toBe(0);
    expect(await page.getByTestId('password-email-email').count()).toBe(0);
    await page.clock.fastForward('00:03');
    await page.getByTestId('chunk-load-failed').waitFor();
    await context.close();
  });
});

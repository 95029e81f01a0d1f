import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, hasChromium, type Platform, signedInPage, startPlatform } from './harness.ts';

// Google Business locations (issue 25, ADR 091) as the demo BusinessAdmin of Bright Dental, with the
// platform's in-process Google stand-in (no GOOGLE_BASE_URL): connect through the stand-in's consent page
// (served by our server), tie one of the account's locations to an install, see and keep its review link.

let p: Platform;
const HOST = 'acme.localhost';
const WAIT = { timeout: 15_000 };
const LINK = 'https://search.google.com/local/writereview?placeid=ChIJsandboxDowntown01';

describe.skipIf(!hasChromium)('Google Business locations in Chromium', () => {
  let page: Page;

  beforeAll(async () => {
    p = await startPlatform();
    page = await signedInPage(p, DEMO.dentalAdmin, '**/business/messaging', HOST);
  });
  afterAll(() => p?.stop());

  it('connects Google through the consent page, ties a location to an install and shows its review link', async () => {
    await page.goto(p.url('/business/setting', HOST));
    await page.getByTestId('google-card').waitFor(WAIT);
    await page.getByTestId('google-no-connections').waitFor(WAIT);
    await page.getByTestId('google-connect').click();
    // Google's consent page (the stand-in's, on our own server), then back to the location screen.
    await page.waitForURL('**/api/sandbox/google/o/oauth2/auth?**', WAIT);
    await page.getByTestId('google-sandbox-allow').click();
    await page.waitForURL('**/business/setting/location/create', WAIT);
    await expect
      .poll(() => page.getByTestId('google-location-connection').inputValue(), WAIT)
      .toContain('Bright Dental (Google demo)');

    await page.getByTestId('google-location-place').click();
    await page.getByRole('option', { name: /Bright Dental Downtown/ }).click();
    await expect.poll(() => page.getByTestId('google-review-link').textContent(), WAIT).toBe(LINK);
    await page.getByTestId('google-location-install').click();
    await page.getByRole('option').first().click();
    await page.getByTestId('google-location-save').click();

    await page.waitForURL('**/business/setting', WAIT);
    const table = page.getByTestId('google-locations');
    await table.waitFor(WAIT);
    await table.getByText('Bright Dental Downtown').waitFor(WAIT);
    expect(await table.getByTestId('google-review-link').getAttribute('href')).toBe(LINK);
    expect(await page.getByTestId('google-connection').count()).toBe(1);

    // The edit screen starts from the saved location.
    await table.getByText('Bright Dental Downtown').click();
    await page.waitForURL('**/business/setting/location/*', WAIT);
    await expect
      .poll(() => page.getByTestId('google-location-place').inputValue(), WAIT)
      .toContain('Bright Dental Downtown');
    await expect.poll(() => page.getByTestId('google-review-link').textContent(), WAIT).toBe(LINK);
  });
});

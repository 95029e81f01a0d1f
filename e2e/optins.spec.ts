import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, hasChromium, type Platform, signedInPage, startPlatform } from './harness.ts';

// The agency's free-demo requests (issue 23): a visitor's request on Acme's site shows on Acme's Landing
// Page screen, and the CSV export holds it.

let p: Platform;
const HOST = 'acme.localhost';
const WAIT = { timeout: 20_000 };

describe.skipIf(!hasChromium)('demo requests in Chromium', () => {
  beforeAll(async () => {
    p = await startPlatform();
  }, 180_000);
  afterAll(() => p?.stop());

  it("a visitor's request shows on the agency's Landing Page screen and in its CSV", async () => {
    const res = await fetch(p.url('/api/v1/agencies/optin-users'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'vera@visitor.test',
        full_name: 'Vera Visitor',
        business_name: 'Vera Vets',
        phone: '415 555 0142',
        domain: HOST,
      }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const page = await signedInPage(p, DEMO.acmeAgency, '**/agency/**', HOST);
    await page.goto(p.url('/agency/landing-page', HOST));
    const table = page.getByTestId('optin-table');
    await expect.poll(() => table.textContent(), WAIT).toContain('Vera Vets');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('optin-export').click(),
    ]);
    const csv = await readFile((await download.path()) ?? '', 'utf8');
    expect(csv).toContain('vera@visitor.test');
    await page.context().close();
  }, 60_000);
});

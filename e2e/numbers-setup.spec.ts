import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, hasChromium, type Platform, signIn, startPlatform } from './harness.ts';

// Issue 9: agency Setup (a new agency without telephony is sent to Setup, chooses the sandbox and lands on
// its landing page) and the business's numbers screen (buy a number for its install through the sandbox).

let p: Platform;
const WAIT = { timeout: 15_000 };

async function apiFrom<T = unknown>(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ([m, u, b]) => {
      const res = await fetch(`/api${u}`, {
        method: m as string,
        headers: {
          authorization: `Bearer ${localStorage.getItem('access_token')}`,
          ...(b === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: b === undefined ? undefined : JSON.stringify(b),
      });
      return { status: res.status, body: (await res.json().catch(() => null)) as unknown };
    },
    [method, path, body] as const,
  ) as Promise<{ status: number; body: T }>;
}

describe.skipIf(!hasChromium)('agency Setup and numbers in Chromium', () => {
  beforeAll(async () => {
    p = await startPlatform();
  });
  afterAll(() => p?.stop());

  it('a new agency is sent to Setup, chooses the sandbox and lands on its landing page', async () => {
    const admin = await p.newPage();
    await signIn(admin.page, p.url('/login'), DEMO.superAdmin);
    await admin.page.waitForURL('**/admin/agency/accounts');
    const created = await apiFrom(admin.page, 'POST', '/v1/agencies', {
      name: 'Setup Street Agency',
      free_fee: true,
      user: { email: 'owner@setupstreet.test', firstName: 'Sol', password: 'setup-street-1' },
      whitelabel: { domain: 'setupstreet', type: 'subdomain' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    await admin.context.close();

    const { page, context } = await p.newPage();
    try {
      await signIn(page, p.url('/login', 'setupstreet.localhost'), {
        email: 'owner@setupstreet.test',
        password: 'setup-street-1',
      });
      await page.waitForURL('**/agency/setup', WAIT);
      await page.getByTestId('setup-twilio').waitFor();
      // A refused account keeps what was typed and says why, next to the token.
      const sid = `AC${'0'.repeat(32)}`;
      await page.getByTestId('setup-account-sid').fill(sid);
      await page.getByTestId('setup-auth-token').fill('wrong-token');
      // Nothing is saved; the typed values stay (a real Twilio answer, or no network: both refuse).
      await page.getByTestId('setup-twilio-save').click();
      await page
        .getByTestId('setup-twilio')
        .getByText(/refused by Twilio|could not be reached/)
        .waitFor(WAIT);
      expect(await page.getByTestId('setup-account-sid').inputValue()).toBe(sid);
      expect(new URL(page.url()).pathname).toBe('/agency/setup');

      await page.getByTestId('setup-sandbox-choose').click();
      await page.waitForURL('**/agency/landing-page', WAIT);
      const status = await apiFrom<{ data: { configured: boolean; sandbox: boolean } }>(
        page,
        'GET',
        `/v1/agencies/${(created.body as { data: { id: number } }).data.id}/twilio-status`,
      );
      expect(status.body.data).toMatchObject({ configured: true, sandbox: true });
      // Set up, Setup sends the agency on.
      await page.goto(p.url('/agency/setup', 'setupstreet.localhost'));
      await page.waitForURL('**/agency/landing-page', WAIT);
    } finally {
      await context.close();
    }
  });

  it('a business buys a number for its install on the numbers screen', async () => {
    // Bright Dental's agency tries the product on the sandbox.
    const agency = await p.newPage();
    await signIn(agency.page, p.url('/login', 'acme.localhost'), DEMO.acmeAgency);
    await agency.page.waitForURL('**/agency/**');
    const setup = await apiFrom(agency.page, 'PUT', '/v1/agencies/twilio-config', { sandbox: true });
    expect(setup.status, JSON.stringify(setup.body)).toBe(200);
    await agency.context.close();

    const { page, context } = await p.newPage();
    try {
      await signIn(page, p.url('/login', 'acme.localhost'), DEMO.dentalAdmin);
      await page.waitForURL('**/business/**');
      await page.goto(p.url('/business/numbers', 'acme.localhost'));
      await page.getByTestId('numbers-table').waitFor(WAIT);
      await page.getByTestId('number-buy').click();
      await page.getByTestId('buy-install').click();
      await page.getByRole('option', { name: /Bright Dental website/ }).click();
      await page.getByTestId('buy-area-code').fill('212');
      await page.getByTestId('buy-search').click();
      const first = page.getByTestId('buy-results').locator('[data-testid^="buy-+1212"]').first();
      await first.waitFor(WAIT);
      const testId = (await first.getAttribute('data-testid')) ?? '';
      const phone = testId.replace(/^buy-/, '');
      expect(phone).toMatch(/^\+1212\d{7}$/);
      await first.click();
      await page.getByTestId('buy-results').waitFor({ state: 'detached', ...WAIT });
      const table = page.getByTestId('numbers-table');
      await table.getByText(phone).waitFor(WAIT);
      expect(await table.textContent()).toContain('Bright Dental website');
      const list = await apiFrom<{ data: { phone_number: string; install_name: string; kind: string }[] }>(
        page,
        'GET',
        '/v1/numbers',
      );
      expect(list.body.data).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            phone_number: phone,
            kind: 'purchased',
            install_name: 'Bright Dental website',
          }),
        ]),
      );
    } finally {
      await context.close();
    }
  });
});

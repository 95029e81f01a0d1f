import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFrom, DEMO, hasChromium, type Platform, signIn, startPlatform } from './harness.ts';

// Issue 9: agency Setup (a new agency without telephony is sent to Setup, chooses the sandbox and lands on
// its landing page) and the business's numbers screen (buy a number for its install through the sandbox).

let p: Platform;
const WAIT = { timeout: 15_000 };

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

  it('a business releases its demo number, buys one for its install, and verifies a caller id', async () => {
    // Bright Dental's agency (Acme) uses the sandbox carrier in the demo data.
    const { page, context } = await p.newPage();
    try {
      await signIn(page, p.url('/login', 'acme.localhost'), DEMO.dentalAdmin);
      await page.waitForURL('**/business/**');
      await page.goto(p.url('/business/numbers', 'acme.localhost'));
      await page.getByTestId('numbers-table').waitFor(WAIT);
      // The demo install came with a sandbox number: one purchased number per install, so release it first.
      type NumberList = {
        data: { id: number; phone_number: string; install_name: string | null; kind: string }[];
      };
      const numbers = async () => (await apiFrom<NumberList>(page, 'GET', '/v1/numbers')).body.data;
      const seeded = (await numbers()).find(
        (n) => n.kind === 'purchased' && n.install_name === 'Bright Dental website',
      );
      if (seeded) {
        await page.getByTestId(`number-release-${seeded.id}`).click();
        await page.getByTestId('number-release-confirm').click();
        await page.getByTestId(`number-release-${seeded.id}`).waitFor({ state: 'detached', ...WAIT });
        expect((await numbers()).map((n) => n.id)).not.toContain(seeded.id);
      }
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
      // Each number says where it is and what it costs a month; buying asks first, with the price.
      const row = page.getByTestId('buy-results').locator('tr', { has: page.getByTestId(testId) });
      expect(await row.textContent()).toContain('New York, NY');
      expect(await page.getByTestId(`price-${phone}`).textContent()).toBe('$1.15/month');
      await first.click();
      const confirm = page.getByTestId('buy-confirm');
      await confirm.waitFor(WAIT);
      expect(await page.getByRole('dialog', { name: 'Buy this number?' }).textContent()).toContain(
        'costs $1.15 a month',
      );
      // Cancelled: nothing is bought.
      await page.getByRole('button', { name: 'Cancel' }).last().click();
      await confirm.waitFor({ state: 'detached', ...WAIT });
      expect((await numbers()).some((n) => n.phone_number === phone)).toBe(false);
      await first.click();
      await page.getByTestId('buy-confirm').click();
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

      // A caller id: added, verified with the carrier's call (answered on a sandbox phone), polled to done.
      const CALLER = '+14155550123';
      await page.getByTestId('number-add-caller-id').click();
      await page.getByTestId('caller-id-phone').fill(CALLER);
      await page.getByTestId('caller-id-submit').click();
      await page.waitForURL('**/verification', WAIT);
      await page.getByTestId('verification-start').click();
      const code = ((await page.getByTestId('verification-code').textContent(WAIT)) ?? '').trim();
      expect(code).toMatch(/^\d{6}$/);
      await page.getByTestId('verification-sandbox-hint').waitFor(WAIT);
      const phonePath = `/v1/sandbox/phones/${encodeURIComponent(CALLER)}`;
      type Phones = { data: { number: string; state: string; call: { gathering: boolean } | null }[] };
      const callerPhone = async () =>
        (await apiFrom<Phones>(page, 'GET', '/v1/sandbox/phones')).body.data.find((x) => x.number === CALLER);
      await expect.poll(async () => (await callerPhone())?.state, WAIT).toBe('ringing');
      expect((await apiFrom(page, 'POST', `${phonePath}/answer`)).status).toBe(200);
      await expect.poll(async () => (await callerPhone())?.call?.gathering, WAIT).toBe(true);
      expect((await apiFrom(page, 'POST', `${phonePath}/press`, { digits: code })).status).toBe(200);
      await page.getByTestId('verification-done').waitFor(WAIT);
    } finally {
      await context.close();
    }
  });
});

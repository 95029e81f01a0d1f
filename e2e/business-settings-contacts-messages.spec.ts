import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, hasChromium, type Platform, signedInPage, startPlatform } from './harness.ts';

// The business's contacts and messages settings (ADR 094) as Bright Dental's BusinessAdmin: from the
// Settings index to each screen, a setting changed and kept over a reload (the default phone country; the
// opt-out message and the inbox signature), then the signature's effect: a text sent from the inbox
// reaches the sandbox phone signed.

let p: Platform;
const HOST = 'acme.localhost';
const INSTALL_NUMBER = '+15005550006';
const VISITOR = '+14155550191';
const WAIT = { timeout: 20_000 };
const SIGNATURE = '- Bright Dental front desk';

type PhoneText = { direction: 'in' | 'out'; other: string; body: string };

/** The visitor's phone texts the install's number through the sandbox control API. */
async function visitorTexts(page: Page, body: string): Promise<void> {
  const status = await page.evaluate(
    async ({ from, to, body }) => {
      const token = localStorage.getItem('access_token');
      const res = await fetch(`/api/v1/sandbox/phones/${encodeURIComponent(from)}/texts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ to, body }),
      });
      return res.status;
    },
    { from: VISITOR, to: INSTALL_NUMBER, body },
  );
  expect(status).toBe(200);
}

/** What the visitor's phone received. */
async function phoneReceived(page: Page): Promise<PhoneText[]> {
  return page.evaluate(async (number) => {
    const token = localStorage.getItem('access_token');
    const res = await fetch('/api/v1/sandbox/phones', { headers: { authorization: `Bearer ${token}` } });
    const phones = (await res.json()).data as { number: string; texts: PhoneText[] }[];
    return (phones.find((ph) => ph.number === number)?.texts ?? []).filter((t) => t.direction === 'in');
  }, VISITOR);
}

describe.skipIf(!hasChromium)('business contacts and messages settings in Chromium', () => {
  let page: Page;

  beforeAll(async () => {
    p = await startPlatform();
    page = await signedInPage(p, DEMO.dentalAdmin, '**/business/**', HOST);
  });
  afterAll(() => p?.stop());

  it('sets the default phone country on the contacts screen, and it is kept over a reload', async () => {
    await page.goto(p.url('/business/setting', HOST));
    await page.getByTestId('setting-link-contacts').click();
    await page.waitForURL('**/business/setting/contacts', WAIT);
    const country = page.getByTestId('contacts-default-country');
    await country.waitFor(WAIT);
    expect(await country.inputValue()).toContain('United States');
    await country.click();
    await country.fill('United Kingdom');
    await page.getByRole('option', { name: 'United Kingdom (+44)', exact: true }).click();
    await page.getByTestId('contacts-settings-save').click();
    await page.getByText('Contacts settings updated successfully.').first().waitFor(WAIT);
    await page.reload();
    await page.getByTestId('contacts-default-country').waitFor(WAIT);
    expect(await page.getByTestId('contacts-default-country').inputValue()).toBe('United Kingdom (+44)');
  });

  it('refuses a signature switched on without its text, then keeps the opt-out message and signature', async () => {
    await page.goto(p.url('/business/setting', HOST));
    await page.getByTestId('setting-link-messages').click();
    await page.waitForURL('**/business/setting/messages', WAIT);
    await page.getByTestId('messages-signature-enabled').check({ force: true });
    await page.getByTestId('messages-settings-save').click();
    await page.getByText('Type the signature, or turn it off.').first().waitFor(WAIT);

    await page.getByTestId('messages-signature').fill(SIGNATURE);
    await page
      .getByTestId('messages-opt-out')
      .fill('Bright Dental: no more texts. Reply START to come back.');
    await page.getByTestId('messages-settings-save').click();
    await page.getByText('Messages settings updated successfully.').first().waitFor(WAIT);
    await page.reload();
    await page.getByTestId('messages-signature').waitFor(WAIT);
    expect(await page.getByTestId('messages-signature-enabled').isChecked()).toBe(true);
    expect(await page.getByTestId('messages-signature').inputValue()).toBe(SIGNATURE);
    expect(await page.getByTestId('messages-opt-out').inputValue()).toBe(
      'Bright Dental: no more texts. Reply START to come back.',
    );
  });

  it('signs a text sent from the inbox: the phone receives it with the signature', async () => {
    await page.goto(p.url('/business/messaging', HOST));
    await page.getByTestId('install-picker').waitFor(WAIT);
    await visitorTexts(page, 'Do you have a slot on Friday?');
    const row = page
      .getByTestId('conversations')
      .locator('[data-testid^="conversation-"]', { hasText: '4155550191' });
    await row.first().waitFor(WAIT);
    await row.first().click();
    await page.getByTestId('conversation').getByText('Do you have a slot on Friday?').waitFor(WAIT);
    await page.getByTestId('send-body').fill('Yes, at 10am.');
    await page.getByTestId('send-button').click();
    await page
      .getByTestId('conversation')
      .getByTestId('message-body')
      .filter({ hasText: SIGNATURE })
      .first()
      .waitFor(WAIT);
    await expect
      .poll(async () => (await phoneReceived(page)).map((t) => t.body), WAIT)
      .toContain(`Yes, at 10am.\n${SIGNATURE}`);
  });
});

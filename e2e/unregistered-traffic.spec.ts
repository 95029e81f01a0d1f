import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, hasChromium, type Platform, signedInPage, signIn, startPlatform } from './harness.ts';

// Unregistered traffic (issue 26, decision 095) in Chromium on the real sandbox carrier: once Acme (the demo
// agency, on a sandbox account) has begun its SMS registration, Bright Dental's reply from its unregistered
// install number is taken by the carrier and then fails with 30034; the inbox shows the message as failed
// with the code and what it means.

let p: Platform;
const HOST = 'acme.localhost';
const INSTALL_NUMBER = '+15005550006';
const VISITOR = '+14155550188';
const WAIT = { timeout: 20_000 };

const PROFILE = {
  friendly_name: 'Acme Callbacks',
  email: 'compliance@acme.test',
  business: {
    legal_name: 'Acme Callbacks LLC',
    business_type: 'Limited Liability Corporation',
    industry: 'TECHNOLOGY',
    ein: '12-3456789',
    website: 'https://acme.test',
  },
  representative: {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@acme.test',
    phone: '+14155550199',
    business_title: 'Owner',
    job_position: 'CEO',
  },
  address: {
    street: '1 Main St',
    city: 'San Francisco',
    region: 'CA',
    postal_code: '94105',
    iso_country: 'US',
  },
};

describe.skipIf(!hasChromium)('unregistered traffic in Chromium', () => {
  beforeAll(async () => {
    p = await startPlatform();
  });
  afterAll(() => p?.stop());

  it("the inbox shows a reply from the unregistered number as failed, with 30034's meaning", async () => {
    // The agency begins registering: a customer profile (a draft at the carrier).
    const { page: agency, context } = await p.newPage();
    await signIn(agency, p.url('/login', HOST), DEMO.acmeAgency);
    await agency.waitForURL('**/agency/**', WAIT);
    const created = await agency.evaluate(async (body) => {
      const token = localStorage.getItem('access_token');
      const res = await fetch('/api/v1/twilio/profiles', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return res.status;
    }, PROFILE);
    expect(created).toBe(200);
    await context.close();

    const page = await signedInPage(p, DEMO.dentalAdmin, '**/business/**', HOST);
    await page.goto(p.url('/business/messaging', HOST));
    await page.getByTestId('install-picker').waitFor(WAIT);
    // A visitor texts in (inbound texts are not held), and the agent answers from the install's number.
    const status = await page.evaluate(
      async ({ from, to }) => {
        const token = localStorage.getItem('access_token');
        const res = await fetch(`/api/v1/sandbox/phones/${encodeURIComponent(from)}/texts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ to, body: 'Do you have a slot on Friday?' }),
        });
        return res.status;
      },
      { from: VISITOR, to: INSTALL_NUMBER },
    );
    expect(status).toBe(200);
    const row = page
      .getByTestId('conversations')
      .locator('[data-testid^="conversation-"]', { hasText: '4155550188' });
    await row.first().waitFor(WAIT);
    await row.first().click();
    await page.getByTestId('conversation').getByText('Do you have a slot on Friday?').waitFor(WAIT);
    await page.getByTestId('send-body').fill('Yes, at 10am.');
    await page.getByTestId('send-button').click();
    const out = page.locator('[data-direction="out"]', { hasText: 'Yes, at 10am.' });
    await out.first().waitFor(WAIT);
    await expect.poll(() => out.first().getByTestId('message-status').textContent(), WAIT).toBe('Failed');
    await expect
      .poll(() => out.first().getByTestId('message-error').textContent(), WAIT)
      .toBe('30034: Sending number not registered for texting (A2P 10DLC)');
  });
});

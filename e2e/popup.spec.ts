import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiAs,
  checkPageModal,
  DEMO,
  hasChromium,
  type Platform,
  signedInPage,
  startPlatform,
} from './harness.ts';

// Issue 23's payment popup, end to end: Acme turns its popup on with the Pro plan; a visitor of
// acme.localhost/popup sees the offer, gives their details and pays with the Stripe sandbox's 4242 card,
// and is told to check their e-mail; Acme's list shows them paid. A declined card shows Stripe's message
// and keeps what was typed. The agency's popup screen gives the script, and that script on a page of
// another origin opens the popup's iframe.

const HOST = 'acme.localhost';
const WAIT = { timeout: 30_000 };
let p: Platform;
let acme: Awaited<ReturnType<typeof apiAs>>;
let agencyId: number;
let proId: number;
const OFFER = {
  enabled: true,
  title: 'Text your customers today',
  description: 'Two-way texting for your business.',
  button_text: 'Get Pro',
};
/** The e-mail of the visitor who paid (the agency's list shows them). */
const bought = { paid: '' };

beforeAll(async () => {
  if (!hasChromium) return;
  p = await startPlatform();
  acme = await apiAs(p, DEMO.acmeAgency);
  const profile = await acme<{ data: { user: { agency: { id: number } } } }>('/v1/profile');
  agencyId = profile.body.data.user.agency.id;
  const offers = await fetch(p.url(`/api/v1/order-page/plans?domain=${HOST}&buyer=business`));
  const plans = ((await offers.json()) as { data: { plans: { id: number; name: string }[] } }).data.plans;
  const pro = plans.find((x) => x.name === 'Pro');
  expect(pro, JSON.stringify(plans)).toBeDefined();
  proId = pro?.id ?? 0;
  await setPopup({ ...OFFER, plan_id: proId });
  for (const [key, body] of [
    ['terms-of-services', { title: 'Acme Popup Terms', content: '<p>Pay <em>once</em> a month.</p>' }],
    [
      'privacy-policy',
      { title: 'Acme Popup Privacy', content: '<p>Your card stays with <b>Stripe</b>.</p>' },
    ],
  ] as const) {
    const res = await acme(`/v1/pages/${key}`, { method: 'PUT', body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
}, 180_000);
afterAll(async () => p?.stop());

async function setPopup(body: Record<string, unknown>) {
  const res = await acme(`/v1/agencies/${agencyId}/popup-payment`, { method: 'PUT', body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function fillPopup(page: Page, email: string, card: string) {
  await page.goto(p.url('/popup', HOST));
  await page.getByTestId('popup-page').waitFor(WAIT);
  const fields: Record<string, string> = {
    'popup-email': email,
    'popup-full_name': 'Polly Popup',
    'popup-business_name': `Polly Bakery ${Date.now().toString(36)}`,
    'popup-phone': '+1 415 555 0142',
  };
  for (const [id, value] of Object.entries(fields)) await page.getByTestId(id).fill(value);
  await page.getByTestId('card-number').fill(card);
  await page.getByTestId('card-expiry').fill('12/34');
  await page.getByTestId('card-cvc').fill('123');
  await page.getByTestId('card-submit').click();
}

describe.skipIf(!hasChromium)('the popup without an offer', () => {
  it('shows no offer while the popup is off or names no plan; turned on with a plan it shows the offer', async () => {
    const { page, context } = await p.newPage();
    const noOffer = async () => {
      await page.goto(p.url('/popup', HOST));
      const text = page.getByTestId('popup-no-offer');
      await text.waitFor(WAIT);
      expect(await text.textContent()).toBe('There is no offer here at the moment.');
      expect(await page.getByTestId('popup-page').count()).toBe(0);
      expect(await page.getByTestId('card-submit').count()).toBe(0);
    };
    try {
      await setPopup({ ...OFFER, enabled: false, plan_id: proId });
      await noOffer();
      await setPopup({ ...OFFER, enabled: true, plan_id: null });
      await noOffer();
    } finally {
      await setPopup({ ...OFFER, plan_id: proId });
    }
    await page.goto(p.url('/popup', HOST));
    await page.getByTestId('popup-page').waitFor(WAIT);
    expect(await page.getByTestId('popup-title').textContent()).toBe('Text your customers today');
    expect(await page.getByTestId('popup-plan').textContent()).toContain('Pro');
    expect(await page.getByTestId('popup-no-offer').count()).toBe(0);
    await context.close();
  }, 120_000);

  it("the popup's footer opens the site's Terms of Service and Privacy Policy in the page modal", async () => {
    const { page, context } = await p.newPage();
    await page.goto(p.url('/popup', HOST));
    await page.getByTestId('popup-page').waitFor(WAIT);
    await checkPageModal(page, 'footer-terms', {
      title: 'Acme Popup Terms',
      html: { selector: 'em', text: 'once' },
    });
    await checkPageModal(page, 'footer-privacy', {
      title: 'Acme Popup Privacy',
      html: { selector: 'b', text: 'Stripe' },
    });
    await context.close();
  }, 120_000);
});

describe.skipIf(!hasChromium)('the payment popup (/popup)', () => {
  it("a declined card shows Stripe's message and keeps what was typed", async () => {
    const { page, context } = await p.newPage();
    const email = `declined-${Date.now().toString(36)}@popup.test`;
    await fillPopup(page, email, '4000 0000 0000 0002');
    const error = page.getByTestId('payment-error');
    await error.waitFor(WAIT);
    expect(await error.textContent()).toContain('Your card was declined.');
    expect(await page.getByTestId('popup-email').inputValue()).toBe(email);
    expect(await page.getByTestId('popup-thank-you').count()).toBe(0);
    await context.close();
  }, 120_000);

  it('a visitor sees the offer, pays with 4242 and is thanked; the agency lists them paid', async () => {
    const { page, context } = await p.newPage();
    await page.goto(p.url('/popup', HOST));
    await page.getByTestId('popup-page').waitFor(WAIT);
    expect(await page.getByTestId('popup-title').textContent()).toBe('Text your customers today');
    expect(await page.getByTestId('popup-description').textContent()).toBe(
      'Two-way texting for your business.',
    );
    expect(await page.getByTestId('popup-plan').textContent()).toContain('Pro');
    expect(await page.getByTestId('popup-price').textContent()).toMatch(/\$\d/);
    expect(await page.getByTestId('card-submit').textContent()).toContain('Get Pro');

    const email = `paid-${Date.now().toString(36)}@popup.test`;
    bought.paid = email;
    await fillPopup(page, email, '4242 4242 4242 4242');
    const thanks = page.getByTestId('popup-thank-you');
    await thanks.waitFor(WAIT);
    expect(await thanks.textContent()).toContain(email);
    expect(await thanks.textContent()).toContain('password');

    const list = await acme<{ data: { email: string; status: string; business_id: number | null }[] }>(
      `/v1/agencies/modal-users?keyword=${encodeURIComponent(email)}`,
    );
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ email, status: 'paid' });
    expect(list.body.data[0]?.business_id).toBeTypeOf('number');
    await context.close();
  }, 120_000);

  it("Acme's Popup screen lists the buyer as paid and, newest first, a visitor not charged yet", async () => {
    expect(bought.paid, 'the paid visitor of the test before').not.toBe('');
    const page = await signedInPage(p, DEMO.acmeAgency, '**/agency/**', HOST);
    // A visitor who gave their details and did not pay (the popup's first call, as the page makes it).
    const later = `unpaid-${Date.now().toString(36)}@popup.test`;
    const created = await page.evaluate(
      async ([email]) => {
        const res = await fetch('/api/v1/agencies/modal-users', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            email,
            full_name: 'Una Unpaid',
            business_name: 'Una Crafts',
            phone: '+1 415 555 0177',
            domain: window.location.host,
          }),
        });
        return res.status;
      },
      [later] as const,
    );
    expect(created).toBe(200);
    await page.goto(p.url('/agency/popup', HOST));
    const table = page.getByTestId('modal-user-table');
    const paid = table.locator('tbody tr', { hasText: bought.paid });
    await paid.waitFor(WAIT);
    const cells = await paid.locator('td').allInnerTexts();
    expect(cells[1]).toBe('Polly Popup');
    expect(cells[2]).toMatch(/^Polly Bakery /);
    expect(cells[3]).toBe(bought.paid);
    expect(cells[4]).toBe('+14155550142');
    expect(cells[5]).toBe('Pro');
    expect(await paid.getByTestId('modal-user-status').textContent()).toBe('Paid');
    const unpaid = table.locator('tbody tr', { hasText: later });
    await unpaid.waitFor(WAIT);
    expect(await unpaid.getByTestId('modal-user-status').textContent()).toBe('Not charged');
    // Newest first: the visitor who came after the buyer is above them.
    const emails = await table.locator('tbody tr td:nth-child(4)').allInnerTexts();
    expect(emails.indexOf(later)).toBeGreaterThanOrEqual(0);
    expect(emails.indexOf(later)).toBeLessThan(emails.indexOf(bought.paid));
    await page.context().close();
  }, 120_000);

  it("an agency nobody bought from yet: its Popup screen's list says so", async () => {
    const page = await signedInPage(p, DEMO.mainAgency, '**/agency/**');
    await page.goto(p.url('/agency/popup'));
    const table = page.getByTestId('modal-user-table');
    await table.getByText('Nobody has bought through the popup yet.').waitFor(WAIT);
    expect(await table.locator('[data-testid="modal-user-status"]').count()).toBe(0);
    await page.context().close();
  }, 120_000);
});

describe.skipIf(!hasChromium)("the popup script on the agency's own websites", () => {
  let script = '';
  let site: http.Server | undefined;
  afterAll(async () => {
    site?.closeAllConnections();
    await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
  });

  it("the agency's popup screen gives the script, naming its own site", async () => {
    const page = await signedInPage(p, DEMO.acmeAgency, '**/agency/**', HOST);
    await page.goto(p.url('/agency/popup', HOST));
    await page.getByTestId('agency-popup-get-script').click();
    const code = page.getByTestId('agency-popup-script-code');
    await code.waitFor(WAIT);
    script = (await code.textContent()) ?? '';
    expect(script).toBe(
      `<script src="http://${HOST}:${p.port}/popup.js" data-agency="${agencyId}" async></script>`,
    );
    expect(await page.getByTestId('agency-popup-script-copy').isVisible()).toBe(true);
    await page.context().close();
  }, 120_000);

  it('on a page of another origin the script opens the popup in an iframe; Escape closes it', async () => {
    expect(script).toContain('/popup.js');
    const html = `<!doctype html><html><head><meta charset="utf-8"><title>Polly's Bakery</title></head>
<body><h1>Polly's Bakery</h1><p>Fresh bread daily.</p>${script}</body></html>`;
    site = http.createServer((req, res) => {
      if (req.url === '/') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(html);
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((resolve) => site?.listen(0, '127.0.0.1', () => resolve()));
    const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;

    const { page, context } = await p.newPage();
    await page.goto(url);
    const button = page.locator('[data-stn-popup="button"]');
    await button.waitFor(WAIT);
    expect(await button.textContent()).toBe('Get Pro');
    await button.click();
    const frame = page.locator('[data-stn-popup="frame"]');
    await frame.waitFor(WAIT);
    expect(await frame.getAttribute('src')).toBe(`http://${HOST}:${p.port}/popup`);
    // The popup page itself loads inside the frame, on the agency's origin.
    const inner = page.frameLocator('[data-stn-popup="frame"]');
    await inner.getByTestId('popup-title').waitFor(WAIT);
    expect(await inner.getByTestId('popup-title').textContent()).toBe('Text your customers today');
    await page.keyboard.press('Escape');
    await page.locator('[data-stn-popup="overlay"]').waitFor({ state: 'detached', ...WAIT });
    // Opened again: Escape typed inside the frame (in its form) closes it too; so does the close button.
    await button.click();
    await inner.getByTestId('popup-email').click();
    await page.keyboard.press('Escape');
    await page.locator('[data-stn-popup="overlay"]').waitFor({ state: 'detached', ...WAIT });
    await button.click();
    await page.locator('[data-stn-popup="close"]').click();
    await page.locator('[data-stn-popup="overlay"]').waitFor({ state: 'detached', ...WAIT });
    await context.close();
  }, 120_000);
});

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, checkPageModal, DEMO, hasChromium, type Platform, startPlatform } from './harness.ts';

// Issue 22's order page, end to end: a new agency signs up on /trial on the main domain with the Stripe
// sandbox's 4242 card and lands in the app on Setup with a trial; a declined card shows Stripe's message in
// the form, keeps what was typed, and makes no account.

let p: Platform;
const PLAN = `Agency Trial ${Date.now().toString(36)}`;
const WAIT = { timeout: 30_000 };

beforeAll(async () => {
  if (!hasChromium) return;
  p = await startPlatform();
  const admin = await apiAs(p, DEMO.superAdmin);
  const site = await fetch(p.url('/api/v1/settings/site-data/localhost'));
  const mainId = ((await site.json()) as { data: { agency_id: number } }).data.agency_id;
  const res = await admin(`/v1/agencies/${mainId}/subscription/plans`, {
    method: 'POST',
    body: { name: PLAN, interval: 'month', price_cents: 4900, type: 'agency', features: { Visible: true } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  // The main agency's own terms and privacy pages: what its order pages' footer opens.
  const main = await apiAs(p, DEMO.mainAgency);
  for (const [key, body] of [
    ['terms-of-services', { title: 'Main Terms', content: '<p>Trials end after <em>14 days</em>.</p>' }],
    ['privacy-policy', { title: 'Main Privacy', content: '<ol><li>We never sell your data.</li></ol>' }],
  ] as const) {
    const page = await main(`/v1/pages/${key}`, { method: 'PUT', body });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
  }
}, 180_000);
afterAll(async () => p?.stop());

async function fillOrder(page: Page, who: { email: string; subdomain: string }, card: string) {
  await page.goto(p.url('/trial'));
  await page.getByTestId('order-form').waitFor(WAIT);
  await page.getByLabel(PLAN, { exact: false }).check();
  const fields: Record<string, string> = {
    'order-email': who.email,
    'order-full_name': 'Tina Trial',
    'order-password': 'correct-horse-1',
    'order-password_confirmation': 'correct-horse-1',
    'order-company_name': `Trial Co ${who.subdomain}`,
    'order-phone': '+1 415 555 0123',
    'order-subdomain': who.subdomain,
    'order-businesses_count': '5',
    'order-goals': 'Grow',
  };
  for (const [id, value] of Object.entries(fields)) await page.getByTestId(id).fill(value);
  await page.getByTestId('order-industry').selectOption('3');
  await page.getByTestId('card-number').fill(card);
  await page.getByTestId('card-expiry').fill('12/34');
  await page.getByTestId('card-cvc').fill('123');
  await page.getByTestId('card-submit').click();
}

async function accountExists(email: string): Promise<boolean> {
  const res = await fetch(p.url('/api/v1/uniquemailchk'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  const body = (await res.json()) as { data?: { unique?: boolean }; unique?: boolean };
  return !(body.data?.unique ?? body.unique ?? true);
}

describe.skipIf(!hasChromium)('the order page (/trial)', () => {
  it("a declined card shows Stripe's message, keeps the form, and creates no account", async () => {
    const { page } = await p.newPage();
    const who = {
      email: `declined-${Date.now().toString(36)}@trial.test`,
      subdomain: `declined-${Date.now().toString(36)}`,
    };
    await fillOrder(page, who, '4000 0000 0000 0002');
    const error = page.getByTestId('payment-error');
    await error.waitFor(WAIT);
    expect(await error.textContent()).toContain('Your card was declined.');
    expect(await page.getByTestId('order-email').inputValue()).toBe(who.email);
    expect(new URL(page.url()).pathname).toBe('/trial');
    expect(await accountExists(who.email)).toBe(false);
  }, 120_000);

  it('a new agency signs up with 4242 4242 4242 4242 and lands on Setup with a trial', async () => {
    const { page } = await p.newPage();
    const who = {
      email: `trial-${Date.now().toString(36)}@trial.test`,
      subdomain: `trial-${Date.now().toString(36)}`,
    };
    await fillOrder(page, who, '4242 4242 4242 4242');
    await page.waitForURL((u) => u.pathname === '/agency/setup', WAIT);
    const token = await page.evaluate(() => localStorage.getItem('access_token'));
    expect(token).toBeTruthy();
    const res = await fetch(p.url('/api/v1/subscriptions/current'), {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { status: string } }).data.status).toBe('trialing');
  }, 120_000);

  it("the free-trial layout: the header's support line and the footer of spec 000 §2", async () => {
    const { page } = await p.newPage();
    await page.goto(p.url('/trial'));
    const header = page.getByTestId('order-header');
    await header.waitFor(WAIT);
    expect(await page.getByTestId('order-logo').getAttribute('href')).toBe('/');
    expect(await header.textContent()).toContain('Need help? Contact Support');
    const support = await page.getByTestId('order-support').getAttribute('href');
    expect(support).toMatch(/^mailto:[^?]+\?subject=Free%20Trial%20Signup%20Question$/);
    const footer = page.getByTestId('order-footer');
    const text = (await footer.textContent()) ?? '';
    expect(text).toContain(String(new Date().getFullYear()));
    expect(text).toContain('Terms of Service');
    expect(text).toContain('Privacy Policy');
    expect(await footer.locator('img').count()).toBeGreaterThan(0);
    await page.context().close();
  }, 60_000);

  it("the order footer's Terms of Service and Privacy Policy open the main agency's pages in the page modal", async () => {
    const { page } = await p.newPage();
    for (const path of ['/trial', '/register']) {
      await page.goto(p.url(path));
      await page.getByTestId('order-footer').waitFor(WAIT);
      await checkPageModal(page, 'order-terms', {
        title: 'Main Terms',
        html: { selector: 'em', text: '14 days' },
      });
      await checkPageModal(page, 'order-privacy', {
        title: 'Main Privacy',
        html: { selector: 'li', text: 'We never sell your data.' },
      });
    }
    await page.context().close();
  }, 60_000);

  it("order pages leave an agency's site for the landing route", async () => {
    const { page } = await p.newPage();
    for (const path of ['/trial', '/b/register']) {
      await page.goto(p.url(path, 'acme.localhost'));
      await page.waitForURL((u) => u.pathname !== path, WAIT);
    }
    await page.context().close();
  }, 60_000);
});

/** Fills the business sign-up form (the owner, the business) and pays with `card`. */
async function fillBusiness(page: Page, stamp: string, card: string) {
  const fields: Record<string, string> = {
    'order-email': `owner-${stamp}@newbiz.test`,
    'order-full_name': 'Nina New',
    'order-password': 'correct-horse-1',
    'order-password_confirmation': 'correct-horse-1',
    'order-business_name': `New Biz ${stamp}`,
    'order-phone': '+1 415 555 0199',
  };
  for (const [id, value] of Object.entries(fields)) await page.getByTestId(id).fill(value);
  await page.getByTestId('card-number').fill(card);
  await page.getByTestId('card-expiry').fill('12/34');
  await page.getByTestId('card-cvc').fill('123');
  await page.getByTestId('card-submit').click();
}

/** The signed-in page's subscription, asked from the page (its own site and session). */
async function currentOf(page: Page) {
  return page.evaluate(async () => {
    const res = await fetch('/api/v1/subscriptions/current', {
      headers: { authorization: `Bearer ${localStorage.getItem('access_token')}` },
    });
    return ((await res.json()) as { data: { status: string; plan: { name: string } | null } }).data;
  });
}

describe.skipIf(!hasChromium)('a business signs up', () => {
  it("/b/register on the main domain: the platform's business plans, a test card, and it is in", async () => {
    const { page } = await p.newPage();
    await page.goto(p.url('/b/register'));
    await page.getByTestId('order-form').waitFor(WAIT);
    const text = (await page.getByTestId('order-form').textContent()) ?? '';
    // The main agency's plans for businesses (the demo's), not its plans for agencies.
    expect(text).toContain('Direct Starter');
    expect(text).not.toContain('Agency Starter');
    await page.getByLabel('Direct Starter', { exact: false }).check();
    await fillBusiness(page, Date.now().toString(36), '4242 4242 4242 4242');
    await page.waitForURL((u) => u.pathname.startsWith('/business/'), WAIT);
    expect(await currentOf(page)).toMatchObject({ status: 'trialing', plan: { name: 'Direct Starter' } });
    await page.context().close();
  }, 120_000);

  it("/f/pro on Acme's site sells that one plan of Acme's, and the business is Acme's", async () => {
    const { page } = await p.newPage();
    await page.goto(p.url('/f/pro', 'acme.localhost'));
    await page.getByTestId('order-form').waitFor(WAIT);
    const text = (await page.getByTestId('order-form').textContent()) ?? '';
    expect(text).toContain('Pro');
    expect(text).not.toContain('Starter');
    await fillBusiness(page, `p${Date.now().toString(36)}`, '4242 4242 4242 4242');
    // The product's own thank-you page (spec: its title is the site's title alone).
    await page.waitForURL((u) => u.pathname === '/f/thank-you', WAIT);
    await page.getByTestId('order-thankyou').waitFor(WAIT);
    expect(await currentOf(page)).toMatchObject({
      status: 'active',
      plan: { name: 'Pro' },
    });
    await page.context().close();
  }, 120_000);
});

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../apps/server/src/platform/db/client.ts';
import { StripeSandbox } from '../apps/server/src/platform/payments/sandbox/sandbox.ts';
import { apiAs, DEMO, hasChromium, type Platform, signedInPage, startPlatform } from './harness.ts';

// The billing screens (issue 22, ADR 076) on the Stripe sandbox: Acme turns card payments on with "Use the
// Stripe sandbox", sells a plan and a package; a new business of Acme, held on Subscriptions, subscribes
// with a test card and gets through to its area; a declined card shows Stripe's message and leaves it held;
// a coupon shows the discounted price before subscribing; a package bought raises the monthly cap the top
// bar shows.

let p: Platform;
const HOST = 'acme.localhost';
const WAIT = { timeout: 20_000 };
type Api = Awaited<ReturnType<typeof apiAs>>;

describe.skipIf(!hasChromium)('billing screens in Chromium', () => {
  let acme: Api;
  let agencyId = 0;
  let planId = 0;
  let packageId = 0;
  let seq = 0;

  /** A new business of Acme that pays (not Free), with an install (no install wizard in the way). */
  async function payingBusiness(name: string) {
    seq += 1;
    const who = { email: `owner${seq}@paying${seq}.test`, password: `Paying-pass-${seq}1` };
    const made = await acme('/v1/business', {
      method: 'POST',
      body: { name, free_fee: false, owner: { email: who.email, first_name: name, password: who.password } },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const owner = await apiAs(p, who);
    const install = await owner('/v1/installs', {
      method: 'POST',
      body: { name: `${name} site`, website: `https://paying${seq}.example` },
    });
    expect(install.status, JSON.stringify(install.body)).toBe(200);
    return who;
  }

  async function typeCard(page: Page, number: string) {
    await page.getByTestId('card-number').fill(number);
    await page.getByTestId('card-expiry').fill('12/34');
    await page.getByTestId('card-cvc').fill('123');
    await page.getByTestId('card-submit').click();
  }

  /** Signs `who` in on Acme's site: held on Subscriptions, which offers to choose a plan. */
  async function heldOnSubscriptions(who: { email: string; password: string }) {
    const page = await signedInPage(p, who, '**/business/subscriptions', HOST);
    await page.getByTestId('held-notice').waitFor(WAIT);
    expect(await page.getByTestId('held-buy').textContent()).toContain('Choose a plan below');
    await page.getByTestId(`plan-subscribe-${planId}`).click();
    await page.getByTestId('checkout').waitFor(WAIT);
    return page;
  }

  /**
   * What an agency does in its Stripe dashboard: a coupon on its account. The sandbox keeps its accounts in
   * the platform's database, so a sandbox of this process on the same database is the same Stripe.
   */
  async function agencyCoupon(id: string, percentOff: number) {
    if (!p.databaseUrl) throw new Error("the platform's database is its own: no coupon can be made");
    const agency = await acme<{ data: { stripeConfig: { publicKey: string } } }>(`/v1/agencies/${agencyId}`);
    const { db, pool } = createDb(p.databaseUrl, 2);
    const sandbox = new StripeSandbox({ db, transport: async () => ({ status: 200, body: '' }) });
    try {
      const { rows } = await pool.query<{ secret_key: string }>(
        'select secret_key from stripe_sandbox_accounts where publishable_key = $1',
        [agency.body.data.stripeConfig.publicKey],
      );
      const res = await fetch(`http://127.0.0.1:${await sandbox.port()}/v1/coupons`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${rows[0]?.secret_key}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ id, percent_off: String(percentOff), duration: 'forever' }),
      });
      expect(res.status, await res.text()).toBe(200);
    } finally {
      await sandbox.close();
      await pool.end();
    }
  }

  beforeAll(async () => {
    p = await startPlatform();
    acme = await apiAs(p, DEMO.acmeAgency);
    const profile = await acme<{ data: { user: { agency: { id: number } } } }>('/v1/profile');
    agencyId = profile.body.data.user.agency.id;
    const plan = await acme<{ data: { id: number } }>(`/v1/agencies/${agencyId}/subscription/plans`, {
      method: 'POST',
      body: {
        name: 'Growth',
        interval: 'month',
        price_cents: 4900,
        trial_days: 0,
        features: { Messages: 300, Calls: 30 },
      },
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    planId = plan.body.data.id;
    const pkg = await acme<{ data: { id: number } }>('/v1/packages', {
      method: 'POST',
      body: { name: '500 extra messages', kind: 'messages', quantity: 500, price_cents: 1500 },
    });
    expect(pkg.status, JSON.stringify(pkg.body)).toBe(200);
    packageId = pkg.body.data.id;
  });
  afterAll(() => p?.stop());

  it("Acme turns card payments on with 'Use the Stripe sandbox' on its settings screen", async () => {
    // The demo's Acme already takes cards: as a new agency, it starts without keys.
    if (!p.databaseUrl) throw new Error("the platform's database is its own");
    const { pool } = createDb(p.databaseUrl, 1);
    await pool.query(`update agencies set stripe_config = '{}'::jsonb where id = $1`, [agencyId]);
    await pool.end();
    const page = await signedInPage(p, DEMO.acmeAgency, '**/agency/**', HOST);
    await page.goto(p.url('/agency/settings', HOST));
    await page.getByTestId('agency-stripe-sandbox').click();
    await page.getByTestId('agency-stripe-sandbox-on').waitFor(WAIT);
    expect(await page.getByTestId('agency-stripe-public-key').inputValue()).toMatch(/^pk_test_sandbox_/);
    // Offered only while no keys are set.
    expect(await page.getByTestId('agency-stripe-sandbox').count()).toBe(0);
    await page.context().close();
  });

  it("a declined card shows Stripe's message, keeps what was typed, and the business stays held", async () => {
    const who = await payingBusiness('Declined Diner');
    const page = await heldOnSubscriptions(who);
    await typeCard(page, '4000 0000 0000 0002');
    const error = page.getByTestId('payment-error');
    await error.waitFor(WAIT);
    expect(await error.textContent()).toContain('Your card was declined.');
    expect(await page.getByTestId('card-number').inputValue()).toBe('4000 0000 0000 0002');
    // Nothing bought: still held, after a reload too.
    await page.reload();
    await page.getByTestId('held-notice').waitFor(WAIT);
    expect(await page.getByTestId('subscription-status').getAttribute('data-status')).toBe('none');
    await page.context().close();
  });

  it('a business held on Subscriptions subscribes with 4242 4242 4242 4242 and gets through to its area; a package raises its monthly cap at once', async () => {
    const who = await payingBusiness('Paying Pets');
    const page = await heldOnSubscriptions(who);
    await typeCard(page, '4242424242424242');
    // The answer's user replaces the stored one: the guard lets the business through at once.
    await page.getByTestId('held-notice').waitFor({ state: 'detached', ...WAIT });
    await expect
      .poll(() => page.getByTestId('subscription-status').getAttribute('data-status'), WAIT)
      .toBe('active');
    expect(await page.getByTestId('subscription-plan').textContent()).toBe('Growth');
    await page.goto(p.url('/business/contacts', HOST));
    await page.waitForURL('**/business/contacts', WAIT);
    await page.getByTestId('page-title').waitFor(WAIT);

    // Packages: bought with the default card; the top bar shows the new cap without a reload.
    await page.goto(p.url('/business/packages', HOST));
    const usage = page.getByTestId('messages-usage');
    await expect.poll(() => usage.textContent(), WAIT).toContain('/ 300');
    await page.getByTestId(`package-buy-${packageId}`).click();
    await page.getByTestId('package-buy-ok').click();
    await expect.poll(() => usage.textContent(), WAIT).toContain('/ 800');
    await page.getByTestId('purchase-row').first().waitFor(WAIT);
    expect(await page.getByTestId('purchase-row').first().textContent()).toContain('500 extra messages');
    await page.context().close();
  });

  it('a coupon shows the discounted price before subscribing, and the subscription keeps it', async () => {
    await agencyCoupon('SAVE25', 25);
    const who = await payingBusiness('Coupon Cafe');
    const page = await heldOnSubscriptions(who);
    expect(await page.getByTestId('checkout-price').textContent()).toContain('$49.00');
    // An unknown code is refused at the field.
    await page.getByTestId('coupon-code').fill('NOPE');
    await page.getByTestId('coupon-apply').click();
    await expect.poll(() => page.getByTestId('coupon-code').getAttribute('aria-invalid'), WAIT).toBe('true');
    await page.getByTestId('coupon-code').fill('SAVE25');
    await page.getByTestId('coupon-apply').click();
    const price = page.getByTestId('coupon-price');
    await price.waitFor(WAIT);
    expect(await price.textContent()).toContain('$36.75');
    expect(await page.getByTestId('checkout-old-price').textContent()).toContain('$49.00');
    await typeCard(page, '4242 4242 4242 4242');
    await page.getByTestId('held-notice').waitFor({ state: 'detached', ...WAIT });
    await expect
      .poll(() => page.getByTestId('subscription-coupon-info').textContent(), WAIT)
      .toContain('SAVE25');
    await page.context().close();
  });

  it("a card that asks for the bank's authentication: failed, it says so; completed, the business subscribes", async () => {
    const who = await payingBusiness('Secure Salon');
    const page = await heldOnSubscriptions(who);
    await typeCard(page, '4000 0025 0000 3155');
    await page.getByTestId('card-auth-fail').click();
    const error = page.getByTestId('payment-error');
    await error.waitFor(WAIT);
    expect(await error.textContent()).toContain('unable to authenticate');
    expect(await page.getByTestId('held-notice').count()).toBe(1);
    await page.getByTestId('card-submit').click();
    await page.getByTestId('card-auth-complete').click();
    await page.getByTestId('held-notice').waitFor({ state: 'detached', ...WAIT });
    await page.context().close();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, DEMO, hasChromium, type Platform, signIn, startPlatform } from './harness.ts';

// Issue 17, spec audit and walkthrough (ADR 053): the admin area's business accounts (list, add with
// the agency picked, edit, save), the footer's Terms and Privacy in the public page modal, and no
// SMS-registration banner for an agency on the sandbox.

let p: Platform;
const WAIT = { timeout: 15_000 };

describe.skipIf(!hasChromium)('spec audit (ADR 053)', () => {
  beforeAll(async () => {
    p = await startPlatform();
  }, 120_000);
  afterAll(() => p?.stop());

  it("the footer's Terms of Service and Privacy Policy open the page modal with its title and content", async () => {
    const admin = await apiAs(p, DEMO.superAdmin);
    for (const [key, title] of [
      ['terms-of-services', 'Our Terms'],
      ['privacy-policy', 'Our Privacy'],
    ] as const) {
      const res = await admin(`/v1/pages/${key}`, {
        method: 'PUT',
        body: { title, content: `<h1>${title} heading</h1><p>The ${key} text.</p>` },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const { page, context } = await p.newPage();
    await page.goto(p.url('/popup'));
    const start = page.url();
    await page.getByTestId('footer-terms').click();
    const title = page.getByTestId('public-page-title');
    await title.waitFor(WAIT);
    expect(await title.textContent()).toBe('Our Terms');
    const frame = page.frameLocator('[data-testid="public-page-content"]');
    await expect.poll(() => frame.locator('h1').textContent(), WAIT).toBe('Our Terms heading');
    expect(page.url()).toBe(start);
    await page.keyboard.press('Escape');
    await title.waitFor({ state: 'hidden', ...WAIT });

    await page.getByTestId('footer-privacy').click();
    await title.waitFor(WAIT);
    expect(await title.textContent()).toBe('Our Privacy');
    await expect
      .poll(() => page.frameLocator('[data-testid="public-page-content"]').locator('p').textContent(), WAIT)
      .toBe('The privacy-policy text.');
    expect(page.url()).toBe(start);
    await context.close();
  });

  it("an admin lists every agency's businesses, adds one to a picked agency and edits it", async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login'), DEMO.superAdmin);
    await page.waitForURL(/\/admin\//, WAIT);
    await page.goto(p.url('/admin/business'));
    await expect.poll(() => page.getByTestId('page-title').textContent(), WAIT).toBe('Business Accounts');
    const table = page.getByTestId('business-table');
    // Every agency's businesses; one agency's with the filter.
    await page.getByTestId('business-agency-filter').fill('Acme');
    await page.getByRole('option', { name: 'Acme Callbacks' }).click();
    await page.getByTestId('table-search').fill('Bright');
    const dental = table.locator('tr', { hasText: 'Bright Dental' });
    await dental.waitFor(WAIT);
    expect(await dental.getByTestId('business-agency').textContent()).toBe('Acme Callbacks');
    // The sidebar leads here too.
    expect(
      await page.getByTestId('sidebar').locator('[data-route="admin.business"]').count(),
    ).toBeGreaterThan(0);

    // Add: the admin picks the agency, then the business and its owner.
    await page.getByTestId('business-add').click();
    await page.waitForURL(/\/admin\/business\/add$/, WAIT);
    await page.getByTestId('business-form-submit').click();
    // Without an agency the form says so and sends nothing.
    await expect
      .poll(() => page.getByTestId('business-form-agency').getAttribute('aria-invalid'), WAIT)
      .toBe('true');
    await page.getByTestId('business-form-agency').fill('Acme');
    await page.getByRole('option', { name: 'Acme Callbacks' }).click();
    await page.getByTestId('business-form-name').fill('Admin Bakery');
    await page.getByTestId('business-form-owner-email').fill('owner@adminbakery.test');
    await page.getByTestId('business-form-owner-first-name').fill('Bea');
    await page.getByTestId('business-form-owner-password').fill('bakery-pass-1');
    await page.getByTestId('business-form-submit').click();
    await page.waitForURL(/\/admin\/business$/, WAIT);
    const bakery = table.locator('tr', { hasText: 'Admin Bakery' });
    await bakery.waitFor(WAIT);
    expect(await bakery.getByTestId('business-agency').textContent()).toBe('Acme Callbacks');

    // Edit and save.
    await bakery.getByRole('button', { name: /Admin Bakery/ }).click();
    await page.getByTestId('business-edit').click();
    await page.waitForURL(/\/admin\/business\/edit\/\d+$/, WAIT);
    await expect.poll(() => page.getByTestId('business-form-name').inputValue(), WAIT).toBe('Admin Bakery');
    expect(await page.getByTestId('business-form-agency-name').textContent()).toContain('Acme Callbacks');
    await page.getByTestId('business-form-name').fill('Admin Bakery Two');
    await page.getByTestId('business-form-calls').fill('321');
    await page.getByTestId('business-form-submit').click();
    await page.waitForURL(/\/admin\/business$/, WAIT);
    await table.locator('tr', { hasText: 'Admin Bakery Two' }).waitFor(WAIT);

    const admin = await apiAs(p, DEMO.superAdmin);
    const list = await admin<{ data: { name: string; calls: number; agency_name: string }[] }>(
      '/v1/business?keyword=Admin%20Bakery',
    );
    expect(list.body.data).toEqual([
      expect.objectContaining({ name: 'Admin Bakery Two', calls: 321, agency_name: 'Acme Callbacks' }),
    ]);
    await context.close();
  });

  it('an agency on the sandbox sees no SMS-registration banner', async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login', 'acme.localhost'), DEMO.acmeAgency);
    await page.waitForURL(/\/agency\//, WAIT);
    await page.getByTestId('page-title').waitFor(WAIT);
    await page.getByTestId('banners').waitFor({ state: 'attached', ...WAIT });
    expect(await page.locator('[data-testid^="banner-"]').count()).toBe(0);
    await context.close();
  });
});

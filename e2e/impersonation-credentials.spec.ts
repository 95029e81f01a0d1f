import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, DEMO, hasChromium, type Platform, signIn, startPlatform } from './harness.ts';

// Issue 17 / ADR 050: an impersonation never changes an e-mail or a password and never sends a password
// link, so the screens do not offer it: the controls are disabled and say why, instead of answering 403
// once typed. And a manager who changed someone's address sees that it waits for its confirmation.

let p: Platform;
const ACME = 'acme.localhost';
const WAIT = { timeout: 15_000 };
const HINT = 'While acting as another user you cannot change e-mail addresses or passwords';
const NEXT = 'sally.next@brightdental.test';

describe.skipIf(!hasChromium)('credentials under impersonation, in Chromium', () => {
  let salesId = 0;

  beforeAll(async () => {
    p = await startPlatform();
    // The business owner asks for a new address for a sales user: it waits for its confirmation.
    const owner = await apiAs(p, DEMO.dentalAdmin);
    const list = await owner<{
      data: { id: number; email: string; first_name: string; last_name: string }[];
    }>(`/v1/businesses/users?keyword=${encodeURIComponent(DEMO.dentalSales.email)}`);
    const sales = list.body.data.find((u) => u.email === DEMO.dentalSales.email);
    if (!sales) throw new Error(`no ${DEMO.dentalSales.email}: ${JSON.stringify(list.body)}`);
    salesId = sales.id;
    const current = await owner<{ data: Record<string, unknown> }>(`/v1/businesses/users/${salesId}`);
    const { id: _id, is_owner: _o, created_at: _c, pending_email: _p, ...body } = current.body.data;
    const put = await owner(`/v1/businesses/users/${salesId}`, {
      method: 'PUT',
      body: { ...body, email: NEXT },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
  }, 120_000);
  afterAll(() => p?.stop());

  it('an agency admin acting as a business owner sees a user’s e-mail and password disabled, with the reason', async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login', ACME), DEMO.acmeAgency);
    await page.waitForURL(/\/agency\//, WAIT);
    await page.getByTestId('impersonate-toggle').click();
    await page.getByTestId('impersonation-drawer').waitFor();
    await page.getByTestId('impersonation-search').fill(DEMO.dentalAdmin.email);
    const row = page.locator('[data-testid^="impersonate-user-"]');
    await expect.poll(() => row.count(), WAIT).toBe(1);
    await row.first().click();
    await page.waitForURL(/\/business\//, WAIT);
    await page.getByTestId('main-account-button').waitFor();

    await page.goto(p.url(`/business/users/${salesId}`, ACME));
    const email = page.getByTestId('user-form-email');
    await email.waitFor(WAIT);
    expect(await email.isDisabled()).toBe(true);
    expect(await email.inputValue()).toBe(DEMO.dentalSales.email);
    // The reason is shown with the field (its description) and on the password panel.
    const described = await email.getAttribute('aria-describedby');
    expect(described).toBeTruthy();
    expect(await page.locator(`[id="${described}"]`).textContent()).toContain(HINT);
    expect(await page.getByTestId('set-password-locked').textContent()).toContain(HINT);
    for (const id of [
      'user-password-new',
      'user-password-confirmation',
      'user-password-submit',
      'user-reset-link',
    ]) {
      expect(await page.getByTestId(id).isDisabled(), id).toBe(true);
    }
    // The address the owner asked for waits for its confirmation, and the screen says so.
    const pending = page.getByTestId('user-form-pending-email');
    expect(await pending.textContent()).toContain(`Waiting for confirmation at ${NEXT}`);
    expect(await pending.textContent()).toContain(DEMO.dentalSales.email);

    // The other fields still work: saving the form changes no credentials and is accepted.
    await page.getByTestId('user-form-last-name').fill('Renamed');
    const saved = page.waitForResponse(
      (r) =>
        r.request().method() === 'PUT' && new URL(r.url()).pathname === `/api/v1/businesses/users/${salesId}`,
    );
    await page.getByTestId('user-form-submit').click();
    expect((await saved).status()).toBe(200);
    await context.close();
  });

  it('the business owner, signed in as themself, may change them', async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login', ACME), DEMO.dentalAdmin);
    await page.waitForURL(/\/business\//, WAIT);
    await page.goto(p.url(`/business/users/${salesId}`, ACME));
    const email = page.getByTestId('user-form-email');
    await email.waitFor(WAIT);
    expect(await email.isDisabled()).toBe(false);
    expect(await page.getByTestId('user-password-new').isDisabled()).toBe(false);
    expect(await page.getByTestId('user-reset-link').isDisabled()).toBe(false);
    expect(await page.getByTestId('set-password-locked').count()).toBe(0);
    await context.close();
  });
});

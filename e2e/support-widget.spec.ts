import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, DEMO, hasChromium, type Platform, renderedFrames, signIn, startPlatform } from './harness.ts';

// The support chat of spec 000 §2 Layout (issue 11): the platform admin picks, on the admin settings
// screen, an install of a business under the main agency for agencies and another for businesses under
// the main agency. An agency user then sees the agency install's widget in the app (not on the sign-in
// page, and not after signing out); a business under the main agency sees the other install's; a business
// under another agency sees none. Signing out and an impersonation switch take it away.

let p: Platform;
const MAIN = 'localhost';
const ACME = 'acme.localhost';
const OWNER = { email: 'owner@helpdesk.test', password: 'helpdesk-pass-1' };
const inst = { agency: { id: 0, key: '' }, business: { id: 0, key: '' } };

/** The support chat on the page: its script's key, and the host elements' ids. */
async function supportChat(page: Page) {
  return page.evaluate(() => ({
    scripts: [...document.querySelectorAll<HTMLScriptElement>('script[data-stn-support]')].map(
      (s) => s.dataset.key,
    ),
    hosts: [...document.querySelectorAll('[data-stn-widget]')].map((h) => h.id),
  }));
}

/** The trigger buttons drawn by the widget's loader inside its host's (open) shadow root. */
async function triggers(page: Page, installId: number): Promise<number> {
  return page.evaluate((id) => {
    const host = document.getElementById(`stn-widget-${id}`);
    return host?.shadowRoot?.querySelectorAll('[data-testid^="stn-trigger-"]').length ?? 0;
  }, installId);
}

async function pick(page: Page, testId: string, search: string) {
  await page.getByTestId(testId).click();
  await page.getByTestId(testId).fill(search);
  await page.getByRole('option', { name: new RegExp(`^${search}`) }).click();
}

async function signOut(page: Page) {
  await page.getByTestId('logout-button').click();
  await page.waitForURL('**/login');
}

describe.skipIf(!hasChromium)('the support chat in Chromium', () => {
  beforeAll(async () => {
    p = await startPlatform();
    // A business under the main agency with two installs: one for agencies, one for businesses.
    const mainAgency = await apiAs(p, DEMO.mainAgency);
    const business = await mainAgency('/v1/business', {
      method: 'POST',
      body: {
        name: 'Helpdesk',
        free_fee: true,
        number_of_installs: 2,
        owner: { email: OWNER.email, first_name: 'Hal', password: OWNER.password },
      },
    });
    expect(business.status, JSON.stringify(business.body)).toBe(200);
    const owner = await apiAs(p, OWNER);
    for (const [which, name] of [
      ['agency', 'Agency support'],
      ['business', 'Business support'],
    ] as const) {
      const made = await owner<{ data: { id: number; key: string } }>('/v1/installs', {
        method: 'POST',
        body: { name, website: `https://${which}.helpdesk.example` },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      inst[which] = { id: made.body.data.id, key: made.body.data.key };
    }
  });
  afterAll(() => p?.stop());

  it('the admin picks the two installs on the settings screen', async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login', MAIN), DEMO.superAdmin);
    await page.waitForURL('**/admin/**');
    // The platform's settings are in the profile menu (the spec's admin menu has no entry for them).
    await page.getByTestId('profile-menu').click();
    await page.getByTestId('platform-settings-link').click();
    await page.waitForURL('**/admin/settings');
    await page.getByTestId('support-widget-section').waitFor();
    await pick(page, 'support-widget-agency', 'Agency support');
    await pick(page, 'support-widget-business', 'Business support');
    await page.getByTestId('support-widget-save').click();
    await page.getByText('Support chat saved.').waitFor();
    // Saved: a fresh load shows both picks.
    await page.reload();
    await expect
      .poll(() => page.getByTestId('support-widget-agency').inputValue())
      .toMatch(/^Agency support · Helpdesk/);
    expect(await page.getByTestId('support-widget-business').inputValue()).toMatch(
      /^Business support · Helpdesk/,
    );
    // The platform admin has no support chat of their own.
    expect(await supportChat(page)).toEqual({ scripts: [], hosts: [] });
    await context.close();
  });

  it("an agency user sees the agency install's widget on the dashboard, not on the login page", async () => {
    const { page, context } = await p.newPage();
    await page.goto(p.url('/login', ACME));
    await page.getByTestId('login-email').waitFor();
    expect(await supportChat(page)).toEqual({ scripts: [], hosts: [] });
    await signIn(page, p.url('/login', ACME), DEMO.acmeAgency);
    await page.waitForURL('**/agency/**');
    await page.goto(p.url('/agency/dashboard', ACME));
    await expect
      .poll(() => supportChat(page), { timeout: 10_000 })
      .toEqual({
        scripts: [inst.agency.key],
        hosts: [`stn-widget-${inst.agency.id}`],
      });
    await expect.poll(() => triggers(page, inst.agency.id), { timeout: 10_000 }).toBeGreaterThan(0);
    // Signing out takes it off: the script, the host and the loader's global.
    await signOut(page);
    expect(await supportChat(page)).toEqual({ scripts: [], hosts: [] });
    expect(await page.evaluate(() => 'STNWidget' in window)).toBe(false);
    await context.close();
  });

  it("a business under the main agency sees the other install's widget", async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login', MAIN), OWNER);
    await page.waitForURL('**/business/**');
    await expect
      .poll(() => supportChat(page), { timeout: 10_000 })
      .toEqual({
        scripts: [inst.business.key],
        hosts: [`stn-widget-${inst.business.id}`],
      });
    await expect.poll(() => triggers(page, inst.business.id), { timeout: 10_000 }).toBeGreaterThan(0);
    await context.close();
  });

  it("impersonating an agency user brings the agency's chat; Main Account takes it away", async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login', MAIN), DEMO.superAdmin);
    await page.waitForURL('**/admin/agency/accounts');
    await page.getByTestId('impersonate-toggle').click();
    await page.getByTestId('impersonation-drawer').waitFor();
    await page.getByTestId('impersonation-search').fill(DEMO.acmeAgency.email);
    const row = page.locator('[data-testid^="impersonate-user-"]');
    await expect.poll(() => row.count()).toBe(1);
    await row.first().click();
    await page.waitForURL('**/agency/**');
    await expect
      .poll(() => supportChat(page), { timeout: 10_000 })
      .toEqual({
        scripts: [inst.agency.key],
        hosts: [`stn-widget-${inst.agency.id}`],
      });
    await page.getByTestId('main-account-button').click();
    await page.waitForURL('**/admin/agency/accounts');
    await expect.poll(() => supportChat(page), { timeout: 10_000 }).toEqual({ scripts: [], hosts: [] });
    expect(await page.evaluate(() => 'STNWidget' in window)).toBe(false);
    await context.close();
  });

  it('a business under another agency sees none', async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login', ACME), DEMO.dentalAdmin);
    await page.waitForURL('**/business/messaging');
    // The profile is loaded (the app's top bar is shown) and no chat came with it, nor comes later.
    await page.getByTestId('logout-button').waitFor();
    await page.waitForLoadState('load');
    await renderedFrames(page);
    expect(await supportChat(page)).toEqual({ scripts: [], hosts: [] });
    await context.close();
  });
});

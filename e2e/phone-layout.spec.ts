import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, hasChromium, type Platform, signIn, startPlatform } from './harness.ts';

// Issue 8, "Phones": at 390 x 844 the header keeps the logo, "Login as" and the tenant (business) name
// apart, the name keeps more than a letter, and the usage counters are one tap away (ADR 023).

let p: Platform;
const ACME = 'acme.localhost';
const PHONE = { width: 390, height: 844 };
const WAIT = { timeout: 15_000 };

type Box = { x: number; y: number; width: number; height: number };

function overlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function box(page: Page, testId: string): Promise<Box> {
  const el = page.getByTestId(testId).first();
  await el.waitFor(WAIT);
  const b = await el.boundingBox();
  if (!b) throw new Error(`${testId} has no box`);
  return b;
}

async function phonePage(who: { email: string; password: string }, host = 'localhost') {
  const { page, context } = await p.newPage();
  await page.setViewportSize(PHONE);
  await signIn(page, p.url('/login', host), who);
  return { page, context };
}

/** Header parts never overlap one another and stay inside the screen; the name is wider than a letter. */
async function expectHeaderFits(page: Page, parts: string[]) {
  const boxes = await Promise.all(parts.map(async (id) => [id, await box(page, id)] as const));
  for (const [id, b] of boxes) {
    expect(b.x, `${id} starts on screen`).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width, `${id} ends on screen`).toBeLessThanOrEqual(PHONE.width + 0.5);
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, ab] = boxes[i] ?? [];
      const [b, bb] = boxes[j] ?? [];
      if (ab && bb) expect(overlap(ab, bb), `${a} overlaps ${b}`).toBe(false);
    }
  }
  const name = await box(page, 'tenant-name');
  // More than a few characters: at least ~6 characters of a 16 px bold font.
  expect(name.width).toBeGreaterThan(60);
}

describe.skipIf(!hasChromium)('phone layout at 390 x 844', () => {
  beforeAll(async () => {
    p = await startPlatform();
  });
  afterAll(() => p?.stop());

  it('admin layout: logo, Login as and the name do not overlap', async () => {
    const { page, context } = await phonePage(DEMO.superAdmin);
    await page.waitForURL('**/admin/agency/accounts');
    await expectHeaderFits(page, ['header-logo', 'tenant-name', 'impersonate-toggle', 'profile-menu']);
    expect(await page.getByTestId('impersonate-toggle').textContent()).toContain('Login as');
    await context.close();
  });

  it('agency layout: logo, Login as and the name do not overlap', async () => {
    const { page, context } = await phonePage(DEMO.acmeAgency, ACME);
    await page.waitForURL('**/agency/business/accounts');
    await expectHeaderFits(page, ['header-logo', 'tenant-name', 'impersonate-toggle', 'profile-menu']);
    await context.close();
  });

  it('business layout: the business name shows, and the usage counters are one tap away', async () => {
    const { page, context } = await phonePage(DEMO.dentalAdmin, ACME);
    await page.waitForURL(/\/business\//);
    await expectHeaderFits(page, ['header-logo', 'tenant-name', 'help-icon', 'profile-menu']);
    expect(await page.getByTestId('tenant-name').textContent()).toContain('Bright Dental');
    // One tap on the burger shows the counters at the top of the drawer.
    await page.getByTestId('sidebar-toggle').click();
    const calls = page.getByTestId('drawer-calls-usage');
    const messages = page.getByTestId('drawer-messages-usage');
    await calls.waitFor({ state: 'visible', ...WAIT });
    expect(await messages.isVisible()).toBe(true);
    const c = await box(page, 'drawer-calls-usage');
    expect(c.x + c.width).toBeLessThanOrEqual(PHONE.width);
    expect(await calls.textContent()).toMatch(/Calls/);
    await context.close();
  });

  it('business layout while an admin is logged in as its user: Main Account and the name do not overlap', async () => {
    const { page, context } = await phonePage(DEMO.superAdmin);
    await page.waitForURL('**/admin/agency/accounts');
    await page.getByTestId('impersonate-toggle').click();
    await page.getByTestId('impersonation-search').fill('admin@brightdental');
    const row = page.locator('[data-testid^="impersonate-user-"]');
    await expect.poll(() => row.count(), WAIT).toBe(1);
    await row.first().click();
    await page.waitForURL(/\/business\//);
    await expect.poll(() => page.getByTestId('tenant-name').textContent(), WAIT).toContain('Bright Dental');
    await expectHeaderFits(page, [
      'header-logo',
      'tenant-name',
      'main-account-button',
      'help-icon',
      'profile-menu',
    ]);
    await context.close();
  });
});

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, hasChromium, type Platform, sidebarRoutes, signIn, startPlatform } from './harness.ts';

// Issue 4, agency area: business accounts (add with the spec 001 §9 defaults, archive, restore), the
// e-mail rule on the add form, and the AgencyAdmin-only agency users.

let p: Platform;
const ACME = 'acme.localhost';
/** Lists refetch after each change; a loaded machine may take a few seconds. */
const WAIT = { timeout: 15_000 };

/** The business rows of the list on screen whose text has `name` (searched, so paging does not hide it). */
async function rowsNamed(page: Page, name: string) {
  await page.getByTestId('table-search').fill(name);
  return page.getByTestId('business-table').locator('[data-testid^="row-"]', { hasText: name });
}

/** The businesses the API knows by that name in one status list, asked from the page with its session. */
async function apiCount(page: Page, name: string, status: string): Promise<number> {
  return page.evaluate(
    async ([keyword, st]) => {
      const res = await fetch(`/api/v1/business?status=${st}&keyword=${encodeURIComponent(keyword ?? '')}`, {
        headers: { authorization: `Bearer ${localStorage.getItem('access_token')}` },
      });
      return ((await res.json()) as { meta: { total: number } }).meta.total;
    },
    [name, status],
  );
}

describe.skipIf(!hasChromium)('agency area in Chromium', () => {
  beforeAll(async () => {
    p = await startPlatform();
  });
  afterAll(() => p?.stop());

  it('the agency admin adds a business with its owner, archives it and restores it', async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login', ACME), DEMO.acmeAgency);
    await page.waitForURL('**/agency/business/accounts');

    await page.getByTestId('business-add').click();
    await page.waitForURL('**/agency/business/add');
    // Spec 001 §9 defaults: 1 user, 1 install, 200 calls, 2000 messages, 2 automations, both widget types.
    expect(await page.getByTestId('business-form-number_of_users').inputValue()).toBe('1');
    expect(await page.getByTestId('business-form-number_of_installs').inputValue()).toBe('1');
    expect(await page.getByTestId('business-form-calls').inputValue()).toBe('200');
    expect(await page.getByTestId('business-form-messages').inputValue()).toBe('2000');
    expect(await page.getByTestId('business-form-number_of_automations').inputValue()).toBe('2');
    expect(await page.getByTestId('business-form-widget-type').inputValue()).toBe('Calls and texts');

    const name = 'E2E Plumbing Co';
    await page.getByTestId('business-form-name').fill(name);
    await page.getByTestId('business-form-owner-email').fill('owner@e2e-plumbing.test');
    await page.getByTestId('business-form-owner-first-name').fill('Pat');
    await page.getByTestId('business-form-owner-last-name').fill('Piper');
    await page.getByTestId('business-form-owner-password').fill('plumbing-pass-1');
    await page.getByTestId('business-form-submit').click();

    await page.waitForURL('**/agency/business/accounts');
    let rows = await rowsNamed(page, name);
    await expect.poll(() => rows.count(), WAIT).toBe(1);
    await expect.poll(() => rows.first().textContent(), WAIT).toContain('owner@e2e-plumbing.test');
    await expect.poll(() => rows.first().textContent(), WAIT).toContain('0 / 200');

    // Archive: it leaves the active list and shows in the archived one.
    await rows.first().locator('[data-testid^="business-actions-"]').click();
    await page.getByTestId('business-archive').click();
    await page.getByTestId('confirm-ok').click();
    await expect.poll(() => rows.count(), WAIT).toBe(0);
    await page.getByTestId('business-tab-archived').click();
    await page.waitForURL('**/agency/business/archived');
    rows = await rowsNamed(page, name);
    await expect.poll(() => rows.count(), WAIT).toBe(1);

    // Restore: back in the active list.
    await rows.first().locator('[data-testid^="business-actions-"]').click();
    await page.getByTestId('business-restore').click();
    await page.getByTestId('confirm-ok').click();
    await expect.poll(() => rows.count(), WAIT).toBe(0);
    await page.getByTestId('business-tab-active').click();
    await page.waitForURL('**/agency/business/accounts');
    rows = await rowsNamed(page, name);
    await expect.poll(() => rows.count(), WAIT).toBe(1);
    expect(await apiCount(page, name, 'active')).toBe(1);
    expect(await apiCount(page, name, 'archived')).toBe(0);
    await context.close();
  });

  it('a bad owner e-mail shows the message next to the field and adds nothing', async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login', ACME), DEMO.acmeAgency);
    await page.waitForURL('**/agency/business/accounts');
    await page.goto(p.url('/agency/business/add', ACME));
    const name = 'E2E Bad Email Business';
    await page.getByTestId('business-form-name').fill(name);
    const email = page.getByTestId('business-form-owner-email');
    await email.fill('not-an-email');
    await page.getByTestId('business-form-owner-first-name').fill('Bea');
    await page.getByTestId('business-form-submit').click();

    // The message is the field's own error: the input is marked invalid and described by it.
    await expect.poll(() => email.getAttribute('aria-invalid'), WAIT).toBe('true');
    const describedBy = (await email.getAttribute('aria-describedby')) ?? '';
    const errorId = describedBy.split(' ').find((id) => id.endsWith('-error'));
    expect(errorId).toBeTruthy();
    expect(await page.locator(`[id="${errorId}"]`).textContent()).toBe(
      'The email must be a valid email address.',
    );
    // Nothing typed is lost, nothing is sent.
    expect(new URL(page.url()).pathname).toBe('/agency/business/add');
    expect(await page.getByTestId('business-form-name').inputValue()).toBe(name);
    expect(await email.inputValue()).toBe('not-an-email');
    expect(await apiCount(page, name, 'active')).toBe(0);
    await context.close();
  });

  it('more installs than the agency has left opens the No Installs Available modal and adds nothing', async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login', ACME), DEMO.acmeAgency);
    await page.waitForURL('**/agency/business/accounts');
    await page.goto(p.url('/agency/business/add', ACME));
    const name = 'E2E Too Many Installs';
    await page.getByTestId('business-form-name').fill(name);
    await page.getByTestId('business-form-number_of_installs').fill('10000');
    await page.getByTestId('business-form-owner-email').fill('owner@e2e-installs.test');
    await page.getByTestId('business-form-owner-first-name').fill('Ian');
    await page.getByTestId('business-form-submit').click();
    // The shell keeps its own (closed) copy of the modal: the open one is the dialog with that title.
    await page.getByRole('dialog', { name: 'No Installs Available' }).waitFor();
    await page.getByTestId('no-installs-close').click();
    expect(await page.getByTestId('business-form-name').inputValue()).toBe(name);
    expect(await apiCount(page, name, 'active')).toBe(0);
    await context.close();
  });

  it('the other agency screens open for the agency admin', async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login', ACME), DEMO.acmeAgency);
    await page.waitForURL('**/agency/business/accounts');
    for (const [path, testId] of [
      ['/agency/users', 'agency-user-table'],
      ['/agency/users/create', 'agency-user-form-email'],
      ['/agency/settings', 'agency-settings-title'],
      ['/agency/settings/notification', 'agency-notification-email'],
      ['/agency/landing-page', 'agency-custom-script'],
      ['/agency/popup', 'agency-popup-title'],
      ['/agency/international', 'agency-international-countries'],
      ['/agency/plans', 'plan-table'],
      ['/agency/plans/add', 'plan-form-name'],
      ['/agency/packages', 'package-table'],
      ['/agency/packages/add', 'package-form-name'],
      ['/agency/business/deleted', 'business-table'],
    ] as const) {
      await page.goto(p.url(path, ACME));
      await page.getByTestId(testId).waitFor({ timeout: 15_000 });
    }
    await page.goto(p.url('/agency/training', ACME));
    await page.locator('[data-testid="training-content"], [data-testid="training-empty"]').first().waitFor();
    // A plan's price is typed in dollars and kept in cents.
    await page.goto(p.url('/agency/plans/add', ACME));
    expect(await page.getByTestId('plan-form-Calls').inputValue()).toBe('20');
    await page.getByTestId('plan-form-name').fill('E2E Pro');
    await page.getByTestId('plan-form-price').fill('49.99');
    await page.getByTestId('plan-form-submit').click();
    await page.waitForURL('**/agency/plans');
    await page.getByTestId('plan-table').getByText('$49.99').waitFor({ timeout: 15_000 });
    await context.close();
  });

  it('a search answered just before an archive does not keep the archived business in the list', async () => {
    // On a slow network, the list's answer for a new search can leave the server before the archive and
    // reach the page after it: the list must ask again, not show the business as still active (ADR 101).
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login', ACME), DEMO.acmeAgency);
    await page.waitForURL('**/agency/business/accounts');
    const name = 'Sunny Plumbing';
    const rows = page.getByTestId('business-table').locator('[data-testid^="row-"]', { hasText: name });
    await page.getByTestId('table-search').fill('Sunny');
    await expect.poll(() => rows.count(), WAIT).toBe(1);

    // The full name's first answer is taken from the server now and handed to the page after the archive.
    let fetched!: () => void;
    const answered = new Promise<void>((r) => {
      fetched = r;
    });
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    let held = 0;
    await page.route(
      (u) => u.pathname === '/api/v1/business' && u.searchParams.get('keyword') === name,
      async (route) => {
        if (held++ > 0) return route.continue();
        // Playwright fetches from Node, which does not resolve acme.localhost as the browser does.
        const url = new URL(route.request().url());
        const host = url.host;
        url.hostname = '127.0.0.1';
        const before = await route.fetch({
          url: url.toString(),
          headers: { ...(await route.request().allHeaders()), host },
        });
        fetched();
        await released;
        await route.fulfill({ response: before });
      },
    );
    await page.getByTestId('table-search').fill(name);
    await answered;

    await rows.first().locator('[data-testid^="business-actions-"]').click();
    await page.getByTestId('business-archive').click();
    const archived = page.waitForResponse(
      (r) => r.request().method() === 'PUT' && r.url().endsWith('/archive') && r.ok(),
    );
    await page.getByTestId('confirm-ok').click();
    await archived;
    release();
    await expect.poll(() => rows.count(), WAIT).toBe(0);
    await expect.poll(() => page.getByTestId('business-table').textContent(), WAIT).toContain('0 in all');
    expect(held).toBe(2);

    const id = await page.evaluate(async (keyword) => {
      const auth = { authorization: `Bearer ${localStorage.getItem('access_token')}` };
      const list = await fetch(`/api/v1/business?status=archived&keyword=${encodeURIComponent(keyword)}`, {
        headers: auth,
      });
      const found = ((await list.json()) as { data: { id: number }[] }).data[0]?.id;
      await fetch(`/api/v1/business/${found}/restore`, { method: 'PUT', headers: auth });
      return found;
    }, name);
    expect(id).toBeGreaterThan(0);
    expect(await apiCount(page, name, 'active')).toBe(1);
    await context.close();
  });

  it('an AccountManager has no agency users in the menu and /agency/users sends them to business accounts', async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login', ACME), DEMO.acmeAccountManager);
    await page.waitForURL('**/agency/business/accounts');
    const routes = await sidebarRoutes(page);
    expect(routes).toContain('agency.business.accounts');
    expect(routes.filter((r) => r.startsWith('agency.users'))).toEqual([]);
    await page.goto(p.url('/agency/users', ACME));
    await page.waitForURL('**/agency/business/accounts');
    await page.getByTestId('business-table').waitFor();
    await context.close();
  });
});

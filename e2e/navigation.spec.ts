import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO,
  hasChromium,
  type Platform,
  renderedFrames,
  sidebarRoutes,
  signIn,
  startPlatform,
} from './harness.ts';

// Issue 7, web navigation on the capability table: a screen a role may not use is not reachable by
// typing its URL (the user lands on a screen they may use and the refused screen never mounts), and a
// Custom type user's menu is its pages plus settings.

let p: Platform;
const ACME = 'acme.localhost';
const WAIT = { timeout: 15_000 };
const MARKETING = { email: 'marketing@acme.test', password: 'demo-marketing-1' };

/** Records, from the first script of every document, whether an element with one of `testIds` ever appears. */
async function watchFor(page: Page, testIds: string[]) {
  await page.addInitScript((ids: string[]) => {
    const w = window as unknown as { __seen: string[] };
    w.__seen = [];
    const check = () => {
      for (const id of ids) {
        if (!w.__seen.includes(id) && document.querySelector(`[data-testid="${id}"]`)) w.__seen.push(id);
      }
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true });
  }, testIds);
  return () => page.evaluate(() => (window as unknown as { __seen: string[] }).__seen);
}

/** Counts the page's requests in flight (documents, scripts, API calls). */
function inFlight(page: Page) {
  let n = 0;
  page.on('request', () => n++);
  page.on('requestfinished', () => n--);
  page.on('requestfailed', () => n--);
  return () => n;
}

/**
 * Waits until a screen opened by a click has settled: the route's loading flag and the code-loading
 * fallback are gone and nothing is in flight across two rendered frames in a row (a screen's calls start
 * in the effects of the frame that mounts it). A polling screen rests between its polls.
 */
async function settled(page: Page, network: () => number) {
  // Checked every frame: a locator's wait polls every 500 ms once it has waited a while, and the route's
  // flag stays up 400 ms after each change, so each screen would wait twice as long as it takes.
  await page.waitForFunction(
    () => !document.querySelector('[data-testid="route-loading"], [data-testid="chunk-loading"]'),
    undefined,
    { polling: 'raf', ...WAIT },
  );
  for (let quiet = 0; quiet < 2; ) {
    await renderedFrames(page, 1);
    if (network() > 0) {
      quiet = 0;
      // The next answer; a request that never ends (none today) leaves after WAIT, as a person would.
      const done = await Promise.race([
        page.waitForEvent('requestfinished', WAIT),
        page.waitForEvent('requestfailed', WAIT),
      ]).catch(() => undefined);
      if (!done) return;
    } else quiet++;
  }
}

/** Types a URL into the address bar (a full page load, as a person would) and waits for where it lands. */
async function typeUrl(page: Page, path: string, landing: string) {
  await page.goto(p.url(path, ACME));
  await page.waitForURL(`**${landing}`, WAIT);
}

describe.skipIf(!hasChromium)('navigation by capability in Chromium', () => {
  beforeAll(async () => {
    p = await startPlatform();
    // The demo data has no MarketingManager (agency user_type 3): the Acme owner adds one through the API.
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login', ACME), DEMO.acmeAgency);
    await page.waitForURL('**/agency/business/accounts', WAIT);
    const status = await page.evaluate(async (who) => {
      const res = await fetch('/api/v1/agency/users', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${localStorage.getItem('access_token')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          email: who.email,
          first_name: 'Mia',
          last_name: 'Marketing',
          user_type: '3',
          password: who.password,
          password_confirmation: who.password,
        }),
      });
      return res.status;
    }, MARKETING);
    expect(status).toBe(200);
    await context.close();
  });
  afterAll(() => p?.stop());

  it('a MarketingManager typing /agency/packages, /agency/plans or /agency/users lands on business accounts', async () => {
    const { page, context } = await p.newPage();
    const seen = await watchFor(page, ['package-table', 'plan-table', 'agency-user-add']);
    await signIn(page, p.url('/login', ACME), MARKETING);
    await page.waitForURL('**/agency/business/accounts', WAIT);
    const routes = await sidebarRoutes(page);
    // Business accounts without "Add" (it needs 'businesses.manage') and the landing page (Acme has no zapier).
    expect(routes).toEqual([
      'agency.business.accounts',
      'agency.business.archived',
      'agency.business.deleted',
      'agency.landing-page',
    ]);

    for (const path of ['/agency/packages', '/agency/plans', '/agency/users', '/agency/packages/add']) {
      await typeUrl(page, path, '/agency/business/accounts');
      await page.getByTestId('business-table').waitFor(WAIT);
    }
    expect(await seen()).toEqual([]);
    await context.close();
  });

  it('the demo AccountManager typing /agency/packages lands on business accounts, /agency/plans opens', async () => {
    const { page, context } = await p.newPage();
    const seen = await watchFor(page, ['package-table', 'plan-table']);
    await signIn(page, p.url('/login', ACME), DEMO.acmeAccountManager);
    await page.waitForURL('**/agency/business/accounts', WAIT);
    await typeUrl(page, '/agency/packages', '/agency/business/accounts');
    await page.getByTestId('business-table').waitFor(WAIT);
    expect(await seen()).toEqual([]);
    // The control: a screen the table grants an AccountManager still opens by URL.
    await typeUrl(page, '/agency/plans', '/agency/plans');
    await page.getByTestId('plan-table').waitFor(WAIT);
    // ...and the watcher does see a screen that mounts.
    expect(await seen()).toEqual(['plan-table']);
    await context.close();
  });

  it('the demo Custom type user sees only its pages and settings, and cannot type its way to users', async () => {
    const { page, context } = await p.newPage();
    const seen = await watchFor(page, ['users-add', 'users-status']);
    await signIn(page, p.url('/login', ACME), {
      email: 'frontdesk@brightdental.test',
      password: 'demo-dental-4',
    });
    await page.waitForURL('**/business/messaging', WAIT);
    // Its pages: inbox, contacts, tasks and calls (an agent of both kinds, both widgets; its agency uses the
    // sandbox carrier, so the calls group holds the Sandbox Phones), then settings.
    expect(await sidebarRoutes(page)).toEqual([
      'business.messaging',
      'business.tasks',
      'business.contacts',
      'business.calls',
      'business.schedule.calls',
      'business.voice-records',
      'business.sandbox-phones',
      'business.setting',
    ]);
    await typeUrl(page, '/business/users', '/business/messaging');
    await typeUrl(page, '/business/dashboard', '/business/messaging');
    expect(await seen()).toEqual([]);
    await context.close();
  });

  // Each screen a role's menu offers works for that role: none of the calls the screen makes on its own is
  // refused (403) or fails on the server (5xx), and the page throws nothing. The calls of one screen can
  // belong to another module (the inbox's install picker, the contacts' tag picker): only the browser sees
  // the two together (ADR 047).
  // One test per user, so that a slow machine times out one user's walk, not nine (ADR 058).
  const users = [
    { who: DEMO.superAdmin, host: 'localhost' },
    { who: DEMO.mainAgency, host: 'localhost' },
    { who: DEMO.acmeAgency, host: ACME },
    { who: DEMO.acmeAccountManager, host: ACME },
    { who: MARKETING, host: ACME },
    { who: DEMO.dentalAdmin, host: ACME },
    { who: { email: 'support@brightdental.test', password: 'demo-dental-2' }, host: ACME },
    { who: DEMO.dentalSales, host: ACME },
    { who: { email: 'frontdesk@brightdental.test', password: 'demo-dental-4' }, host: ACME },
  ];
  let screens = 0;
  for (const { who, host } of users) {
    it(`${who.email} opens every screen of its menu: no refusal, no server error, no page error`, async () => {
      const problems: string[] = [];
      const { page, context } = await p.newPage();
      let at = '(sign-in)';
      const network = inFlight(page);
      page.on('response', (r) => {
        if (r.status() === 403 || r.status() >= 500)
          problems.push(
            `${who.email} on ${at}: ${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`,
          );
      });
      page.on('pageerror', (e) => problems.push(`${who.email} on ${at}: ${String(e).split('\n')[0]}`));
      await signIn(page, p.url('/login', host), who);
      await page.waitForURL(/\/(admin|agency|business)\//, WAIT);
      await sidebarRoutes(page);
      const links = page.getByTestId('sidebar').locator('a[data-route][href]');
      const hrefs = await links.evaluateAll((els) => els.map((e) => e.getAttribute('href') ?? ''));
      expect(hrefs.length, who.email).toBeGreaterThan(0);
      for (const href of hrefs) {
        at = href;
        await links
          .and(page.locator(`[href="${href}"]`))
          .first()
          .click();
        await settled(page, network);
        screens++;
      }
      await context.close();
      expect(problems).toEqual([]);
    });
  }

  it("the demo users' menus held some eighty screens in all", () => {
    // Every user's menu was walked (a menu that failed to draw would make the walks pass for nothing).
    expect(screens).toBeGreaterThan(users.length * 3);
  });
});

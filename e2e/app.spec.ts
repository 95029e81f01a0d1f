import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, hasChromium, type Platform, sidebarRoutes, signIn, startPlatform } from './harness.ts';

let p: Platform;

describe.skipIf(!hasChromium)('the web app in Chromium', () => {
  beforeAll(async () => {
    p = await startPlatform();
  });
  afterAll(() => p?.stop());

  it('a SuperAdmin signs in and lands in the admin area with the admin menu', async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login'), DEMO.superAdmin);
    await page.waitForURL('**/admin/agency/accounts');
    const routes = await sidebarRoutes(page);
    expect(routes).toContain('admin.agency.accounts');
    expect(routes).toContain('admin.whitelabel');
    expect(routes).toContain('admin.users');
    expect(routes).not.toContain('business.messaging');
    // The tab names the screen, and the main site's title (the platform's name) only once.
    await expect.poll(() => page.title()).toBe('Agency Accounts - Start Texting Now');
    await context.close();
  });

  it('an agency admin signs in on its white-label subdomain, with its branding, and lands in the agency area', async () => {
    const { page, context } = await p.newPage();
    await page.goto(p.url('/login', 'acme.localhost'));
    await expect.poll(() => page.title()).toBe('Sign in - Acme Callbacks - Start Texting Now');
    await expect
      .poll(() => page.getByTestId('login-logo').getAttribute('src'))
      .toMatch(/^data:image\/svg\+xml/);
    await signIn(page, p.url('/login', 'acme.localhost'), DEMO.acmeAgency);
    await page.waitForURL('**/agency/business/accounts');
    const routes = await sidebarRoutes(page);
    expect(routes).toContain('agency.business.accounts');
    expect(routes).toContain('agency.plans');
    expect(routes).not.toContain('admin.whitelabel');
    await expect.poll(() => page.getByTestId('tenant-name').textContent()).toContain('Acme Callbacks');
    await context.close();
  });

  it('a business admin signs in and lands in messaging with the business menu', async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login', 'acme.localhost'), DEMO.dentalAdmin);
    await page.waitForURL('**/business/messaging');
    const routes = await sidebarRoutes(page);
    for (const r of ['business.messaging', 'business.contacts', 'business.automation', 'business.installs'])
      expect(routes).toContain(r);
    expect(routes).not.toContain('agency.plans');
    await expect.poll(() => page.getByTestId('tenant-name').textContent()).toContain('Bright Dental');
    await context.close();
  });

  it('guards: a signed-out visitor is sent to sign in and comes back; a wrong area goes home', async () => {
    const { page, context } = await p.newPage();
    await page.goto(p.url('/business/tasks?filter=open', 'acme.localhost'));
    await page.waitForURL(/\/login\?redirect=/);
    expect(decodeURIComponent(new URL(page.url()).searchParams.get('redirect') ?? '')).toBe(
      '/business/tasks?filter=open',
    );
    await page.getByTestId('login-email').fill(DEMO.dentalAdmin.email);
    await page.getByTestId('login-password').fill(DEMO.dentalAdmin.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL('**/business/tasks?filter=open');
    // A business user opening the admin area is sent to its own area.
    await page.goto(p.url('/admin/agency/accounts', 'acme.localhost'));
    await page.waitForURL('**/business/messaging');
    await context.close();
  });

  it('wrong credentials show the message and keep what was typed', async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login'), { email: 'admin@demo.test', password: 'wrong-password' });
    await page.getByText('These credentials do not match our records.').first().waitFor();
    expect(await page.getByTestId('login-email').inputValue()).toBe('admin@demo.test');
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });

  it('impersonation: an admin becomes a business user and comes back with Main Account', async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login'), DEMO.superAdmin);
    await page.waitForURL('**/admin/agency/accounts');
    await page.getByTestId('impersonate-toggle').click();
    await page.getByTestId('impersonation-drawer').waitFor();
    await page.getByTestId('impersonation-search').fill('admin@brightdental');
    const row = page.locator('[data-testid^="impersonate-user-"]');
    await expect.poll(() => row.count()).toBe(1);
    await row.first().click();
    await page.waitForURL('**/business/messaging');
    await expect.poll(() => page.getByTestId('tenant-name').textContent()).toContain('Bright Dental');
    await page.getByTestId('main-account-button').click();
    await page.waitForURL('**/admin/agency/accounts');
    expect(await sidebarRoutes(page)).toContain('admin.whitelabel');
    expect(await page.getByTestId('main-account-button').count()).toBe(0);
    await context.close();
  });

  it('Main Account while a screen of the impersonated user is still loading keeps the main session', async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login'), DEMO.superAdmin);
    await page.waitForURL('**/admin/agency/accounts');
    // The business screen's request for its installs is held until the impersonation has ended on the
    // server, so it comes back 401 (its token revoked) before the app has read the DELETE's answer.
    let holdInstalls!: () => void;
    const installsHeld = new Promise<void>((held) => {
      const released = new Promise<void>((release) => (holdInstalls = release));
      void page.route('**/api/v1/installs/all**', async (route) => {
        held();
        await released;
        await route.continue();
      });
    });
    let releaseDelete!: () => void;
    const deleteReleased = new Promise<void>((release) => (releaseDelete = release));
    const deleted = new Promise<void>((done) => {
      void page.route('**/api/v1/impersonate', async (route) => {
        if (route.request().method() !== 'DELETE') return route.continue();
        const response = await route.fetch();
        done();
        await deleteReleased;
        await route.fulfill({ response });
      });
    });
    await page.getByTestId('impersonate-toggle').click();
    await page.getByTestId('impersonation-search').fill('admin@brightdental');
    const row = page.locator('[data-testid^="impersonate-user-"]');
    await expect.poll(() => row.count()).toBe(1);
    await row.first().click();
    await page.waitForURL('**/business/messaging');
    await installsHeld;
    await page.getByTestId('main-account-button').click();
    await deleted;
    const refused = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/installs/all');
    holdInstalls();
    expect((await refused).status()).toBe(401);
    await page.waitForURL('**/admin/**');
    const listed = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/agencies');
    releaseDelete();
    await page.waitForURL('**/admin/agency/accounts');
    expect((await listed).status()).toBe(200);
    expect(await sidebarRoutes(page)).toContain('admin.whitelabel');
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).not.toBeNull();
    await context.close();
  });

  it('a 401 logs the user out and sends them to sign in', async () => {
    const { page, context } = await p.newPage();
    // The accounts screen loads lazily and asks for its list only after the URL has changed. Revoking the
    // session before that answer is in races the screen's own request against the click below: when the
    // list's 401 wins, the app logs out first and the click waits for a button that is gone.
    const listed = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/agencies');
    await signIn(page, p.url('/login'), DEMO.superAdmin);
    await page.waitForURL('**/admin/agency/accounts');
    expect((await listed).status()).toBe(200);
    await page.getByTestId('impersonate-toggle').waitFor();
    // The session ends elsewhere (revoked on the server); the next API call answers 401.
    const token = await page.evaluate(() => localStorage.getItem('access_token'));
    const res = await fetch(p.url('/api/v1/logout'), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    await page.getByTestId('impersonate-toggle').click();
    await page.waitForURL(/\/login(\?|$)/);
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
    await context.close();
  });

  it('a profile answer cut off on the way (the page being left) keeps the session: the profile is asked again', async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login'), DEMO.superAdmin);
    await page.waitForURL('**/admin/**');
    await page.getByTestId('impersonate-toggle').waitFor();
    // The next load's first profile answer arrives cut off (headers, half a body), as when the page is
    // left while it is read; the ones after it pass.
    let cut = 0;
    await page.route('**/api/v1/profile*', async (route) => {
      if (cut++ === 0)
        await route.fulfill({ status: 200, contentType: 'application/json', body: '{"data":{"us' });
      else await route.continue();
    });
    await page.reload();
    await page.getByTestId('impersonate-toggle').waitFor();
    expect(cut).toBeGreaterThanOrEqual(2);
    expect(page.url()).toMatch(/\/admin\//);
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).not.toBeNull();
    await context.close();
  });

  it('the public release notes page shows what an admin published', async () => {
    const login = await fetch(p.url('/api/v1/login'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(DEMO.superAdmin),
    });
    const { access_token } = (await login.json()) as { access_token: string };
    const created = await fetch(p.url('/api/v1/release-notes'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` },
      body: JSON.stringify({ title: 'Faster callbacks', content: 'Calls connect sooner.', published: true }),
    });
    expect(created.status).toBe(200);
    const { page, context } = await p.newPage();
    await page.goto(p.url('/release-notes'));
    await page.getByTestId('release-note').filter({ hasText: 'Faster callbacks' }).waitFor();
    await context.close();
  });

  it('an unknown path shows not-found', async () => {
    const { page, context } = await p.newPage();
    await page.goto(p.url('/no/such/page'));
    await page.waitForURL('**/not-found');
    await page.getByText('Page not found').waitFor();
    // The empty auth path and '/' (the main agency's host: ADR 077) go to sign in when signed out.
    await page.goto(p.url('/auth'));
    await page.waitForURL(/\/login(\?|$)/);
    await page.goto(p.url('/'));
    await page.waitForURL(/\/login(\?|$)/);
    await context.close();
  });

  it('switching the language to es and br changes the texts, and it is remembered', async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login'), DEMO.mainAgency);
    await page.waitForURL('**/agency/business/accounts');
    const sidebar = page.getByTestId('sidebar');
    await sidebar.getByText('Business Accounts').first().waitFor();
    for (const [lang, text] of [
      ['es', 'Cuentas de negocio'],
      ['br', 'Contas de empresa'],
    ] as const) {
      await page.goto(p.url('/agency/profile'));
      await page.getByTestId('profile-language').selectOption(lang);
      await page.getByTestId('profile-save').click();
      await sidebar.getByText(text).first().waitFor();
    }
    await page.reload();
    await page.getByTestId('sidebar').getByText('Contas de empresa').first().waitFor();
    await context.close();
  });
});

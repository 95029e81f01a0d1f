import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiFrom,
  DEMO,
  hasChromium,
  type Platform,
  renderedFrames,
  signIn,
  startPlatform,
} from './harness.ts';

// Issue 8, "A new user's first hour" (ADR 023): a new agency is told what it needs and who can fix it;
// the business Active switch asks first; out of installs, Add Business says so before the form opens; a
// screen a role may not use shows one not-allowed state; an unsubscribe link asks for a click.

let p: Platform;
const ACME = 'acme.localhost';
const WAIT = { timeout: 15_000 };

async function impersonate(page: Page, email: string) {
  await page.getByTestId('impersonate-toggle').click();
  await page.getByTestId('impersonation-drawer').waitFor();
  await page.getByTestId('impersonation-search').fill(email);
  const row = page.locator('[data-testid^="impersonate-user-"]');
  await expect.poll(() => row.count(), WAIT).toBe(1);
  await row.first().click();
}

describe.skipIf(!hasChromium)('a new user’s first hour', () => {
  beforeAll(async () => {
    p = await startPlatform();
  });
  afterAll(() => p?.stop());

  it('a new agency from Add Agency with the defaults is told what is missing and who can fix it', async () => {
    const NEW = { email: 'owner@firsthour.test', password: 'first-hour-1', subdomain: 'firsthour' };
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login'), DEMO.superAdmin);
    await page.waitForURL('**/admin/agency/accounts');
    await page.getByTestId('agency-add').click();
    await page.waitForURL('**/admin/agency/add');
    // The form says what a new agency needs to get going.
    const help = page.getByTestId('agency-form-get-going');
    expect(await help.textContent()).toContain('What a new agency needs to get going');
    expect(await help.textContent()).toContain('telephony account');
    await page.getByTestId('agency-form-name').fill('First Hour Agency');
    await page.getByTestId('agency-form-user-email').fill(NEW.email);
    await page.getByTestId('agency-form-first-name').fill('Fiona');
    await page.getByTestId('agency-form-password').fill(NEW.password);
    await page.getByTestId('agency-form-domain-type').selectOption('subdomain');
    await page.getByTestId('agency-form-domain').fill(NEW.subdomain);
    await page.getByTestId('agency-form-submit').click();
    await page.waitForURL(/\/admin\/agency\/edit\/\d+$/);
    const agencyId = Number(new URL(page.url()).pathname.split('/').pop());

    // Its user signs in: held on Subscriptions, which says what is missing and who can fix it.
    const site = await p.newPage();
    await signIn(site.page, p.url('/login', `${NEW.subdomain}.localhost`), NEW);
    await site.page.waitForURL('**/agency/subscriptions');
    const notice = site.page.getByTestId('held-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('First Hour Agency is not ready to use yet');
    expect(await site.page.getByTestId('held-plan').getAttribute('data-state')).toBe('missing');
    expect(await site.page.getByTestId('held-telephony').getAttribute('data-state')).toBe('missing');
    const who = (await site.page.getByTestId('held-who').textContent()) ?? '';
    expect(who).toContain('platform administrator marks the agency Free');
    expect(who).toContain("platform administrator enters the agency's Twilio account");
    // An agency user sees no admin shortcut.
    expect(await site.page.getByTestId('held-admin-fix').count()).toBe(0);
    await site.context.close();

    // The admin looking through its eyes gets a way to fix it: the agency's edit screen.
    await impersonate(page, NEW.email);
    await page.waitForURL('**/agency/subscriptions');
    await page.getByTestId('held-admin-fix').click();
    await page.waitForURL(`**/admin/agency/edit/${agencyId}`);
    await page.getByTestId('agency-form-free_fee').check();
    await page.getByTestId('agency-form-submit').click();
    await page.getByText('Agency updated successfully.', { exact: false }).first().waitFor(WAIT);

    // Free now: held on Setup, with the plan done and the telephony account still missing.
    await impersonate(page, NEW.email);
    await page.waitForURL('**/agency/setup');
    await page.getByTestId('held-notice').waitFor();
    expect(await page.getByTestId('held-plan').getAttribute('data-state')).toBe('done');
    expect(await page.getByTestId('held-telephony').getAttribute('data-state')).toBe('missing');
    // Below the notice, the Setup screen itself (ADR 029): connect Twilio or choose the sandbox.
    await page.getByTestId('setup-sandbox-choose').waitFor();
    await context.close();
  });

  it('the business Active switch asks first; cancel changes nothing', async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login', ACME), DEMO.acmeAgency);
    await page.waitForURL('**/agency/business/accounts');
    type List = { data: { id: number; active: boolean }[] };
    const dental = async () =>
      (await apiFrom<List>(page, 'GET', '/v1/business?status=active&keyword=Bright%20Dental')).body.data[0];
    const id = (await dental())?.id ?? 0;
    expect(id).toBeGreaterThan(0);
    await page.getByTestId('table-search').fill('Bright Dental');
    const toggle = page.getByTestId(`business-active-${id}`);
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(true);

    await toggle.click({ force: true });
    await page.getByTestId('confirm-cancel').click();
    await page.getByTestId('confirm-cancel').waitFor({ state: 'detached' });
    expect(await toggle.isChecked()).toBe(true);
    expect((await dental())?.active).toBe(true);

    try {
      await toggle.click({ force: true });
      await page.getByTestId('confirm-ok').click();
      // The first question's modal closes (with its transition) before the second one opens.
      await page.getByTestId('confirm-ok').waitFor({ state: 'detached' });
      await expect.poll(async () => (await dental())?.active, WAIT).toBe(false);
      await expect.poll(() => toggle.isChecked(), WAIT).toBe(false);
      // Back on, through the same question, once the switch takes a press again: it is disabled while a
      // change is pending, and a forced press on a disabled switch does nothing.
      await expect.poll(() => toggle.isEnabled(), WAIT).toBe(true);
      await toggle.click({ force: true });
      await page.getByTestId('confirm-ok').click();
      await expect.poll(async () => (await dental())?.active, WAIT).toBe(true);
    } finally {
      // The other tests sign in to Bright Dental: never leave it switched off, even on a failure.
      await apiFrom(page, 'PUT', `/v1/businesses/${id}/active`, { active: true });
      await context.close();
    }
  });

  it('out of installs, every Add Business entry point says so before the form opens', async () => {
    const admin = await p.newPage();
    await signIn(admin.page, p.url('/login'), DEMO.superAdmin);
    await admin.page.waitForURL('**/admin/agency/accounts');
    const created = await apiFrom(admin.page, 'POST', '/v1/agencies', {
      name: 'Full House Agency',
      properties: { installs: 0 },
      free_fee: true,
      user: { email: 'owner@fullhouse.test', firstName: 'Fay', password: 'full-house-1' },
      whitelabel: { domain: 'fullhouse', type: 'subdomain' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    // Set up on the sandbox carrier (a Twilio account on the form is checked with the carrier first).
    const setup = await apiFrom(
      admin.page,
      'PUT',
      `/v1/agencies/${(created.body as { data: { id: number } }).data.id}/twilio-config`,
      { sandbox: true },
    );
    expect(setup.status, JSON.stringify(setup.body)).toBe(200);
    await admin.context.close();

    const host = 'fullhouse.localhost';
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login', host), { email: 'owner@fullhouse.test', password: 'full-house-1' });
    await page.waitForURL('**/agency/business/accounts');
    const stats = await apiFrom<{ data: { available_installs: number } }>(
      page,
      'POST',
      `/v1/agencies/${(created.body as { data: { id: number } }).data.id}/install-stats`,
    );
    expect(stats.body.data.available_installs).toBe(0);
    const modal = page.getByRole('dialog', { name: 'No Installs Available' });

    // The list's Add button.
    await page.getByTestId('business-add').click();
    await modal.waitFor();
    expect(await modal.textContent()).toContain('Delete an install or upgrade your plan to add more');
    expect(new URL(page.url()).pathname).toBe('/agency/business/accounts');
    expect(await page.getByTestId('business-form-name').count()).toBe(0);
    await modal.getByTestId('no-installs-close').click();
    await modal.waitFor({ state: 'detached' });

    // The top bar's Add Business.
    await page.getByTestId('add-business').click();
    await modal.waitFor();
    expect(new URL(page.url()).pathname).toBe('/agency/business/accounts');
    await modal.getByTestId('no-installs-close').click();
    await modal.waitFor({ state: 'detached' });

    // The sidebar's link (or a typed URL) reaches the add route, which shows the modal instead of the form.
    await page.goto(p.url('/agency/business/add', host));
    await modal.waitFor();
    expect(await page.getByTestId('business-form-name').count()).toBe(0);
    await modal.getByTestId('no-installs-close').click();
    await page.waitForURL('**/agency/business/accounts');
    await context.close();
  });

  it('a screen the role may no longer use shows the not-allowed state, not a table with an Add button', async () => {
    const owner = await p.newPage();
    await signIn(owner.page, p.url('/login', ACME), DEMO.acmeAgency);
    await owner.page.waitForURL('**/agency/business/accounts');
    type Users = { data: { id: number; email: string; first_name: string; last_name: string }[] };
    const found = await apiFrom<Users>(owner.page, 'GET', '/v1/agency/users?keyword=accounts%40acme');
    const manager = found.body.data.find((u) => u.email === DEMO.acmeAccountManager.email);
    expect(manager).toBeTruthy();
    const setType = (user_type: string) =>
      apiFrom(owner.page, 'PUT', `/v1/agency/users/${manager?.id}`, {
        email: manager?.email,
        first_name: manager?.first_name,
        last_name: manager?.last_name,
        user_type,
      });

    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login', ACME), DEMO.acmeAccountManager);
    await page.waitForURL('**/agency/business/accounts');
    // While this session is open, the account manager becomes a marketing manager (no plans).
    expect((await setType('3')).status).toBe(200);
    try {
      await page.getByTestId('sidebar').locator('[data-route="agency.plans"]').click();
      await page.waitForURL('**/agency/plans');
      const denied = page.getByTestId('not-allowed');
      await denied.waitFor(WAIT);
      expect(await denied.textContent()).toContain('You do not have access to this screen');
      expect(await page.getByTestId('plan-add').count()).toBe(0);
      expect(await page.getByTestId('table-search').count()).toBe(0);
    } finally {
      expect((await setType('1')).status).toBe(200);
    }
    await context.close();
    await owner.context.close();
  });

  it('opening an unsubscribe link asks for a click; only the click unsubscribes', async () => {
    const agency = await p.newPage();
    await signIn(agency.page, p.url('/login', ACME), DEMO.acmeAgency);
    await agency.page.waitForURL('**/agency/business/accounts');
    const sent = await apiFrom(agency.page, 'POST', '/v1/agencies/send-notification', {
      subject: 'First hour news',
      message: 'Hello from Acme.',
    });
    expect(sent.status).toBe(200);
    await agency.context.close();

    const admin = await p.newPage();
    await signIn(admin.page, p.url('/login'), DEMO.superAdmin);
    await admin.page.waitForURL('**/admin/agency/accounts');
    type Outbox = { data: { to: string; subject: string; text: string }[] };
    let link = '';
    await expect
      .poll(async () => {
        const box = await apiFrom<Outbox>(admin.page, 'GET', '/v1/mail-outbox?keyword=First%20hour%20news');
        const mail = box.body.data.find((m) => m.to === DEMO.dentalAdmin.email);
        link = mail?.text.match(/https?:\/\/\S+\/unsubscribe\/email\/[A-Za-z0-9_-]+/)?.[0] ?? '';
        return link;
      }, WAIT)
      .not.toBe('');
    await admin.context.close();

    const dental = await p.newPage();
    await signIn(dental.page, p.url('/login', ACME), DEMO.dentalAdmin);
    await dental.page.waitForURL(/\/business\//);
    const unsubscribed = async () =>
      (
        await apiFrom<{ data: { user: { settings: { email_unsubscribed?: boolean } } } }>(
          dental.page,
          'GET',
          '/v1/profile',
        )
      ).body.data.user.settings.email_unsubscribed === true;
    expect(await unsubscribed()).toBe(false);

    // Opening the link (what a mail scanner does) only asks.
    const path = new URL(link).pathname;
    const opened = await p.newPage();
    const changes: string[] = [];
    opened.page.on('request', (r) => {
      if (r.method() !== 'GET') changes.push(`${r.method()} ${r.url()}`);
    });
    await opened.page.goto(p.url(path, ACME));
    await opened.page.getByTestId('unsubscribe-confirm').waitFor();
    // What the page does on its own (a request from its first effects) has started by its next frames.
    await opened.page.waitForLoadState('load');
    await renderedFrames(opened.page);
    expect(changes).toEqual([]);
    expect(await opened.page.getByTestId('unsubscribe-success').count()).toBe(0);
    expect(await unsubscribed()).toBe(false);

    // The person's click unsubscribes.
    await opened.page.getByTestId('unsubscribe-confirm').click();
    await opened.page.getByTestId('unsubscribe-success').waitFor(WAIT);
    expect(await unsubscribed()).toBe(true);
    await opened.context.close();
    await dental.context.close();
  });
});

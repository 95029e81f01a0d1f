import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, hasChromium, type Platform, signIn, startPlatform } from './harness.ts';

let p: Platform;

const NEWCO = {
  name: 'NewCo Texting',
  title: 'NewCo Messaging',
  subdomain: 'newco',
  email: 'owner@newco.test',
  password: 'newco-owner-1',
};

/** Agencies matching a keyword in a list, straight from the API with the page's token. */
async function agenciesNamed(page: Page, keyword: string, status: 'active' | 'archived') {
  const token = await page.evaluate(() => localStorage.getItem('access_token'));
  const res = await fetch(p.url(`/api/v1/agencies?status=${status}&keyword=${encodeURIComponent(keyword)}`), {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { id: number; name: string }[] }).data;
}

async function confirmModal(page: Page) {
  await page.getByTestId('confirm-ok').click();
}

describe.skipIf(!hasChromium)('admin: agency accounts', () => {
  beforeAll(async () => {
    p = await startPlatform();
  });
  afterAll(() => p?.stop());

  it('a bad subdomain shows the message next to the field and creates nothing', async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login'), DEMO.superAdmin);
    await page.waitForURL('**/admin/agency/accounts');
    await page.getByTestId('agency-add').click();
    await page.waitForURL('**/admin/agency/add');
    await page.getByTestId('agency-form-name').fill('Bad Sub Agency');
    await page.getByTestId('agency-form-user-email').fill('owner@badsub.test');
    await page.getByTestId('agency-form-first-name').fill('Bad');
    await page.getByTestId('agency-form-domain-type').selectOption('subdomain');
    await page.getByTestId('agency-form-domain').fill('Bad_Sub!');
    await page.getByTestId('agency-form-submit').click();
    // Next to the field: the input's own error (aria-describedby points at it).
    const domain = page.getByTestId('agency-form-domain');
    await expect.poll(() => domain.getAttribute('aria-invalid')).toBe('true');
    const errorId = (await domain.getAttribute('aria-describedby'))
      ?.split(' ')
      .find((id) => id.endsWith('error'));
    expect(errorId).toBeTruthy();
    expect(await page.locator(`[id="${errorId}"]`).textContent()).toBe('SubDomain format is invalid.');
    // Nothing sent, nothing lost.
    expect(new URL(page.url()).pathname).toBe('/admin/agency/add');
    expect(await page.getByTestId('agency-form-name').inputValue()).toBe('Bad Sub Agency');
    expect(await agenciesNamed(page, 'Bad Sub Agency', 'active')).toEqual([]);
    await context.close();
  });

  it('creates an agency on a white-label subdomain that answers with its own branding, archives and restores it', async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login'), DEMO.superAdmin);
    await page.waitForURL('**/admin/agency/accounts');
    await page.getByTestId('agency-add').click();
    await page.getByTestId('agency-form-name').fill(NEWCO.name);
    await page.getByTestId('agency-form-email').fill('hello@newco.test');
    await page.getByTestId('agency-form-user-email').fill(NEWCO.email);
    await page.getByTestId('agency-form-first-name').fill('Nora');
    await page.getByTestId('agency-form-last-name').fill('Newman');
    await page.getByTestId('agency-form-password').fill(NEWCO.password);
    await page.getByTestId('agency-form-domain-type').selectOption('subdomain');
    await page.getByTestId('agency-form-domain').fill(NEWCO.subdomain);
    await page.getByTestId('agency-form-submit').click();
    await page.waitForURL(/\/admin\/agency\/edit\/\d+$/);
    await page.getByText('Agency created successfully.').first().waitFor();
    expect(await page.getByTestId('agency-form-domain').inputValue()).toBe(NEWCO.subdomain);

    // Its site title, through the settings of the edit screen.
    await page.getByTestId('agency-tab-settings').click();
    await page.getByTestId('agency-settings-title').fill(NEWCO.title);
    await page.getByTestId('agency-settings-submit').click();
    await page.getByText('Settings updated successfully.').first().waitFor();

    // The new agency's site answers on its subdomain with its branding, and its admin signs in there.
    const site = await p.newPage();
    await site.page.goto(p.url('/login', `${NEWCO.subdomain}.localhost`));
    await expect.poll(() => site.page.title()).toBe(`Sign in - ${NEWCO.title} - Start Texting Now`);
    await signIn(site.page, p.url('/login', `${NEWCO.subdomain}.localhost`), NEWCO);
    await site.page.waitForURL(/\/agency\//);
    await site.context.close();

    // Archive it from the active list...
    await page.goto(p.url('/admin/agency/accounts'));
    await page.getByTestId('table-search').fill('NewCo');
    const [created] = await agenciesNamed(page, NEWCO.name, 'active');
    expect(created).toBeTruthy();
    const id = created?.id ?? 0;
    await page.getByTestId(`agency-archive-${id}`).click();
    await confirmModal(page);
    await page.getByText('Agency archived successfully.').first().waitFor();
    await expect.poll(() => page.getByTestId(`row-${id}`).count()).toBe(0);
    expect(await agenciesNamed(page, NEWCO.name, 'active')).toEqual([]);

    // ...and restore it from the archived list.
    await page.getByTestId('agency-tab-archived').click();
    await page.waitForURL('**/admin/agency/archived');
    await page.getByTestId(`agency-restore-${id}`).click();
    await confirmModal(page);
    await page.getByText('Agency restored successfully.').first().waitFor();
    await expect.poll(() => page.getByTestId(`row-${id}`).count()).toBe(0);
    await page.getByTestId('agency-tab-active').click();
    await page.getByTestId(`row-${id}`).waitFor();
    expect((await agenciesNamed(page, NEWCO.name, 'active')).map((a) => a.id)).toEqual([id]);
    await context.close();
  });

  it('white-label entries show their certificate status, and a certificate can be requested', async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login'), DEMO.superAdmin);
    await page.waitForURL('**/admin/agency/accounts');
    // An agency with its white-label entry (the demo data has none).
    const token = await page.evaluate(() => localStorage.getItem('access_token'));
    const res = await fetch(p.url('/api/v1/agencies'), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'CertCo',
        user: { email: 'owner@certco.test', firstName: 'Cert' },
        whitelabel: { domain: 'certco', type: 'subdomain' },
      }),
    });
    expect(res.status).toBe(200);
    await page.goto(p.url('/admin/whitelabel'));
    await page.getByTestId('table-search').fill('certco');
    const row = page.locator('[data-testid^="row-"]', { hasText: 'certco.localhost' });
    await row.waitFor();
    await row.locator('[data-testid^="whitelabel-request-cert-"]').click();
    await page.getByText('Certificate requested for certco.localhost', { exact: false }).first().waitFor();
    await expect.poll(() => row.locator('[data-testid^="whitelabel-cert-"]').textContent()).toBe('Pending');
    await context.close();
  });

  it('the blacklist takes a valid phone number and refuses a bad one next to the field', async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login'), DEMO.superAdmin);
    await page.waitForURL('**/admin/agency/accounts');
    await page.goto(p.url('/admin/blacklist'));
    const phone = page.getByTestId('blacklist-phone');
    await phone.fill('+1 555');
    await page.getByTestId('blacklist-add').click();
    await page.getByText('Wrong phone number format!!').first().waitFor();
    expect(await page.locator('[data-testid^="row-"]').count()).toBe(0);
    await phone.fill('+1 213 373 4253');
    await page.getByTestId('blacklist-add').click();
    await page.getByText('Number added to the blacklist.').first().waitFor();
    await page.locator('[data-testid^="row-"]', { hasText: '+12133734253' }).waitFor();
    await context.close();
  });
});

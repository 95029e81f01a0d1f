import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiAs,
  DEMO,
  fieldError,
  hasChromium,
  openSection,
  type Platform,
  signedInPage,
  signIn,
  startPlatform,
} from './harness.ts';

// The installs screens and the install wizard (issue 9), as Bright Dental's BusinessAdmin: 'Add install' at
// the business's limit shows 'No Installs Available'; with room, the wizard runs to the end (an invalid
// staff phone blocks Next with the spec's message, Back keeps what was typed, the phone-number step keeps
// the indicator on its parent), the install is listed with its embed code, then archived, restored and
// switched off with a confirm.

let p: Platform;
const HOST = 'acme.localhost';
const NAME = 'Bright Dental blog';

async function onStep(page: Page, key: string) {
  await page.getByTestId(`wizard-step-${key}`).waitFor();
}

/** The indicator's lit step: Mantine marks the current one with data-progress. */
async function indicatorAt(page: Page): Promise<number> {
  const steps = page.locator('[data-testid^="wizard-indicator-"]');
  const n = await steps.count();
  for (let i = 0; i < n; i++) if ((await steps.nth(i).getAttribute('data-progress')) !== null) return i;
  return -1;
}

function rowOf(page: Page, status: string, name: string) {
  return page.getByTestId(`installs-table-${status}`).locator('tr', { hasText: name });
}

describe.skipIf(!hasChromium)('installs and the install wizard in Chromium', () => {
  let page: Page;
  let business: Awaited<ReturnType<typeof apiAs>>;
  let agency: Awaited<ReturnType<typeof apiAs>>;
  let businessId = 0;

  beforeAll(async () => {
    p = await startPlatform();
    business = await apiAs(p, DEMO.dentalAdmin);
    agency = await apiAs(p, DEMO.acmeAgency);
    const me = await business<{ data: { user: { business: { id: number } } } }>('/v1/profile');
    businessId = me.body.data.user.business.id;
    page = await signedInPage(p, DEMO.dentalAdmin, '**/business/**', HOST);
  });
  afterAll(() => p?.stop());

  /** A second person's browser (its own storage, so its own sign-in). */
  async function browserPage(): Promise<Page> {
    return (await p.newPage()).page;
  }

  it("'Add install' at the business's limit shows 'No Installs Available'", async () => {
    const can = await business<{ data: { used_installs: number } }>('/v1/business/can-create-install', {
      method: 'POST',
    });
    expect(can.status).toBe(200);
    // The demo install (seed) already uses Bright Dental's one install.
    const used = can.body.data.used_installs;
    expect(used).toBeGreaterThanOrEqual(1);
    expect(
      (await agency(`/v1/business/${businessId}`, { method: 'PUT', body: { number_of_installs: used } }))
        .status,
    ).toBe(200);

    await page.goto(p.url('/business/installs', HOST));
    await page.getByTestId('installs-table-active').getByRole('table').waitFor();
    await page.getByTestId('installs-add').click();
    await page.getByRole('dialog', { name: 'No Installs Available' }).waitFor();
    await page.getByTestId('no-installs-close').click();
    await page.getByRole('dialog', { name: 'No Installs Available' }).waitFor({ state: 'detached' });
    expect(page.url()).toMatch(/\/business\/installs$/);

    expect(
      (await agency(`/v1/business/${businessId}`, { method: 'PUT', body: { number_of_installs: used + 2 } }))
        .status,
    ).toBe(200);
  });

  it('runs the wizard to the end: checks per step, Back keeps values, Confirm turns the install on', async () => {
    await page.getByTestId('installs-add').click();
    await page.waitForURL('**/business/installs/add');
    await onStep(page, 'website');
    expect(await indicatorAt(page)).toBe(0);

    // Step 1: nothing typed, no Next.
    await page.getByTestId('wizard-next').click();
    expect(await fieldError(page, 'install-name')).toMatch(/required/);
    await onStep(page, 'website');
    await page.getByTestId('install-name').fill(NAME);
    await page.getByTestId('install-website').fill('https://blog.brightdental.example');
    await page.getByTestId('wizard-next').click();

    // Step 2: calls and texts (the default); leaving it creates the install.
    await onStep(page, 'type');
    expect(await page.getByTestId('install-widget-type-3').isChecked()).toBe(true);
    await page.getByTestId('wizard-next').click();

    // Step 3: a calls widget needs a staff phone; a bad one blocks Next with the spec's message.
    await onStep(page, 'calls');
    expect(await indicatorAt(page)).toBe(2);
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('install-agents-error').waitFor();
    await page.getByTestId('install-agent-add').click();
    await page.getByTestId('install-agent-name-0').fill('Reception');
    await page.getByTestId('install-agent-phone-0').fill('+1 123');
    await page.getByTestId('install-timeout').fill('45');
    await page.getByTestId('wizard-next').click();
    expect(await fieldError(page, 'install-agent-phone-0')).toBe('Wrong phone number format!!');
    await onStep(page, 'calls');

    // Back and Next again: what was typed is still there.
    await page.getByTestId('wizard-back').click();
    await onStep(page, 'type');
    expect(await page.getByTestId('install-widget-type-3').isChecked()).toBe(true);
    await page.getByTestId('wizard-back').click();
    await onStep(page, 'website');
    expect(await page.getByTestId('install-name').inputValue()).toBe(NAME);
    await page.getByTestId('wizard-next').click();
    await onStep(page, 'type');
    await page.getByTestId('wizard-next').click();
    await onStep(page, 'calls');
    expect(await page.getByTestId('install-agent-name-0').inputValue()).toBe('Reception');
    expect(await page.getByTestId('install-timeout').inputValue()).toBe('45');

    await page.getByTestId('install-agent-phone-0').fill('');
    await page.getByTestId('install-agent-phone-0').fill('+1 213 373 4253');
    await page.getByTestId('wizard-next').click();

    // Step 3a (a child of step 3): the indicator stays on 'Call settings'.
    await onStep(page, 'number');
    expect(await indicatorAt(page)).toBe(2);
    // Search the sandbox carrier's numbers by area code and buy one for the install (created at step 2).
    await page.getByTestId('install-number-area').fill('213');
    await page.getByTestId('install-number-search').click();
    await page.getByTestId('install-number-results').getByRole('button', { name: 'Buy' }).first().click();
    await expect.poll(() => page.getByTestId('install-number-current').textContent()).toMatch(/\+1213\d{7}/);
    const number = ((await page.getByTestId('install-number-current').textContent()) ?? '').match(
      /\+1\d{10}/,
    )?.[0];
    await page.getByTestId('wizard-next').click();

    await onStep(page, 'hours');
    expect(await indicatorAt(page)).toBe(3);
    expect(await page.getByTestId('install-hours-monday-from').inputValue()).toBe('08:00AM');
    expect(await page.getByTestId('install-hours-monday-to').inputValue()).toBe('05:00PM');
    await page.getByTestId('wizard-next').click();

    await onStep(page, 'look');
    expect(await page.getByTestId('install-color-primary').inputValue()).toBe('#2991D1');
    await page.getByTestId('wizard-next').click();

    // Step 6: review, and Confirm instead of Next.
    await onStep(page, 'review');
    expect(await page.getByTestId('wizard-next').count()).toBe(0);
    expect(await page.getByTestId('install-review').textContent()).toContain('Reception (+12133734253)');
    expect(await page.getByTestId('install-review').textContent()).toContain(number);
    await page.getByTestId('wizard-confirm').click();
    await page.getByTestId('install-wizard-done').waitFor();
    const code = (await page.getByTestId('install-embed-code').textContent()) ?? '';
    expect(code).toMatch(/<script src="[^"]+\/widget\.js" data-key="[^"]+" async><\/script>/);

    // The server has it as the wizard left it: on, finished, with the staff phone and timeout typed.
    const list = await business<{
      data: { id: number; name: string; active: boolean; settings: Record<string, unknown> }[];
    }>(`/v1/installs?status=active&keyword=${encodeURIComponent(NAME)}`);
    const made = list.body.data.find((i) => i.name === NAME);
    expect(made?.active).toBe(true);
    expect(made?.settings.wizard_step).toBeNull();
    expect(made?.settings.timeout).toBe(45);
    expect(made?.settings.phoneAgents).toEqual([{ user_id: null, name: 'Reception', phone: '+12133734253' }]);

    await page.getByTestId('install-wizard-finish').click();
    await page.waitForURL('**/business/installs');
    await rowOf(page, 'active', NAME).waitFor();
    expect(await rowOf(page, 'active', NAME).textContent()).toContain(number);
  });

  it('lists the install with its embed code; archive, restore, and switch off with a confirm', async () => {
    const row = rowOf(page, 'active', NAME);
    await row.getByRole('button', { name: 'Embed code' }).click();
    await page.getByTestId('install-embed-code').waitFor();
    expect(await page.getByTestId('install-embed-code').textContent()).toContain('data-key=');
    await page.keyboard.press('Escape');
    await page.getByTestId('install-embed-code').waitFor({ state: 'detached' });

    await row.getByRole('button', { name: 'Archive' }).click();
    await page.getByTestId('confirm-ok').click();
    await row.waitFor({ state: 'detached' });
    await page.getByTestId('installs-tab-archived').click();
    await page.waitForURL('**/business/installs/archived');
    const archived = rowOf(page, 'archived', NAME);
    await archived.waitFor();
    await archived.getByRole('button', { name: 'Restore' }).click();
    await page.getByTestId('confirm-ok').click();
    await archived.waitFor({ state: 'detached' });
    await page.getByTestId('installs-tab-active').click();
    await page.waitForURL('**/business/installs');
    await row.waitFor();

    // Switching off asks first; cancelling changes nothing.
    const toggle = row.locator('input[type="checkbox"]');
    expect(await toggle.isChecked()).toBe(true);
    await toggle.click({ force: true });
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('confirm-ok').waitFor({ state: 'detached' });
    expect(await toggle.isChecked()).toBe(true);
    await toggle.click({ force: true });
    await page.getByTestId('confirm-ok').click();
    await expect.poll(() => toggle.isChecked()).toBe(false);
    await page.reload();
    await rowOf(page, 'active', NAME).waitFor();
    expect(await rowOf(page, 'active', NAME).locator('input[type="checkbox"]').isChecked()).toBe(false);
  });

  it('a new business is sent to the wizard; leaving it after step 2 and coming back resumes it at step 3', async () => {
    const created = await agency<{ data: { id: number } }>('/v1/business', {
      method: 'POST',
      body: {
        name: 'Fresh Bakery',
        free_fee: true,
        owner: { email: 'owner@freshbakery.test', first_name: 'Fay', password: 'fresh-bakery-1' },
      },
    });
    expect(created.status).toBe(200);
    const owner = await browserPage();
    await signIn(owner, p.url('/login', HOST), {
      email: 'owner@freshbakery.test',
      password: 'fresh-bakery-1',
    });
    // No install yet: the profile's open_install_wizard is true and every screen leads to the wizard.
    await owner.waitForURL('**/business/installs/add');
    await owner.goto(p.url('/business/contacts', HOST));
    await owner.waitForURL('**/business/installs/add');
    await onStep(owner, 'website');
    await owner.getByTestId('install-name').fill('Fresh Bakery site');
    await owner.getByTestId('install-website').fill('https://freshbakery.example');
    await owner.getByTestId('wizard-next').click();
    await onStep(owner, 'type');
    await owner.getByTestId('install-widget-type-2').check();
    await owner.getByTestId('wizard-next').click();
    await onStep(owner, 'calls');

    // Gone and back: the unfinished install (open_install_wizard = its id) opens the wizard where it was.
    await owner.goto(p.url('/business/contacts', HOST));
    await owner.waitForURL(/\/business\/installs\/\d+$/);
    await onStep(owner, 'calls');
    expect(await indicatorAt(owner)).toBe(2);
    // A texts-only widget needs no staff phone.
    await owner.getByTestId('install-calls-off').waitFor();
    for (const step of ['number', 'hours', 'look', 'review']) {
      await owner.getByTestId('wizard-next').click();
      await onStep(owner, step);
    }
    await owner.getByTestId('wizard-back').click();
    await onStep(owner, 'look');
    expect(await owner.getByTestId('install-name').count()).toBe(0);
    await owner.getByTestId('wizard-next').click();
    await onStep(owner, 'review');
    expect(await owner.getByTestId('install-review').textContent()).toContain('Fresh Bakery site');
    await owner.getByTestId('wizard-confirm').click();
    await owner.getByTestId('install-embed-code').waitFor();
    // Finished: the rest of the app is open again.
    await owner.goto(p.url('/business/contacts', HOST));
    await owner.waitForURL('**/business/contacts');
  });

  it('the edit screen saves one section and keeps the others as they were', async () => {
    const list = await business<{ data: { id: number; name: string }[] }>(
      `/v1/installs?status=active&keyword=${encodeURIComponent(NAME)}`,
    );
    const id = list.body.data.find((i) => i.name === NAME)?.id;
    await page.goto(p.url(`/business/installs/${id}`, HOST));
    await openSection(page, 'install-section-calls-toggle', 'install-section-calls');
    expect(await page.getByTestId('install-timeout').inputValue()).toBe('45');
    // A staff phone without a name: its message, nothing saved.
    await page.getByTestId('install-agent-name-0').fill('');
    await page.getByTestId('install-timeout').fill('90');
    await page.getByTestId('install-save-calls').click();
    expect(await fieldError(page, 'install-agent-name-0')).toMatch(/required/);
    expect(
      (await business<{ data: { settings: { timeout: number } } }>(`/v1/installs/${id}`)).body.data.settings
        .timeout,
    ).toBe(45);
    await page.getByTestId('install-agent-name-0').fill('Reception');
    await page.getByTestId('install-timeout').fill('90');
    await page.getByTestId('install-save-calls').click();
    await expect
      .poll(async () => {
        const one = await business<{ data: { settings: { timeout: number; phoneAgents: unknown[] } } }>(
          `/v1/installs/${id}`,
        );
        return one.body.data.settings.timeout;
      })
      .toBe(90);
    const one = await business<{ data: { name: string; settings: { phoneAgents: unknown[] } } }>(
      `/v1/installs/${id}`,
    );
    expect(one.body.data.name).toBe(NAME);
    expect(one.body.data.settings.phoneAgents).toHaveLength(1);

    // The widget icon: upload a picture, then remove it.
    await openSection(page, 'install-section-images-toggle', 'install-section-images');
    const PNG_1X1 =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    await page
      .getByTestId('install-image-widgetIcon')
      .locator('input[type="file"]')
      .setInputFiles({ name: 'icon.png', mimeType: 'image/png', buffer: Buffer.from(PNG_1X1, 'base64') });
    await page.getByTestId('install-image-widgetIcon-remove').waitFor();
    const withIcon = await business<{ data: { widget_icon: string | null } }>(`/v1/installs/${id}`);
    expect(withIcon.body.data.widget_icon).toBeTruthy();
    await page.getByTestId('install-image-widgetIcon-remove').click();
    await page.getByTestId('install-image-widgetIcon-remove').waitFor({ state: 'detached' });
    expect(
      (await business<{ data: { widget_icon: string | null } }>(`/v1/installs/${id}`)).body.data.widget_icon,
    ).toBeNull();
  });
});

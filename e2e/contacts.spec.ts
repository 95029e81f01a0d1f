import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, hasChromium, type Platform, signedInPage, startPlatform, switchTrack } from './harness.ts';

// The contacts screens (ADR 038) in Chromium against the real server: Bright Dental's BusinessAdmin
// creates a contact, edits it, tags it, imports a CSV with one bad row (the report names its line) and
// exports the install's contacts as a CSV file.

let p: Platform;
const HOST = 'acme.localhost';
const WAIT = { timeout: 15_000 };
const PHONE = '+14155550177';

/** A tag made through the API (the tags screen is another issue's part). */
async function createTag(page: Page, name: string): Promise<number> {
  return page.evaluate(async (tagName) => {
    const token = localStorage.getItem('access_token');
    const res = await fetch('/api/v1/tags', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: tagName }),
    });
    return (await res.json()).data.id as number;
  }, name);
}

const rowOf = (page: Page, text: string) =>
  page.getByTestId('contacts-table').locator('tr', { hasText: text });

/**
 * Searches the list (the demo business has hundreds of contacts, and one without messages sorts last) and
 * waits until the row with `text` is shown.
 */
async function find(page: Page, term: string, text = term) {
  const search = page.getByTestId('table-search');
  await search.waitFor(WAIT);
  await search.fill(term);
  await rowOf(page, text).first().waitFor(WAIT);
}

describe.skipIf(!hasChromium)('Contacts in Chromium', () => {
  let page: Page;
  let tagId = 0;

  beforeAll(async () => {
    p = await startPlatform();
    page = await signedInPage(p, DEMO.dentalAdmin, '**/business/**', HOST);
    tagId = await createTag(page, 'Gold members');
  });
  afterAll(() => p?.stop());

  it('custom fields: add one (key from the label), deactivate and activate it, delete another', async () => {
    await page.goto(p.url('/business/contacts/custom-fields', HOST));
    await expect.poll(() => page.getByTestId('page-title').textContent(), WAIT).toBe('Contact Fields');
    for (const label of ['Insurance plan', 'Old field']) {
      await page.getByTestId('contact-fields-add').click();
      await page.getByTestId('contact-field-label').fill(label);
      await page.getByTestId('contact-field-save').click();
      await page.getByTestId('contact-field-save').waitFor({ state: 'detached', ...WAIT });
    }
    const row = page.getByTestId('contact-field-insurance_plan');
    await row.waitFor(WAIT);
    await row.locator('[data-testid^="contact-field-toggle-"]').click();
    await expect.poll(() => row.textContent(), WAIT).toContain('Inactive');
    await row.locator('[data-testid^="contact-field-toggle-"]').click();
    await expect.poll(() => row.textContent(), WAIT).not.toContain('Inactive');
    await page
      .getByTestId('contact-field-old_field')
      .locator('[data-testid^="contact-field-delete-"]')
      .click();
    await page.getByTestId('contact-field-delete-ok').click();
    await page.getByTestId('contact-field-old_field').waitFor({ state: 'detached', ...WAIT });
  });

  it('creates a contact: a wrong phone is refused, a right one lands in the list', async () => {
    await page.goto(p.url('/business/contacts', HOST));
    await expect.poll(() => page.getByTestId('page-title').textContent(), WAIT).toBe('Contacts');
    await page.getByTestId('contacts-add').click();
    await page.waitForURL('**/business/contacts/create');
    const phone = page.getByTestId('contact-form-phone');
    await phone.waitFor(WAIT);
    // With more than one install the new contact's install is chosen first.
    const install = page.getByTestId('contact-form-install');
    if (!(await install.inputValue())) {
      await install.click();
      await page.getByRole('option').first().click();
    }
    await phone.fill('+1 555');
    await page.getByTestId('contact-form-first-name').fill('Ada');
    await page.getByTestId('contact-form-field-insurance_plan').fill('Gold');
    await page.getByTestId('contact-form-submit').click();
    await page.getByText('Wrong phone number format!!').first().waitFor(WAIT);
    expect(page.url()).toContain('/business/contacts/create');
    await phone.fill('+1 415 555 0177');
    await page.getByTestId('contact-form-submit').click();
    await page.waitForURL('**/business/contacts', WAIT);
    await find(page, 'Ada');
    expect(await rowOf(page, 'Ada').textContent()).toContain(PHONE);
    await rowOf(page, 'Ada').locator('[data-testid^="contact-edit-"]').click();
    await expect
      .poll(() => page.getByTestId('contact-form-field-insurance_plan').inputValue(), WAIT)
      .toBe('Gold');
    await page.goBack();
  });

  it('edits the contact and tags it; the tag filter finds it', async () => {
    await find(page, 'Ada');
    await rowOf(page, 'Ada').locator('[data-testid^="contact-edit-"]').click();
    await page.waitForURL(/\/business\/contacts\/\d+$/);
    const last = page.getByTestId('contact-form-last-name');
    await last.waitFor(WAIT);
    await last.fill('Lovelace');
    await page.getByTestId('contact-form-tags').click();
    await page.getByRole('option', { name: 'Gold members' }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('contact-form-submit').click();
    await page.waitForURL('**/business/contacts', WAIT);
    await find(page, 'Lovelace', 'Ada Lovelace');
    const row = rowOf(page, 'Ada Lovelace');
    expect(await row.textContent()).toContain('Gold members');
    await page.getByTestId('contacts-filter-tag').click();
    await page.getByRole('option', { name: 'Gold members' }).click();
    await expect.poll(() => page.getByTestId('contacts-table').locator('tbody tr').count(), WAIT).toBe(1);
    expect(tagId).toBeGreaterThan(0);
  });

  it('the edit screen opts the contact out and back in, asking first', async () => {
    await page.goto(p.url('/business/contacts', HOST));
    await find(page, 'Lovelace', 'Ada Lovelace');
    await rowOf(page, 'Ada Lovelace').locator('[data-testid^="contact-edit-"]').click();
    const optOut = page.getByTestId('contact-opt-out');
    await optOut.waitFor({ state: 'attached', ...WAIT });
    expect(await optOut.isChecked()).toBe(false);
    await switchTrack(optOut).click();
    await page.getByTestId('contact-opt-out-ok').click();
    await expect.poll(() => optOut.isChecked(), WAIT).toBe(true);
    // The first confirm modal closes with a 200 ms transition: until it is gone its overlay swallows the
    // switch's click and its (leaving) button is what the next getByTestId would find.
    await page.getByRole('dialog').waitFor({ state: 'detached', ...WAIT });
    await switchTrack(optOut).click();
    await page.getByTestId('contact-opt-out-ok').click();
    await expect.poll(() => optOut.isChecked(), WAIT).toBe(false);
  });

  it('imports a CSV with one bad row: the good rows are imported and the report shows line 3', async () => {
    await page.goto(p.url('/business/contacts', HOST));
    const csv = [
      'phone,first_name,last_name',
      '+14155550201,Grace,Hopper',
      'not-a-phone,Bad,Row',
      '+14155550202,Alan,Turing',
    ].join('\n');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'contacts-')), 'contacts.csv');
    fs.writeFileSync(file, csv);
    await page.getByTestId('contacts-import-file').waitFor(WAIT);
    await page.getByTestId('contacts-import').locator('input[type="file"]').setInputFiles(file);
    await page.getByTestId('contacts-import-result').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('contacts-import-count').textContent()).toBe('2 contacts imported.');
    const bad = page.getByTestId('contacts-import-error-3');
    await bad.waitFor(WAIT);
    expect(await bad.textContent()).toContain('not-a-phone');
    // Both imported phones start +1 415 555 020.
    await find(page, '415555020', 'Grace Hopper');
    await rowOf(page, 'Alan Turing').waitFor(WAIT);
  });

  it('bulk: tags, opts out and deletes the picked contacts (each asking first)', async () => {
    const pick = async (name: string) =>
      rowOf(page, name).locator('[data-testid^="contact-select-"]').check();
    await pick('Grace Hopper');
    await pick('Alan Turing');
    expect(await page.getByTestId('contacts-bulk-bar').textContent()).toContain('2 contacts selected');
    await page.getByTestId('contacts-bulk-tag').click();
    await page.getByTestId('contacts-bulk-tag-picker').click();
    await page.getByRole('option', { name: 'Gold members' }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('contacts-bulk-tag-save').click();
    await expect.poll(() => rowOf(page, 'Alan Turing').textContent(), WAIT).toContain('Gold members');
    await pick('Grace Hopper');
    await page.getByTestId('contacts-bulk-optout').click();
    await page.getByTestId('contacts-bulk-optout-ok').click();
    await expect.poll(() => rowOf(page, 'Grace Hopper').textContent(), WAIT).toContain('Opted out');
    // The opted-out filter: only Grace.
    await page.getByTestId('contacts-filter-opted-out').click();
    await page.getByRole('option', { name: 'Yes' }).click();
    await expect.poll(() => page.getByTestId('contacts-table').locator('tbody tr').count(), WAIT).toBe(1);
    await page.getByTestId('contacts-filter-opted-out').click();
    await page.getByRole('option', { name: 'Any' }).click();
    await rowOf(page, 'Alan Turing').waitFor(WAIT);
    await pick('Alan Turing');
    await page.getByTestId('contacts-bulk-delete').click();
    await page.getByTestId('contacts-bulk-delete-ok').click();
    await rowOf(page, 'Alan Turing').waitFor({ state: 'detached', ...WAIT });
    expect(await rowOf(page, 'Grace Hopper').count()).toBe(1);
  });

  it('exports the install’s contacts as a CSV file', async () => {
    const button = page.getByTestId('contacts-export');
    await button.waitFor(WAIT);
    const download = page.waitForEvent('download', WAIT);
    await button.click();
    // With more than one install the button opens a menu of them.
    const firstInstall = page.locator('[data-testid^="contacts-export-"]').first();
    if (await firstInstall.isVisible().catch(() => false)) await firstInstall.click();
    const saved = await (await download).path();
    const text = fs.readFileSync(saved, 'utf8');
    expect(text).toContain(PHONE);
    expect(text).toContain('Lovelace');
  });
});

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiFrom,
  DEMO,
  fieldError,
  hasChromium,
  type Platform,
  signedInPage,
  startPlatform,
} from './harness.ts';

// The broadcast screens (issue 19) as the demo BusinessAdmin of Bright Dental: the broadcast-numbers
// settings add one; a draft is built for a tag with the recipient count live (it drops when a tag is
// excluded), saved, edited and duplicated; the contacts' bulk "Broadcast" opens the builder with them.

let p: Platform;
const HOST = 'acme.localhost';
const WAIT = { timeout: 20_000 };

type Row = { id: number; name: string };

/** Picks an option of a Mantine select or multi-select, then closes its list. */
async function pick(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await page.keyboard.press('Escape');
}

/** The live estimate's recipients, skipped included (what the audience reaches before the checks). */
async function reached(page: Page): Promise<number> {
  const badge = page.getByTestId('broadcast-recipients');
  return Number((await badge.getAttribute('data-total')) ?? -1);
}

async function broadcasts(page: Page): Promise<Row[]> {
  return (await apiFrom<{ data: Row[] }>(page, 'GET', '/v1/broadcasts?perPage=100')).body.data;
}

describe.skipIf(!hasChromium)('broadcast screens in Chromium', () => {
  let page: Page;
  const tag: Record<string, number> = {};

  beforeAll(async () => {
    p = await startPlatform();
    page = await signedInPage(p, DEMO.dentalAdmin, '**/business/messaging', HOST);
    for (const name of ['Broadcast VIP', 'Broadcast Lapsed']) {
      const made = await apiFrom<{ data: { id: number } }>(page, 'POST', '/v1/tags', { name });
      expect(made.status).toBe(200);
      tag[name] = made.body.data.id;
    }
    const people = [
      { phone: '+14155550101', first_name: 'Ann', tags: ['Broadcast VIP'] },
      { phone: '+14155550102', first_name: 'Bob', tags: ['Broadcast VIP', 'Broadcast Lapsed'] },
      { phone: '+14155550103', first_name: 'Cid', tags: ['Broadcast VIP'] },
    ];
    for (const person of people) {
      const made = await apiFrom(page, 'POST', '/v1/contacts', {
        phone: person.phone,
        first_name: person.first_name,
        tag_ids: person.tags.map((n) => tag[n]),
      });
      expect(made.status).toBe(200);
    }
  });
  afterAll(() => p?.stop());

  it('broadcast numbers: removes one, adds a business number with its kind, then switches it off', async () => {
    type Broadcaster = { id: number; phone_number: string; kind: string; active: boolean };
    const listed = async () =>
      (await apiFrom<{ data: Broadcaster[] }>(page, 'GET', '/v1/broadcasters?perPage=100')).body.data;
    await page.goto(p.url('/business/setting/broadcast-numbers', HOST));
    await page.getByTestId('broadcasters-table').waitFor(WAIT);
    // A business number that is not a broadcaster yet: the demo may have made every one of them one, so
    // the first broadcaster is removed (through the screen) and its number added again.
    const before = await listed();
    let phone: string;
    const first = before[0];
    if (first) {
      await page.getByTestId(`broadcaster-delete-${first.id}`).click();
      await page.getByTestId('broadcaster-delete-ok').click();
      await expect.poll(async () => (await listed()).length, WAIT).toBe(before.length - 1);
      phone = first.phone_number;
    } else {
      const numbers = await apiFrom<{ data: { phone_number: string }[] }>(page, 'GET', '/v1/numbers');
      phone = numbers.body.data[0]?.phone_number ?? '';
    }
    expect(phone).not.toBe('');
    // Without a number the add is refused next to the field.
    await page.getByTestId('broadcaster-add-submit').click();
    await expect.poll(() => page.getByTestId('broadcaster-add').textContent()).toContain('Pick a number.');
    await page.getByTestId('broadcaster-add-number').click();
    await page.getByRole('option', { name: new RegExp(`^\\${phone}`) }).click();
    await pick(page, 'broadcaster-add-kind', 'Toll-free · 3/s');
    await page.getByTestId('broadcaster-add-submit').click();
    await expect
      .poll(async () => (await listed()).find((b) => b.phone_number === phone)?.kind, WAIT)
      .toBe('toll_free');
    const added = (await listed()).find((b) => b.phone_number === phone);
    const row = page.getByTestId(`broadcaster-row-${added?.id}`);
    await row.waitFor(WAIT);
    expect(await row.textContent()).toContain(phone);
    expect(await page.getByTestId(`broadcaster-kind-${added?.id}`).inputValue()).toBe('Toll-free · 3/s');
    await page.getByTestId(`broadcaster-active-${added?.id}`).click({ force: true });
    await expect.poll(async () => (await listed()).find((b) => b.id === added?.id)?.active, WAIT).toBe(false);
  });

  it('create: a draft for a tag, the live count drops when a tag is excluded, the preview fills the name', async () => {
    await page.goto(p.url('/business/broadcast', HOST));
    await page.getByTestId('broadcasts-table').waitFor(WAIT);
    await page.getByTestId('broadcasts-add').click();
    await page.getByTestId('broadcast-name').fill('Flu shot reminder');
    // The server's 422 lands next to the fields, and what was typed stays.
    await page.getByTestId('broadcast-save-draft').click();
    await expect
      .poll(() => page.getByTestId('broadcast-audience-error').textContent(), WAIT)
      .toBe("Choose who receives the broadcast: tags, a website's contacts or contacts.");
    expect(await fieldError(page, 'broadcast-body')).toBe(
      'Write a message, pick a template or add an image.',
    );
    expect(await page.getByTestId('broadcast-name').inputValue()).toBe('Flu shot reminder');
    await pick(page, 'broadcast-tags', 'Broadcast VIP');
    await expect.poll(() => reached(page), WAIT).toBe(3);
    await pick(page, 'broadcast-exclude-tags', 'Broadcast Lapsed');
    await expect.poll(() => reached(page), WAIT).toBe(2);
    await page.getByTestId('broadcast-body').fill('Hi ');
    await page.getByTestId('broadcast-merge-first_name').click();
    await page.getByTestId('broadcast-body').press('End');
    await page.getByTestId('broadcast-body').pressSequentially(', time for a cleaning!');
    expect(await page.getByTestId('broadcast-body').inputValue()).toBe(
      'Hi {first_name|there}, time for a cleaning!',
    );
    expect(await page.getByTestId('broadcast-preview-text').textContent()).toBe(
      'Hi Alex, time for a cleaning!',
    );
    expect(await page.getByTestId('broadcast-counter').getAttribute('data-credits')).toBe('1');
    await page.getByTestId('broadcast-save-draft').click();
    await page.waitForURL('**/business/broadcast', WAIT);
    const made = (await broadcasts(page)).find((b) => b.name === 'Flu shot reminder');
    expect(made).toBeDefined();
    await expect
      .poll(() => page.getByTestId(`broadcast-status-${made?.id}`).textContent(), WAIT)
      .toBe('Draft');
  });

  it('edit: opens with its values, a blank name is refused in place, the new name is saved', async () => {
    const made = (await broadcasts(page)).find((b) => b.name === 'Flu shot reminder');
    await page.getByTestId(`broadcast-edit-${made?.id}`).click();
    const name = page.getByTestId('broadcast-name');
    await expect.poll(() => name.inputValue(), WAIT).toBe('Flu shot reminder');
    expect(await page.getByTestId('broadcast-body').inputValue()).toBe(
      'Hi {first_name|there}, time for a cleaning!',
    );
    await expect.poll(() => reached(page), WAIT).toBe(2);
    await name.fill('');
    await page.getByTestId('broadcast-save-draft').click();
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    // Nothing typed was lost.
    expect(await page.getByTestId('broadcast-body').inputValue()).toBe(
      'Hi {first_name|there}, time for a cleaning!',
    );
    await name.fill('Flu shot reminder 2026');
    await page.getByTestId('broadcast-save-draft').click();
    await page.waitForURL('**/business/broadcast', WAIT);
    await expect
      .poll(() => page.getByTestId(`broadcast-name-${made?.id}`).textContent(), WAIT)
      .toBe('Flu shot reminder 2026');
  });

  it('duplicate: the copy is prefilled and saved as a new broadcast', async () => {
    const all = await broadcasts(page);
    const made = all.find((b) => b.name === 'Flu shot reminder 2026');
    const copies = all.filter((b) => b.name === 'Flu shot reminder 2026 (copy)').length;
    await page.getByTestId(`broadcast-duplicate-${made?.id}`).click();
    await expect
      .poll(() => page.getByTestId('broadcast-name').inputValue(), WAIT)
      .toBe('Flu shot reminder 2026 (copy)');
    await expect.poll(() => reached(page), WAIT).toBe(2);
    await page.getByTestId('broadcast-save-draft').click();
    await page.waitForURL('**/business/broadcast', WAIT);
    await expect
      .poll(
        async () => (await broadcasts(page)).filter((b) => b.name === 'Flu shot reminder 2026 (copy)').length,
      )
      .toBe(copies + 1);
  });

  it("contacts: the bulk action 'Broadcast' opens the builder with the picked contacts", async () => {
    await page.goto(p.url('/business/contacts', HOST));
    const table = page.getByTestId('contacts-table');
    await table.waitFor(WAIT);
    await page.getByTestId('table-search').fill('Ann');
    const box = table.locator('[data-testid^="contact-select-"]');
    await expect.poll(() => box.count(), WAIT).toBe(1);
    await box.first().check();
    await page.getByTestId('contacts-bulk-broadcast').click();
    await page.waitForURL('**/business/broadcast/create', WAIT);
    expect(await page.getByTestId('broadcast-picked-contacts').textContent()).toContain(
      '1 contact picked on the contacts screen.',
    );
    await expect.poll(() => reached(page), WAIT).toBe(1);
  });
});

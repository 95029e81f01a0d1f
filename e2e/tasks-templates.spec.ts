import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, fieldError, hasChromium, type Platform, signedInPage, startPlatform } from './harness.ts';

// Tasks, message templates and tags (issue 10) as the demo BusinessAdmin of Bright Dental.

let p: Platform;
const HOST = 'acme.localhost';

/** The ids of the rows a list shows, by the row test ids starting with `prefix`. */
async function rowTexts(page: Page, table: string): Promise<string[]> {
  return page.getByTestId(table).locator('tbody tr').allInnerTexts();
}

/** The sidebar's task badge as a number (no badge: 0). */
async function badge(page: Page): Promise<number> {
  const b = page.getByTestId('sidebar-badge-tasks');
  return (await b.count()) ? Number((await b.first().textContent()) ?? 0) : 0;
}

describe.skipIf(!hasChromium)('tasks, templates and tags in Chromium', () => {
  let page: Page;

  beforeAll(async () => {
    p = await startPlatform();
    page = await signedInPage(p, DEMO.dentalAdmin, '**/business/messaging', HOST);
  });
  afterAll(() => p?.stop());

  it('tasks: add in the modal, the badge counts it, search, done toggle and filter, edit, delete', async () => {
    // A contact to attach the task to, made through the contacts API as the signed-in admin.
    const made = await page.evaluate(async () => {
      const res = await fetch('/api/v1/contacts', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${localStorage.getItem('access_token')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ phone: '+14155552671', first_name: 'Mary', last_name: 'Smith' }),
      });
      return res.status;
    });
    expect(made).toBe(200);
    await page.goto(p.url('/business/tasks', HOST));
    await page.getByTestId('tasks-table').waitFor();
    const before = await badge(page);
    // A blank title is refused next to the field.
    await page.getByTestId('tasks-add').click();
    await page.getByTestId('task-form-submit').click();
    expect(await fieldError(page, 'task-form-title')).toBe('The title field is required');
    await page.getByTestId('task-form-title').fill('Call Mrs Smith back');
    await page.getByTestId('task-form-description').fill('About the cleaning appointment');
    await page.getByTestId('task-form-due').fill('2026-12-01');
    await page.getByTestId('task-form-contact').click();
    await page.getByTestId('task-form-contact').fill('Mar');
    await page.getByRole('option', { name: 'Mary Smith' }).click();
    await page.getByTestId('task-form-submit').click();
    await expect
      .poll(() => rowTexts(page, 'tasks-table'))
      .toEqual([expect.stringContaining('Call Mrs Smith back')]);
    expect((await rowTexts(page, 'tasks-table'))[0]).toContain('2026-12-01');
    expect((await rowTexts(page, 'tasks-table'))[0]).toContain('Mary Smith');
    await expect.poll(() => badge(page)).toBe(before + 1);

    await page.getByTestId('tasks-add').click();
    await page.getByTestId('task-form-title').fill('Order gloves');
    await page.getByTestId('task-form-submit').click();
    await expect.poll(async () => (await rowTexts(page, 'tasks-table')).length).toBe(2);
    await expect.poll(() => badge(page)).toBe(before + 2);

    await page.getByTestId('table-search').fill('smith');
    await expect.poll(async () => (await rowTexts(page, 'tasks-table')).length).toBe(1);
    await page.getByTestId('table-search').fill('');
    await expect.poll(async () => (await rowTexts(page, 'tasks-table')).length).toBe(2);

    // Done: the open filter (the default) drops it, the done filter shows it, the badge goes down.
    const done = page.getByTestId('tasks-table').locator('[data-testid^="task-done-"]').first();
    const id = ((await done.getAttribute('data-testid')) ?? '').replace('task-done-', '');
    await done.click();
    await expect.poll(async () => (await rowTexts(page, 'tasks-table')).length).toBe(1);
    await expect.poll(() => badge(page)).toBe(before + 1);
    await page.getByTestId('tasks-status-filter').getByText('Done').click();
    await expect.poll(() => page.getByTestId(`task-status-${id}`).textContent()).toBe('Done');

    // Edit: opened again, renamed.
    await page.getByTestId(`task-edit-${id}`).click();
    await page.getByTestId('task-form-status').click();
    await page.getByRole('option', { name: 'Open' }).click();
    await page.getByTestId('task-form-title').fill('Call Mrs Smith back today');
    await page.getByTestId('task-form-submit').click();
    await page.getByTestId('tasks-status-filter').getByText('Open').click();
    await expect
      .poll(() => page.getByTestId(`task-title-${id}`).textContent())
      .toBe('Call Mrs Smith back today');
    await expect.poll(() => badge(page)).toBe(before + 2);

    // A link opens the list on a status: the done filter shows nothing done now.
    await page.goto(p.url('/business/tasks?filter=done', HOST));
    await page.getByTestId('tasks-table').waitFor();
    await expect.poll(() => page.getByTestId(`task-title-${id}`).count()).toBe(0);
    await page.goto(p.url('/business/tasks?filter=all', HOST));
    await expect.poll(() => page.getByTestId(`task-title-${id}`).count()).toBe(1);

    await page.getByTestId(`task-delete-${id}`).click();
    await page.getByTestId('confirm-ok').click();
    await expect.poll(() => page.getByTestId(`task-title-${id}`).count()).toBe(0);
    await expect.poll(() => badge(page)).toBe(before + 1);
  });

  it('templates: create, refuse a blank body, edit, toggle active, filter by type', async () => {
    await page.goto(p.url('/business/templates', HOST));
    await page.getByTestId('templates-table').waitFor();
    await page.getByTestId('templates-add').click();
    await page.waitForURL('**/business/templates/create');
    await page.getByTestId('template-form-name').fill('Reminder');
    await page.getByTestId('template-form-submit').click();
    expect(await fieldError(page, 'template-form-body')).toBe('The body field is required');
    await page.getByTestId('template-form-body').fill('Your appointment is tomorrow.');
    await page.getByTestId('template-form-submit').click();
    await page.waitForURL('**/business/templates');
    await expect.poll(() => rowTexts(page, 'templates-table')).toEqual([expect.stringContaining('Reminder')]);

    const edit = page.getByTestId('templates-table').locator('[data-testid^="template-edit-"]').first();
    const id = ((await edit.getAttribute('data-testid')) ?? '').replace('template-edit-', '');
    await edit.click();
    await page.waitForURL(`**/business/templates/${id}`);
    await expect.poll(() => page.getByTestId('template-form-name').inputValue()).toBe('Reminder');
    await page.getByTestId('template-form-name').fill('Reminder e-mail');
    await page.getByTestId('template-form-provider').click();
    await page.getByRole('option', { name: 'E-mail' }).click();
    await page.getByTestId('template-form-submit').click();
    await page.waitForURL('**/business/templates');
    await expect
      .poll(() => rowTexts(page, 'templates-table'))
      .toEqual([expect.stringContaining('Reminder e-mail')]);

    const toggle = page.getByTestId(`template-active-${id}`);
    expect(await toggle.isChecked()).toBe(true);
    await toggle.click({ force: true });
    await expect.poll(() => toggle.isChecked()).toBe(false);
    await page.reload();
    await expect.poll(() => page.getByTestId(`template-active-${id}`).isChecked()).toBe(false);

    await page.getByTestId('templates-provider-filter').getByText('SMS').click();
    await expect.poll(() => page.getByTestId(`template-active-${id}`).count()).toBe(0);
    await page.getByTestId('templates-provider-filter').getByText('E-mail').click();
    await expect.poll(() => page.getByTestId(`template-active-${id}`).count()).toBe(1);
  });

  it('tags: add, rename, delete one, delete the selected ones', async () => {
    await page.goto(p.url('/business/tags', HOST));
    await page.getByTestId('tags-table').waitFor();
    // The demo business has tags of its own (more than a page): the list is searched for this test's.
    await page.getByTestId('table-search').fill('Club');
    await expect
      .poll(async () => (await rowTexts(page, 'tags-table')).filter((t) => !/Nothing|No tags/.test(t)).length)
      .toBe(0);
    for (const name of ['Club gold', 'Club news', 'Club follow up']) {
      await page.getByTestId('tags-add').click();
      await page.getByTestId('tag-form-name').fill(name);
      await page.getByTestId('tag-form-submit').click();
      await expect
        .poll(async () => (await rowTexts(page, 'tags-table')).some((t) => t.includes(name)))
        .toBe(true);
    }
    // A taken name is refused.
    await page.getByTestId('tags-add').click();
    await page.getByTestId('tag-form-name').fill('club GOLD');
    await page.getByTestId('tag-form-submit').click();
    await expect.poll(() => page.getByTestId('tag-form-name').getAttribute('aria-invalid')).toBe('true');
    await page.keyboard.press('Escape');

    const idOf = async (name: string) => {
      const row = page.getByTestId('tags-table').locator('tbody tr', { hasText: name });
      const tid = (await row.locator('[data-testid^="tag-edit-"]').getAttribute('data-testid')) ?? '';
      return tid.replace('tag-edit-', '');
    };
    const vip = await idOf('Club gold');
    await page.getByTestId(`tag-edit-${vip}`).click();
    await page.getByTestId('tag-form-name').fill('Club gold patients');
    await page.getByTestId('tag-form-submit').click();
    await expect
      .poll(async () => (await rowTexts(page, 'tags-table')).some((t) => t.includes('Club gold patients')))
      .toBe(true);

    const news = await idOf('Club news');
    await page.getByTestId(`tag-delete-${news}`).click();
    await page.getByTestId('confirm-ok').click();
    await expect.poll(() => page.getByTestId(`tag-edit-${news}`).count()).toBe(0);

    const follow = await idOf('Club follow up');
    await page.getByTestId(`tag-select-${vip}`).check();
    await page.getByTestId(`tag-select-${follow}`).check();
    await page.getByTestId('tags-bulk-delete').click();
    await page.getByTestId('confirm-ok').click();
    await expect.poll(() => page.getByTestId(`tag-edit-${vip}`).count()).toBe(0);
    await expect.poll(() => page.getByTestId(`tag-edit-${follow}`).count()).toBe(0);
    expect((await rowTexts(page, 'tags-table')).filter((t) => !/Nothing|No tags/.test(t)).length).toBe(0);
  });
});

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, fieldError, hasChromium, type Platform, signedInPage, startPlatform } from './harness.ts';

// The business area's account screens (issue 4): users, departments, blacklist, as the demo BusinessAdmin
// of Bright Dental (number_of_users 5 with 4 users already; departments enabled; Sally Sales is an SMS agent).

let p: Platform;
const HOST = 'acme.localhost';

async function pick(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option }).click();
}

async function fillUser(page: Page, v: { first: string; last: string; email: string }) {
  await page.getByTestId('user-form-first-name').fill(v.first);
  await page.getByTestId('user-form-last-name').fill(v.last);
  await page.getByTestId('user-form-email').fill(v.email);
  await page.getByTestId('user-form-password').fill('secret-pass-1');
  await page.getByTestId('user-form-password-confirmation').fill('secret-pass-1');
  await pick(page, 'user-form-user-type', 'Sales user');
}

async function usersTotal(page: Page): Promise<string> {
  await page.goto(p.url('/business/users', HOST));
  await page.getByTestId('users-table').getByRole('table').waitFor();
  return (
    (await page
      .getByTestId('users-table')
      .getByText(/in all$/)
      .textContent()) ?? ''
  );
}

describe.skipIf(!hasChromium)('business users, departments and blacklist in Chromium', () => {
  let page: Page;

  beforeAll(async () => {
    p = await startPlatform();
    page = await signedInPage(p, DEMO.dentalAdmin, '**/business/messaging', HOST);
  });
  afterAll(() => p?.stop());

  it('a bad e-mail shows its message next to the field and creates nothing', async () => {
    expect(await usersTotal(page)).toBe('4 in all');
    await page.getByTestId('users-add').click();
    await page.waitForURL('**/business/users/create');
    await fillUser(page, { first: 'Nina', last: 'New', email: 'not-an-email' });
    await page.getByTestId('user-form-submit').click();
    expect(await fieldError(page, 'user-form-email')).toBe('The email must be a valid email address.');
    expect(page.url()).toMatch(/\/business\/users\/create$/);
    // What was typed is still there.
    expect(await page.getByTestId('user-form-first-name').inputValue()).toBe('Nina');
    expect(await usersTotal(page)).toBe('4 in all');
  });

  it('the business admin creates a user, and one more is over the users limit', async () => {
    await page.goto(p.url('/business/users/create', HOST));
    await fillUser(page, { first: 'Nina', last: 'New', email: 'nina@brightdental.test' });
    // The staff phone (issue 9): a wrong one is refused on its field, a right one is kept in E.164.
    await page.getByTestId('user-form-phone').fill('abc');
    await page.getByTestId('user-form-submit').click();
    expect(await fieldError(page, 'user-form-phone')).toBe('Wrong phone number format!!');
    await page.getByTestId('user-form-phone').fill('(500) 555-0199');
    await page.getByTestId('user-form-submit').click();
    await page.waitForURL('**/business/users');
    const all = await page.evaluate(async () => {
      const res = await fetch('/api/v1/businesses/users?keyword=nina', {
        headers: { authorization: `Bearer ${localStorage.getItem('access_token')}` },
      });
      return res.json();
    });
    expect(all.data[0]).toMatchObject({ email: 'nina@brightdental.test', phone: '+15005550199' });
    const table = page.getByTestId('users-table');
    await table.getByText('nina@brightdental.test').waitFor();
    expect(await table.getByText('Nina New').count()).toBe(1);
    expect(await usersTotal(page)).toBe('5 in all');

    await page.goto(p.url('/business/users/create', HOST));
    await fillUser(page, { first: 'Otto', last: 'Over', email: 'otto@brightdental.test' });
    await page.getByTestId('user-form-submit').click();
    await expect
      .poll(() => page.getByTestId('user-form-error').textContent())
      .toContain('reached its limit of 5 active users');
    expect(page.url()).toMatch(/\/business\/users\/create$/);
    expect(await usersTotal(page)).toBe('5 in all');
  });

  it('the business admin creates a department with an SMS agent', async () => {
    await page.goto(p.url('/business/departments', HOST));
    await page.getByTestId('departments-add').click();
    await page.waitForURL('**/business/departments/create');
    // Bad input first: no name.
    await page.getByTestId('department-form-submit').click();
    expect(await fieldError(page, 'department-form-name')).toBe('The name field is required');
    await page.getByTestId('department-form-name').fill('Front Office');
    await pick(page, 'department-form-sms-agents', 'Sally Sales');
    await page.keyboard.press('Escape');
    await page.getByTestId('department-form-submit').click();
    await page.waitForURL('**/business/departments');
    const row = page.getByTestId('departments-table').getByRole('row', { name: /Front Office/ });
    await row.waitFor();
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('1');
  });

  it('a bad number on the blacklist shows the phone message; a good one is listed', async () => {
    await page.goto(p.url('/business/blacklist', HOST));
    await page.getByTestId('blacklist-phone').fill('+1 555');
    await page.getByTestId('blacklist-add').click();
    expect(await fieldError(page, 'blacklist-phone')).toBe('Wrong phone number format!!');
    await page.getByTestId('blacklist-phone').fill('+1 213 373 4253');
    await page.getByTestId('blacklist-add').click();
    await page.getByTestId('blacklist-table').getByText('+12133734253').waitFor();
  });

  it('the settings page saves the information and reports; a bad report e-mail is refused next to the field', async () => {
    await page.goto(p.url('/business/setting', HOST));
    expect(await page.getByTestId('setting-name').inputValue()).toBe('Bright Dental');
    await page.getByTestId('setting-opt-out').fill('Reply START to come back.');
    await page.getByTestId('setting-info-save').click();
    await page.getByText('Business information updated successfully.').waitFor();
    const emails = page.getByTestId('setting-report-emails');
    await emails.fill('not-an-email');
    await emails.press('Enter');
    await page.getByTestId('setting-schedule-daily').check();
    await page.getByTestId('setting-report-save').click();
    expect(await fieldError(page, 'setting-report-emails')).toBe(
      'The report emails must be a valid email address.',
    );
    // Nothing was sent: no success toast for the reports.
    expect(await page.getByText('Report settings updated successfully.').count()).toBe(0);
  });

  it('the edit screen shows a user with their type and the password section', async () => {
    await usersTotal(page);
    await page
      .getByTestId('users-table')
      .getByRole('row', { name: /Fran Desk/ })
      .getByRole('link')
      .click();
    await page.waitForURL(/\/business\/users\/\d+$/);
    expect(await page.getByTestId('user-form-email').inputValue()).toBe('frontdesk@brightdental.test');
    expect(await page.getByTestId('user-form-user-type').inputValue()).toBe('Custom');
    await page.getByTestId('user-password-submit').waitFor();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, hasChromium, type Platform, startPlatform } from './harness.ts';

// Issue 8: an owner created without a password is invited by the agency, not sent a password reset. The
// invitation comes from the agency (its name as the sender, its support address for answers); its link
// opens the set-password screen with a welcome, and setting the password signs the owner in.

let p: Platform;
const HOST = 'acme.localhost';

async function apiAs(who: { email: string; password: string }) {
  const res = await fetch(p.url('/api/v1/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  expect(res.status).toBe(200);
  const token = ((await res.json()) as { access_token: string }).access_token;
  return (path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(p.url(`/api${path}`), {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
}

type OutboxMail = { to: string; from: string; subject: string; text: string };

describe.skipIf(!hasChromium)('an invited owner sets a password from the invitation, in Chromium', () => {
  beforeAll(async () => {
    p = await startPlatform();
  });
  afterAll(() => p?.stop());

  it('the agency adds a business without a password; the owner opens the invitation and is signed in', async () => {
    const agency = await apiAs(DEMO.acmeAgency);
    const created = await agency('/v1/business', {
      method: 'POST',
      // Free: Acme takes cards, and a paying business would first be held on Subscriptions.
      body: {
        name: 'Invited Bakery',
        free_fee: true,
        owner: { email: 'ivy@bakery.test', first_name: 'Ivy' },
      },
    });
    expect(created.status, await created.clone().text()).toBe(200);

    // The outbox is where mail goes without SMTP; a SuperAdmin reads it (the mail job runs just after).
    const admin = await apiAs(DEMO.superAdmin);
    let mail: OutboxMail | undefined;
    await expect
      .poll(
        async () => {
          const res = await admin('/v1/mail-outbox?keyword=ivy%40bakery.test');
          mail = ((await res.json()) as { data: OutboxMail[] }).data[0];
          return mail?.subject;
        },
        { timeout: 15_000 },
      )
      .toBe('You are invited to Acme Callbacks');
    expect(mail?.from).toBe('Acme Callbacks <no-reply@localhost>');
    expect(mail?.text).toContain('valid for 7 days');
    expect(mail?.text).toContain('help@acme.test');
    const link = mail?.text.match(/http:\/\/\S+\/password\/reset\?\S+/)?.[0];
    expect(link, mail?.text).toBeTruthy();
    expect(new URL(link as string).hostname).toBe(HOST);

    const { page } = await p.newPage();
    await page.goto(link as string);
    await expect
      .poll(() => page.getByTestId('password-reset-title').textContent())
      .toBe('Welcome! Choose your password');
    // The greeting names the owner once the page has read the invitation (a first paint may precede it).
    await expect
      .poll(() => page.getByTestId('password-reset-greeting').textContent())
      .toBe('Hello Ivy, choose a password for ivy@bakery.test to finish setting up your account.');
    await page.getByTestId('password-reset-password').fill('ivy-bakes-bread-1');
    await page.getByTestId('password-reset-confirmation').fill('ivy-bakes-bread-1');
    await page.getByTestId('password-reset-submit').click();
    // Signed in as the new owner, in the business area.
    await page.waitForURL('**/business/**', { timeout: 20_000 });
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeTruthy();
    const me = await fetch(p.url('/api/v1/profile'), {
      headers: {
        authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('access_token'))}`,
      },
    });
    const ivy = (
      (await me.json()) as { data: { user: { id: number; email: string; open_install_wizard: unknown } } }
    ).data.user;
    expect(ivy.email).toBe('ivy@bakery.test');
    // A new business has no install yet: the install wizard is forced open (spec 000 §4, ADR 027) until
    // it has one.
    expect(ivy.open_install_wizard).toBe(true);
    await page.waitForURL('**/business/installs/add');
    const made = await page.evaluate(async () => {
      const res = await fetch('/api/v1/installs', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${localStorage.getItem('access_token')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ name: 'Bakery website', website: 'https://bakery.example' }),
      });
      return res.status;
    });
    expect(made).toBe(200);

    // Her own user record: the e-mail is not offered there (the server would refuse it), with a hint.
    await page.goto(p.url(`/business/users/${ivy.id}`, HOST));
    const email = page.getByTestId('user-form-email');
    await email.waitFor();
    expect(await email.isDisabled()).toBe(true);
    await page
      .getByText('Change your own e-mail address and password from your profile, with your current password.')
      .waitFor();

    // The invitation is spent: opening it again says so.
    const { page: again } = await p.newPage();
    await again.goto(link as string);
    await again.getByTestId('password-reset-invalid').waitFor();
  });
});

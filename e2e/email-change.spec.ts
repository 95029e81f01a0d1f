import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, DEMO, hasChromium, type Platform, signIn, startPlatform } from './harness.ts';

// Issue 17: a new e-mail address takes effect only once the link sent to it is opened. The profile screen
// says which address is waiting for confirmation; opening the link switches the address (ADR 050).

let p: Platform;
const ACME = 'acme.localhost';
const WAIT = { timeout: 15_000 };
const NEW = 'sally.new@brightdental.test';

describe.skipIf(!hasChromium)('an e-mail change waits for its confirmation, in Chromium', () => {
  beforeAll(async () => {
    p = await startPlatform();
  }, 120_000);
  afterAll(() => p?.stop());

  it('the profile shows the address waiting for confirmation until its link is opened', async () => {
    const { page, context } = await p.newPage();
    await signIn(page, p.url('/login', ACME), DEMO.dentalSales);
    await page.waitForURL(/\/business\//, WAIT);
    await page.goto(p.url('/business/profile', ACME));
    await page.getByTestId('profile-email').fill(NEW);
    await page.getByTestId('profile-current-password').fill(DEMO.dentalSales.password);
    await page.getByTestId('profile-save').click();

    const pending = page.getByTestId('profile-pending-email');
    await expect.poll(() => pending.textContent(), WAIT).toContain(`${NEW} is waiting for confirmation`);
    expect(await pending.textContent()).toContain(`Until then you sign in with ${DEMO.dentalSales.email}`);
    expect(await page.getByTestId('profile-email').inputValue()).toBe(DEMO.dentalSales.email);

    // The link goes to the new address (the outbox keeps mail when there is no SMTP server).
    const admin = await apiAs(p, DEMO.superAdmin);
    let link = '';
    await expect
      .poll(async () => {
        const res = await admin<{ data: { to: string; text: string }[] }>(
          `/v1/mail-outbox?keyword=${encodeURIComponent(NEW)}`,
        );
        const mail = res.body.data.find((m) => m.to === NEW && m.text.includes('/email-verify?token='));
        link = mail?.text.match(/https?:\/\/\S+\/email-verify\?token=[\w-]+/)?.[0] ?? '';
        return link;
      }, WAIT)
      .not.toBe('');
    const url = new URL(link);
    await page.goto(p.url(`${url.pathname}${url.search}`, ACME));
    await expect
      .poll(() => page.getByTestId('email-verify-success').textContent(), WAIT)
      .toBe(`Your e-mail address has been changed to ${NEW}.`);

    await page.goto(p.url('/business/profile', ACME));
    await expect.poll(() => page.getByTestId('profile-email').inputValue(), WAIT).toBe(NEW);
    expect(await page.getByTestId('profile-pending-email').count()).toBe(0);
    await context.close();
  });
});

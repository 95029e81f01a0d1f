import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, hasChromium, type Platform, signedInPage, startPlatform } from './harness.ts';

// The Sandbox Phones screen (ADR 030), the demo of `npm start`: Bright Dental's BusinessAdmin asks for a
// callback as a visitor, answers as the second staff phone, presses 1, answers on the visitor's phone,
// and sees both phones in a call with each other. Everything runs on the real sandbox carrier and clock.

let p: Platform;
const HOST = 'acme.localhost';
const VISITOR = '+14155550123';
const WAIT = { timeout: 15_000 };

/** A phone's card by its number. */
const card = (page: Page, number: string): Locator =>
  page.getByTestId(`sandbox-phone-${number.replace('+', '')}`);

async function stateOf(c: Locator): Promise<string | null> {
  return c.getAttribute('data-state');
}

/** The demo install opens every day, all day, so the test does not depend on the hour it runs at. */
async function openAllWeek(page: Page): Promise<void> {
  const status = await page.evaluate(async () => {
    const token = localStorage.getItem('access_token');
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const all = await (await fetch('/api/v1/installs/all', { headers })).json();
    const id = all.data[0].id;
    const day = { open: true, from: '12:00AM', to: '11:59PM' };
    const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
    const res = await fetch(`/api/v1/installs/${id}/setting`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({
        settings: { hours: Object.fromEntries(days.map((d) => [d, day])), timezone: 'UTC' },
      }),
    });
    return res.status;
  });
  expect(status).toBe(200);
}

describe.skipIf(!hasChromium)('Sandbox Phones in Chromium', () => {
  let page: Page;

  beforeAll(async () => {
    p = await startPlatform();
    page = await signedInPage(p, DEMO.dentalAdmin, '**/business/**', HOST);
  });
  afterAll(() => p?.stop());

  it('the menu leads to the screen, which shows the install’s staff phones idle', async () => {
    await openAllWeek(page);
    // The menu's calls group holds the screen's item (only while the agency uses the sandbox).
    const group = page.locator('[data-testid="sidebar-group"][data-group="group:calls"]');
    const link = page.locator('[data-testid="sidebar-link"][data-route="business.sandbox-phones"]');
    await group.waitFor(WAIT);
    await expect
      .poll(async () => {
        if (!(await link.isVisible())) await group.click();
        return link.isVisible();
      }, WAIT)
      .toBe(true);
    await link.click();
    await page.waitForURL('**/business/sandbox-phones');
    // The screen's chunk loads after the URL changes: wait for its title.
    await expect.poll(() => page.getByTestId('page-title').textContent(), WAIT).toBe('Sandbox Phones');
    const staff = page.getByTestId('staff-phones').locator('[data-testid^="sandbox-phone-"]');
    await staff.nth(1).waitFor(WAIT);
    expect(await staff.count()).toBe(2);
    expect(await stateOf(staff.nth(0))).toBe('idle');
    expect(await stateOf(staff.nth(1))).toBe('idle');
  });

  it('a callback: the second staff phone answers and presses 1, the visitor answers, both are in a call', async () => {
    const staff = page.getByTestId('staff-phones').locator('[data-testid^="sandbox-phone-"]');
    const first = (await staff.nth(0).getByTestId('phone-number').textContent()) ?? '';
    const second = (await staff.nth(1).getByTestId('phone-number').textContent()) ?? '';
    const firstCard = card(page, first);
    const secondCard = card(page, second);

    await page.getByTestId('visitor-phone').fill(VISITOR);
    await page.getByTestId('visitor-name').fill('Vera Visitor');
    await page.getByTestId('request-callback').click();
    await page.getByTestId('callback-answer').waitFor(WAIT);
    expect(await page.getByTestId('callback-answer').textContent()).toContain('Callback requested');

    // Both staff phones ring with the install's number; the second answers.
    await expect.poll(() => stateOf(firstCard), WAIT).toBe('ringing');
    await expect.poll(() => stateOf(secondCard), WAIT).toBe('ringing');
    expect(await secondCard.getByTestId('phone-status').textContent()).toMatch(/^Call from /);
    await secondCard.getByTestId('answer').click();

    // It hears the whisper and "press 1", and presses 1 on the dial pad.
    await secondCard.getByTestId('phone-dialpad').waitFor(WAIT);
    expect(await secondCard.getByTestId('phone-heard').textContent()).toMatch(/Press 1/);
    await secondCard.getByTestId('press-1').click();

    // The first stops ringing; the visitor's phone rings, and the visitor answers.
    await expect.poll(() => stateOf(firstCard), WAIT).toBe('idle');
    const visitor = card(page, VISITOR);
    await expect.poll(() => stateOf(visitor), WAIT).toBe('ringing');
    await visitor.getByTestId('answer').click();

    // Both phones are in a call with each other.
    await expect.poll(() => stateOf(visitor), WAIT).toBe('in-call');
    await expect.poll(() => stateOf(secondCard), WAIT).toBe('in-call');
    expect(await visitor.getByTestId('phone-state').textContent()).toBe('In call');
    expect(await secondCard.getByTestId('phone-state').textContent()).toBe('In call');
    await expect.poll(() => visitor.getByTestId('phone-status').textContent(), WAIT).toContain(second);
    await expect.poll(() => secondCard.getByTestId('phone-status').textContent(), WAIT).toContain(VISITOR);
    // What the staff phone heard stays on its card: the whisper with the visitor's name.
    expect(await secondCard.getByTestId('phone-heard').textContent()).toContain('Vera Visitor');

    // Hanging up ends it on both phones.
    await visitor.getByTestId('hangup').click();
    await expect.poll(() => stateOf(secondCard), WAIT).toBe('idle');
    await expect.poll(() => stateOf(visitor), WAIT).toBe('idle');
    // Idle, the card still shows what its last call said (a short call, an automation's message, too).
    expect(await secondCard.getByTestId('phone-heard').count()).toBe(0);
    await expect
      .poll(() => secondCard.getByTestId('phone-last-heard').textContent(), WAIT)
      .toContain('Vera Visitor');
  });

  it("the visitor's phone texts the install's number and shows what it sent", async () => {
    await page.getByTestId('visitor-text').fill('Are you open on Saturday?');
    await page.getByTestId('visitor-send-text').click();
    const texts = card(page, VISITOR).getByTestId('phone-texts');
    await texts.waitFor(WAIT);
    await expect.poll(() => texts.textContent(), WAIT).toContain('Are you open on Saturday?');
    // The box empties once the send's answer is in, which may come after the phone shows the text (the
    // carrier's webhook is answered in process, ADR 116): a state waited for, not read once.
    await expect.poll(() => page.getByTestId('visitor-text').inputValue(), WAIT).toBe('');
  });

  it('says when the install is closed now, with its hours, and that a callback offers booking', async () => {
    // Open all week the screen says nothing of hours.
    expect(await page.getByTestId('sandbox-closed').count()).toBe(0);
    // Closed now: open only on a weekday other than today (UTC), 9 to 5.
    const status = await page.evaluate(async () => {
      const token = localStorage.getItem('access_token');
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const all = await (await fetch('/api/v1/installs/all', { headers })).json();
      const days = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
      const other = days[(new Date().getUTCDay() + 3) % 7] as string;
      const hours = Object.fromEntries(
        days.map((d) => [d, { open: d === other, from: '09:00AM', to: '05:00PM' }]),
      );
      const res = await fetch(`/api/v1/installs/${all.data[0].id}/setting`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ settings: { hours, timezone: 'UTC' } }),
      });
      return res.status;
    });
    expect(status).toBe(200);
    await page.reload();
    const closed = page.getByTestId('sandbox-closed');
    await closed.waitFor(WAIT);
    const text = (await closed.textContent()) ?? '';
    expect(text).toMatch(/^Bright Dental website is closed now \(hours: \w{3} 09:00AM–05:00PM, UTC time\)/);
    expect(text).toContain('offers to book a time');
    await openAllWeek(page);
    await page.reload();
    await page.getByTestId('page-title').waitFor(WAIT);
    await expect.poll(() => page.getByTestId('sandbox-closed').count(), WAIT).toBe(0);
  });

  it("makes a number fail the agency's texts with a chosen code, and work again", async () => {
    const FAILING = '+14155550199';
    await page.getByTestId('failing-phone').fill(FAILING);
    await page.getByTestId('failing-code').click();
    await page.getByRole('option', { name: /^30007/ }).click();
    await page.getByTestId('failing-submit').click();
    const rows = page.getByTestId('failing-row');
    await expect.poll(() => rows.count(), WAIT).toBe(1);
    const row = (await rows.first().textContent()) ?? '';
    expect(row).toContain(FAILING);
    expect(row).toContain('30007 · Message filtered (undelivered)');
    expect(await page.getByTestId('failing-phone').inputValue()).not.toContain('415');
    // The sandbox holds it: the API lists it for the business.
    const listed = await page.evaluate(async () => {
      const token = localStorage.getItem('access_token');
      const res = await fetch('/api/v1/sandbox/failing-numbers', {
        headers: { authorization: `Bearer ${token}` },
      });
      return (await res.json()).data;
    });
    expect(listed).toEqual([{ phone: FAILING, code: 30007 }]);
    await rows.first().getByTestId('failing-clear').click();
    await expect.poll(() => rows.count(), WAIT).toBe(0);
  });
});

import { isOpenAt, localParts, type THours, WEEKDAYS } from '@stn/contracts/installs';
import { WIDGET_TEXT_DEFAULTS } from '@stn/contracts/widget-texts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, type Platform, startPlatform } from './harness.ts';
import {
  type Admin,
  ALL_WEEK,
  adminSession,
  askCallback,
  callStatus,
  claimAndConnect,
  enterCode,
  HOST,
  missAll,
  phoneState,
  phones,
  STAFF,
  scheduledFor,
  seconds,
  setSettings,
  type Visitor,
  visit,
  WAIT,
} from './widget-helpers.ts';

// What the widget does on the (hostile) demo page, end to end on the real sandbox carrier (issue 11 "What it
// must show"): a callback request reaches the carrier and the widget's countdown and progress follow the
// real call as the staff and visitor phones are played through /api/v1/sandbox; a scheduled call is
// created at the slot's instant, inside the install's hours in its own time zone, for a visitor whose
// browser is in another one; a text starts a conversation the agent sees and answers in the inbox, and the
// answer shows in the widget.

let p: Platform;
let admin: Admin;
const visitors: Visitor[] = [];

async function visitor(opts: Parameters<typeof visit>[2] = {}): Promise<Page> {
  const v = await visit(p, admin, opts);
  visitors.push(v);
  return v.page;
}

describe.skipIf(!hasChromium)('the website widget, end to end', () => {
  beforeAll(async () => {
    p = await startPlatform();
    admin = await adminSession(p);
    await setSettings(admin, { widget_type: 3, language: 'en', hours: ALL_WEEK, timezone: 'UTC' });
  });
  afterAll(async () => {
    for (const v of visitors) await v.context.close().catch(() => undefined);
    await p?.stop();
  });

  it('a callback reaches the sandbox carrier; the countdown runs and the progress follows the real call', async () => {
    const VISITOR = '+14155550142';
    const page = await visitor();
    await askCallback(page, VISITOR, 'Wanda Web');

    // The countdown starts at the install's promise (14 s) and counts down.
    const countdown = page.getByTestId('stn-countdown');
    await countdown.waitFor(WAIT);
    const first = seconds(await countdown.textContent());
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(14);
    await expect.poll(async () => seconds(await countdown.textContent()), WAIT).toBeLessThan(first);

    // Both staff phones ring: the widget is still finding someone.
    await expect.poll(() => phoneState(admin, STAFF[0]), WAIT).toBe('ringing');
    await expect.poll(() => phoneState(admin, STAFF[1]), WAIT).toBe('ringing');
    await expect.poll(() => callStatus(page), WAIT).toBe('finding');

    // The second staff phone answers and presses 1: the visitor is called, answers, hangs up.
    await claimAndConnect(admin, page, STAFF[1], VISITOR);
  });

  it('nobody takes the callback (every staff phone sends it to voicemail): the widget says it was missed', async () => {
    const VISITOR = '+14155550145';
    const page = await visitor();
    await askCallback(page, VISITOR);
    await missAll(admin, page);
  });

  it("a scheduled call is created at the slot's instant, inside the install's hours in its time zone", async () => {
    const VISITOR = '+14155550143';
    // New York office hours, closed today (so the widget offers a schedule, whatever the hour the test
    // runs at); a visitor in Tokyo.
    const today = localParts(new Date(), 'America/New_York').weekday;
    const hours = Object.fromEntries(
      WEEKDAYS.map((d) => [d, { open: d !== today, from: '09:00AM', to: '05:00PM' }]),
    ) as THours;
    await setSettings(admin, { hours, timezone: 'America/New_York' });
    const page = await visitor({ timezoneId: 'Asia/Tokyo' });
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('Asia/Tokyo');

    // Closed now: the trigger asks for a schedule (its label the install's ScheduleLabel).
    const schedule = page.getByTestId('stn-trigger-schedule');
    await schedule.waitFor(WAIT);
    expect(await schedule.textContent()).toContain(WIDGET_TEXT_DEFAULTS.en.ScheduleLabel);
    expect(await page.getByTestId('stn-trigger-call').count()).toBe(0);
    await schedule.click();
    const slots = page.getByTestId('stn-slot');
    await slots.first().waitFor(WAIT);
    const count = await slots.count();
    expect(count).toBeGreaterThan(0);
    // Every slot is inside the install's hours in New York.
    for (let i = 0; i < Math.min(count, 20); i++) {
      const at = (await slots.nth(i).getAttribute('data-at')) ?? '';
      expect(isOpenAt({ hours, timezone: 'America/New_York' }, new Date(at)), at).toBe(true);
    }
    const slot = slots.nth(Math.min(2, count - 1));
    const at = (await slot.getAttribute('data-at')) ?? '';
    // Shown in the visitor's own time zone (Tokyo), as the browser writes the hour.
    const tokyo = new Intl.DateTimeFormat('en-US', {
      timeZone: 'Asia/Tokyo',
      hour: 'numeric',
      minute: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(new Date(at));
    const h24 = Number(tokyo.find((x) => x.type === 'hour')?.value);
    const mm = tokyo.find((x) => x.type === 'minute')?.value;
    const h12 = h24 % 12 === 0 ? 12 : h24 % 12;
    const text = (await slot.textContent()) ?? '';
    expect(text, `slot ${at} shown as "${text}"`).toMatch(
      new RegExp(`(^|\\D)(0?${h12}|${String(h24).padStart(2, '0')}|${h24})[:.h]${mm}`),
    );
    await slot.click();
    await page.getByTestId('stn-phone').fill(VISITOR);
    await page.getByTestId('stn-submit').click();

    // The call waits for its time: the instant of the slot, for this visitor.
    await expect.poll(() => scheduledFor(admin, VISITOR), WAIT).toBe(new Date(at).getTime());
    await setSettings(admin, { hours: ALL_WEEK, timezone: 'UTC' });
  });

  it('a text starts a conversation the agent sees and answers in the inbox; the answer shows in the widget', async () => {
    const VISITOR = '+14155550144';
    const page = await visitor();
    await page.getByTestId('stn-trigger-text').click();
    await page.getByTestId('stn-phone').fill(VISITOR);
    await page.getByTestId('stn-message').fill('Do you take new patients?');
    await page.getByTestId('stn-submit').click();
    const messages = page.getByTestId('stn-messages');
    await messages.waitFor(WAIT);
    await expect.poll(() => messages.textContent(), WAIT).toContain('Do you take new patients?');
    // The visitor's own message on one side; the business's answers will be on the other.
    const mine = await messages
      .locator('[data-testid^="stn-message-"]', { hasText: 'Do you take new patients?' })
      .first()
      .getAttribute('data-testid');
    expect(mine).toMatch(/^stn-message-(in|out)$/);
    const theirs = mine === 'stn-message-in' ? 'stn-message-out' : 'stn-message-in';
    // The replies show once the visitor enters the code texted to the phone (ADR 048).
    await enterCode(admin, page, VISITOR);

    // The agent sees it in the inbox and answers.
    const inbox = admin.page;
    await inbox.goto(p.url('/business/messaging', HOST));
    const row = inbox
      .getByTestId('conversations')
      .locator('[data-testid^="conversation-"]', { hasText: '4155550144' });
    await row.first().waitFor(WAIT);
    await row.first().click();
    await inbox.getByTestId('conversation').getByText('Do you take new patients?').waitFor(WAIT);
    await inbox.getByTestId('send-body').fill('Yes! Come by on Monday at 9.');
    await inbox.getByTestId('send-button').click();

    // The answer shows in the widget while the page is open, and reaches the visitor's phone by SMS.
    await expect
      .poll(async () => (await messages.getByTestId(theirs).allTextContents()).join('|'), WAIT)
      .toContain('Yes! Come by on Monday at 9.');
    await expect
      .poll(
        async () =>
          (await phones(admin))
            .find((ph) => ph.number === VISITOR)
            ?.texts.some((t) => t.direction === 'in' && t.body.includes('Come by on Monday')) ?? false,
        WAIT,
      )
      .toBe(true);
  });
});

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, hasChromium, type Platform, signedInPage, signIn, startPlatform } from './harness.ts';

// The messaging screen end to end (issue 10 "What it must show" #1, ADR 037): Bright Dental's BusinessAdmin
// has the inbox open; a visitor's sandbox phone texts the install's number; the message appears without a
// reload and the sidebar badge counts it; the agent replies with an image; the phone receives it and the
// status shows delivered; STOP from the phone refuses the next send with a clear message, HELP gets the
// help text, START allows sending again. Everything runs on the real sandbox carrier.

let p: Platform;
const HOST = 'acme.localhost';
const INSTALL_NUMBER = '+15005550006';
const VISITOR = '+14155550177';
const WAIT = { timeout: 20_000 };
/** A 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

type PhoneText = { direction: 'in' | 'out'; other: string; body: string };

/** The visitor's phone texts the install's number through the sandbox control API. */
async function visitorTexts(page: Page, body: string): Promise<void> {
  const status = await page.evaluate(
    async ({ from, to, body }) => {
      const token = localStorage.getItem('access_token');
      const res = await fetch(`/api/v1/sandbox/phones/${encodeURIComponent(from)}/texts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ to, body }),
      });
      return res.status;
    },
    { from: VISITOR, to: INSTALL_NUMBER, body },
  );
  expect(status).toBe(200);
}

/** What the visitor's phone received (texts in to the phone, from the install's number). */
async function phoneReceived(page: Page): Promise<PhoneText[]> {
  return page.evaluate(async (number) => {
    const token = localStorage.getItem('access_token');
    const res = await fetch('/api/v1/sandbox/phones', { headers: { authorization: `Bearer ${token}` } });
    const phones = (await res.json()).data as { number: string; texts: PhoneText[] }[];
    return (phones.find((ph) => ph.number === number)?.texts ?? []).filter((t) => t.direction === 'in');
  }, VISITOR);
}

async function badge(page: Page): Promise<number> {
  const el = page.getByTestId('sidebar-badge-messages');
  if ((await el.count()) === 0) return 0;
  const text = (await el.first().textContent()) ?? '0';
  return text === '99+' ? 100 : Number(text);
}

async function send(page: Page, body: string): Promise<void> {
  await page.getByTestId('send-body').fill(body);
  await page.getByTestId('send-button').click();
}

describe.skipIf(!hasChromium)('the inbox in Chromium', () => {
  let page: Page;

  beforeAll(async () => {
    p = await startPlatform();
    page = await signedInPage(p, DEMO.dentalAdmin, '**/business/**', HOST);
    await page.goto(p.url('/business/messaging', HOST));
    await page.getByTestId('install-picker').waitFor(WAIT);
  });
  afterAll(() => p?.stop());

  it("a visitor's text appears in the open inbox without a reload, the badge counts it, reading lowers it", async () => {
    const before = await badge(page);
    await visitorTexts(page, 'Hi, can I book a cleaning?');
    const row = page
      .getByTestId('conversations')
      .locator('[data-testid^="conversation-"]', { hasText: '4155550177' });
    await row.first().waitFor(WAIT);
    await expect.poll(() => badge(page), WAIT).toBeGreaterThan(before);
    const counted = await badge(page);
    await expect.poll(() => row.first().getByTestId('unread-badge').count(), WAIT).toBe(1);
    await row.first().click();
    await page.getByTestId('conversation').getByText('Hi, can I book a cleaning?').waitFor(WAIT);
    // Reading it lowers the badge (the server's unread_messages event, decision 045).
    await expect.poll(() => badge(page), WAIT).toBeLessThan(counted);
  });

  it('the agent replies with an image; the phone receives it and the status shows delivered', async () => {
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'map.png', mimeType: 'image/png', buffer: PNG });
    await send(page, 'Sure! Here is how to find us.');
    await expect
      .poll(
        async () => (await phoneReceived(page)).some((t) => t.body.includes('Here is how to find us')),
        WAIT,
      )
      .toBe(true);
    const out = page.locator('[data-direction="out"]', { hasText: 'Here is how to find us' });
    await out.first().waitFor(WAIT);
    await expect.poll(() => out.first().getByTestId('message-image').count(), WAIT).toBe(1);
    await expect.poll(() => out.first().getByTestId('message-status').textContent(), WAIT).toBe('Delivered');
  });

  it('STOP refuses the next send with a clear message; HELP gets the help text; START allows sending again', async () => {
    await visitorTexts(page, 'STOP');
    await page.getByTestId('opted-out').waitFor(WAIT);
    const received = (await phoneReceived(page)).length;
    await send(page, 'Are you still there?');
    await page.getByTestId('send-refusal').waitFor(WAIT);
    expect((await page.getByTestId('send-refusal').textContent())?.length).toBeGreaterThan(10);
    // Nothing reached the phone but the carrier's own STOP confirmation, if any.
    expect((await phoneReceived(page)).some((t) => t.body.includes('Are you still there'))).toBe(false);
    expect((await phoneReceived(page)).length).toBeGreaterThanOrEqual(received);

    await visitorTexts(page, 'HELP');
    await expect
      .poll(
        async () =>
          (await phoneReceived(page)).some((t) => /STOP/.test(t.body) && /rates may apply/i.test(t.body)),
        WAIT,
      )
      .toBe(true);

    await visitorTexts(page, 'START');
    await expect.poll(() => page.getByTestId('opted-out').count(), WAIT).toBe(0);
    await send(page, 'Welcome back!');
    await expect
      .poll(async () => (await phoneReceived(page)).some((t) => t.body.includes('Welcome back!')), WAIT)
      .toBe(true);
  });

  it('a failed text: a refused Resend says why, and once the number works Resend sends it', async () => {
    const failing = (method: 'PUT' | 'DELETE') =>
      page.evaluate(
        async ({ number, method }) => {
          const res = await fetch(`/api/v1/sandbox/failing-numbers/${encodeURIComponent(number)}`, {
            method,
            headers: {
              authorization: `Bearer ${localStorage.getItem('access_token')}`,
              ...(method === 'PUT' ? { 'content-type': 'application/json' } : {}),
            },
            ...(method === 'PUT' ? { body: JSON.stringify({ code: 30007 }) } : {}),
          });
          return res.status;
        },
        { number: VISITOR, method },
      );
    expect(await failing('PUT')).toBe(200);
    await send(page, 'Your cleaning is on Tuesday.');
    const bubble = page
      .locator('[data-direction="out"]', { hasText: 'Your cleaning is on Tuesday.' })
      .first();
    await bubble.getByTestId('message-resend').waitFor(WAIT);
    // The contact opts out meanwhile: the resend is refused, and the bubble says why.
    await visitorTexts(page, 'STOP');
    await page.getByTestId('opted-out').waitFor(WAIT);
    await bubble.getByTestId('message-resend').click();
    await expect
      .poll(() => bubble.getByTestId('message-action-refusal').textContent(), WAIT)
      .toMatch(/opted out/i);
    expect((await phoneReceived(page)).some((t) => t.body === 'Your cleaning is on Tuesday.')).toBe(false);
    // Back in, the number working again: Resend sends it, once.
    await visitorTexts(page, 'START');
    await expect.poll(() => page.getByTestId('opted-out').count(), WAIT).toBe(0);
    expect(await failing('DELETE')).toBe(200);
    await bubble.getByTestId('message-resend').click();
    await expect
      .poll(
        async () =>
          (await phoneReceived(page)).filter((t) => t.body === 'Your cleaning is on Tuesday.').length,
        WAIT,
      )
      .toBe(1);
  });

  it("an SMS agent who is a SalesUser works the install's conversations too (not 'no active install')", async () => {
    const { page: agent, context } = await p.newPage();
    await signIn(agent, p.url('/login', HOST), DEMO.dentalSales);
    await agent.waitForURL('**/business/messaging', WAIT);
    await agent.getByTestId('install-picker').waitFor(WAIT);
    // The demo install's conversation with the visitor, which the tests above wrote in.
    await expect
      .poll(() => agent.getByTestId('conversations').locator('[data-testid^="conversation-"]').count(), WAIT)
      .toBeGreaterThan(0);
    await context.close();
  });
});

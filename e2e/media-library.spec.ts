import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, hasChromium, type Platform, signedInPage, startPlatform } from './harness.ts';

// The media library in the inbox's send box (issue 10 "the media library (paged, appended)", ADR 039):
// the agent opens the library, "Load more" appends the next page, uploads a new image that joins the
// library, picks it and an older one, sends; the visitor's sandbox phone receives the MMS with both images,
// and the images are served.

let p: Platform;
const HOST = 'acme.localhost';
const INSTALL_NUMBER = '+15005550006';
const VISITOR = '+14155550188';
const WAIT = { timeout: 20_000 };
const PNG_B64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

type PhoneText = { direction: 'in' | 'out'; other: string; body: string; media?: string[] };

async function authed<T>(
  page: Page,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<T> {
  return page.evaluate(
    async ({ path, init }) => {
      const token = localStorage.getItem('access_token');
      const res = await fetch(path, {
        method: init.method ?? 'GET',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
      return (await res.json()) as T;
    },
    { path, init },
  );
}

async function phoneReceived(page: Page): Promise<PhoneText[]> {
  const phones = await authed<{ data: { number: string; texts: PhoneText[] }[] }>(
    page,
    '/api/v1/sandbox/phones',
  );
  return (phones.data.find((ph) => ph.number === VISITOR)?.texts ?? []).filter((t) => t.direction === 'in');
}

describe.skipIf(!hasChromium)('the media library in the inbox', () => {
  let page: Page;

  beforeAll(async () => {
    p = await startPlatform();
    page = await signedInPage(p, DEMO.dentalAdmin, '**/business/**', HOST);
    await page.goto(p.url('/business/messaging', HOST));
    await page.getByTestId('install-picker').waitFor(WAIT);
    // Eleven images in the library, so that it has a second page.
    for (let i = 0; i < 11; i++) {
      const res = await authed<{ success: boolean }>(page, '/api/v1/medias', {
        method: 'POST',
        body: { data: `data:image/png;base64,${PNG_B64}`, name: `seed-${i}.png` },
      });
      expect(res.success).toBe(true);
    }
    const sent = await authed<{ success?: boolean }>(
      page,
      `/api/v1/sandbox/phones/${encodeURIComponent(VISITOR)}/texts`,
      { method: 'POST', body: { to: INSTALL_NUMBER, body: 'Where are you located?' } },
    );
    expect(sent).toBeTruthy();
  });
  afterAll(() => p?.stop());

  it('picks an uploaded and an older image from the library, sends them, and the phone receives the MMS', async () => {
    const row = page
      .getByTestId('conversations')
      .locator('[data-testid^="conversation-"]', { hasText: '4155550188' });
    await row.first().waitFor(WAIT);
    await row.first().click();
    await page.getByTestId('conversation').getByText('Where are you located?').waitFor(WAIT);

    const total = (await authed<{ meta: { total: number } }>(page, '/api/v1/medias')).meta.total;
    await page.getByTestId('open-media-library').click();
    const dialog = page.getByRole('dialog');
    const items = dialog.locator('[data-testid^="library-item-"]');
    await expect.poll(() => items.count(), WAIT).toBe(10);
    await dialog.getByTestId('library-load-more').click();
    await expect.poll(() => items.count(), WAIT).toBe(Math.min(20, total));
    const older = await items.nth(10).getAttribute('data-testid');

    await dialog.locator('input[type="file"]').setInputFiles({
      name: 'directions.png',
      mimeType: 'image/png',
      buffer: Buffer.from(PNG_B64, 'base64'),
    });
    // The upload joins the library (first, newest) and is picked.
    await expect.poll(() => dialog.locator('[aria-pressed="true"]').count(), WAIT).toBe(1);
    const uploaded = await dialog.locator('[aria-pressed="true"]').first().getAttribute('data-testid');
    expect(uploaded).toBe(await items.first().getAttribute('data-testid'));
    await dialog.getByTestId(older ?? '').click();
    await dialog.getByTestId('library-attach').click();
    await expect.poll(() => page.getByTestId('attached-library-image').count(), WAIT).toBe(2);
    expect(await page.getByTestId('message-counter').textContent()).toMatch(/3/);

    await page.getByTestId('send-body').fill('Here is our map and the entrance.');
    await page.getByTestId('send-button').click();
    await expect
      .poll(
        async () =>
          (await phoneReceived(page)).find((t) => t.body.includes('Here is our map'))?.media?.length ?? 0,
        WAIT,
      )
      .toBe(2);
    const mms = (await phoneReceived(page)).find((t) => t.body.includes('Here is our map'));
    for (const url of mms?.media ?? []) {
      expect(url).toMatch(/\/uploads\/medias\//);
      const type = await page.evaluate(
        async (path) => (await fetch(path)).headers.get('content-type'),
        new URL(url).pathname,
      );
      expect(type).toMatch(/^image\/png/);
    }
    const out = page.locator('[data-direction="out"]', { hasText: 'Here is our map' });
    await out.first().waitFor(WAIT);
    await expect.poll(() => out.first().getByTestId('message-image').count(), WAIT).toBe(2);
    await expect.poll(() => page.getByTestId('attached-library-image').count(), WAIT).toBe(0);

    // The visitor's phone on Sandbox Phones shows the two pictures it received, loaded.
    await page.goto(p.url('/business/sandbox-phones', HOST));
    const card = page.getByTestId(`sandbox-phone-${VISITOR.replace('+', '')}`);
    const pictures = card.getByTestId('phone-text-image');
    await expect.poll(() => pictures.count(), WAIT).toBe(2);
    await expect
      .poll(() => pictures.first().evaluate((img) => (img as HTMLImageElement).naturalWidth), WAIT)
      .toBeGreaterThan(0);
  });
});

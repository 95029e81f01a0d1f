import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, type Platform, signedInPage, startPlatform } from './harness.ts';

// AdminSupport's first screen is the analytics dashboard (spec 000 §4: business users land on their first
// menu entry), and on the demo data it has figures (issue 24): the demo's call history of the last five weeks,
// rolled up at start, in the range the dashboard opens with (the last 30 days).

let p: Platform;
const HOST = 'acme.localhost';
const SUPPORT = { email: 'support@brightdental.test', password: 'demo-dental-2' };
const WAIT = { timeout: 30_000 };

describe.skipIf(!hasChromium)('AdminSupport lands on a dashboard with figures', () => {
  beforeAll(async () => {
    p = await startPlatform();
  }, 180_000);
  afterAll(() => p?.stop());

  it('signs in to the dashboard; its figures are the API’s for the same range, and its charts are drawn', async () => {
    const page = await signedInPage(p, SUPPORT, '**/business/dashboard**', HOST);
    const stat = page.getByTestId('stat-callbacks_requested');
    await stat.waitFor(WAIT);
    // The range the dashboard asks for (the last 30 days unless the address says otherwise).
    const asked = page.waitForRequest(
      (r) => r.url().endsWith('/api/v1/business/analytics') && r.method() === 'POST',
      WAIT,
    );
    await page.reload();
    const { from, to } = JSON.parse((await asked).postData() ?? '{}') as { from: string; to: string };
    expect(from).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const res = await page.evaluate(
      async (range) => {
        const r = await fetch('/api/v1/business/analytics', {
          method: 'POST',
          headers: {
            authorization: `Bearer ${localStorage.getItem('access_token')}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify(range),
        });
        return { status: r.status, body: await r.json() };
      },
      { from, to },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const totals = (res.body as { data: { totals: Record<string, number> } }).data.totals;
    expect(totals.callbacks_requested).toBeGreaterThan(0);
    const figure = async (id: string) => Number(await page.getByTestId(id).getAttribute('data-value'));
    await expect.poll(() => figure('stat-callbacks_requested'), WAIT).toBe(totals.callbacks_requested);
    expect(await figure('stat-callbacks_answered')).toBe(totals.callbacks_answered);
    await page.getByTestId('chart-callbacks').locator('svg').first().waitFor(WAIT);
  });
});

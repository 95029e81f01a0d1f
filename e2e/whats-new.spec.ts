import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, DEMO, hasChromium, type Platform, signedInPage, startPlatform } from './harness.ts';

// What's new (issue 23; spec 000 §2 Layout): instead of a third-party release-announcements script, an
// agency admin sees the platform's release notes it has not seen yet, once each; other roles never do.

let p: Platform;
const HOST = 'acme.localhost';
const WAIT = { timeout: 20_000 };

describe.skipIf(!hasChromium)("what's new in Chromium", () => {
  beforeAll(async () => {
    p = await startPlatform();
    const admin = await apiAs(p, DEMO.superAdmin);
    const res = await admin('/v1/release-notes', {
      method: 'POST',
      body: { title: 'Card payments', content: 'Businesses can now pay by card.', published: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }, 180_000);
  afterAll(() => p?.stop());

  it('an agency admin sees the new note once: "Got it", and it does not come back', async () => {
    const page = await signedInPage(p, DEMO.acmeAgency, '**/agency/**', HOST);
    const card = page.getByTestId('whats-new');
    await card.waitFor(WAIT);
    expect(await card.textContent()).toContain('Card payments');
    await page.getByTestId('whats-new-ok').click();
    await card.waitFor({ state: 'detached', ...WAIT });
    await page.reload();
    await page.getByTestId('sidebar').waitFor(WAIT);
    // The list has loaded and said there is nothing new: the card stays away.
    await expect
      .poll(() =>
        page.evaluate(async () => {
          const res = await fetch('/api/v1/release-notes/unread', {
            headers: { authorization: `Bearer ${localStorage.getItem('access_token')}` },
          });
          return ((await res.json()) as { data: unknown[] }).data.length;
        }),
      )
      .toBe(0);
    expect(await card.count()).toBe(0);
    await page.context().close();
  }, 60_000);

  it('a business admin is not shown it', async () => {
    const page = await signedInPage(p, DEMO.dentalAdmin, '**/business/**', HOST);
    await page.getByTestId('sidebar').waitFor(WAIT);
    const unread = await page.evaluate(async () => {
      const res = await fetch('/api/v1/release-notes/unread', {
        headers: { authorization: `Bearer ${localStorage.getItem('access_token')}` },
      });
      return res.status;
    });
    expect(unread).toBe(403);
    expect(await page.getByTestId('whats-new').count()).toBe(0);
    await page.context().close();
  }, 60_000);
});

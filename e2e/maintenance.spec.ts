import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, type Platform, startPlatform } from './harness.ts';

let p: Platform;

describe.skipIf(!hasChromium)('maintenance and the landing path', () => {
  beforeAll(async () => {
    p = await startPlatform({ MAINTENANCE: 'true' });
  });
  afterAll(() => p?.stop());

  it('with the maintenance flag on, every page shows the maintenance text instead of the app', async () => {
    const { page, context } = await p.newPage();
    for (const path of ['/login', '/admin/agency/accounts']) {
      await page.goto(p.url(path, 'acme.localhost'));
      await page.getByTestId('maintenance').waitFor();
      expect(await page.getByTestId('maintenance').textContent()).toContain(
        'Our site is temporarily offline for maintenance. Please contact support for more information.',
      );
      expect(await page.getByTestId('login-email').count()).toBe(0);
    }
    await context.close();
  });
});

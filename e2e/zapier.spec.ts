import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFrom, DEMO, hasChromium, type Platform, signedInPage, startPlatform } from './harness.ts';

// Zapier (issue 25, ADR 089) in Chromium: /auth/login as Zapier opens it (sign in, "Allow Zapier to use
// Bright Dental?", back to Zapier with a code that the token endpoint takes), the business's Zapier card
// (an API key shown once, which authenticates, then revoked; the connection revoked) and the agency's
// zapier screen.

let p: Platform;
const HOST = 'acme.localhost';
const SECRET = 'e2e-only-zapier-client-secret';
// Zapier's return page, played by a local server that shows the query it got.
const zapierSide = http.createServer((req, res) => {
  res
    .writeHead(200, { 'content-type': 'text/html' })
    .end('<!doctype html><title>Zapier</title><p>back at Zapier</p>');
  void req;
});
let redirect = '';

async function sql(text: string) {
  if (!p.databaseUrl) throw new Error('the platform has no database copy');
  const client = new pg.Client({ connectionString: p.databaseUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

describe.skipIf(!hasChromium)('Zapier in Chromium', () => {
  beforeAll(async () => {
    await new Promise<void>((resolve) => zapierSide.listen(0, '127.0.0.1', resolve));
    redirect = `http://127.0.0.1:${(zapierSide.address() as AddressInfo).port}/dashboard/auth/oauth/return/App1/`;
    p = await startPlatform({ ZAPIER_REDIRECT_URIS: redirect, ZAPIER_CLIENT_SECRET: SECRET });
    await sql(`update agencies set zapier_enabled = true where name = 'Acme Callbacks'`);
  });
  afterAll(async () => {
    zapierSide.closeAllConnections();
    await new Promise((resolve) => zapierSide.close(resolve));
    await p?.stop();
  });

  it('/auth/login signs in, asks "Allow Zapier to use Bright Dental?" and returns to Zapier with a code', async () => {
    const { page } = await p.newPage();
    const query = new URLSearchParams({
      client_id: 'zapier',
      redirect_uri: redirect,
      state: 'zap-state-1',
      response_type: 'code',
    });
    await page.goto(p.url(`/auth/login?${query}`, HOST));
    await page.getByTestId('login-email').waitFor();
    expect(await page.getByTestId('oauth-consent').isVisible()).toBe(false);
    await page.getByTestId('login-email').fill(DEMO.dentalAdmin.email);
    await page.getByTestId('login-password').fill(DEMO.dentalAdmin.password);
    await page.getByTestId('login-submit').click();
    await expect
      .poll(() => page.getByTestId('oauth-consent-text').textContent())
      .toBe('Allow Zapier to use Bright Dental?');
    // The sign-in form made way for the consent.
    expect(await page.getByTestId('login-email').isVisible()).toBe(false);
    await page.getByTestId('oauth-allow').click();
    await page.waitForURL(`${redirect}?**`);
    const back = new URL(page.url());
    expect(back.searchParams.get('state')).toBe('zap-state-1');
    // Zapier's server takes the code at the token endpoint, then calls as the business.
    const token = await fetch(p.url('/oauth/token'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: back.searchParams.get('code') ?? '',
        redirect_uri: redirect,
        client_id: 'zapier',
        client_secret: SECRET,
      }),
    });
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    const me = await fetch(p.url('/api/v1/zapier/me'), {
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(((await me.json()) as { data: { label: string } }).data.label).toBe('Bright Dental');

    // Signed in already, a second connection goes straight to the consent; Cancel returns access_denied.
    await page.goto(p.url(`/auth/login?${query}`, HOST));
    await expect.poll(() => page.getByTestId('oauth-consent-text').textContent()).toContain('Bright Dental');
    await page.getByTestId('oauth-deny').click();
    await page.waitForURL(`${redirect}?**`);
    expect(new URL(page.url()).searchParams.get('error')).toBe('access_denied');
    await page.context().close();
  });

  it("the business's Zapier card: a key shown once that authenticates, revoked; the connection revoked", async () => {
    const page: Page = await signedInPage(p, DEMO.dentalAdmin, '**/business/**', HOST);
    await page.goto(p.url('/business/setting', HOST));
    await page.getByTestId('zapier-card').waitFor();
    await page.getByTestId('zapier-key-name').fill('Office zaps');
    await page.getByTestId('zapier-key-create').click();
    const key = (await page.getByTestId('zapier-key-value').textContent()) ?? '';
    expect(key).toMatch(/^stn_/);
    await expect.poll(() => page.getByTestId('zapier-key-row').count()).toBe(1);
    const me = (k: string) =>
      page.evaluate(
        async (apiKey) => (await fetch('/api/v1/zapier/me', { headers: { 'x-api-key': apiKey } })).status,
        k,
      );
    expect(await me(key)).toBe(200);

    await page.getByTestId('zapier-key-revoke').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => page.getByTestId('zapier-key-row').count()).toBe(0);
    expect(await me(key)).toBe(401);

    // The connection made on /auth/login is listed, and revoked.
    await expect.poll(() => page.getByTestId('zapier-connection-row').count()).toBe(1);
    await page.getByTestId('zapier-connection-revoke').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => page.getByTestId('zapier-connection-row').count()).toBe(0);
    const left = await apiFrom<{ data: unknown[] }>(page, 'GET', '/v1/businesses/zapier/connections');
    expect(left.body.data).toEqual([]);
  });

  it("the agency's zapier screen: how to connect, and its connected businesses", async () => {
    // A key makes Bright Dental a connected business.
    const dental = await signedInPage(p, DEMO.dentalAdmin, '**/business/**', HOST);
    expect((await apiFrom(dental, 'POST', '/v1/businesses/zapier/keys', { name: 'Screen' })).status).toBe(
      200,
    );
    const page = await signedInPage(p, DEMO.acmeAgency, '**/agency/**', HOST);
    await page.getByRole('link', { name: 'Zapier' }).first().click();
    await page.waitForURL('**/agency/zapier');
    // The URL changes at once; the screen shows once its code has loaded (a busy machine takes a moment).
    await expect.poll(() => page.getByTestId('page-title').textContent(), { timeout: 15_000 }).toBe('Zapier');
    expect(await page.getByTestId('zapier-client-id').textContent()).toBe('zapier');
    expect(await page.getByTestId('zapier-token-url').textContent()).toMatch(/\/oauth\/token$/);
    await expect
      .poll(() => page.getByTestId('zapier-business-row').first().textContent())
      .toContain('Bright Dental');
  });
});

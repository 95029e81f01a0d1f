import pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, hasChromium, type Platform, signedInPage, startPlatform } from './harness.ts';

// A business's own carrier account (issue 26, ADR 093) as Acme's AgencyAdmin, on Bright Dental's edit
// screen: the card says it uses the agency's account; "Use a sandbox account" gives it one of its own
// (shown masked); a refused token is shown under the token field and changes nothing; "Use the agency's
// account" puts it back.

let p: Platform;
const HOST = 'acme.localhost';
const WAIT = { timeout: 15_000 };

async function sql<T = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
  if (!p.databaseUrl) throw new Error('the platform has no database copy');
  const client = new pg.Client({ connectionString: p.databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

type Cfg = { accountSid: string; authToken: string; sandbox?: boolean } | null;
const configOf = async (id: number) =>
  (await sql<{ twilio_config: Cfg }>('select twilio_config from businesses where id = $1', [id]))[0]
    ?.twilio_config ?? null;

describe.skipIf(!hasChromium)('business carrier account in Chromium', () => {
  let page: Page;
  let id: number;

  beforeAll(async () => {
    p = await startPlatform();
    page = await signedInPage(p, DEMO.acmeAgency, '**/agency/**', HOST);
    const [row] = await sql<{ id: number }>("select id from businesses where name = 'Bright Dental'");
    if (!row) throw new Error('no Bright Dental');
    id = row.id;
  });
  afterAll(async () => {
    await p?.stop();
  });

  it("gives Bright Dental a sandbox account of its own, refuses a bad token, and goes back to the agency's", async () => {
    await page.goto(p.url(`/agency/business/edit/${id}`, HOST));
    const status = page.getByTestId('business-carrier-status');
    await status.filter({ hasText: "Uses the agency's account" }).waitFor(WAIT);

    await page.getByTestId('business-carrier-sandbox').click();
    await status.filter({ hasText: /Own account AC\*+[0-9a-zA-Z]{4}/ }).waitFor(WAIT);
    const own = await configOf(id);
    expect(own?.sandbox).toBe(true);
    expect(await status.textContent()).toContain((own?.accountSid ?? '').slice(-4));
    expect(await status.textContent()).toContain('Sandbox');

    // The business's own sandbox SID with a wrong token: refused by the carrier, nothing changes.
    await page.getByTestId('business-carrier-sid').fill(own?.accountSid ?? '');
    await page.getByTestId('business-carrier-token').fill('not-the-token');
    await page.getByTestId('business-carrier-save').click();
    await page
      .getByTestId('business-carrier-account')
      .getByText('The account SID or auth token was refused by Twilio.')
      .waitFor(WAIT);
    expect(await configOf(id)).toEqual(own);

    await page.getByTestId('business-carrier-inherit').click();
    await status.filter({ hasText: "Uses the agency's account" }).waitFor(WAIT);
    expect(await configOf(id)).toBeNull();
  });
});

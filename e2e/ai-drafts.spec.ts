import pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, hasChromium, type Platform, signedInPage, startPlatform } from './harness.ts';

// AI drafts in the template editor (issue 25, ADR 086) as the demo BusinessAdmin of Bright Dental, with the
// platform's in-process stand-in (no AI_BASE_URL).

let p: Platform;
const HOST = 'acme.localhost';

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

describe.skipIf(!hasChromium)('AI drafts in Chromium', () => {
  let page: Page;

  beforeAll(async () => {
    p = await startPlatform();
    page = await signedInPage(p, DEMO.dentalAdmin, '**/business/messaging', HOST);
  });
  afterAll(() => p?.stop());

  it('hides "Draft with AI" while the business has AI off; with it on, puts the draft in the message', async () => {
    await page.goto(p.url('/business/templates/create', HOST));
    await page.getByTestId('template-form-body').waitFor();
    expect(await page.getByTestId('ai-draft-open').count()).toBe(0);

    await sql(
      `update businesses set ai_enabled = true,
         subscription_plan_id = (select id from plans where name = 'Unlimited' limit 1)
       where name = 'Bright Dental'`,
    );
    await page.reload();
    await page.getByTestId('template-form-body').waitFor();
    await page.getByTestId('template-form-body').fill('Old text');
    await page.getByTestId('ai-draft-open').click();
    await page.getByTestId('ai-draft-prompt').fill('Free teeth whitening check-up in June');
    await page.getByTestId('ai-draft-submit').click();
    await expect
      .poll(() => page.getByTestId('template-form-body').inputValue())
      .toContain('Free teeth whitening check-up in June');
    // The draft is the user's to edit and save.
    await page.getByTestId('template-form-name').fill('June whitening');
    await page.getByTestId('template-form-submit').click();
    await page.waitForURL('**/business/templates');
  });
});

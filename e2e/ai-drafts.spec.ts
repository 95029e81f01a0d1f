import pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFrom, DEMO, hasChromium, type Platform, signedInPage, startPlatform } from './harness.ts';

// AI drafts in the template editor, the inbox's text composer and the broadcast editor (issue 25, ADR 086)
// as the demo BusinessAdmin of Bright Dental, with the platform's in-process stand-in (no AI_BASE_URL).

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

  it('puts a draft in the inbox composer', async () => {
    const installs = await apiFrom<{ data: { id: number }[] }>(page, 'GET', '/v1/installs/all');
    const installId = installs.body.data[0]?.id as number;
    const started = await apiFrom<{ data: { id: number } }>(
      page,
      'POST',
      `/v1/chats/installs/${installId}/contacts`,
      { phone: '+13105550177', name: 'Dora Draft' },
    );
    expect(started.status).toBe(200);
    await page.goto(p.url(`/business/messaging/${installId}?contact=${started.body.data.id}`, HOST));
    await page.getByTestId('send-body').waitFor();
    await page.getByTestId('ai-draft-open').click();
    await page.getByTestId('ai-draft-prompt').fill('Your cleaning is due next week');
    await page.getByTestId('ai-draft-submit').click();
    await expect
      .poll(() => page.getByTestId('send-body').inputValue())
      .toContain('Your cleaning is due next week');
  });

  it('puts a draft in the broadcast editor', async () => {
    await page.goto(p.url('/business/broadcast/create', HOST));
    await page.getByTestId('broadcast-body').waitFor();
    await page.getByTestId('ai-draft-open').click();
    await page.getByTestId('ai-draft-prompt').fill('Open house on Saturday');
    await page.getByTestId('ai-draft-submit').click();
    await expect
      .poll(() => page.getByTestId('broadcast-body').inputValue())
      .toContain('Open house on Saturday');
  });
});

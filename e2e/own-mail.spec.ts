import pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReceivedMail, type SmtpSink, startSmtpSink } from '../apps/server/test/smtp-sink.ts';
import { apiAs, DEMO, hasChromium, type Platform, signedInPage, startPlatform } from './harness.ts';

// The business's own e-mail (issue 25, ADR 090) as the demo BusinessAdmin of Bright Dental: a real SMTP
// server started here; the admin connects it on the SMTP screen (a wrong password is refused and nothing
// saved), then e-mails a contact from the inbox. The mail arrives at that SMTP server and not in the
// platform's outbox.

let p: Platform;
const HOST = 'acme.localhost';
const WAIT = { timeout: 15_000 };
const USER = 'desk';
const PASS = 'smtp-pass-9';
let received: ReceivedMail[] = [];
let smtp: SmtpSink | undefined;
let port = 0;

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

describe.skipIf(!hasChromium)('own e-mail in Chromium', () => {
  let page: Page;

  beforeAll(async () => {
    smtp = await startSmtpSink({ user: USER, pass: PASS });
    received = smtp.received;
    port = smtp.port;
    p = await startPlatform({ OWN_MAIL_SMTP_ALLOW: `127.0.0.1:${port}` });
    page = await signedInPage(p, DEMO.dentalAdmin, '**/business/**', HOST);
  });
  afterAll(async () => {
    await p?.stop();
    await smtp?.close();
  });

  it('connects an SMTP account on the SMTP screen after a refused password, and the card lists it', async () => {
    await page.goto(p.url('/business/setting', HOST));
    await page.getByTestId('mail-card').waitFor(WAIT);
    await page.getByTestId('mail-card-add-smtp').click();
    await page.waitForURL('**/business/setting/smtp/create');
    await page.getByTestId('mail-account-name').fill('Front desk');
    await page.getByTestId('mail-account-from-email').fill('desk@brightdental.test');
    await page.getByTestId('mail-account-from-name').fill('Bright Dental');
    await page.getByTestId('mail-account-host').fill('127.0.0.1');
    await page.getByTestId('mail-account-port').fill(String(port));
    await page.getByTestId('mail-account-security').click();
    await page.getByRole('option', { name: 'None' }).click();
    await page.getByTestId('mail-account-username').fill(USER);
    await page.getByTestId('mail-account-password').fill('wrong-password');
    await page.getByTestId('mail-account-submit').click();
    // Refused: the server's reason under the host field, still on the screen, nothing saved.
    await page
      .getByText(/Could not connect to the mail server with these settings/)
      .first()
      .waitFor(WAIT);
    expect(page.url()).toContain('/business/setting/smtp/create');
    expect(await sql('select id from email_accounts')).toEqual([]);

    await page.getByTestId('mail-account-password').fill(PASS);
    await page.getByTestId('mail-account-submit').click();
    await page.waitForURL(/\/business\/setting$/, WAIT);
    await page.getByTestId('mail-card-account').filter({ hasText: 'desk@brightdental.test' }).waitFor(WAIT);
    const [row] = await sql<{ password: string; is_default: boolean }>(
      'select password, is_default from email_accounts',
    );
    expect(row?.is_default).toBe(true);
    expect(row?.password).not.toContain(PASS);
  });

  it('AdminSupport (whose settings item covers the smtp screens) sees and edits the SMTP accounts, not SendGrid', async () => {
    const support = await signedInPage(
      p,
      { email: 'support@brightdental.test', password: 'demo-dental-2' },
      '**/business/**',
      HOST,
    );
    await support.goto(p.url('/business/setting', HOST));
    await support
      .getByTestId('mail-card-account')
      .filter({ hasText: 'desk@brightdental.test' })
      .waitFor(WAIT);
    expect(await support.getByTestId('mail-card-add-sendgrid').count()).toBe(0);
    await support.getByTestId('mail-card-account').getByRole('link').first().click();
    await support.waitForURL('**/business/setting/smtp/*', WAIT);
    await support.getByTestId('mail-account-from-email').waitFor(WAIT);
    expect(await support.getByTestId('mail-account-from-email').inputValue()).toBe('desk@brightdental.test');
    await support.close();
  });

  it("the agency owner connects the agency's own SMTP account on the agency's Integrations screen", async () => {
    const owner = await signedInPage(p, DEMO.acmeAgency, '**/agency**', HOST);
    await owner.goto(p.url('/agency/integrations', HOST));
    await owner.getByTestId('agency-mail-empty').waitFor(WAIT);
    await owner.getByTestId('agency-mail-add').click();
    await owner.getByTestId('mail-account-from-email').fill('team@acme.test');
    await owner.getByTestId('mail-account-host').fill('127.0.0.1');
    await owner.getByTestId('mail-account-port').fill(String(port));
    await owner.getByTestId('mail-account-security').click();
    await owner.getByRole('option', { name: 'None' }).click();
    await owner.getByTestId('mail-account-username').fill(USER);
    await owner.getByTestId('mail-account-password').fill(PASS);
    await owner.getByTestId('mail-account-submit').click();
    await owner.getByTestId('agency-mail-account').filter({ hasText: 'team@acme.test' }).waitFor(WAIT);
    const rows = await sql<{ business_id: number | null }>(
      `select business_id from email_accounts where from_email = 'team@acme.test'`,
    );
    expect(rows).toEqual([{ business_id: null }]);
    await owner.close();
  });

  it("e-mails a contact from the inbox: it arrives at the business's SMTP server, not the platform outbox", async () => {
    const [contact] = await sql<{ id: number }>(
      `update contacts set email = 'patient@example.test'
       where id = (select c.id from contacts c join businesses b on b.id = c.business_id
                   where b.name = 'Bright Dental' and c.install_id is not null and c.deleted_at is null
                   order by c.id limit 1)
       returning id`,
    );
    expect(contact).toBeDefined();
    await page.goto(p.url(`/business/messaging?contact=${contact?.id}`, HOST));
    await page.getByTestId('email-contact-open').click();
    await page.getByTestId('email-contact-subject').fill('Your appointment');
    await page.getByTestId('email-contact-body').fill('See you on Monday at 10.');
    await page.getByTestId('email-contact-send').click();
    await page.getByText('E-mail sent').first().waitFor(WAIT);
    await expect.poll(() => received.find((m) => m.to.includes('patient@example.test')), WAIT).toBeDefined();
    const got = received.find((m) => m.to.includes('patient@example.test'));
    expect(got?.from).toBe('desk@brightdental.test');
    expect(got?.raw).toContain('Subject: Your appointment');
    expect(got?.raw).toContain('See you on Monday at 10.');
    expect(await sql(`select id from mail_outbox where "to" = 'patient@example.test'`)).toEqual([]);
    await expect
      .poll(
        async () =>
          (await sql<{ status: string }>(`select status from own_mail where source = 'inbox'`))[0]?.status,
        WAIT,
      )
      .toBe('sent');
  });

  it('connects SendGrid once the agency switched it on (the stand-in checks the key)', async () => {
    // Its agency switches SendGrid on for Bright Dental (as the agency's business screen does).
    const agency = await apiAs(p, DEMO.acmeAgency);
    const [dental] = await sql<{ id: number }>(`select id from businesses where name = 'Bright Dental'`);
    const on = await agency(`/v1/business/${dental?.id}`, {
      method: 'PUT',
      body: { sendgrid_enabled: true },
    });
    expect(on.status).toBe(200);
    await page.goto(p.url('/business/setting', HOST));
    await page.getByTestId('mail-card-add-sendgrid').click();
    await page.waitForURL('**/business/setting/integration/create');
    await page.getByTestId('mail-integration-key').fill('not-a-key');
    await page.getByTestId('mail-integration-from-email').fill('news@brightdental.test');
    await page.getByTestId('mail-integration-submit').click();
    await page
      .getByText(/SendGrid did not accept this API key/)
      .first()
      .waitFor(WAIT);
    expect(await sql(`select id from user_integrations`)).toEqual([]);
    await page.getByTestId('mail-integration-key').fill('SG.demo-key.e2e');
    await page.getByTestId('mail-integration-submit').click();
    await page.waitForURL(/\/business\/setting$/, WAIT);
    await page
      .getByTestId('mail-card-integration')
      .filter({ hasText: 'news@brightdental.test' })
      .waitFor(WAIT);
    const [row] = await sql<{ secret: string }>(`select secret from user_integrations`);
    expect(row?.secret).not.toContain('SG.demo-key.e2e');
  });
});

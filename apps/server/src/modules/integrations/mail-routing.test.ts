// The business's mail goes through its own SMTP account once it has one (ADR 090): an automation's
// SendEmail and the staff's notice of a new lead arrive at the account's SMTP server (a real smtp-server on
// 127.0.0.1), and nothing goes to the platform's outbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, call, drainJobs } from '../../../test/helpers.ts';
import { type ReceivedMail, type SmtpSink, startSmtpSink } from '../../../test/smtp-sink.ts';
import { platformSystemContext } from '../../platform/tenancy/context.ts';
import { type ActionsApp, actionsApp, addContact, runBlock } from '../automations/actions/test-support.ts';
import { addField, addTag, enquiry } from '../leadforms/test-fixtures.ts';
import { restoreSandboxNumbers } from '../telephony/service.ts';

let received: ReceivedMail[] = [];
let smtp: SmtpSink;
let h: ActionsApp;

beforeAll(async () => {
  smtp = await startSmtpSink();
  received = smtp.received;
  const port = smtp.port;
  h = await actionsApp({ OWN_MAIL_SMTP_ALLOW: `127.0.0.1:${port}`, WIDGET_RATE_PER_INSTALL: '100000' });
  await addAccount();
});

/** Business A's SMTP account on the test's SMTP server, added through the API by its admin. */
async function addAccount() {
  const res = await h.t.app.inject({
    method: 'POST',
    url: '/api/v1/email-accounts',
    headers: bearer(h.adminToken),
    payload: {
      from_email: 'desk@business-a.test',
      from_name: 'Business A desk',
      host: '127.0.0.1',
      port: smtp.port,
      security: 'none',
    },
  });
  expect(res.statusCode, res.body).toBe(200);
}
afterAll(async () => {
  await h?.close();
  await smtp.close();
});

const outboxTo = (to: string) => h.q('select id from mail_outbox where "to" = $1', [to]);

describe("the business's mail through its own account", () => {
  it("an automation's SendEmail arrives at the account's SMTP server, not the outbox", async () => {
    const ann = await addContact(h, { phone: '+14155550191', first_name: 'Ann', email: 'ann@example.test' });
    const j = await runBlock(h, 'SendEmail', { subject: 'Hello {first_name}', body: 'See you soon.' }, ann);
    expect(j.step).toMatchObject({ status: 'done', detail: { to: 'ann@example.test', via: 'own' } });
    await drainJobs(h.t);
    const got = received.find((m) => m.to.includes('ann@example.test'));
    expect(got?.from).toBe('desk@business-a.test');
    expect(got?.raw).toContain('Subject: Hello Ann');
    expect(got?.raw).toContain('See you soon.');
    expect(await outboxTo('ann@example.test')).toEqual([]);
    const [row] = await h.q<{ status: string; source: string }>(
      'select status, source from own_mail where contact_id = $1',
      [ann],
    );
    expect(row).toEqual({ status: 'sent', source: 'automation' });
  });

  it("the staff's notice of a new lead arrives at the account's SMTP server, not the outbox", async () => {
    const a = h.seed.a.business.id;
    const tags = {
      lead: await addTag(h.t, a, 'Lead'),
      cleaning: await addTag(h.t, a, 'Cleaning'),
      whitening: await addTag(h.t, a, 'Whitening'),
      consent: await addTag(h.t, a, 'Marketing OK'),
    };
    await addField(h.t, a, 'insurer');
    const form = await call(h.t).post(h.adminToken, '/api/v1/leadForm', enquiry(tags));
    expect(form.statusCode, form.body).toBe(200);
    const install = await h.install({
      is_enable_lead_form: true,
      lead_form_id: form.json().data.id,
      notification_type: 'email',
      notification_email: 'front@bright.test',
    });
    await restoreSandboxNumbers(platformSystemContext(h.t.app.deps, 'job', 'sandbox numbers'));
    const res = await h.t.app.inject({
      method: 'POST',
      url: '/api/widget/v1/lead',
      headers: { 'x-install-key': install.key, origin: 'https://dental.example.test' },
      payload: {
        form_id: form.json().data.id,
        answers: {
          name: 'Lee Park',
          phone: '+14156661234',
          email: 'lee@example.com',
          service: ['cleaning'],
          insurer: 'Delta',
          ok: true,
        },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    await drainJobs(h.t);
    await expect.poll(() => received.some((m) => m.to.includes('front@bright.test'))).toBe(true);
    const got = received.find((m) => m.to.includes('front@bright.test'));
    expect(got?.raw).toContain('Subject: New lead from Lee Park');
    expect(await outboxTo('front@bright.test')).toEqual([]);
  });

  it('a change of the account through the API carries the next message at once (its cache forgotten)', async () => {
    const [account] = await h.q<{ id: number }>('select id from email_accounts where business_id = $1', [
      h.seed.a.business.id,
    ]);
    const bo = await addContact(h, { phone: '+14155550192', first_name: 'Bo', email: 'bo@example.test' });
    const send = (subject: string) => runBlock(h, 'SendEmail', { subject, body: 'Hi.' }, bo);
    // Through the account (read now, and kept a few seconds).
    expect((await send('First')).step).toMatchObject({ detail: { via: 'own' } });
    const subjectsTo = (to: string) =>
      received
        .filter((m) => m.to.includes(to))
        .map((m) => /Subject: (\w+)/.exec(m.raw)?.[1])
        // The jobs may deliver them in either order.
        .sort();
    // Delivered before its account goes (a message queued through a deleted account is refused).
    await drainJobs(h.t);
    await expect.poll(() => subjectsTo('bo@example.test')).toEqual(['First']);
    // Deleted: the very next message goes to the platform's mail.
    const gone = await h.t.app.inject({
      method: 'DELETE',
      url: `/api/v1/email-accounts/${account?.id}`,
      headers: bearer(h.adminToken),
    });
    expect(gone.statusCode, gone.body).toBe(200);
    expect((await send('Second')).step).toMatchObject({ detail: { via: 'platform' } });
    expect(await outboxTo('bo@example.test')).toHaveLength(1);
    // Added again: the very next message goes through it.
    await addAccount();
    expect((await send('Third')).step).toMatchObject({ detail: { via: 'own' } });
    await drainJobs(h.t);
    await expect.poll(() => subjectsTo('bo@example.test')).toEqual(['First', 'Third']);
  });
});

// The business's own e-mail (issue 25, ADR 090): e-mail accounts checked against a real SMTP server
// (smtp-server on 127.0.0.1, let through by OWN_MAIL_SMTP_ALLOW), SendGrid against a stand-in HTTP server
// on 127.0.0.1 (SENDGRID_BASE_URL), the agency's own account, and mail from the inbox delivered through
// them, never through the platform's outbox.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainJobs, rows, useSuite } from '../../../test/helpers.ts';
import { type ReceivedMail, type SmtpSink, startSmtpSink } from '../../../test/smtp-sink.ts';

let received: ReceivedMail[] = [];
const USER = 'mailer';
const PASS = 'smtp-pass-1';

let smtp: SmtpSink;
let smtpPort = 0;
/** A port on 127.0.0.1 that is not in OWN_MAIL_SMTP_ALLOW. */
let otherPort = 0;
let sendgrid: http.Server;
const sgMail: { auth: string; body: Record<string, unknown> }[] = [];
const GOOD_KEY = 'SG.good-key.abc';

const env: Record<string, string> = {};

beforeAll(async () => {
  smtp = await startSmtpSink({ user: USER, pass: PASS });
  received = smtp.received;
  smtpPort = smtp.port;
  const probe = http.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  otherPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));

  // SendGrid's v3 API as far as we use it: the key's scopes and mail/send.
  sendgrid = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      const auth = req.headers.authorization ?? '';
      if (auth !== `Bearer ${GOOD_KEY}`) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end('{"errors":[{"message":"authorization required"}]}');
        return;
      }
      if (req.method === 'GET' && req.url === '/v3/scopes') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ scopes: ['mail.send'] }));
        return;
      }
      if (req.method === 'POST' && req.url === '/v3/mail/send') {
        sgMail.push({ auth, body: JSON.parse(body) });
        res.writeHead(202, { 'x-message-id': `sg-${sgMail.length}` });
        res.end();
        return;
      }
      res.writeHead(404);
      res.end();
    });
  });
  await new Promise<void>((r) => sendgrid.listen(0, '127.0.0.1', r));
  env.OWN_MAIL_SMTP_ALLOW = `127.0.0.1:${smtpPort}`;
  env.SENDGRID_BASE_URL = `http://127.0.0.1:${(sendgrid.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await smtp.close();
  await new Promise<void>((r) => sendgrid.close(() => r()));
});

const c = useSuite({ env });

const account = (over: Record<string, unknown> = {}) => ({
  name: 'Front desk',
  from_email: 'hello@business-a.test',
  from_name: 'Business A',
  host: '127.0.0.1',
  port: smtpPort,
  security: 'none',
  username: USER,
  password: PASS,
  ...over,
});

const accountsOf = (businessId: number) =>
  rows(c.t, 'select * from email_accounts where business_id = $1 order by id', [businessId]);

let a: string;
let aUser: string;
let b: string;
let agencyA: string;
beforeAll(async () => {
  a = await c.token(c.seed.a.businessAdmin.email);
  aUser = await c.token(c.seed.a.businessUser.email);
  b = await c.token(c.seed.b.businessAdmin.email);
  agencyA = await c.token(c.seed.a.agencyAdmin.email);
});

describe('/v1/email-accounts', () => {
  it('refuses with 422 and saves nothing when the SMTP server refuses the password', async () => {
    const res = await c.api.post(a, '/api/v1/email-accounts', account({ password: 'wrong' }));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toMatch(
      /^Could not connect to the mail server with these settings: .+ Nothing was saved\.$/,
    );
    expect(res.json().errors.host).toBeDefined();
    expect(await accountsOf(c.seed.a.business.id)).toEqual([]);
  });

  it('refuses a private or loopback host that the operator did not allow, and says so in Spanish', async () => {
    for (const host of ['127.0.0.1', '10.0.0.5', 'localhost']) {
      const res = await c.t.app.inject({
        method: 'POST',
        url: '/api/v1/email-accounts',
        headers: { authorization: `Bearer ${a}`, 'accept-language': 'es' },
        payload: account({ host, port: otherPort }),
      });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toBe(
        'La dirección de este servidor de correo no está permitida (una dirección privada o local).',
      );
    }
    expect(await accountsOf(c.seed.a.business.id)).toEqual([]);
  });

  it('saves an account once the server accepted it: sealed password, never answered, the first is the default', async () => {
    const res = await c.api.post(a, '/api/v1/email-accounts', account());
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ provider: 'smtp', host: '127.0.0.1', has_password: true, is_default: true });
    expect(data.verified_at).not.toBeNull();
    expect(res.body).not.toContain(PASS);
    expect(data).not.toHaveProperty('password');
    const [row] = await accountsOf(c.seed.a.business.id);
    expect(row?.password).toBeTruthy();
    expect(row?.password).not.toContain(PASS);

    const list = await c.api.get(a, '/api/v1/email-accounts');
    expect(list.json().data).toHaveLength(1);
    expect(list.body).not.toContain(PASS);
    const one = await c.api.get(a, `/api/v1/email-accounts/${data.id}`);
    expect(one.json().data).toMatchObject({ id: data.id, has_password: true });
    // Another business's account is not found; a BusinessUser may not manage them.
    expect((await c.api.get(b, `/api/v1/email-accounts/${data.id}`)).statusCode).toBe(404);
    expect((await c.api.get(b, '/api/v1/email-accounts')).json().data).toEqual([]);
    expect((await c.api.get(aUser, '/api/v1/email-accounts')).statusCode).toBe(403);
  });

  it('on update keeps the stored password when none is given, and a failed check changes nothing', async () => {
    const [row] = await accountsOf(c.seed.a.business.id);
    const id = Number(row?.id);
    const kept = await c.api.put(a, `/api/v1/email-accounts/${id}`, account({ password: '', name: 'Desk' }));
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().data).toMatchObject({ name: 'Desk', has_password: true });
    const bad = await c.api.put(
      a,
      `/api/v1/email-accounts/${id}`,
      account({ password: 'nope', name: 'Bad' }),
    );
    expect(bad.statusCode).toBe(422);
    // The stored password is never sent to another server: a changed host or port needs it typed again.
    const moved = await c.api.put(
      a,
      `/api/v1/email-accounts/${id}`,
      account({ password: '', port: otherPort }),
    );
    expect(moved.statusCode).toBe(422);
    expect(moved.json().errors.password).toEqual([
      'Enter the password again: the server, user or security changed.',
    ]);
    const [after] = await accountsOf(c.seed.a.business.id);
    expect(after).toMatchObject({ name: 'Desk', password: row?.password, port: smtpPort });
  });

  it('keeps one default: a new default takes it, and deleting the default hands it to the next', async () => {
    const second = await c.api.post(
      a,
      '/api/v1/email-accounts',
      account({ name: 'Sales', is_default: true }),
    );
    expect(second.statusCode, second.body).toBe(200);
    const all = await accountsOf(c.seed.a.business.id);
    expect(all.map((r) => [r.name, r.is_default])).toEqual([
      ['Desk', false],
      ['Sales', true],
    ]);
    const del = await c.api.del(a, `/api/v1/email-accounts/${second.json().data.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect((await accountsOf(c.seed.a.business.id)).map((r) => [r.name, r.is_default])).toEqual([
      ['Desk', true],
    ]);
  });
});

async function contactWithEmail(token: string, email: string | null, phone: string): Promise<number> {
  const res = await c.api.post(token, '/api/v1/contacts', {
    phone,
    first_name: 'Ann',
    ...(email ? { email } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id;
}
const outboxTo = (to: string) => rows(c.t, 'select id from mail_outbox where "to" = $1', [to]);

describe('the inbox e-mails the contact through the business account', () => {
  it('delivers to the SMTP server from the account, not the platform outbox, and drops the body', async () => {
    const id = await contactWithEmail(a, 'ann@example.test', '+14155550181');
    const res = await c.api.post(a, `/api/v1/chats/contacts/${id}/email`, {
      subject: 'Your visit',
      body: 'See you on Monday at 10.',
    });
    expect(res.statusCode, res.body).toBe(200);
    await drainJobs(c.t);
    const got = received.find((m) => m.to.includes('ann@example.test'));
    expect(got?.from).toBe('hello@business-a.test');
    expect(got?.raw).toContain('Subject: Your visit');
    expect(got?.raw).toContain('See you on Monday at 10.');
    expect(await outboxTo('ann@example.test')).toEqual([]);
    const [sent] = await rows(c.t, 'select * from own_mail where contact_id = $1', [id]);
    expect(sent).toMatchObject({ status: 'sent', source: 'inbox', text: '', to: 'ann@example.test' });
    // The profile's business summary says it has its own e-mail.
    const profile = (await c.api.get(a, '/api/v1/profile')).json().data.user.business;
    expect(profile.has_integrations).toEqual({ sendgrid: false, email: true });
    const recent = await c.api.get(a, '/api/v1/own-mail');
    expect(recent.json().data[0]).toMatchObject({ subject: 'Your visit', status: 'sent', via: 'smtp' });
  });

  it('refuses a contact without an e-mail; a business without an account still uses the platform mail', async () => {
    const none = await contactWithEmail(a, null, '+14155550182');
    const res = await c.api.post(a, `/api/v1/chats/contacts/${none}/email`, { subject: 'Hi', body: 'x' });
    expect(res.statusCode).toBe(422);
    const bob = await contactWithEmail(b, 'bob@example.test', '+14155550183');
    const viaPlatform = await c.api.post(b, `/api/v1/chats/contacts/${bob}/email`, {
      subject: 'Hi',
      body: 'x',
    });
    expect(viaPlatform.statusCode, viaPlatform.body).toBe(200);
    await drainJobs(c.t);
    expect(await outboxTo('bob@example.test')).toHaveLength(1);
    expect(received.some((m) => m.to.includes('bob@example.test'))).toBe(false);
  });
});

describe('/v1/businesses/integrations (SendGrid)', () => {
  const sendgridBody = (over: Record<string, unknown> = {}) => ({
    key: 'sendgrid',
    api_key: GOOD_KEY,
    from_email: 'news@business-b.test',
    from_name: 'Business B',
    ...over,
  });
  const integrationsOf = (businessId: number) =>
    rows(c.t, 'select * from user_integrations where business_id = $1', [businessId]);

  it('lists the types; refuses SendGrid while the agency has not switched it on', async () => {
    const types = await c.api.get(b, '/api/v1/businesses/integrations/types');
    expect(types.statusCode, types.body).toBe(200);
    expect(types.json().data).toEqual([
      { type: 'sendgrid', available: false, connected: false },
      { type: 'email', available: true, connected: false },
    ]);
    const res = await c.api.post(b, '/api/v1/businesses/integrations', sendgridBody());
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(
      'SendGrid is not enabled for this business. Ask your agency to switch it on.',
    );
  });

  it('checks the key with SendGrid before saving: a refused key saves nothing, a good one is sealed', async () => {
    // The agency switches SendGrid on for the business.
    const agencyB = await c.token(c.seed.b.agencyAdmin.email);
    const on = await c.api.put(agencyB, `/api/v1/business/${c.seed.b.business.id}`, {
      sendgrid_enabled: true,
    });
    expect(on.statusCode, on.body).toBe(200);
    const bad = await c.api.post(b, '/api/v1/businesses/integrations', sendgridBody({ api_key: 'SG.bad' }));
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toContain('SendGrid did not accept this API key');
    expect(await integrationsOf(c.seed.b.business.id)).toEqual([]);

    const res = await c.api.post(b, '/api/v1/businesses/integrations', sendgridBody());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      key: 'sendgrid',
      has_api_key: true,
      from_email: 'news@business-b.test',
    });
    expect(res.body).not.toContain(GOOD_KEY);
    const [row] = await integrationsOf(c.seed.b.business.id);
    expect(row?.secret).not.toContain(GOOD_KEY);
    // One per business.
    expect((await c.api.post(b, '/api/v1/businesses/integrations', sendgridBody())).statusCode).toBe(409);
    const ofType = await c.api.get(b, '/api/v1/businesses/integrations/type/sendgrid');
    expect(ofType.json().data.integration).toMatchObject({ id: row?.id, has_api_key: true });
    expect((await c.api.get(b, '/api/v1/businesses/integrations')).json().data).toHaveLength(1);
    expect((await c.api.get(a, `/api/v1/businesses/integrations/${row?.id}`)).statusCode).toBe(404);
    const put = await c.api.put(
      b,
      `/api/v1/businesses/integrations/${row?.id}`,
      sendgridBody({ api_key: '', from_name: 'B news' }),
    );
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toMatchObject({ from_name: 'B news', has_api_key: true });
  });

  it("sends the business's mail through SendGrid's v3 mail/send", async () => {
    const bob = await contactWithEmail(b, 'bob2@example.test', '+14155550184');
    const res = await c.api.post(b, `/api/v1/chats/contacts/${bob}/email`, {
      subject: 'Offer',
      body: 'Half price',
    });
    expect(res.statusCode, res.body).toBe(200);
    await drainJobs(c.t);
    const sent = sgMail.find((m) => JSON.stringify(m.body).includes('bob2@example.test'));
    expect(sent?.body).toMatchObject({
      personalizations: [{ to: [{ email: 'bob2@example.test' }] }],
      from: { email: 'news@business-b.test', name: 'B news' },
      subject: 'Offer',
      content: [{ type: 'text/plain', value: 'Half price' }],
    });
    expect(await outboxTo('bob2@example.test')).toEqual([]);
    const [row] = await rows(c.t, 'select status, message_id from own_mail where contact_id = $1', [bob]);
    expect(row?.status).toBe('sent');
    expect(row?.message_id).toMatch(/^sg-\d+$/);
  });

  it('deletes the integration', async () => {
    const [row] = await integrationsOf(c.seed.b.business.id);
    expect((await c.api.del(b, `/api/v1/businesses/integrations/${row?.id}`)).statusCode).toBe(200);
    expect(await integrationsOf(c.seed.b.business.id)).toEqual([]);
  });
});

describe("/v1/agencies/integartions (the agency's own SMTP account)", () => {
  it('lets the agency admin connect, change and delete its own account; businesses cannot reach it', async () => {
    const bad = await c.api.post(agencyA, '/api/v1/agencies/integartions', account({ password: 'x' }));
    expect(bad.statusCode).toBe(422);
    const res = await c.api.post(
      agencyA,
      '/api/v1/agencies/integartions',
      account({ from_email: 'team@agency-a.test' }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.id;
    expect(res.body).not.toContain(PASS);
    const [row] = await rows(c.t, 'select business_id, agency_id from email_accounts where id = $1', [id]);
    expect(row).toEqual({ business_id: null, agency_id: c.seed.a.agency.id });
    expect((await c.api.get(agencyA, '/api/v1/agencies/integartions')).json().data).toHaveLength(1);
    // The business's list does not show the agency's own account, and a business cannot touch it.
    expect(
      (await c.api.get(a, '/api/v1/email-accounts')).json().data.map((x: { id: number }) => x.id),
    ).not.toContain(id);
    expect((await c.api.get(a, '/api/v1/agencies/integartions')).statusCode).toBe(403);
    expect((await c.api.del(a, `/api/v1/email-accounts/${id}`)).statusCode).toBe(404);
    // The agency's own mail (its users' password resets) goes through it, not the platform outbox.
    const reset = await c.api.post(null, '/api/v1/password/email', { email: c.seed.a.agencyAdmin.email });
    expect(reset.statusCode, reset.body).toBe(200);
    await drainJobs(c.t);
    const got = received.find((m) => m.to.includes(c.seed.a.agencyAdmin.email));
    expect(got?.from).toBe('team@agency-a.test');
    expect(await outboxTo(c.seed.a.agencyAdmin.email)).toEqual([]);
    const put = await c.api.put(
      agencyA,
      `/api/v1/agencies/integartions/${id}`,
      account({ password: '', from_name: 'Agency A' }),
    );
    expect(put.statusCode, put.body).toBe(200);
    expect((await c.api.del(agencyA, `/api/v1/agencies/integartions/${id}`)).statusCode).toBe(200);
    expect((await c.api.get(agencyA, '/api/v1/agencies/integartions')).json().data).toEqual([]);
  });
});

// Zapier's whole flow, scripted as Zapier's platform performs it, against the server listening on
// 127.0.0.1 over real HTTP (ADR 089): sign in and consent (POST /v1/oauth-login), exchange the code at
// /oauth/token, test the connection, subscribe REST hooks with a local receiver, cause triggers (a text in
// through the sandbox carrier's webhook), receive them, run an action, refresh the token, unsubscribe and
// see no more deliveries; a 410 from the receiver unsubscribes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { drainJobs } from '../../../test/helpers.ts';
import { type AutomationsTest, automationsApp, installWithNumber } from '../automations/test-support.ts';
import { zapierClientSecret } from './zapier.ts';

const REDIRECT = 'https://zapier.com/dashboard/auth/oauth/return/App123CLIAPI/';
// biome-ignore lint/suspicious/noExplicitAny: the answers are read as Zapier reads them, by key
type Body = Record<string, any>;
type Delivery = { path: string; body: Record<string, unknown> };
const received: Delivery[] = [];
/** Paths the receiver answers 410 Gone (Zapier's "unsubscribe me"). */
const gone = new Set<string>();
const receiver = http.createServer((req, res) => {
  let data = '';
  req.on('data', (c) => {
    data += c;
  });
  req.on('end', () => {
    received.push({ path: req.url ?? '', body: JSON.parse(data || '{}') });
    const status = gone.has(req.url ?? '') ? 410 : 200;
    res.writeHead(status, { 'content-type': 'application/json' }).end('{"status":"ok"}');
  });
});
let rx = '';
let h: AutomationsTest;
let base = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  rx = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  h = await automationsApp({ ZAPIER_REDIRECT_URIS: REDIRECT, ZAPIER_HOOK_ALLOW_ORIGINS: rx });
  await h.q('update agencies set zapier_enabled = true where id = $1', [h.seed.a.agency.id]);
  await h.t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(h.t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await h?.close();
});

async function json(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
) {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      accept: 'application/json',
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Body };
}

it("performs Zapier's whole flow against the running server", async () => {
  const install = await installWithNumber(h);
  const secret = zapierClientSecret(h.ctx);

  // 1. /auth/login: the business admin signs in, sees the consent, allows; the browser goes to Zapier.
  const login = await json('/api/v1/login', {
    method: 'POST',
    body: { email: h.seed.a.businessAdmin.email, password: 'correct-horse-1' },
  });
  expect(login.status).toBe(200);
  const user = { authorization: `Bearer ${login.body.access_token}` };
  const preview = await json(
    `/api/v1/oauth-login?client_id=zapier&redirect_uri=${encodeURIComponent(REDIRECT)}`,
    {
      headers: user,
    },
  );
  expect(preview.body.data).toEqual({ app: 'Zapier', business: 'Business A' });
  const consent = await json('/api/v1/oauth-login', {
    method: 'POST',
    headers: user,
    body: { client_id: 'zapier', redirect_uri: REDIRECT, state: 'st4te', response_type: 'code' },
  });
  expect(consent.status).toBe(200);
  const redirect = new URL(consent.body.data.redirect);
  expect(redirect.searchParams.get('state')).toBe('st4te');

  // 2. Zapier's server exchanges the code (form-encoded, as Zapier sends it).
  const tokenRes = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: redirect.searchParams.get('code') ?? '',
      redirect_uri: REDIRECT,
      client_id: 'zapier',
      client_secret: secret,
    }),
  });
  expect(tokenRes.status).toBe(200);
  const tokens = (await tokenRes.json()) as {
    access_token: string;
    refresh_token: string;
    token_type: string;
  };
  expect(tokens.token_type).toBe('Bearer');
  let zap = { authorization: `Bearer ${tokens.access_token}` };

  // 3. The connection test and its label.
  const me = await json('/api/v1/zapier/me', { headers: zap });
  expect(me.status).toBe(200);
  expect(me.body.data.label).toBe('Business A');

  // 4. Zaps turned on: REST hooks for new texts and new contacts.
  const textHook = await json('/api/v1/zapier/hooks', {
    method: 'POST',
    headers: zap,
    body: { event: 'new_text', target_url: `${rx}/hooks/text` },
  });
  expect(textHook.status).toBe(200);
  const contactHook = await json('/api/v1/zapier/hooks', {
    method: 'POST',
    headers: zap,
    body: { event: 'new_contact', target_url: `${rx}/hooks/contact` },
  });
  expect(contactHook.status).toBe(200);

  // 5. A text in through the sandbox carrier's webhook: a new contact and a new text reach the receiver.
  const phone = '+14155550190';
  h.sandbox.phones.sendText(phone, install.phone, 'Do you open on Sunday?');
  await h.run(100);
  await expect
    .poll(() => received.find((d) => d.path === '/hooks/text')?.body, { timeout: 15_000 })
    .toMatchObject({ body: 'Do you open on Sunday?', contact: { phone } });
  await expect
    .poll(() => received.find((d) => d.path === '/hooks/contact')?.body, { timeout: 15_000 })
    .toMatchObject({ phone });

  // 6. An action: Zapier texts back through the inbox's sending; the sandbox phone receives it.
  const sent = await json('/api/v1/zapier/actions/send-text', {
    method: 'POST',
    headers: zap,
    body: { phone, body: 'Yes, 10 to 2.' },
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  await h.run(5_000);
  expect(h.sandbox.phones.get(phone).texts.map((t) => t.body)).toContain('Yes, 10 to 2.');

  // 7. The access token expires: Zapier refreshes it and goes on.
  const refreshed = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`zapier:${secret}`).toString('base64')}`,
    },
    body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }),
  });
  expect(refreshed.status).toBe(200);
  zap = { authorization: `Bearer ${((await refreshed.json()) as { access_token: string }).access_token}` };

  // 8. The zap is turned off: unsubscribed, a second text in delivers nothing more.
  const del = await json(`/api/v1/zapier/hooks/${textHook.body.data.id}`, { method: 'DELETE', headers: zap });
  expect(del.status).toBe(200);
  const texts = () => received.filter((d) => d.path === '/hooks/text').length;
  const before = texts();
  h.sandbox.phones.sendText(phone, install.phone, 'Thanks!');
  await h.run(100);
  await expect
    .poll(
      async () => (await h.q('select count(*)::int as n from messages where body = $1', ['Thanks!']))[0]?.n,
    )
    .toBe(1);
  await drainJobs(h.t);
  expect(texts()).toBe(before);

  // 9. A receiver that answers 410 Gone is unsubscribed by its first delivery.
  gone.add('/hooks/contact');
  const contacts = () => received.filter((d) => d.path === '/hooks/contact').length;
  const n = contacts();
  h.sandbox.phones.sendText('+14155550191', install.phone, 'Hello');
  await h.run(100);
  await expect.poll(contacts, { timeout: 15_000 }).toBe(n + 1);
  await expect
    .poll(
      async () =>
        (
          await h.q('select count(*)::int as n from zapier_hooks where id = $1', [contactHook.body.data.id])
        )[0]?.n,
    )
    .toBe(0);
  h.sandbox.phones.sendText('+14155550192', install.phone, 'Hello again');
  await h.run(100);
  await drainJobs(h.t);
  expect(contacts()).toBe(n + 1);
}, 60_000);

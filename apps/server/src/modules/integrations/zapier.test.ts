// Zapier (ADR 089) through the API: the consent and the token endpoint, Zapier's calls by access token and
// API key, gating by the agency's switch and the business's plan, REST hooks, the actions, the business's
// keys and connections, the agency's screen.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainJobs, expect422 } from '../../../test/helpers.ts';
import {
  type AutomationsTest,
  addAutomation,
  automationsApp,
  block,
  installWithNumber,
} from '../automations/test-support.ts';
import { zapierClientSecret } from './zapier.ts';

const REDIRECT = 'https://zapier.com/dashboard/auth/oauth/return/App123CLIAPI/';
let h: AutomationsTest;
let admin: string;
let secret: string;

const q = (text: string, values: unknown[] = []) => h.q(text, values);
const inject = (opts: {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  payload?: unknown;
}) => h.t.app.inject(opts as never);
const zapier = (headers: Record<string, string>) => ({
  get: (url: string) => inject({ method: 'GET', url, headers }),
  post: (url: string, payload: object) => inject({ method: 'POST', url, headers, payload }),
  del: (url: string) => inject({ method: 'DELETE', url, headers }),
});
const asUser = (token: string) => ({ authorization: `Bearer ${token}` });

/** The consent's code for business A's admin, then the tokens it gives. */
async function connect(state = 'xyz') {
  const consent = await inject({
    method: 'POST',
    url: '/api/v1/oauth-login',
    headers: asUser(admin),
    payload: { client_id: 'zapier', redirect_uri: REDIRECT, state, response_type: 'code' },
  });
  expect(consent.statusCode, consent.body).toBe(200);
  const url = new URL(consent.json().data.redirect);
  expect(`${url.origin}${url.pathname}`).toBe(REDIRECT);
  expect(url.searchParams.get('state')).toBe(state);
  const code = url.searchParams.get('code') ?? '';
  const res = await inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: 'zapier',
      client_secret: secret,
    }).toString(),
  });
  expect(res.statusCode, res.body).toBe(200);
  return { code, ...(res.json() as { access_token: string; refresh_token: string; expires_in: number }) };
}

/** Zapier's hook receiver on 127.0.0.1 (let through the URL guard by ZAPIER_HOOK_ALLOW_ORIGINS). */
const received: { path: string; body: Record<string, unknown> }[] = [];
const receiver = http.createServer((req, res) => {
  let data = '';
  req.on('data', (c) => {
    data += c;
  });
  req.on('end', () => {
    received.push({ path: req.url ?? '', body: JSON.parse(data || '{}') });
    res.writeHead(200).end('ok');
  });
});
let rx = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  rx = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  h = await automationsApp({ ZAPIER_REDIRECT_URIS: REDIRECT, ZAPIER_HOOK_ALLOW_ORIGINS: rx });
  secret = zapierClientSecret(h.ctx);
  await q('update agencies set zapier_enabled = true where id = $1', [h.seed.a.agency.id]);
  admin = await h.token(h.seed.a.businessAdmin.email);
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await h?.close();
});

describe('OAuth: /v1/oauth-login and /oauth/token', () => {
  it('shows the consent text, then gives a one-use code that becomes tokens; the access token reaches /me', async () => {
    const preview = await inject({
      method: 'GET',
      url: `/api/v1/oauth-login?client_id=zapier&redirect_uri=${encodeURIComponent(REDIRECT)}`,
      headers: asUser(admin),
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().data).toEqual({ app: 'Zapier', business: 'Business A' });

    const t = await connect();
    expect(t.expires_in).toBe(3600);
    const me = await zapier(asUser(t.access_token)).get('/api/v1/zapier/me');
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json().data).toEqual({
      business_id: h.seed.a.business.id,
      business: 'Business A',
      label: 'Business A',
      auth: 'oauth',
    });
    // The code is used once.
    const again = await inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { grant_type: 'authorization_code', code: t.code, client_id: 'zapier', client_secret: secret },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe('invalid_grant');
    // The Zapier token is no user session: the app's own calls do not take it.
    expect(
      (await inject({ method: 'GET', url: '/api/v1/profile', headers: asUser(t.access_token) })).statusCode,
    ).toBe(401);
  });

  it('refreshes with the refresh token (JSON, client by HTTP Basic); the old access token stops', async () => {
    const t = await connect();
    const res = await inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { authorization: `Basic ${Buffer.from(`zapier:${secret}`).toString('base64')}` },
      payload: { grant_type: 'refresh_token', refresh_token: t.refresh_token },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const fresh = res.json().access_token as string;
    expect((await zapier(asUser(fresh)).get('/api/v1/zapier/me')).statusCode).toBe(200);
    const old = await zapier(asUser(t.access_token)).get('/api/v1/zapier/me');
    expect(old.statusCode).toBe(401);
    expect(old.json().message).toBe(
      'The Zapier access token or API key is missing, wrong, expired or revoked.',
    );
  });

  it('refuses a wrong client, a wrong redirect address, a non-admin, and a bad grant', async () => {
    const body = { client_id: 'zapier', redirect_uri: REDIRECT, response_type: 'code' };
    const post = (token: string, payload: object) =>
      inject({ method: 'POST', url: '/api/v1/oauth-login', headers: asUser(token), payload });
    expect422(
      await post(admin, { ...body, client_id: 'other' }),
      'client_id',
      'The app asking to connect is unknown.',
    );
    expect422(
      await post(admin, { ...body, redirect_uri: `${REDIRECT}x` }),
      'redirect_uri',
      'The redirect address is not one registered for this app.',
    );
    const user = await post(await h.token(h.seed.a.businessUser.email), body);
    expect(user.statusCode).toBe(403);
    expect(user.json().message).toBe('Only a business admin can connect Zapier.');
    const agency = await post(await h.token(h.seed.a.agencyAdmin.email), body);
    expect(agency.statusCode).toBe(403);
    expect((await inject({ method: 'POST', url: '/api/v1/oauth-login', payload: body })).statusCode).toBe(
      401,
    );

    const token = (payload: object) => inject({ method: 'POST', url: '/oauth/token', payload });
    const wrongSecret = await token({
      grant_type: 'authorization_code',
      code: 'x',
      client_id: 'zapier',
      client_secret: 'nope',
    });
    expect(wrongSecret.statusCode).toBe(401);
    expect(wrongSecret.json().error).toBe('invalid_client');
    const grant = await token({ grant_type: 'password', client_id: 'zapier', client_secret: secret });
    expect(grant.json().error).toBe('unsupported_grant_type');
    const unknown = await token({
      grant_type: 'authorization_code',
      code: 'nope',
      client_id: 'zapier',
      client_secret: secret,
    });
    expect(unknown.json().error).toBe('invalid_grant');
  });

  it('an expired code is refused', async () => {
    const consent = await inject({
      method: 'POST',
      url: '/api/v1/oauth-login',
      headers: asUser(admin),
      payload: { client_id: 'zapier', redirect_uri: REDIRECT, response_type: 'code' },
    });
    const code = new URL(consent.json().data.redirect).searchParams.get('code');
    await q(`update zapier_codes set expires_at = now() - interval '1 second' where used_at is null`);
    const res = await inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { grant_type: 'authorization_code', code, client_id: 'zapier', client_secret: secret },
    });
    expect(res.json().error).toBe('invalid_grant');
  });
});

describe('gating', () => {
  it('refuses with 403 when the agency has Zapier off, or the plan lacks it unless Zapier is free', async () => {
    const t = await connect();
    const me = () => zapier(asUser(t.access_token)).get('/api/v1/zapier/me');
    await q('update agencies set zapier_enabled = false where id = $1', [h.seed.a.agency.id]);
    let res = await me();
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe("Zapier is not enabled for this business's agency.");
    const consent = await inject({
      method: 'POST',
      url: '/api/v1/oauth-login',
      headers: asUser(admin),
      payload: { client_id: 'zapier', redirect_uri: REDIRECT, response_type: 'code' },
    });
    expect(consent.statusCode).toBe(403);
    await q('update agencies set zapier_enabled = true where id = $1', [h.seed.a.agency.id]);

    const [plan] = await h.q<{ id: number }>(
      `insert into plans (agency_id, name, features) values ($1, 'Basic', '{"Zapier": false}') returning id`,
      [h.seed.a.agency.id],
    );
    await q('update businesses set subscription_plan_id = $2 where id = $1', [
      h.seed.a.business.id,
      plan?.id,
    ]);
    res = await me();
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Your plan does not include Zapier.');
    // Spanish
    const es = await inject({
      method: 'GET',
      url: '/api/v1/zapier/me',
      headers: { ...asUser(t.access_token), 'accept-language': 'es' },
    });
    expect(es.json().message).toBe('Tu plan no incluye Zapier.');
    await q('update agencies set zapier_free = true where id = $1', [h.seed.a.agency.id]);
    expect((await me()).statusCode).toBe(200);
    await q('update agencies set zapier_free = false where id = $1', [h.seed.a.agency.id]);
    await q(`update plans set features = '{"Zapier": true}' where id = $1`, [plan?.id]);
    expect((await me()).statusCode).toBe(200);
    await q('update businesses set subscription_plan_id = null where id = $1', [h.seed.a.business.id]);
  });

  it('a switched-off user no longer authenticates its connection', async () => {
    const t = await connect();
    await q('update users set active = false where id = $1', [h.seed.a.businessAdmin.id]);
    expect((await zapier(asUser(t.access_token)).get('/api/v1/zapier/me')).statusCode).toBe(401);
    await q('update users set active = true where id = $1', [h.seed.a.businessAdmin.id]);
    expect((await zapier(asUser(t.access_token)).get('/api/v1/zapier/me')).statusCode).toBe(200);
  });
});

describe('API keys and connections of the business', () => {
  it('creates a key shown once, which authenticates by X-Api-Key; lists and revokes it', async () => {
    const created = await inject({
      method: 'POST',
      url: '/api/v1/businesses/zapier/keys',
      headers: asUser(admin),
      payload: { name: 'My Zap' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const key = created.json().data.key as string;
    expect(key).toMatch(/^stn_/);
    const list = await inject({
      method: 'GET',
      url: '/api/v1/businesses/zapier/keys',
      headers: asUser(admin),
    });
    const listed = list.json().data.find((k: { id: number }) => k.id === created.json().data.id);
    expect(listed).toMatchObject({ name: 'My Zap', prefix: key.slice(0, 10) });
    expect(JSON.stringify(list.json())).not.toContain(key);
    expect((await h.q('select key_hash from zapier_api_keys where key_hash = $1', [key])).length).toBe(0);

    const me = await zapier({ 'x-api-key': key }).get('/api/v1/zapier/me');
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json().data.auth).toBe('api_key');

    // Business B's admin cannot revoke it.
    const b = await h.token(h.seed.b.businessAdmin.email);
    expect(
      (
        await inject({
          method: 'DELETE',
          url: `/api/v1/businesses/zapier/keys/${listed.id}`,
          headers: asUser(b),
        })
      ).statusCode,
    ).toBe(404);
    const del = await inject({
      method: 'DELETE',
      url: `/api/v1/businesses/zapier/keys/${listed.id}`,
      headers: asUser(admin),
    });
    expect(del.statusCode).toBe(200);
    expect(del.json().message).toBe('The API key was revoked.');
    expect((await zapier({ 'x-api-key': key }).get('/api/v1/zapier/me')).statusCode).toBe(401);
  });

  it('only a business admin manages keys; the name is required', async () => {
    const user = await h.token(h.seed.a.businessUser.email);
    expect(
      (await inject({ method: 'GET', url: '/api/v1/businesses/zapier/keys', headers: asUser(user) }))
        .statusCode,
    ).toBe(403);
    expect422(
      await inject({
        method: 'POST',
        url: '/api/v1/businesses/zapier/keys',
        headers: asUser(admin),
        payload: { name: ' ' },
      }),
      'name',
      'The name field is required',
    );
  });

  it('lists the connections with who consented, and revokes one with its hooks', async () => {
    const t = await connect();
    const hook = await zapier(asUser(t.access_token)).post('/api/v1/zapier/hooks', {
      event: 'new_contact',
      target_url: 'https://hooks.zapier.com/hooks/standard/1/abc',
    });
    expect(hook.statusCode, hook.body).toBe(200);
    const list = await inject({
      method: 'GET',
      url: '/api/v1/businesses/zapier/connections',
      headers: asUser(admin),
    });
    expect(list.statusCode).toBe(200);
    const mine = list.json().data.find((c: { hooks: number }) => c.hooks === 1);
    expect(mine.user).toBe('bizadmin A');
    const del = await inject({
      method: 'DELETE',
      url: `/api/v1/businesses/zapier/connections/${mine.id}`,
      headers: asUser(admin),
    });
    expect(del.statusCode).toBe(200);
    expect((await zapier(asUser(t.access_token)).get('/api/v1/zapier/me')).statusCode).toBe(401);
    expect((await h.q('select id from zapier_hooks where token_id = $1', [mine.id])).length).toBe(0);
    // Nor does the refresh token work any more.
    const refresh = await inject({
      method: 'POST',
      url: '/oauth/token',
      payload: {
        grant_type: 'refresh_token',
        refresh_token: t.refresh_token,
        client_id: 'zapier',
        client_secret: secret,
      },
    });
    expect(refresh.json().error).toBe('invalid_grant');
  });

  it("the agency's screen: connect details and its connected businesses", async () => {
    await connect();
    const res = await inject({
      method: 'GET',
      url: '/api/v1/agencies/zapier',
      headers: asUser(await h.token(h.seed.a.agencyAdmin.email)),
    });
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json().data;
    expect(d).toMatchObject({ client_id: 'zapier', enabled: true, free: false });
    expect(d.authorize_url).toMatch(/\/auth\/login$/);
    expect(d.token_url).toMatch(/\/oauth\/token$/);
    expect(d.businesses.map((b: { name: string }) => b.name)).toEqual(['Business A']);
    expect(d.businesses[0].connections).toBeGreaterThan(0);
    // Agency B sees none of A's.
    const b = await inject({
      method: 'GET',
      url: '/api/v1/agencies/zapier',
      headers: asUser(await h.token(h.seed.b.agencyAdmin.email)),
    });
    expect(b.json().data.businesses).toEqual([]);
    // A business user may not.
    expect(
      (await inject({ method: 'GET', url: '/api/v1/agencies/zapier', headers: asUser(admin) })).statusCode,
    ).toBe(403);
  });
});

describe("Zapier's calls", () => {
  let z: ReturnType<typeof zapier>;
  let install: { id: number; phone: string };
  beforeAll(async () => {
    z = zapier(asUser((await connect()).access_token));
    install = await installWithNumber(h);
  });

  it('refuses without credentials', async () => {
    const res = await inject({ method: 'GET', url: '/api/v1/zapier/me' });
    expect(res.statusCode).toBe(401);
    expect((await zapier({ 'x-api-key': 'stn_nope' }).get('/api/v1/zapier/me')).statusCode).toBe(401);
  });

  it('subscribes and unsubscribes hooks; a private address or a bad event is refused', async () => {
    const ok = await z.post('/api/v1/zapier/hooks', {
      event: 'new_text',
      target_url: 'https://hooks.zapier.com/1',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ event: 'new_text', target_url: 'https://hooks.zapier.com/1' });
    expect422(
      await z.post('/api/v1/zapier/hooks', {
        event: 'new_text',
        target_url: 'http://169.254.169.254/latest',
      }),
      'target_url',
      'The hook address must be a public http(s) address.',
    );
    expect422(
      await z.post('/api/v1/zapier/hooks', { event: 'new_text', target_url: 'http://localhost:8080/x' }),
      'target_url',
      'The hook address must be a public http(s) address.',
    );
    expect422(
      await z.post('/api/v1/zapier/hooks', { event: 'nope', target_url: 'https://x.test' }),
      'event',
      'The selected event is invalid.',
    );
    const del = await z.del(`/api/v1/zapier/hooks/${ok.json().data.id}`);
    expect(del.statusCode).toBe(200);
    expect((await z.del(`/api/v1/zapier/hooks/${ok.json().data.id}`)).statusCode).toBe(404);
  });

  it('answers samples for every trigger', async () => {
    for (const event of [
      'new_contact',
      'new_text',
      'call_completed',
      'call_missed',
      'lead_submitted',
      'contact_tagged',
    ]) {
      const res = await z.get(`/api/v1/zapier/samples/${event}`);
      expect(res.statusCode, event).toBe(200);
      expect(res.json().data.length).toBeGreaterThan(0);
      expect(typeof res.json().data[0].id).toBe('string');
    }
    expect((await z.get('/api/v1/zapier/samples/nope')).statusCode).toBe(422);
  });

  it('creates, then updates, a contact by phone, with tags', async () => {
    const first = await z.post('/api/v1/zapier/actions/contact', {
      phone: '(415) 555-0177',
      first_name: 'Zed',
      tags: ['zapier'],
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({
      created: true,
      phone: '+14155550177',
      first_name: 'Zed',
      tags: ['zapier'],
    });
    const second = await z.post('/api/v1/zapier/actions/contact', {
      phone: '+14155550177',
      last_name: 'Zapper',
      tags: ['vip'],
    });
    expect(second.json().data).toMatchObject({ created: false, first_name: 'Zed', last_name: 'Zapper' });
    expect([...second.json().data.tags].sort()).toEqual(['vip', 'zapier']);
    expect422(
      await z.post('/api/v1/zapier/actions/contact', { phone: '12' }),
      'phone',
      'Wrong phone number format!!',
    );
  });

  it('adds a tag; an unknown phone is a 404 that says so', async () => {
    const res = await z.post('/api/v1/zapier/actions/tag', { phone: '+14155550177', tag: 'hot lead' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.tags).toContain('hot lead');
    const none = await z.post('/api/v1/zapier/actions/tag', { phone: '+14155550999', tag: 'x' });
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toBe('There is no contact with this phone number.');
  });

  it('sends a text from the install, to a new phone (made a contact)', async () => {
    const res = await z.post('/api/v1/zapier/actions/send-text', {
      phone: '+14155550178',
      body: 'Your order is ready',
      install_id: install.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ phone: '+14155550178', body: 'Your order is ready' });
    const [m] = await h.q<{ from_number: string; direction: string }>(
      'select from_number, direction from messages where id = $1',
      [res.json().data.id],
    );
    expect(m).toEqual({ from_number: install.phone, direction: 'out' });
    expect422(
      await z.post('/api/v1/zapier/actions/send-text', { body: 'x' }),
      'phone',
      'The phone field is required',
    );
    expect422(
      await z.post('/api/v1/zapier/actions/send-text', {
        phone: '+14155550179',
        body: 'x',
        install_id: 999999,
      }),
      'install_id',
      "The install is not one of this business's.",
    );
  });

  it('starts an automation for a contact; an inactive one is refused', async () => {
    const on = await addAutomation(h, { blocks: [block('w', 'Wait', { amount: 1, unit: 'days' })] });
    const res = await z.post('/api/v1/zapier/actions/start-automation', {
      phone: '+14155550177',
      automation_id: on,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ automation_id: on, started: true });
    const off = await addAutomation(h, {
      blocks: [block('w', 'Wait', { amount: 1, unit: 'days' })],
      active: false,
    });
    const refused = await z.post('/api/v1/zapier/actions/start-automation', {
      phone: '+14155550177',
      automation_id: off,
    });
    expect(refused.statusCode).toBe(422);
    await drainJobs(h.t);
  });
});

describe('triggers by API key', () => {
  it('delivers a missed call and a tag to the hooks; revoking the key removes its hooks', async () => {
    const created = await inject({
      method: 'POST',
      url: '/api/v1/businesses/zapier/keys',
      headers: asUser(admin),
      payload: { name: 'Triggers' },
    });
    const z = zapier({ 'x-api-key': created.json().data.key });
    for (const event of ['call_missed', 'contact_tagged'])
      expect((await z.post('/api/v1/zapier/hooks', { event, target_url: `${rx}/${event}` })).statusCode).toBe(
        200,
      );

    // A callback nobody takes.
    const install = await h.install({ timeout: 20 });
    const visitor = '+14155550161';
    const res = await h.callback(install.key, { phone: visitor, name: 'Max Missed' });
    expect(res.statusCode, res.body).toBe(200);
    await h.run(25_000);
    await expect
      .poll(() => received.find((d) => d.path === '/call_missed')?.body, { timeout: 15_000 })
      .toMatchObject({
        call_id: res.json().data.call_id,
        phone: visitor,
        name: 'Max Missed',
        contact: { phone: visitor },
      });

    // A tag added (here by the action; the app's contact screens publish the same event).
    expect((await z.post('/api/v1/zapier/actions/tag', { phone: visitor, tag: 'callback' })).statusCode).toBe(
      200,
    );
    await expect
      .poll(() => received.find((d) => d.path === '/contact_tagged')?.body, { timeout: 15_000 })
      .toMatchObject({ tag: 'callback', contact: { phone: visitor } });

    await inject({
      method: 'DELETE',
      url: `/api/v1/businesses/zapier/keys/${created.json().data.id}`,
      headers: asUser(admin),
    });
    expect(
      (await h.q('select id from zapier_hooks where api_key_id = $1', [created.json().data.id])).length,
    ).toBe(0);
  });
});

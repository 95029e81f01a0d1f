import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  expect422,
  expectCrossTenant404,
  expectRefused,
  fixtureCtx,
  login,
  PASSWORD,
  type RefusedCall,
  snapshot,
  useSuite,
} from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import { businesses } from '../businesses/tables.ts';
import { createUser } from '../users/service.ts';

// Logos go to a folder of this file's own.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stn-agencies-'));
const c = useSuite({ env: { DATA_DIR: dataDir } });
const tokens: Record<string, string> = {};
// auth_tokens is left out: a token's first use stamps last_used_at.
const TABLES = ['agencies', 'users', 'whitelabels', 'businesses', 'mail_outbox', 'audit_logs'];
const SID = `AC${'0123456789abcdef'.repeat(2)}`;
const extra = {
  finance: { email: 'finance@a.test' },
  marketing: { email: 'marketing@a.test' },
  bizAdmin2: { email: 'bizadmin2@a.test', id: 0 },
};

beforeAll(async () => {
  await createUser(fixtureCtx(c.t.db), {
    email: extra.finance.email,
    password: PASSWORD,
    role: 'AgencyUser',
    userType: '2',
    agencyId: c.seed.a.agency.id,
  });
  await createUser(fixtureCtx(c.t.db), {
    email: extra.marketing.email,
    password: PASSWORD,
    role: 'AgencyUser',
    userType: '3',
    agencyId: c.seed.a.agency.id,
  });
  // A second business of agency A, with a name a CSV must quote, and its admin.
  const [biz2] = await c.t.db
    .insert(businesses)
    .values({ agency_id: c.seed.a.agency.id, name: 'Smith, "Jones" & Co', number_of_installs: 3 })
    .returning();
  if (!biz2) throw new Error('seed');
  extra.bizAdmin2.id = await createUser(fixtureCtx(c.t.db), {
    email: extra.bizAdmin2.email,
    password: PASSWORD,
    role: 'BusinessAdmin',
    businessId: biz2.id,
    firstName: '=cmd',
  });
  await c.t.db
    .insert(businesses)
    .values({ agency_id: c.seed.a.agency.id, name: 'Gone', status: 'deleted', number_of_installs: 50 });
  for (const u of [
    c.seed.superAdmin,
    c.seed.admin,
    c.seed.a.agencyAdmin,
    c.seed.a.agencyUser,
    c.seed.a.businessAdmin,
    c.seed.b.agencyAdmin,
    extra.finance,
    extra.marketing,
  ])
    tokens[u.email] = await login(c.t.app, u.email);
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const tok = (u: { email: string }) => tokens[u.email] as string;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (token: string, method: Method, url: string, payload?: object) =>
  c.t.app.inject({ method, url: `/api${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
const q = async (sql: string, params: unknown[] = []) => (await c.t.pool.query(sql, params)).rows;
const agencyRow = async (id: number) => (await q('select * from agencies where id = $1', [id]))[0];
const A = () => c.seed.a.agency.id;
const B = () => c.seed.b.agency.id;

const refused = (...req: RefusedCall) => expectRefused(c.t, TABLES, ...req);
// The control request is the same call on agency A's own id (or the payload given), which must not be a 404.
const cross = (
  method: Method,
  url: string,
  payload?: object,
  token = tok(c.seed.a.agencyAdmin),
  controlPayload = payload,
) =>
  expectCrossTenant404(c.t, {
    token,
    method,
    url: `/api${url}`,
    payload,
    control: {
      url: `/api${url.replace(new RegExp(`\\b${B()}\\b`), String(A()))}`,
      method,
      payload: controlPayload,
    },
    tables: TABLES,
  });

describe('PUT /v1/agencies/settings and /v1/agencies/{id}/settings', () => {
  const body = {
    title: 'A Calls Pro',
    supportEmail: 'help@a.test',
    address: '1 Main St',
    notification: { new_business: true, email: 'ops@a.test' },
    properties: {
      whiteLabel: { companyName: 'A Inc', phone: '+15550001111' },
      poweredBy: { enabled: true, url: 'https://a.test', name: 'A' },
    },
  };

  it("lets the agency's managers change their own branding and settings; site data shows them", async () => {
    for (const u of [c.seed.a.agencyAdmin, c.seed.a.agencyUser, extra.finance]) {
      const res = await call(tok(u), 'PUT', '/v1/agencies/settings', body);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe('Settings updated successfully.');
    }
    const row = await agencyRow(A());
    expect(row.branding).toMatchObject({
      title: 'A Calls Pro',
      supportEmail: 'help@a.test',
      address: '1 Main St',
      headerLogo: 'https://cdn.example.com/a.png',
    });
    expect(row.settings.notification).toEqual({ new_business: true, email: 'ops@a.test' });
    expect(row.properties).toMatchObject({
      whiteLabel: { companyName: 'A Inc', phone: '+15550001111' },
      poweredBy: { enabled: true, url: 'https://a.test' },
    });
    const site = (
      await c.t.app.inject({ method: 'GET', url: '/api/v1/settings/site-data/agency-a.localhost' })
    ).json().data;
    expect(site).toMatchObject({ title: 'A Calls Pro', supportEmail: 'help@a.test', address: '1 Main St' });
  });

  it('an Admin changes any agency by id; agencies cannot use the id route', async () => {
    const res = await call(tok(c.seed.admin), 'PUT', `/v1/agencies/${B()}/settings`, { title: 'B by admin' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await agencyRow(B())).branding.title).toBe('B by admin');
    await refused(tok(c.seed.a.agencyAdmin), 'PUT', `/v1/agencies/${A()}/settings`, { title: 'x' }, 403);
    await refused(tok(c.seed.admin), 'PUT', '/v1/agencies/999999/settings', { title: 'x' }, 404);
  });

  it('422 with the message and no change on bad input; 403 for others', async () => {
    await refused(
      tok(c.seed.a.agencyAdmin),
      'PUT',
      '/v1/agencies/settings',
      { supportEmail: 'nope' },
      422,
      'The support email must be a valid email address.',
    );
    await refused(
      tok(c.seed.a.agencyAdmin),
      'PUT',
      '/v1/agencies/settings',
      { properties: { poweredBy: { url: 'ftp://x' } } },
      422,
      'URL format is invalid.',
    );
    await refused(tok(extra.marketing), 'PUT', '/v1/agencies/settings', { title: 'x' }, 403);
    await refused(tok(c.seed.a.businessAdmin), 'PUT', '/v1/agencies/settings', { title: 'x' }, 403);
    await refused(tok(c.seed.admin), 'PUT', '/v1/agencies/settings', { title: 'x' }, 403);
  });
});

// Secrets are sealed at rest (ADR 016): the row never holds the plaintext, and it opens to what was sent.
type SecretRow = {
  stripe_config: { publicKey?: string; secretKey?: string };
  twilio_config: { accountSid?: string; authToken?: string };
};
function openedStripe(row: SecretRow) {
  const { secretKey, ...rest } = row.stripe_config;
  expect(secretKey).toMatch(/^enc:v1:/);
  expect(JSON.stringify(row)).not.toContain('SECRET987');
  return { ...rest, secretKey: c.t.app.deps.secrets.open(secretKey ?? '') };
}
function openedTwilio(row: SecretRow) {
  const { authToken, ...rest } = row.twilio_config;
  expect(authToken).toMatch(/^enc:v1:/);
  return { ...rest, authToken: c.t.app.deps.secrets.open(authToken ?? '') };
}

describe('PUT /v1/agencies/{id}/stripe-setting', () => {
  it('stores both keys and never returns the secret one', async () => {
    const res = await call(tok(c.seed.a.agencyAdmin), 'PUT', `/v1/agencies/${A()}/stripe-setting`, {
      publicKey: 'pk_test_abc123',
      secretKey: 'sk_test_SECRET987',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.stripeConfig).toEqual({ publicKey: 'pk_test_abc123', secretKeySet: true });
    expect(res.body).not.toContain('SECRET987');
    expect(openedStripe(await agencyRow(A()))).toEqual({
      publicKey: 'pk_test_abc123',
      secretKey: 'sk_test_SECRET987',
    });
    // Without a secret key the stored one stays.
    const again = await call(tok(c.seed.admin), 'PUT', `/v1/agencies/${A()}/stripe-setting`, {
      publicKey: 'pk_live_new',
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(openedStripe(await agencyRow(A()))).toEqual({
      publicKey: 'pk_live_new',
      secretKey: 'sk_test_SECRET987',
    });
    const get = await call(tok(c.seed.admin), 'GET', `/v1/agencies/${A()}`);
    expect(get.body).not.toContain('SECRET987');
    expect(
      await q(`select * from audit_logs where action = 'agency.stripe_setting' and agency_id = $1`, [A()]),
    ).toHaveLength(2);
  });

  it('422, 403 and cross-tenant 404', async () => {
    await refused(
      tok(c.seed.a.agencyAdmin),
      'PUT',
      `/v1/agencies/${A()}/stripe-setting`,
      { publicKey: 'nope' },
      422,
      'The publishable key must start with pk_test_ or pk_live_.',
    );
    await refused(
      tok(extra.marketing),
      'PUT',
      `/v1/agencies/${A()}/stripe-setting`,
      { publicKey: 'pk_test_x' },
      403,
    );
    await refused(
      tok(c.seed.a.businessAdmin),
      'PUT',
      `/v1/agencies/${A()}/stripe-setting`,
      { publicKey: 'pk_test_x' },
      403,
    );
    await cross('PUT', `/v1/agencies/${B()}/stripe-setting`, { publicKey: 'pk_test_x' });
  });
});

describe('PUT /v1/agencies/custom-script and /v1/agencies/{id}/popup-payment', () => {
  it("sets the agency's custom script (AgencyAdmin, MarketingManager)", async () => {
    const res = await call(tok(extra.marketing), 'PUT', '/v1/agencies/custom-script', {
      custom_script: '<script>track()</script>',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Custom script updated successfully.');
    expect((await agencyRow(A())).branding.custom_script).toBe('<script>track()</script>');
    const site = (
      await c.t.app.inject({ method: 'GET', url: '/api/v1/settings/site-data/agency-a.localhost' })
    ).json().data;
    expect(site.custom_script).toBe('<script>track()</script>');
    expect((await agencyRow(B())).branding.custom_script).toBeUndefined();
    await refused(tok(c.seed.a.agencyUser), 'PUT', '/v1/agencies/custom-script', { custom_script: 'x' }, 403);
    await refused(
      tok(c.seed.a.businessAdmin),
      'PUT',
      '/v1/agencies/custom-script',
      { custom_script: 'x' },
      403,
    );
    await refused(
      tok(c.seed.a.agencyAdmin),
      'PUT',
      '/v1/agencies/custom-script',
      { custom_script: 'x'.repeat(20_001) },
      422,
    );
  });

  it('stores popup settings in agency.settings.popup, merged', async () => {
    let res = await call(tok(c.seed.a.agencyUser), 'PUT', `/v1/agencies/${A()}/popup-payment`, {
      enabled: true,
      title: 'Pay now',
      button_text: 'Pay',
    });
    expect(res.statusCode, res.body).toBe(200);
    res = await call(tok(c.seed.admin), 'PUT', `/v1/agencies/${A()}/popup-payment`, { title: 'Pay today' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Popup settings updated successfully.');
    const row = await agencyRow(A());
    expect(row.settings.popup).toEqual({ enabled: true, title: 'Pay today', button_text: 'Pay' });
    expect(row.settings.notification).toBeDefined();
    await refused(
      tok(c.seed.a.agencyAdmin),
      'PUT',
      `/v1/agencies/${A()}/popup-payment`,
      { enabled: 'yes' },
      422,
      'The enabled field must be true or false.',
    );
    await refused(tok(extra.finance), 'PUT', `/v1/agencies/${A()}/popup-payment`, { enabled: true }, 403);
    await cross('PUT', `/v1/agencies/${B()}/popup-payment`, { enabled: true });
  });
});

describe('PUT /v1/agencies/{id}/change-password', () => {
  it("sets the agency admin's password and ends its sessions", async () => {
    const session = await login(c.t.app, c.seed.b.agencyAdmin.email);
    const res = await call(tok(c.seed.admin), 'PUT', `/v1/agencies/${B()}/change-password`, {
      password: 'brand-new-pass-1',
      password_confirmation: 'brand-new-pass-1',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await call(session, 'GET', '/v1/profile')).statusCode).toBe(401);
    tokens[c.seed.b.agencyAdmin.email] = await login(c.t.app, c.seed.b.agencyAdmin.email, 'brand-new-pass-1');
    const [entry] = await q(`select * from audit_logs where action = 'agency.change_password'`);
    expect(entry).toMatchObject({
      agency_id: B(),
      target_user_id: c.seed.b.agencyAdmin.id,
      actor_id: c.seed.admin.id,
    });
  });

  it('422 on mismatch with no change; Admin-only', async () => {
    await refused(
      tok(c.seed.admin),
      'PUT',
      `/v1/agencies/${B()}/change-password`,
      { password: 'another-pass-1', password_confirmation: 'nope' },
      422,
      'Password confirmation does not match',
    );
    await refused(
      tok(c.seed.a.agencyAdmin),
      'PUT',
      `/v1/agencies/${A()}/change-password`,
      { password: 'another-pass-1', password_confirmation: 'another-pass-1' },
      403,
    );
    await refused(
      tok(c.seed.a.businessAdmin),
      'PUT',
      `/v1/agencies/${A()}/change-password`,
      { password: 'another-pass-1', password_confirmation: 'another-pass-1' },
      403,
    );
  });
});

describe('twilio-config and twilio-status (agency Setup)', () => {
  // "Your own Twilio account" in tests is an account of the platform's sandbox carrier: deps.carrier.verify
  // checks a sandbox account against the sandbox, any other against the real Twilio API.
  const account = (name: string) => c.t.app.deps.carrier.createSandboxAccount(name);
  const masked = (sid: string) => `AC${'*'.repeat(28)}${sid.slice(-4)}`;

  it('the AgencyAdmin stores its account once the carrier accepts it; the token never comes back', async () => {
    const own = account('Agency A on Twilio');
    const res = await call(tok(c.seed.a.agencyAdmin), 'PUT', '/v1/agencies/twilio-config', {
      accountSid: own.sid,
      authToken: own.authToken,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Telephony account saved successfully.');
    expect(res.body).not.toContain(own.authToken);
    expect(res.body).not.toContain(own.sid);
    expect(openedTwilio(await agencyRow(A()))).toEqual({ accountSid: own.sid, authToken: own.authToken });
    const status = await call(tok(c.seed.a.agencyUser), 'GET', `/v1/agencies/${A()}/twilio-status`);
    expect(status.statusCode, status.body).toBe(200);
    expect(status.json().data).toEqual({ configured: true, accountSid: masked(own.sid), sandbox: false });
    const profile = (await call(tok(c.seed.a.agencyAdmin), 'GET', '/v1/profile')).json();
    expect(profile.data.user.has_twilio_setup).toBe(true);
  });

  it('refused credentials are a 422 on the auth token in each language, and nothing is saved', async () => {
    const own = account('Agency A again');
    const messages = {
      en: 'The account SID or auth token was refused by Twilio.',
      es: 'Twilio rechazó el SID de la cuenta o el token de autenticación.',
      br: 'O SID da conta ou o token de autenticação foi recusado pelo Twilio.',
    };
    for (const [lang, message] of Object.entries(messages)) {
      const before = await snapshot(c.t.pool, TABLES);
      const res = await c.t.app.inject({
        method: 'PUT',
        url: '/api/v1/agencies/twilio-config',
        headers: { ...bearer(tok(c.seed.a.agencyAdmin)), 'accept-language': lang === 'br' ? 'pt-BR' : lang },
        payload: { accountSid: own.sid, authToken: 'not-the-token' },
      });
      expect422(res, 'authToken', message);
      expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
    }
  });

  it('an Admin stores an agency account by id; status of an unset one is false', async () => {
    const none = await call(tok(c.seed.admin), 'GET', `/v1/agencies/${B()}/twilio-status`);
    expect(none.json().data).toEqual({ configured: false, accountSid: null, sandbox: false });
    const own = account('Agency B on Twilio');
    const res = await call(tok(c.seed.admin), 'PUT', `/v1/agencies/${B()}/twilio-config`, {
      accountSid: own.sid,
      authToken: own.authToken,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(openedTwilio(await agencyRow(B()))).toEqual({ accountSid: own.sid, authToken: own.authToken });
  });

  it('choosing the sandbox makes a sandbox account for the agency and stores it, marked', async () => {
    const res = await call(tok(c.seed.a.agencyAdmin), 'PUT', '/v1/agencies/twilio-config', { sandbox: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(
      'Sandbox chosen: calls and texts are simulated on the Sandbox Phones screen.',
    );
    const stored = openedTwilio(await agencyRow(A())) as {
      accountSid: string;
      authToken: string;
      sandbox?: boolean;
    };
    expect(stored.sandbox).toBe(true);
    const sandboxAccount = c.t.app.deps.carrier.sandbox?.accounts.get(stored.accountSid);
    expect(sandboxAccount?.authToken).toBe(stored.authToken);
    const status = await call(tok(c.seed.a.agencyUser), 'GET', `/v1/agencies/${A()}/twilio-status`);
    expect(status.json().data).toEqual({
      configured: true,
      accountSid: masked(stored.accountSid),
      sandbox: true,
    });
    const profile = (await call(tok(c.seed.a.agencyAdmin), 'GET', '/v1/profile')).json();
    expect(profile.data.user.has_twilio_setup).toBe(true);
  });

  it('422, 403 and cross-tenant 404', async () => {
    await refused(
      tok(c.seed.a.agencyAdmin),
      'PUT',
      '/v1/agencies/twilio-config',
      { accountSid: 'XX1', authToken: 'x' },
      422,
      'The account SID must be AC followed by 32 hexadecimal characters.',
    );
    await refused(
      tok(c.seed.a.agencyAdmin),
      'PUT',
      '/v1/agencies/twilio-config',
      { accountSid: SID, authToken: '' },
      422,
      'The auth token field is required',
    );
    await refused(tok(c.seed.a.agencyAdmin), 'PUT', '/v1/agencies/twilio-config', {}, 422);
    await refused(tok(c.seed.a.agencyAdmin), 'PUT', '/v1/agencies/twilio-config', { sandbox: false }, 422);
    await refused(
      tok(c.seed.a.agencyUser),
      'PUT',
      '/v1/agencies/twilio-config',
      { accountSid: SID, authToken: 'x' },
      403,
    );
    await refused(
      tok(c.seed.a.agencyUser),
      'PUT',
      `/v1/agencies/${A()}/twilio-config`,
      { sandbox: true },
      403,
    );
    await refused(tok(c.seed.a.businessAdmin), 'GET', `/v1/agencies/${A()}/twilio-status`, undefined, 403);
    // For an AgencyAdmin the id names one of its businesses (ADR 093): another agency's business is a 404.
    const own = account('Cross');
    await expectCrossTenant404(c.t, {
      token: tok(c.seed.a.agencyAdmin),
      method: 'PUT',
      url: `/api/v1/agencies/${c.seed.b.business.id}/twilio-config`,
      payload: { accountSid: own.sid, authToken: own.authToken },
      control: { url: `/api/v1/agencies/${c.seed.a.business.id}/twilio-config`, payload: { inherit: true } },
      tables: TABLES,
    });
    await cross('GET', `/v1/agencies/${B()}/twilio-status`);
  });
});

// The smallest valid PNG (1x1).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const dataUrl = (mime: string, buf: Buffer) => `data:${mime};base64,${buf.toString('base64')}`;

describe('POST /v1/agencies/image/{id} and DELETE /v1/agencies/image/{id}/{type}', () => {
  it('stores the file under the data folder, points branding at it, and /uploads serves it (not the web app)', async () => {
    const res = await call(tok(c.seed.a.agencyAdmin), 'POST', `/v1/agencies/image/${A()}`, {
      type: 'headerLogo',
      data: dataUrl('image/png', PNG),
    });
    expect(res.statusCode, res.body).toBe(200);
    const url: string = res.json().data.url;
    expect(url).toMatch(new RegExp(`^/uploads/agencies/${A()}/headerLogo\\.png\\?v=\\d+$`));
    const file = path.join(dataDir, 'uploads', 'agencies', String(A()), 'headerLogo.png');
    expect(fs.readFileSync(file)).toEqual(PNG);
    expect((await agencyRow(A())).branding.headerLogo).toBe(url);
    const site = (
      await c.t.app.inject({ method: 'GET', url: '/api/v1/settings/site-data/agency-a.localhost' })
    ).json().data;
    expect(site.headerLogo).toBe(url);

    // With a built web app present (its catch-all answers index.html), /uploads/ still serves the file.
    const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'stn-web-'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>app</title>');
    const app2 = await buildApp({ config: { ...c.t.config, webDist }, db: c.t.db });
    try {
      const served = await app2.inject({ method: 'GET', url });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.rawPayload).toEqual(PNG);
      // Uploaded files are shown, never run.
      expect(served.headers['content-security-policy']).toContain('sandbox');
      const missing = await app2.inject({ method: 'GET', url: `/uploads/agencies/${A()}/favicon.png` });
      expect(missing.statusCode).toBe(404);
      expect(missing.body).not.toContain('<title>app</title>');
      expect((await app2.inject({ method: 'GET', url: '/agency/settings' })).body).toContain(
        '<title>app</title>',
      );
    } finally {
      await app2.close();
      fs.rmSync(webDist, { recursive: true, force: true });
    }
  });

  it('an Admin uploads for any agency; a new type replaces the old file', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>');
    const res = await call(tok(c.seed.admin), 'POST', `/v1/agencies/image/${B()}`, {
      type: 'favicon',
      data: dataUrl('image/svg+xml', svg),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await agencyRow(B())).branding.favicon).toMatch(/^\/uploads\/agencies\/\d+\/favicon\.svg\?v=/);
    const again = await call(tok(c.seed.admin), 'POST', `/v1/agencies/image/${B()}`, {
      type: 'favicon',
      data: dataUrl('image/png', PNG),
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(fs.readdirSync(path.join(dataDir, 'uploads', 'agencies', String(B())))).toEqual(['favicon.png']);
  });

  it('422 on a wrong type, bad content, a scripted SVG or more than 1 MB, with nothing stored', async () => {
    const url = `/v1/agencies/image/${A()}`;
    await refused(
      tok(c.seed.a.agencyAdmin),
      'POST',
      url,
      { type: 'loginLogo', data: dataUrl('text/html', Buffer.from('<h1>x</h1>')) },
      422,
      'The image must be a PNG, JPEG, GIF, WEBP or SVG file.',
    );
    await refused(
      tok(c.seed.a.agencyAdmin),
      'POST',
      url,
      { type: 'loginLogo', data: dataUrl('image/png', Buffer.from('not a png at all')) },
      422,
      'The image must be a PNG, JPEG, GIF, WEBP or SVG file.',
    );
    // Scripted SVGs, however spelled (parsed, not grepped: ADR 049): a handler, a namespaced script
    // element on the header logo, an entity-encoded javascript: link.
    for (const [type, svg] of [
      ['loginLogo', '<svg onload="alert(1)"></svg>'],
      [
        'headerLogo',
        '<svg:svg xmlns:svg="http://www.w3.org/2000/svg"><svg:script>alert(1)</svg:script></svg:svg>',
      ],
      ['loginLogo', '<svg><a href="&#x6A;avascript:alert(1)">x</a></svg>'],
    ])
      await refused(
        tok(c.seed.a.agencyAdmin),
        'POST',
        url,
        { type, data: dataUrl('image/svg+xml', Buffer.from(svg ?? '')) },
        422,
        'The SVG image must not contain scripts, event handlers, javascript: links or embedded content.',
      );
    const big = Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]);
    await refused(
      tok(c.seed.a.agencyAdmin),
      'POST',
      url,
      { type: 'loginLogo', data: dataUrl('image/png', big) },
      422,
      'The image may not be greater than 1 MB.',
    );
    await refused(
      tok(c.seed.a.agencyAdmin),
      'POST',
      url,
      { type: 'banner', data: dataUrl('image/png', PNG) },
      422,
    );
    expect(fs.existsSync(path.join(dataDir, 'uploads', 'agencies', String(A()), 'loginLogo.png'))).toBe(
      false,
    );
  });

  it('removes an image', async () => {
    const res = await call(tok(c.seed.a.agencyUser), 'DELETE', `/v1/agencies/image/${A()}/headerLogo`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Image removed successfully.');
    expect((await agencyRow(A())).branding.headerLogo).toBeNull();
    expect(fs.existsSync(path.join(dataDir, 'uploads', 'agencies', String(A()), 'headerLogo.png'))).toBe(
      false,
    );
  });

  it('403 and cross-tenant 404', async () => {
    await refused(
      tok(c.seed.a.businessAdmin),
      'POST',
      `/v1/agencies/image/${A()}`,
      { type: 'favicon', data: dataUrl('image/png', PNG) },
      403,
    );
    await refused(tok(extra.marketing), 'DELETE', `/v1/agencies/image/${A()}/favicon`, undefined, 403);
    await cross('POST', `/v1/agencies/image/${B()}`, { type: 'favicon', data: dataUrl('image/png', PNG) });
    await cross('DELETE', `/v1/agencies/image/${B()}/favicon`);
    expect(fs.readdirSync(path.join(dataDir, 'uploads', 'agencies', String(B())))).toEqual(['favicon.png']);
  });
});

describe('POST /v1/agencies/{id}/install-stats', () => {
  it('total from properties.installs, available minus live businesses, never below 0', async () => {
    // Agency A: Business A (1 install) + the quoted one (3); the deleted one (50) does not count.
    let res = await call(tok(c.seed.a.agencyUser), 'POST', `/v1/agencies/${A()}/install-stats`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ total_installs: 0, available_installs: 0 });
    await q(`update agencies set properties = properties || '{"installs": 10}' where id = $1`, [A()]);
    res = await call(tok(c.seed.admin), 'POST', `/v1/agencies/${A()}/install-stats`);
    expect(res.json().data).toEqual({ total_installs: 10, available_installs: 6 });
    await q(`update agencies set properties = properties || '{"installs": 2}' where id = $1`, [A()]);
    res = await call(tok(extra.marketing), 'POST', `/v1/agencies/${A()}/install-stats`);
    expect(res.json().data).toEqual({ total_installs: 2, available_installs: 0 });
  });

  it('403 for business users; cross-tenant 404', async () => {
    await refused(tok(c.seed.a.businessAdmin), 'POST', `/v1/agencies/${A()}/install-stats`, undefined, 403);
    await cross('POST', `/v1/agencies/${B()}/install-stats`);
  });
});

describe('exports', () => {
  const parse = (csv: string) => csv.trimEnd().split('\r\n');

  it('GET /v1/agencies/export-users: a CSV download of the agency users, quoted properly', async () => {
    const res = await call(tok(c.seed.a.agencyAdmin), 'GET', '/v1/agencies/export-users');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="agency-${A()}-users.csv"`);
    const lines = parse(res.body);
    expect(lines[0]).toBe(
      'id,first_name,last_name,email,role,user_type,business_id,business,active,created_at',
    );
    expect(lines).toHaveLength(1 + 7);
    expect(res.body).not.toContain('@b.test');
    const line = lines.find((l) => l.includes(extra.bizAdmin2.email));
    // A formula-looking name is defused; a name with a comma and quotes is quoted with doubled quotes.
    expect(line).toMatch(
      new RegExp(
        `^${extra.bizAdmin2.id},'=cmd,,bizadmin2@a.test,BusinessAdmin,,\\d+,"Smith, ""Jones"" & Co",yes,`,
      ),
    );
  });

  it('GET /v1/agencies/export-businesses: live businesses of the agency; an Admin names it with agency_id', async () => {
    const res = await call(tok(c.seed.admin), 'GET', `/v1/agencies/export-businesses?agency_id=${A()}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="agency-${A()}-businesses.csv"`);
    const lines = parse(res.body);
    expect(lines[0]).toBe(
      'id,name,owner_email,status,active,widget_type,number_of_users,number_of_installs,calls,number_of_calls,messages,number_of_messages,created_at',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(
      new RegExp(`^${c.seed.a.business.id},Business A,,active,yes,3,1,1,200,0,2000,0,`),
    );
    expect(lines[2]).toContain('"Smith, ""Jones"" & Co",,active,yes,3,1,3,');
    expect(res.body).not.toContain('Gone');
  });

  it('an Admin must name the agency; 403 for others; cross-tenant 404', async () => {
    const res = await call(tok(c.seed.admin), 'GET', '/v1/agencies/export-users');
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('The agency id field is required');
    await refused(tok(c.seed.a.businessAdmin), 'GET', '/v1/agencies/export-users', undefined, 403);
    await refused(tok(extra.marketing), 'GET', '/v1/agencies/export-businesses', undefined, 403);
    await cross('GET', `/v1/agencies/export-users?agency_id=${B()}`);
    await cross('GET', `/v1/agencies/export-businesses?agency_id=${B()}`);
  });
});

describe('whitelabels', () => {
  let wlId: number;
  beforeAll(async () => {
    const res = await call(tok(c.seed.admin), 'POST', '/v1/agencies', {
      name: 'Cert Co',
      user: { email: 'owner@cert.test', firstName: 'C', password: PASSWORD },
      whitelabel: { domain: 'cert-co.com', type: 'domain' },
    });
    expect(res.statusCode, res.body).toBe(200);
    wlId = res.json().data.whitelabel.id;
  });

  it('GET /v1/whitelabels lists entries with domain, agency and certificate status', async () => {
    const res = await call(tok(c.seed.admin), 'GET', '/v1/whitelabels?keyword=cert');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ meta: { total: 1, page: 1, perPage: 10 } });
    expect(res.json().data[0]).toMatchObject({
      id: wlId,
      domain: 'cert-co.com',
      type: 'domain',
      cert_status: 'none',
      agency: { name: 'Cert Co', status: 'active' },
    });
  });

  it('POST /v1/whitelabels/{id}/cert marks it pending and tells the operator what to do', async () => {
    const res = await call(tok(c.seed.superAdmin), 'POST', `/v1/whitelabels/${wlId}/cert`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(
      'Certificate requested for cert-co.com. Point its DNS to this server and terminate TLS for it at the proxy in front of the platform.',
    );
    const [row] = await q('select * from whitelabels where id = $1', [wlId]);
    expect(row.cert_status).toBe('pending');
    expect(row.cert_message).toContain('cert-co.com');
    expect(row.cert_requested_at).toBeInstanceOf(Date);
    expect(await q(`select * from audit_logs where action = 'whitelabel.cert_request'`)).toHaveLength(1);
    expect((await call(tok(c.seed.admin), 'POST', '/v1/whitelabels/999999/cert')).statusCode).toBe(404);
  });

  it('is for platform admins only', async () => {
    for (const u of [c.seed.a.agencyAdmin, c.seed.a.businessAdmin]) {
      await refused(tok(u), 'GET', '/v1/whitelabels', undefined, 403);
      await refused(tok(u), 'POST', `/v1/whitelabels/${wlId}/cert`, undefined, 403);
    }
  });
});

describe('GET and POST /v1/internationals', () => {
  it("reads and sets the agency's allowed countries", async () => {
    const get = await call(tok(c.seed.a.agencyUser), 'GET', '/v1/internationals');
    expect(get.statusCode, get.body).toBe(200);
    expect(get.json().data).toEqual({ allowed_countries: ['US', 'CA'] });
    const res = await call(tok(c.seed.a.agencyAdmin), 'POST', '/v1/internationals', {
      countries: ['us', 'MX', 'GB', 'MX'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Countries updated successfully.',
      data: { allowed_countries: ['US', 'MX', 'GB'] },
    });
    expect((await agencyRow(A())).allowed_countries).toEqual(['US', 'MX', 'GB']);
    expect((await agencyRow(B())).allowed_countries).toEqual(['US', 'CA']);
  });

  it('422 on a bad code with no change; 403 for other roles', async () => {
    for (const countries of [['US', 'XX'], ['USA'], ['1']])
      await refused(
        tok(c.seed.a.agencyAdmin),
        'POST',
        '/v1/internationals',
        { countries },
        422,
        'Each country must be a two-letter country code.',
      );
    await refused(tok(extra.finance), 'POST', '/v1/internationals', { countries: ['US'] }, 403);
    await refused(tok(extra.marketing), 'GET', '/v1/internationals', undefined, 403);
    await refused(tok(c.seed.a.businessAdmin), 'GET', '/v1/internationals', undefined, 403);
    await refused(tok(c.seed.admin), 'POST', '/v1/internationals', { countries: ['US'] }, 403);
  });
});

describe('POST /v1/agencies/send-notification', () => {
  it("e-mails the admins of the agency's businesses and says how many", async () => {
    const before = (await q('select count(*)::int as n from mail_outbox'))[0].n;
    const res = await call(tok(c.seed.a.agencyAdmin), 'POST', '/v1/agencies/send-notification', {
      subject: 'Maintenance',
      message: 'We upgrade tonight.',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Notification sent to 2 users.', data: { sent: 2 } });
    const mails = await q('select * from mail_outbox order by id desc limit 2');
    expect(mails.map((m) => m.to).sort()).toEqual(
      [extra.bizAdmin2.email, c.seed.a.businessAdmin.email].sort(),
    );
    expect(mails[0]).toMatchObject({ subject: 'Maintenance', agency_id: A() });
    expect(mails[0].text).toContain('We upgrade tonight.');
    expect((await q('select count(*)::int as n from mail_outbox'))[0].n).toBe(before + 2);
  });

  it('only to the businesses named', async () => {
    const res = await call(tok(extra.finance), 'POST', '/v1/agencies/send-notification', {
      business_ids: [c.seed.a.business.id],
      subject: 'Hi',
      message: 'Just you.',
    });
    expect(res.json()).toMatchObject({ data: { sent: 1 } });
    expect((await q('select "to" from mail_outbox order by id desc limit 1'))[0].to).toBe(
      c.seed.a.businessAdmin.email,
    );
  });

  it('422, 403, and another agency’s business is 404', async () => {
    await refused(
      tok(c.seed.a.agencyAdmin),
      'POST',
      '/v1/agencies/send-notification',
      { subject: '', message: 'x' },
      422,
      'The subject field is required',
    );
    await refused(
      tok(extra.marketing),
      'POST',
      '/v1/agencies/send-notification',
      { subject: 'x', message: 'x' },
      403,
    );
    await refused(
      tok(c.seed.a.businessAdmin),
      'POST',
      '/v1/agencies/send-notification',
      { subject: 'x', message: 'x' },
      403,
    );
    await refused(
      tok(c.seed.admin),
      'POST',
      '/v1/agencies/send-notification',
      { subject: 'x', message: 'x' },
      403,
    );
    await cross(
      'POST',
      '/v1/agencies/send-notification',
      { business_ids: [c.seed.b.business.id], subject: 'x', message: 'x' },
      tok(c.seed.a.agencyAdmin),
      { business_ids: [c.seed.a.business.id], subject: 'x', message: 'x' },
    );
  });
});

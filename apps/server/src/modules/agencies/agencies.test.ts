import { beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  expectCrossTenant404,
  expectRefused,
  fixtureCtx,
  login,
  PASSWORD,
  type RefusedCall,
  useSuite,
} from '../../../test/helpers.ts';
import { createUser } from '../users/service.ts';

const c = useSuite();
const tokens: Record<string, string> = {};
const TABLES = ['agencies', 'users', 'whitelabels', 'audit_logs'];
// The form's Twilio account is checked with the carrier before it is saved: an account of the sandbox.
let SID = '';
let TOKEN = '';

beforeAll(async () => {
  const account = c.t.app.deps.carrier.createSandboxAccount('New Co');
  SID = account.sid;
  TOKEN = account.authToken;
  for (const u of [
    c.seed.superAdmin,
    c.seed.admin,
    c.seed.a.agencyAdmin,
    c.seed.a.agencyUser,
    c.seed.a.businessAdmin,
    c.seed.b.agencyAdmin,
  ])
    tokens[u.email] = await login(c.t.app, u.email);
});

const tok = (u: { email: string }) => tokens[u.email] as string;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (token: string, method: Method, url: string, payload?: object) =>
  c.t.app.inject({ method, url: `/api${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
const q = async (sql: string, params: unknown[] = []) => (await c.t.pool.query(sql, params)).rows;
const agencyRow = async (id: number) => (await q('select * from agencies where id = $1', [id]))[0];
const siteData = async (host: string) =>
  (await c.t.app.inject({ method: 'GET', url: `/api/v1/settings/site-data/${host}` })).json().data;

/** A refused call: status, message (when given) and no row changed. */
const refused = (...req: RefusedCall) => expectRefused(c.t, TABLES, ...req);

const createBody = (over: Record<string, unknown> = {}) => ({
  name: 'New Co',
  email: 'hello@newco.test',
  free_fee: true,
  is_template: false,
  zapier_enabled: true,
  zapier_free: false,
  department_enabled: true,
  remove_branding: false,
  profanity_enabled: true,
  properties: { installs: 12 },
  user: { email: 'owner@newco.test', firstName: 'Nora', lastName: 'Owner', password: 'new-co-password-1' },
  whitelabel: { domain: 'newco', type: 'subdomain' },
  twilioConfig: { accountSid: SID, authToken: TOKEN },
  ...over,
});

describe('POST /v1/agencies', () => {
  let created: { id: number };

  it('creates the agency, its AgencyAdmin and its white-label in one go; the site answers at once', async () => {
    const res = await call(tok(c.seed.admin), 'POST', '/v1/agencies', createBody());
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.message).toBe('Agency created successfully.');
    created = body.data;
    expect(body.data).toMatchObject({
      name: 'New Co',
      subdomain: 'newco',
      domain: null,
      status: 'active',
      free_fee: true,
      zapier_enabled: true,
      department_enabled: true,
      profanity_enabled: true,
      properties: { installs: 12 },
      twilioConfig: { authTokenSet: true },
      whitelabel: { domain: 'newco.localhost', type: 'subdomain', cert_status: 'none' },
      user: { email: 'owner@newco.test', first_name: 'Nora', last_name: 'Owner' },
    });
    expect(body.data.twilioConfig.accountSid).not.toBe(SID);
    expect(body.data.twilioConfig.accountSid).toMatch(new RegExp(`^AC\\*+${SID.slice(-4)}$`));
    expect(res.body).not.toContain(TOKEN);

    const row = await agencyRow(created.id);
    expect(row).toMatchObject({
      name: 'New Co',
      email: 'hello@newco.test',
      subdomain: 'newco',
      is_main: false,
    });
    // Sealed at rest (ADR 016): the row holds no plaintext token, and it opens to the one sent.
    expect(row.twilio_config).toEqual({ accountSid: SID, authToken: expect.stringMatching(/^enc:v1:/) });
    expect(JSON.stringify(row)).not.toContain(TOKEN);
    expect(c.t.app.deps.secrets.open(row.twilio_config.authToken)).toBe(TOKEN);
    const [user] = await q('select * from users where agency_id = $1', [created.id]);
    expect(user).toMatchObject({ email: 'owner@newco.test', role: 'AgencyAdmin', role_group: 'Agency' });
    expect(user.password_hash).toMatch(/^\$argon2/);
    const wl = await q('select * from whitelabels where agency_id = $1', [created.id]);
    expect(wl).toHaveLength(1);
    expect((await q(`select * from audit_logs where action = 'agency.create'`))[0]).toMatchObject({
      agency_id: created.id,
      actor_id: c.seed.admin.id,
    });

    expect(await siteData('newco.localhost')).toMatchObject({
      validDomain: true,
      title: 'New Co',
      agency_id: created.id,
    });
    // The new admin can sign in with the password given.
    await login(c.t.app, 'owner@newco.test', 'new-co-password-1');
  });

  it('without a password, e-mails the agency admin a link to choose one', async () => {
    const res = await call(
      tok(c.seed.superAdmin),
      'POST',
      '/v1/agencies',
      createBody({
        name: 'Acme Calls',
        user: { email: 'owner@acme.test', firstName: 'Ann' },
        whitelabel: { domain: 'Acme-Calls.com' },
        twilioConfig: undefined,
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      domain: 'acme-calls.com',
      subdomain: null,
      whitelabel: { domain: 'acme-calls.com', type: 'domain' },
      twilioConfig: { accountSid: null, authTokenSet: false },
    });
    const mails = await q(`select * from mail_outbox where "to" = 'owner@acme.test'`);
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain('/password/reset?token=');
    expect(mails[0].text).toContain('acme-calls.com');
    expect(await siteData('acme-calls.com')).toMatchObject({ validDomain: true, title: 'Acme Calls' });
  });

  it.each([
    [
      { whitelabel: { domain: 'http://bad.com', type: 'domain' } },
      'whitelabel.domain',
      'Custom URL format is invalid.',
    ],
    [
      { whitelabel: { domain: 'not a host', type: 'domain' } },
      'whitelabel.domain',
      'Custom URL format is invalid.',
    ],
    [
      { whitelabel: { domain: 'Bad_Sub', type: 'subdomain' } },
      'whitelabel.domain',
      'SubDomain format is invalid.',
    ],
    [
      {
        whitelabel: { domain: 'fresh', type: 'subdomain' },
        user: { email: 'AgencyAdmin@a.test', firstName: 'X' },
      },
      'user.email',
      'The email has already been taken.',
    ],
    [
      {
        whitelabel: { domain: 'calls-a.example.com', type: 'domain' },
        user: { email: 'x1@x.test', firstName: 'X' },
      },
      'whitelabel.domain',
      'The domain has already been taken.',
    ],
    [
      { whitelabel: { domain: 'agency-b', type: 'subdomain' }, user: { email: 'x2@x.test', firstName: 'X' } },
      'whitelabel.domain',
      'The domain has already been taken.',
    ],
    [
      {
        whitelabel: { domain: 'newco.localhost', type: 'domain' },
        user: { email: 'x3@x.test', firstName: 'X' },
      },
      'whitelabel.domain',
      'The domain has already been taken.',
    ],
    [
      { whitelabel: { domain: 'www', type: 'subdomain' }, user: { email: 'x4@x.test', firstName: 'X' } },
      'whitelabel.domain',
      'The domain has already been taken.',
    ],
    [{ name: '' }, 'name', 'The name field is required'],
    [
      { user: { email: 'not-an-email', firstName: 'X' } },
      'user.email',
      'The email must be a valid email address.',
    ],
    [
      { user: { email: 'short@x.test', firstName: 'X', password: 'short' } },
      'user.password',
      'The password must be at least 8 characters.',
    ],
    [
      { twilioConfig: { accountSid: 'nope', authToken: 'x' } },
      'twilioConfig.accountSid',
      'The account SID must be AC followed by 32 hexadecimal characters.',
    ],
  ])('422 on bad input %#, nothing saved', async (over, field, message) => {
    const body = await refused(tok(c.seed.admin), 'POST', '/v1/agencies', createBody(over), 422, message);
    expect(body.errors[field]).toEqual([message]);
  });

  it('checks the Twilio account with the carrier first: refused credentials are a 422, nothing saved', async () => {
    const body = await refused(
      tok(c.seed.admin),
      'POST',
      '/v1/agencies',
      createBody({
        user: { email: 'refused@newco.test', firstName: 'Rita', password: 'new-co-password-1' },
        whitelabel: { domain: 'refusedco', type: 'subdomain' },
        twilioConfig: { accountSid: SID, authToken: 'not-the-token' },
      }),
      422,
      'The account SID or auth token was refused by Twilio.',
    );
    expect(body.errors['twilioConfig.authToken']).toEqual([
      'The account SID or auth token was refused by Twilio.',
    ]);
  });

  it('is for platform admins only', async () => {
    for (const u of [c.seed.a.agencyAdmin, c.seed.a.agencyUser, c.seed.a.businessAdmin])
      await refused(
        tok(u),
        'POST',
        '/v1/agencies',
        createBody({
          user: { email: 'z@z.test', firstName: 'Z' },
          whitelabel: { domain: 'zz', type: 'subdomain' },
        }),
        403,
      );
  });
});

describe('GET /v1/agencies and /v1/agencies/{id}', () => {
  it('lists active agencies 10 per page, with keyword search', async () => {
    const res = await call(tok(c.seed.admin), 'GET', '/v1/agencies');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.meta).toMatchObject({ page: 1, perPage: 10 });
    expect(body.meta.total).toBe(body.data.length);
    const names = body.data.map((a: { name: string }) => a.name);
    expect(names).toEqual(expect.arrayContaining(['Agency A', 'Agency B', 'Main']));
    const kw = (await call(tok(c.seed.admin), 'GET', '/v1/agencies?keyword=calls-b')).json();
    expect(kw.data.map((a: { name: string }) => a.name)).toEqual(['Agency B']);
    expect(kw.meta.total).toBe(1);
    const paged = (await call(tok(c.seed.admin), 'GET', '/v1/agencies?perPage=2&page=2')).json();
    expect(paged.data).toHaveLength(Math.min(2, body.meta.total - 2));
    expect(paged.meta).toMatchObject({ page: 2, perPage: 2, total: body.meta.total });
  });

  it('shows one agency to an admin, and its own agency to an agency user', async () => {
    const admin = await call(tok(c.seed.admin), 'GET', `/v1/agencies/${c.seed.a.agency.id}`);
    expect(admin.statusCode, admin.body).toBe(200);
    expect(admin.json().data).toMatchObject({
      id: c.seed.a.agency.id,
      user: { email: c.seed.a.agencyAdmin.email },
    });
    const own = await call(tok(c.seed.a.agencyUser), 'GET', `/v1/agencies/${c.seed.a.agency.id}`);
    expect(own.statusCode, own.body).toBe(200);
    await expectCrossTenant404(c.t, {
      token: tok(c.seed.a.agencyAdmin),
      method: 'GET',
      url: `/api/v1/agencies/${c.seed.b.agency.id}`,
      control: { url: `/api/v1/agencies/${c.seed.a.agency.id}` },
      tables: TABLES,
    });
  });

  it('refuses business users and, for the list, agency users', async () => {
    await refused(tok(c.seed.a.businessAdmin), 'GET', `/v1/agencies/${c.seed.a.agency.id}`, undefined, 403);
    await refused(tok(c.seed.a.businessAdmin), 'GET', '/v1/agencies', undefined, 403);
    await refused(tok(c.seed.a.agencyAdmin), 'GET', '/v1/agencies', undefined, 403);
  });
});

describe('PUT /v1/agencies/{id}', () => {
  it('refuses a Twilio account the carrier refuses, and keeps the one it had', async () => {
    const [agency] = await q(`select id from agencies where name = 'New Co'`);
    const before = (await agencyRow(agency.id)).twilio_config;
    const body = await refused(
      tok(c.seed.admin),
      'PUT',
      `/v1/agencies/${agency.id}`,
      { name: 'Not Saved', twilioConfig: { accountSid: SID, authToken: 'wrong-token' } },
      422,
      'The account SID or auth token was refused by Twilio.',
    );
    expect(body.errors['twilioConfig.authToken']).toHaveLength(1);
    expect((await agencyRow(agency.id)).twilio_config).toEqual(before);
  });

  it('edits the agency, its admin and its white-label; site data follows the new domain', async () => {
    const [agency] = await q(`select id from agencies where name = 'New Co'`);
    const res = await call(tok(c.seed.admin), 'PUT', `/v1/agencies/${agency.id}`, {
      name: 'New Co Renamed',
      zapier_enabled: false,
      properties: { installs: 20 },
      user: { firstName: 'Nina' },
      whitelabel: { domain: 'newco-calls.com', type: 'domain' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Agency updated successfully.');
    const row = await agencyRow(agency.id);
    expect(row).toMatchObject({
      name: 'New Co Renamed',
      zapier_enabled: false,
      free_fee: true,
      domain: 'newco-calls.com',
      subdomain: null,
    });
    expect(row.properties).toEqual({ installs: 20 });
    expect(c.t.app.deps.secrets.open(row.twilio_config.authToken)).toBe(TOKEN);
    expect(await q('select domain, type from whitelabels where agency_id = $1', [agency.id])).toEqual([
      { domain: 'newco-calls.com', type: 'domain' },
    ]);
    expect((await q('select first_name from users where agency_id = $1', [agency.id]))[0].first_name).toBe(
      'Nina',
    );
    expect((await siteData('newco-calls.com')).agency_id).toBe(agency.id);
    expect((await siteData('newco.localhost')).validDomain).toBe(false);
  });

  it('422 with no change when the domain or e-mail belongs to someone else', async () => {
    const [agency] = await q(`select id from agencies where name = 'New Co Renamed'`);
    await refused(
      tok(c.seed.admin),
      'PUT',
      `/v1/agencies/${agency.id}`,
      { name: 'X', whitelabel: { domain: 'agency-a', type: 'subdomain' } },
      422,
      'The domain has already been taken.',
    );
    await refused(
      tok(c.seed.admin),
      'PUT',
      `/v1/agencies/${agency.id}`,
      { name: 'X', user: { email: c.seed.b.agencyAdmin.email } },
      422,
      'The email has already been taken.',
    );
    await refused(
      tok(c.seed.admin),
      'PUT',
      `/v1/agencies/${agency.id}`,
      { whitelabel: { domain: 'https://x.com' } },
      422,
      'Custom URL format is invalid.',
    );
  });

  it('is Admin-only; an unknown id is 404', async () => {
    await refused(
      tok(c.seed.a.agencyAdmin),
      'PUT',
      `/v1/agencies/${c.seed.a.agency.id}`,
      { name: 'Mine' },
      403,
    );
    await refused(
      tok(c.seed.a.businessAdmin),
      'PUT',
      `/v1/agencies/${c.seed.a.agency.id}`,
      { name: 'Mine' },
      403,
    );
    await refused(tok(c.seed.admin), 'PUT', '/v1/agencies/999999', { name: 'Ghost' }, 404);
  });
});

describe('archive, restore and delete', () => {
  let target: { id: number; adminEmail: string; disabledId: number };

  beforeAll(async () => {
    const res = await call(
      tok(c.seed.admin),
      'POST',
      '/v1/agencies',
      createBody({
        name: 'Doomed',
        user: { email: 'owner@doomed.test', firstName: 'D', password: PASSWORD },
        whitelabel: { domain: 'doomed', type: 'subdomain' },
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.id;
    // A user someone disabled on purpose stays disabled after a restore.
    const disabledId = await createUser(fixtureCtx(c.t.db), {
      email: 'off@doomed.test',
      password: PASSWORD,
      role: 'AgencyUser',
      userType: '1',
      agencyId: id,
    });
    await q('update users set active = false where id = $1', [disabledId]);
    target = { id, adminEmail: 'owner@doomed.test', disabledId };
  });

  it('DELETE /v1/agencies/{id} archives: site off, users signed out and disabled', async () => {
    const session = await login(c.t.app, target.adminEmail);
    expect((await call(session, 'GET', '/v1/profile')).statusCode).toBe(200);
    const res = await call(tok(c.seed.admin), 'DELETE', `/v1/agencies/${target.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Agency archived successfully.');
    const row = await agencyRow(target.id);
    expect(row).toMatchObject({ status: 'archived', active: false });
    expect(row.archived_at).toBeInstanceOf(Date);
    expect((await call(session, 'GET', '/v1/profile')).statusCode).toBe(401);
    const relogin = await c.t.app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { email: target.adminEmail, password: PASSWORD },
    });
    expect(relogin.statusCode).toBe(422);
    expect(relogin.json().message).toBe('This account is disabled. Please contact support.');
    expect((await siteData('doomed.localhost')).validDomain).toBe(false);
    expect(
      await q(`select * from audit_logs where action = 'agency.archive' and agency_id = $1`, [target.id]),
    ).toHaveLength(1);
    const archived = (await call(tok(c.seed.admin), 'GET', '/v1/agencies?status=archived')).json();
    expect(archived.data.map((a: { id: number }) => a.id)).toContain(target.id);
    const active = (await call(tok(c.seed.admin), 'GET', '/v1/agencies?perPage=100')).json();
    expect(active.data.map((a: { id: number }) => a.id)).not.toContain(target.id);
  });

  it('bulk delete refuses agencies that are not archived, and the main agency', async () => {
    await refused(
      tok(c.seed.admin),
      'DELETE',
      '/v1/agencies/bulk',
      { ids: [target.id, c.seed.a.agency.id] },
      422,
      'Only archived agencies can be deleted.',
    );
    await refused(
      tok(c.seed.admin),
      'DELETE',
      '/v1/agencies/bulk',
      { ids: [c.seed.main.id] },
      422,
      'The main agency cannot be archived or deleted.',
    );
  });

  it('the main agency can never be archived', async () => {
    await refused(
      tok(c.seed.superAdmin),
      'DELETE',
      `/v1/agencies/${c.seed.main.id}`,
      undefined,
      422,
      'The main agency cannot be archived or deleted.',
    );
    await refused(
      tok(c.seed.admin),
      'DELETE',
      '/v1/agencies/bulk-archive',
      { ids: [c.seed.a.agency.id, c.seed.main.id] },
      422,
      'The main agency cannot be archived or deleted.',
    );
  });

  it('POST /v1/agencies/{id}/restore brings it back and re-enables only the users archiving disabled', async () => {
    const res = await call(tok(c.seed.admin), 'POST', `/v1/agencies/${target.id}/restore`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Agency restored successfully.');
    const row = await agencyRow(target.id);
    expect(row).toMatchObject({ status: 'active', active: true, archived_at: null });
    expect(row.settings).not.toHaveProperty('archived_user_ids');
    await login(c.t.app, target.adminEmail);
    expect((await q('select active from users where id = $1', [target.disabledId]))[0].active).toBe(false);
    expect((await siteData('doomed.localhost')).title).toBe('Doomed');
    expect(
      await q(`select * from audit_logs where action = 'agency.restore' and agency_id = $1`, [target.id]),
    ).toHaveLength(1);
  });

  it('bulk-archive and bulk-restore act on every id; an unknown id is 404 with no change', async () => {
    const [acme] = await q(`select id from agencies where name = 'Acme Calls'`);
    await refused(
      tok(c.seed.admin),
      'DELETE',
      '/v1/agencies/bulk-archive',
      { ids: [target.id, 999999] },
      404,
    );
    const arch = await call(tok(c.seed.admin), 'DELETE', '/v1/agencies/bulk-archive', {
      ids: [target.id, acme.id],
    });
    expect(arch.statusCode, arch.body).toBe(200);
    expect(arch.json()).toMatchObject({ message: '2 agencies archived.', data: { count: 2 } });
    expect(
      (await q('select status from agencies where id = any($1) order by id', [[target.id, acme.id]])).map(
        (r) => r.status,
      ),
    ).toEqual(['archived', 'archived']);
    const rest = await call(tok(c.seed.admin), 'POST', '/v1/agencies/bulk-restore', { ids: [acme.id] });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json()).toMatchObject({ message: '1 agency restored.', data: { count: 1 } });
    expect((await agencyRow(acme.id)).status).toBe('active');
    await refused(tok(c.seed.admin), 'POST', '/v1/agencies/bulk-restore', { ids: [] }, 422);
  });

  it('DELETE /v1/agencies/bulk deletes archived agencies for good and frees their domain', async () => {
    const res = await call(tok(c.seed.admin), 'DELETE', '/v1/agencies/bulk', { ids: [target.id] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: '1 agency deleted.', data: { count: 1 } });
    const row = await agencyRow(target.id);
    expect(row).toMatchObject({ status: 'deleted', active: false, domain: null, subdomain: null });
    expect(row.settings.deleted_whitelabel).toEqual({ domain: null, subdomain: 'doomed' });
    expect(await q('select * from whitelabels where agency_id = $1', [target.id])).toEqual([]);
    expect(
      await q(`select * from audit_logs where action = 'agency.delete' and agency_id = $1`, [target.id]),
    ).toHaveLength(1);
    expect((await call(tok(c.seed.admin), 'GET', `/v1/agencies/${target.id}`)).statusCode).toBe(404);
    expect((await call(tok(c.seed.admin), 'POST', `/v1/agencies/${target.id}/restore`)).statusCode).toBe(404);
    // The subdomain can be used again.
    const again = await call(
      tok(c.seed.admin),
      'POST',
      '/v1/agencies',
      createBody({
        name: 'Reborn',
        user: { email: 'owner@reborn.test', firstName: 'R' },
        whitelabel: { domain: 'doomed', type: 'subdomain' },
      }),
    );
    expect(again.statusCode, again.body).toBe(200);
  });

  it('lifecycle calls are Admin-only', async () => {
    const a = c.seed.a.agency.id;
    for (const u of [c.seed.a.agencyAdmin, c.seed.a.agencyUser, c.seed.a.businessAdmin]) {
      await refused(tok(u), 'DELETE', `/v1/agencies/${a}`, undefined, 403);
      await refused(tok(u), 'POST', `/v1/agencies/${a}/restore`, undefined, 403);
      await refused(tok(u), 'DELETE', '/v1/agencies/bulk-archive', { ids: [a] }, 403);
      await refused(tok(u), 'POST', '/v1/agencies/bulk-restore', { ids: [a] }, 403);
      await refused(tok(u), 'DELETE', '/v1/agencies/bulk', { ids: [a] }, 403);
    }
  });
});

describe('API document', () => {
  it('documents every agency, white-label and international call', async () => {
    const res = await c.t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const p of [
      '/api/v1/agencies',
      '/api/v1/agencies/{id}',
      '/api/v1/agencies/bulk-archive',
      '/api/v1/agencies/bulk-restore',
      '/api/v1/agencies/bulk',
      '/api/v1/agencies/{id}/restore',
      '/api/v1/agencies/settings',
      '/api/v1/agencies/{id}/settings',
      '/api/v1/agencies/{id}/stripe-setting',
      '/api/v1/agencies/custom-script',
      '/api/v1/agencies/{id}/popup-payment',
      '/api/v1/agencies/{id}/change-password',
      '/api/v1/agencies/twilio-config',
      '/api/v1/agencies/{business_id}/twilio-config',
      '/api/v1/agencies/{id}/twilio-status',
      '/api/v1/agencies/image/{id}',
      '/api/v1/agencies/image/{id}/{type}',
      '/api/v1/agencies/{id}/install-stats',
      '/api/v1/agencies/export-users',
      '/api/v1/agencies/export-businesses',
      '/api/v1/agencies/send-notification',
      '/api/v1/whitelabels',
      '/api/v1/whitelabels/{id}/cert',
      '/api/v1/internationals',
    ])
      expect(paths).toContain(p);
  });
});

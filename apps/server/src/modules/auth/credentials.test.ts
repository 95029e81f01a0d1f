// Issue 8's security items about accounts: who may change an e-mail or a password, links that end with
// what they were for, the e-mail oracle, the sign-in lock under parallel guesses, invitations and
// white-label mail (ADR 019). Every test goes through HTTP against the real database.
import type { AddressInfo } from 'node:net';
import type { InjectOptions } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  confirmEmailChange,
  createTestApp,
  drainJobs,
  fixtureCtx,
  login,
  PASSWORD,
  seedTenants,
  snapshot,
  type TestApp,
  useSuite,
} from '../../../test/helpers.ts';
import { createUser } from '../users/service.ts';

const OWN = 'Change your own e-mail address or password from your profile, with your current password.';
const IMPERSONATING =
  'While acting as another user you cannot change e-mail addresses or passwords, or send password links.';
const OWNER = "Only the business owner can change the owner's e-mail address or password.";
const INVALID_LINK = 'This password reset link is invalid or has expired.';
const THROTTLED = 'Too many requests. Please wait a minute and try again.';
const FAILED = 'These credentials do not match our records.';
const NEW_PASSWORD = 'battery-staple-22';
const WATCHED = ['users', 'user_tokens', 'mail_outbox', 'audit_logs'];

const c = useSuite({ env: { MAIN_DOMAIN: 'platform.test', PUBLIC_URL: 'http://platform.test:3000' } });

type Extra = Omit<InjectOptions, 'method' | 'url' | 'payload'>;
const post = (url: string, payload: object, extra: Extra = {}) =>
  c.t.app.inject({ method: 'POST', url: `/api/v1${url}`, payload, ...extra });
const put = (token: string, url: string, payload: object) =>
  c.t.app.inject({ method: 'PUT', url: `/api/v1${url}`, headers: bearer(token), payload });

const userRow = async (id: number) =>
  (await c.t.pool.query('select * from users where id = $1', [id])).rows[0];

/** The newest mail to `to`, after the jobs ran. */
async function lastMail(to: string) {
  await drainJobs(c.t);
  const rows = (await c.t.pool.query('select * from mail_outbox where "to" = $1 order by id', [to])).rows;
  const mail = rows.at(-1);
  if (!mail) throw new Error(`no mail to ${to}`);
  return mail;
}

function tokenAfter(text: string, before: string): string {
  const escaped = before.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = text.match(new RegExp(`${escaped}([A-Za-z0-9_-]+)`));
  if (!m?.[1]) throw new Error(`no token after ${before} in:\n${text}`);
  return m[1];
}

/** A reset link for `email`, as the public "forgot password" form sends it. */
async function resetLinkFor(email: string): Promise<string> {
  expect((await post('/password/email', { email })).statusCode).toBe(200);
  return tokenAfter((await lastMail(email)).text, '/password/reset?token=');
}

let seq = 0;
/** A fresh business user of business A (so that tests do not share accounts). */
async function freshUser(role: 'BusinessUser' | 'BusinessAdmin' = 'BusinessUser') {
  seq += 1;
  const email = `fresh${seq}@a.test`;
  const id = await createUser(fixtureCtx(c.t.db), {
    email,
    password: PASSWORD,
    role,
    userType: role === 'BusinessUser' ? '3' : null,
    businessId: c.seed.a.business.id,
    firstName: `Fresh${seq}`,
    emailVerified: true,
  });
  return { id, email };
}

beforeAll(async () => {
  // Business A's owner is its seeded BusinessAdmin; room for more users.
  await c.t.pool.query('update businesses set owner_id = $1, number_of_users = 50 where id = $2', [
    c.seed.a.businessAdmin.id,
    c.seed.a.business.id,
  ]);
});

// -------------------------------------------------------------------------------------------------

describe('credentials change only through the profile, never by impersonation, never the owner by another', () => {
  const editBody = (u: { email: string }, over: object = {}) => ({
    first_name: 'Renamed',
    last_name: 'A',
    email: u.email,
    role: 'BusinessAdmin',
    ...over,
  });

  it("refuses a business user's own e-mail through user management, with the other fields", async () => {
    const owner = c.seed.a.businessAdmin;
    const token = await c.token(owner.email);
    const before = await snapshot(c.t.pool, WATCHED);
    const res = await put(token, `/businesses/users/${owner.id}`, editBody({ email: 'mine@evil.test' }));
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({ success: false, message: OWN });
    expect(await snapshot(c.t.pool, WATCHED)).toEqual(before);
    // The same call without an e-mail change is a plain edit.
    const ok = await put(token, `/businesses/users/${owner.id}`, editBody(owner, { first_name: 'bizadmin' }));
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it("refuses a platform user's own e-mail through PUT /v1/users/{id}", async () => {
    const me = c.seed.superAdmin;
    const token = await c.token(me.email);
    const before = await snapshot(c.t.pool, WATCHED);
    const res = await put(token, `/users/${me.id}`, {
      first_name: 'Super',
      last_name: '',
      email: 'super@evil.test',
      role: 'SuperAdmin',
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().message).toBe(OWN);
    expect(await snapshot(c.t.pool, WATCHED)).toEqual(before);
    // Another platform user's e-mail is the SuperAdmin's to change.
    const other = await put(token, `/users/${c.seed.admin.id}`, {
      first_name: 'Plain',
      last_name: '',
      email: 'admin2@main.test',
      role: 'Admin',
    });
    expect(other.statusCode, other.body).toBe(200);
    await confirmEmailChange(c.t, 'admin2@main.test');
    expect((await userRow(c.seed.admin.id)).email).toBe('admin2@main.test');
    await put(token, `/users/${c.seed.admin.id}`, {
      first_name: 'Plain',
      last_name: '',
      email: c.seed.admin.email,
      role: 'Admin',
    });
    await confirmEmailChange(c.t, c.seed.admin.email);
  });

  it("an impersonation token changes neither the impersonated user's e-mail nor password, by any path", async () => {
    const owner = c.seed.a.businessAdmin;
    const agencyToken = await c.token(c.seed.a.agencyAdmin.email);
    const imp = await post(`/impersonate/${owner.id}`, {}, { headers: bearer(agencyToken) });
    expect(imp.statusCode, imp.body).toBe(200);
    const token = imp.json().access_token as string;
    const before = await snapshot(
      c.t.pool,
      WATCHED.filter((t) => t !== 'audit_logs'),
    );
    const calls: [string, object][] = [
      [`/businesses/users/${owner.id}`, editBody({ email: 'taken@evil.test' })],
      ['/profile', { first_name: 'bizadmin', last_name: 'A', email: 'taken@evil.test' }],
      [
        '/profile',
        { first_name: 'bizadmin', last_name: 'A', email: 'taken@evil.test', current_password: PASSWORD },
      ],
      [
        '/profile',
        {
          first_name: 'bizadmin',
          last_name: 'A',
          email: owner.email,
          current_password: PASSWORD,
          password: NEW_PASSWORD,
          password_confirmation: NEW_PASSWORD,
        },
      ],
    ];
    for (const [url, body] of calls) {
      const res = await put(token, url, body);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(403);
      expect(res.json().message).toBe(IMPERSONATING);
    }
    expect(
      await snapshot(
        c.t.pool,
        WATCHED.filter((t) => t !== 'audit_logs'),
      ),
    ).toEqual(before);
    expect((await login(c.t.app, owner.email)).length).toBeGreaterThan(10);
  });

  it("a second BusinessAdmin cannot change the owner's e-mail or password, but the owner manages them", async () => {
    const owner = c.seed.a.businessAdmin;
    const second = await freshUser('BusinessAdmin');
    const token = await login(c.t.app, second.email);
    const before = await snapshot(c.t.pool, WATCHED);
    const email = await put(token, `/businesses/users/${owner.id}`, editBody({ email: 'owner@evil.test' }));
    expect(email.statusCode, email.body).toBe(403);
    expect(email.json().message).toBe(OWNER);
    const password = await put(token, `/businesses/users/${owner.id}/change-password`, {
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(password.statusCode, password.body).toBe(403);
    expect(password.json().message).toBe(OWNER);
    expect(await snapshot(c.t.pool, WATCHED)).toEqual(before);
    // The owner changes the second admin's e-mail: managing a user is not taking over one's own account.
    const ownerToken = await c.token(owner.email);
    const res = await put(
      ownerToken,
      `/businesses/users/${second.id}`,
      editBody({ email: 'second@a.test' }, { first_name: 'Second' }),
    );
    expect(res.statusCode, res.body).toBe(200);
    await confirmEmailChange(c.t, 'second@a.test');
    expect((await userRow(second.id)).email).toBe('second@a.test');
  });

  it('an agency admin impersonated by a platform admin: agency users and profile paths change nothing', async () => {
    const admin = c.seed.b.agencyAdmin;
    const superToken = await c.token(c.seed.superAdmin.email);
    const imp = await post(`/impersonate/${admin.id}`, {}, { headers: bearer(superToken) });
    expect(imp.statusCode, imp.body).toBe(200);
    const token = imp.json().access_token as string;
    const before = await snapshot(
      c.t.pool,
      WATCHED.filter((t) => t !== 'audit_logs'),
    );
    // The agency admin is not one of its agency users: not found there.
    const viaUsers = await put(token, `/agency/users/${admin.id}`, {
      email: 'boss@evil.test',
      first_name: 'agencyadmin',
      user_type: '1',
    });
    expect(viaUsers.statusCode, viaUsers.body).toBe(404);
    const viaProfile = await put(token, '/profile', {
      first_name: 'agencyadmin',
      last_name: 'B',
      email: admin.email,
      current_password: PASSWORD,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(viaProfile.statusCode, viaProfile.body).toBe(403);
    expect(viaProfile.json().message).toBe(IMPERSONATING);
    expect(
      await snapshot(
        c.t.pool,
        WATCHED.filter((t) => t !== 'audit_logs'),
      ),
    ).toEqual(before);
    // Managing one of its agency users' e-mail stays the agency's to do.
    const staff = c.seed.b.agencyUser;
    const ok = await put(await c.token(admin.email), `/agency/users/${staff.id}`, {
      email: 'staff-b@b.test',
      first_name: 'agencyuser',
      user_type: '1',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    await confirmEmailChange(c.t, 'staff-b@b.test');
    expect((await userRow(staff.id)).email).toBe('staff-b@b.test');
  });

  it('answers in the caller language', async () => {
    const owner = c.seed.a.businessAdmin;
    const res = await c.t.app.inject({
      method: 'PUT',
      url: `/api/v1/businesses/users/${owner.id}`,
      headers: { ...bearer(await c.token(owner.email)), 'accept-language': 'es' },
      payload: editBody({ email: 'mine@evil.test' }, { first_name: 'bizadmin' }),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(
      'Cambie su propia dirección de correo electrónico o contraseña desde su perfil, con su contraseña actual.',
    );
  });
});

// -------------------------------------------------------------------------------------------------

describe('links end when the e-mail or the password they were sent for changes', () => {
  it('a reset link is dead after the e-mail changes, and userinfo no longer shows the account', async () => {
    const u = await freshUser();
    const link = await resetLinkFor(u.email);
    expect((await post('/userinfo', { token: link })).statusCode).toBe(200);
    const token = await login(c.t.app, u.email);
    const res = await put(token, '/profile', {
      first_name: 'Fresh',
      last_name: '',
      email: `moved-${u.email}`,
      current_password: PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(200);
    // The address changes when the link sent to it is followed (ADR 050); then the reset link is dead.
    await confirmEmailChange(c.t, `moved-${u.email}`);
    const info = await post('/userinfo', { token: link });
    expect(info.statusCode).toBe(422);
    expect(info.body).not.toContain('moved-');
    expect((await post('/token/verify', { token: link })).statusCode).toBe(422);
    const reset = await post('/password/reset', {
      token: link,
      email: `moved-${u.email}`,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(reset.statusCode).toBe(422);
    expect(reset.json().errors).toEqual({ token: [INVALID_LINK] });
    expect((await login(c.t.app, `moved-${u.email}`)).length).toBeGreaterThan(10);
  });

  it('a reset link is dead after a manager sets the password, and a verification link after a password change', async () => {
    const u = await freshUser();
    const link = await resetLinkFor(u.email);
    const owner = await c.token(c.seed.a.businessAdmin.email);
    const set = await put(owner, `/businesses/users/${u.id}/change-password`, {
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(set.statusCode, set.body).toBe(200);
    expect((await post('/token/verify', { token: link })).statusCode).toBe(422);

    // A new address gets a confirmation link; a password change then ends it, and the change with it.
    const token = await login(c.t.app, u.email, NEW_PASSWORD);
    const moved = `verify-${u.email}`;
    const res = await put(token, '/profile', {
      first_name: 'Fresh',
      last_name: '',
      email: moved,
      current_password: NEW_PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(200);
    const verify = tokenAfter((await lastMail(moved)).text, '/email-verify?token=');
    const pw = await put(token, '/profile', {
      first_name: 'Fresh',
      last_name: '',
      email: u.email,
      current_password: NEW_PASSWORD,
      password: 'third-password-3',
      password_confirmation: 'third-password-3',
    });
    expect(pw.statusCode, pw.body).toBe(200);
    expect((await post('/verify-email', { token: verify })).statusCode).toBe(422);
    expect((await userRow(u.id)).email).toBe(u.email);
  });

  it('the standing unsubscribe link survives a password change', async () => {
    const u = await freshUser();
    const { sendNotificationMail } = await import('./service.ts');
    const { platformSystemContext } = await import('../../platform/tenancy/context.ts');
    await sendNotificationMail(platformSystemContext(c.t.app.deps, 'job', 'test'), {
      userId: u.id,
      subject: 'Weekly',
      text: 'Hi.',
    });
    const unsubscribe = tokenAfter((await lastMail(u.email)).text, '/unsubscribe/email/');
    const owner = await c.token(c.seed.a.businessAdmin.email);
    await put(owner, `/businesses/users/${u.id}/change-password`, {
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect((await post('/unsubscribe', { token: unsubscribe })).statusCode).toBe(200);
  });

  it('one link used twice at the same moment works once', async () => {
    const u = await freshUser();
    const link = await resetLinkFor(u.email);
    const attempt = (password: string) =>
      post('/password/reset', { token: link, email: u.email, password, password_confirmation: password });
    const answers = await Promise.all([attempt('first-choice-11'), attempt('second-choice-22')]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 422]);
    const won = answers[0]?.statusCode === 200 ? 'first-choice-11' : 'second-choice-22';
    const lost = won === 'first-choice-11' ? 'second-choice-22' : 'first-choice-11';
    expect((await login(c.t.app, u.email, won)).length).toBeGreaterThan(10);
    const refused = await post('/login', { email: u.email, password: lost });
    expect(refused.json().errors.email).toEqual([FAILED]);
  });
});

// -------------------------------------------------------------------------------------------------

describe('the e-mail oracle', () => {
  it('uniquemailchk is limited per caller address (20 a minute), then 429, and another address goes on', async () => {
    const from = { remoteAddress: '10.8.0.1' };
    for (let i = 0; i < 20; i++) {
      const res = await post('/uniquemailchk', { email: `probe${i}@x.test` }, from);
      expect(res.statusCode, res.body).toBe(200);
    }
    const over = await post('/uniquemailchk', { email: c.seed.a.businessAdmin.email }, from);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ success: false, code: 'TOO_MANY', message: THROTTLED });
    expect(over.body).not.toContain('unique');
    const other = await post(
      '/uniquemailchk',
      { email: c.seed.a.businessAdmin.email },
      {
        remoteAddress: '10.8.0.2',
      },
    );
    expect(other.statusCode).toBe(200);
    expect(other.json().data.unique).toBe(false);
  });

  it('and per checked address (10 a minute), from any number of callers', async () => {
    const email = c.seed.a.businessUser.email;
    for (let i = 0; i < 10; i++) {
      const res = await post('/uniquemailchk', { email }, { remoteAddress: `10.9.0.${i + 1}` });
      expect(res.statusCode, res.body).toBe(200);
    }
    const over = await post('/uniquemailchk', { email: email.toUpperCase() }, { remoteAddress: '10.9.1.1' });
    expect(over.statusCode).toBe(429);
    expect(over.json().message).toBe(THROTTLED);
  });

  it('password/email is limited per caller address too', async () => {
    const from = { remoteAddress: '10.10.0.1' };
    for (let i = 0; i < 20; i++)
      expect((await post('/password/email', { email: `nobody${i}@x.test` }, from)).statusCode).toBe(200);
    const over = await post('/password/email', { email: 'nobody@x.test' }, from);
    expect(over.statusCode).toBe(429);
    expect(over.json().message).toBe(THROTTLED);
    await drainJobs(c.t);
  });
});

describe('password/email does the same work for a known and an unknown address', () => {
  let w: TestApp;
  let smtp: SMTPServer;
  let delivered = 0;
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        stream.on('data', () => undefined);
        stream.on('end', () => {
          delivered += 1;
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    const { port } = smtp.server.address() as AddressInfo;
    // An API-only process: nothing works jobs, so whatever the request did itself shows.
    w = await createTestApp({ WORKERS: 'off', SMTP_URL: `smtp://127.0.0.1:${port}` });
    await seedTenants(w.db);
  });
  afterAll(async () => {
    await w?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('answers alike, sends nothing and issues no link in the request: one job each, the same', async () => {
    const ask = (email: string) =>
      w.app.inject({ method: 'POST', url: '/api/v1/password/email', payload: { email } });
    const known = await ask('agencyuser@a.test');
    const unknown = await ask('nobody@nowhere.test');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
    const count = async (sql: string) => Number((await w.pool.query(sql)).rows[0].n);
    expect(await count('select count(*) n from mail_outbox')).toBe(0);
    expect(await count('select count(*) n from user_tokens')).toBe(0);
    expect(delivered).toBe(0);
    const jobs = (
      await w.pool.query(
        `select name, data from pgboss.job where name not like '\\_\\_%' order by created_on`,
      )
    ).rows;
    expect(jobs).toEqual([
      { name: 'auth.password_reset_request', data: { email: 'agencyuser@a.test' } },
      { name: 'auth.password_reset_request', data: { email: 'nobody@nowhere.test' } },
    ]);
  });
});

// -------------------------------------------------------------------------------------------------

describe('the sign-in lock under parallel guesses', () => {
  it('12 parallel wrong passwords get exactly 5 password checks, then the right one is locked out', async () => {
    const u = await freshUser();
    const from = (i: number) => ({ remoteAddress: `10.20.0.${i + 1}` });
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        post('/login', { email: u.email, password: `wrong-guess-${i}` }, from(i)),
      ),
    );
    const wrong = answers.filter((r) => r.statusCode === 422);
    const locked = answers.filter((r) => r.statusCode === 429);
    expect(wrong.length + locked.length).toBe(12);
    for (const r of wrong) expect(r.json().errors.email).toEqual([FAILED]);
    expect(wrong).toHaveLength(5);
    const right = await post('/login', { email: u.email, password: PASSWORD }, from(50));
    expect(right.statusCode).toBe(429);
    expect(right.json().reason).toBe('auth.throttle');
  });
});

// -------------------------------------------------------------------------------------------------

describe('invitations', () => {
  it('an owner created without a password is invited by the agency, for 7 days, and sets a password', async () => {
    await c.t.pool.query(
      `update agencies set properties = '{"installs": 100}', branding = branding || '{"supportEmail": "help@agency-a.test"}' where id = $1`,
      [c.seed.a.agency.id],
    );
    const agencyToken = await c.token(c.seed.a.agencyAdmin.email);
    const res = await post(
      '/business',
      { name: 'Invited Shop', owner: { email: 'invited@shop.test', first_name: 'Ivy' } },
      { headers: bearer(agencyToken) },
    );
    expect(res.statusCode, res.body).toBe(200);
    const mail = await lastMail('invited@shop.test');
    expect(mail).toMatchObject({
      from: 'Agency A <no-reply@localhost>',
      reply_to: 'help@agency-a.test',
      subject: 'You are invited to Agency A Calls',
    });
    expect(mail.text).toContain('Hello Ivy,');
    expect(mail.text).toContain('Agency A has created a Agency A Calls account for you.');
    expect(mail.text).toContain('valid for 7 days');
    expect(mail.text).toContain('Questions? Write to help@agency-a.test.');
    expect(mail.text).not.toContain('ignore this');
    expect(mail.text).toContain('http://calls-a.example.com:3000/password/reset?token=');
    const token = tokenAfter(mail.text, '/password/reset?token=');
    const link = (
      await c.t.pool.query(
        `select purpose, extract(epoch from expires_at - created_at) / 86400 as days from user_tokens
          where user_id = (select id from users where email = 'invited@shop.test')`,
      )
    ).rows;
    expect(link).toHaveLength(1);
    expect(link[0].purpose).toBe('invitation');
    expect(Math.round(Number(link[0].days))).toBe(7);

    const info = await post('/userinfo', { token });
    expect(info.json().data).toMatchObject({ email: 'invited@shop.test', purpose: 'invitation' });
    const set = await post('/password/reset', {
      token,
      email: 'invited@shop.test',
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(set.statusCode, set.body).toBe(200);
    expect((await login(c.t.app, 'invited@shop.test', NEW_PASSWORD)).length).toBeGreaterThan(10);
    const again = await post('/token/verify', { token });
    expect(again.statusCode).toBe(422);
  });

  it('an agency admin created without a password is invited too (INVITATION_TTL_DAYS)', async () => {
    const superToken = await c.token(c.seed.superAdmin.email);
    const res = await post(
      '/agencies',
      {
        name: 'Invite Agency',
        user: { email: 'boss@invite-agency.test', firstName: 'Bo' },
        whitelabel: { domain: 'invite-agency', type: 'subdomain' },
      },
      { headers: bearer(superToken) },
    );
    expect(res.statusCode, res.body).toBe(200);
    const mail = await lastMail('boss@invite-agency.test');
    expect(mail.subject).toBe('You are invited to Invite Agency');
    expect(mail.from).toBe('Invite Agency <no-reply@localhost>');
    expect(mail.text).toContain('Questions? Contact Invite Agency.');
  });
});

// -------------------------------------------------------------------------------------------------

describe('white-label mail', () => {
  it("an agency's users get mail in the agency's name, answered by its support address", async () => {
    await c.t.pool.query(
      `update agencies set name = 'Calls, Inc.', email = 'office@agency-b.test' where id = $1`,
      [c.seed.b.agency.id],
    );
    await post('/password/email', { email: c.seed.b.businessUser.email }, { remoteAddress: '10.30.0.1' });
    const biz = await lastMail(c.seed.b.businessUser.email);
    // A name with a comma is quoted; without a support e-mail the agency's own address answers.
    expect(biz).toMatchObject({
      from: '"Calls, Inc." <no-reply@localhost>',
      reply_to: 'office@agency-b.test',
    });
    await post('/password/email', { email: c.seed.superAdmin.email }, { remoteAddress: '10.30.0.2' });
    const platform = await lastMail(c.seed.superAdmin.email);
    expect(platform).toMatchObject({ from: 'Start Texting Now <no-reply@localhost>', reply_to: null });
  });
});

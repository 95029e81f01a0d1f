import type { AddressInfo } from 'node:net';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  bearer,
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
import { hashToken } from '../../platform/auth/tokens.ts';
import { platformSystemContext } from '../../platform/tenancy/context.ts';
import { createUser } from '../users/service.ts';
import { sendNotificationMail } from './service.ts';

const FAILED = 'These credentials do not match our records.';
const NEW_PASSWORD = 'battery-staple-22';

type Extra = Omit<InjectOptions, 'method' | 'url' | 'payload'>;

const post = (app: FastifyInstance, url: string, payload: object, extra: Extra = {}) =>
  app.inject({ method: 'POST', url: `/api/v1${url}`, payload, ...extra });

const signIn = (app: FastifyInstance, email: string, password: string, extra: Extra = {}) =>
  post(app, '/login', { email, password }, extra);

const authCheck = (app: FastifyInstance, token: string) =>
  app.inject({ method: 'GET', url: '/api/v1/auth/check', headers: bearer(token) });

const count = async (t: TestApp, sql: string, params: unknown[] = []) =>
  Number((await t.pool.query(sql, params)).rows[0].n);

const outboxFor = async (t: TestApp, to: string) =>
  (await t.pool.query('select * from mail_outbox where "to" = $1 order by id', [to])).rows;

const passwordHashOf = async (t: TestApp, userId: number) =>
  (await t.pool.query('select password_hash from users where id = $1', [userId])).rows[0]
    .password_hash as string;

/** A token of the given purpose that appears in a link in the text. */
function tokenIn(text: string, before: string): string {
  const escaped = before.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = text.match(new RegExp(`${escaped}([A-Za-z0-9_-]+)`));
  if (!m?.[1]) throw new Error(`no token after ${before} in:\n${text}`);
  return m[1];
}

// -------------------------------------------------------------------------------------------------
// The main app: no SMTP server, so every mail is kept in mail_outbox.

const c = useSuite({ env: { MAIN_DOMAIN: 'platform.test', PUBLIC_URL: 'http://platform.test:3000' } });

describe('POST /v1/login', () => {
  it('signs in and answers the role group of each kind of user', async () => {
    const cases = [
      [c.seed.admin.email, 'Admin'],
      [c.seed.superAdmin.email, 'Admin'],
      [c.seed.a.agencyAdmin.email, 'Agency'],
      [c.seed.a.businessAdmin.email, 'Business'],
    ] as const;
    for (const [email, group] of cases) {
      const before = Date.now();
      const res = await signIn(c.t.app, email, PASSWORD);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ success: true, token_type: 'Bearer', role_group: group });
      expect(body.access_token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      // The default lifetime is 14 days.
      const ttl = Date.parse(body.expires_at) - before;
      expect(ttl).toBeGreaterThan(14 * 24 * 3600_000 - 60_000);
      expect(ttl).toBeLessThan(14 * 24 * 3600_000 + 60_000);
      expect((await authCheck(c.t.app, body.access_token)).statusCode).toBe(200);
    }
  });

  it('accepts the e-mail in any case', async () => {
    const res = await signIn(c.t.app, 'AgencyAdmin@A.TEST', PASSWORD);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().role_group).toBe('Agency');
  });

  it('answers a wrong password and an unknown e-mail alike, without a token', async () => {
    const wrong = await signIn(c.t.app, c.seed.a.agencyAdmin.email, 'not-the-password');
    const unknown = await signIn(c.t.app, 'nobody@nowhere.test', PASSWORD);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual({
      success: false,
      code: 'VALIDATION',
      message: FAILED,
      errors: { email: [FAILED] },
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toEqual(wrong.json());
    // Each failure is counted for rate limiting.
    expect(
      await count(c.t, `select count(*) n from login_failures where email = 'nobody@nowhere.test'`),
    ).toBe(1);
  });

  it('names each missing or malformed field', async () => {
    const empty = await post(c.t.app, '/login', {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toMatchObject({
      success: false,
      errors: { email: ['The email field is required'], password: ['The password field is required'] },
    });
    const bad = await post(c.t.app, '/login', { email: 'not-an-email', password: '' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({
      email: ['The email must be a valid email address.'],
      password: ['The password field is required'],
    });
  });

  it('refuses an inactive user, and ends the sessions it already had', async () => {
    const user = c.seed.b.agencyUser;
    const token = await login(c.t.app, user.email);
    await c.t.pool.query('update users set active = false where id = $1', [user.id]);
    const res = await signIn(c.t.app, user.email, PASSWORD);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      success: false,
      errors: { email: ['This account is disabled. Please contact support.'] },
    });
    expect(res.json().access_token).toBeUndefined();
    expect((await authCheck(c.t.app, token)).statusCode).toBe(401);
    await c.t.pool.query('update users set active = true where id = $1', [user.id]);
    expect((await authCheck(c.t.app, token)).statusCode).toBe(200);
  });

  it('answers in the language of the accept-language header', async () => {
    const es = await signIn(c.t.app, 'nobody-es@nowhere.test', PASSWORD, {
      headers: { 'accept-language': 'es' },
    });
    expect(es.statusCode).toBe(422);
    expect(es.json().errors.email).toEqual(['Estas credenciales no coinciden con nuestros registros.']);
    expect(es.json().message).toBe('Estas credenciales no coinciden con nuestros registros.');
    const br = await signIn(c.t.app, 'nobody-br@nowhere.test', PASSWORD, {
      headers: { 'accept-language': 'pt-BR,pt;q=0.9' },
    });
    expect(br.json().errors.email).toEqual(['Estas credenciais não correspondem aos nossos registros.']);
    const esMissing = await post(c.t.app, '/login', {}, { headers: { 'accept-language': 'es-MX' } });
    expect(esMissing.json().errors.email).toEqual(['El campo correo electrónico es obligatorio']);
    const fallback = await signIn(c.t.app, 'nobody-de@nowhere.test', PASSWORD, {
      headers: { 'accept-language': 'de' },
    });
    expect(fallback.json().errors.email).toEqual([FAILED]);
  });
});

describe('tokens', () => {
  it('auth/check answers 200 for a valid token and 401 for none or a garbage one', async () => {
    const token = await login(c.t.app, c.seed.b.agencyAdmin.email);
    const ok = await authCheck(c.t.app, token);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ success: true, data: { valid: true, impersonating: false } });
    const unauth = { success: false, code: 'UNAUTHENTICATED', message: 'Unauthenticated.' };
    const none = await c.t.app.inject({ method: 'GET', url: '/api/v1/auth/check' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual(unauth);
    const garbage = await authCheck(c.t.app, 'garbage-token');
    expect(garbage.statusCode).toBe(401);
    expect(garbage.json()).toEqual(unauth);
    const basic = await c.t.app.inject({
      method: 'GET',
      url: '/api/v1/auth/check',
      headers: { authorization: `Basic ${token}` },
    });
    expect(basic.statusCode).toBe(401);
  });

  it('stores only a hash of the token', async () => {
    const token = await login(c.t.app, c.seed.b.agencyAdmin.email);
    const rows = (await c.t.pool.query('select * from auth_tokens')).rows;
    expect(JSON.stringify(rows)).not.toContain(token);
    const mine = rows.filter((r) => r.token_hash === hashToken(token));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ user_id: c.seed.b.agencyAdmin.id, kind: 'access', revoked_at: null });
  });

  it('rejects a token whose expiry has passed', async () => {
    const token = await login(c.t.app, c.seed.b.agencyAdmin.email);
    expect((await authCheck(c.t.app, token)).statusCode).toBe(200);
    await c.t.pool.query(
      `update auth_tokens set expires_at = now() - interval '1 second' where token_hash = $1`,
      [hashToken(token)],
    );
    const res = await authCheck(c.t.app, token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, code: 'UNAUTHENTICATED', message: 'Unauthenticated.' });
  });

  it('logout revokes that session only', async () => {
    const first = await login(c.t.app, c.seed.b.agencyAdmin.email);
    const second = await login(c.t.app, c.seed.b.agencyAdmin.email);
    const res = await c.t.app.inject({ method: 'POST', url: '/api/v1/logout', headers: bearer(first) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'You have been logged out.' });
    expect((await authCheck(c.t.app, first)).statusCode).toBe(401);
    expect((await authCheck(c.t.app, second)).statusCode).toBe(200);
    const row = (
      await c.t.pool.query('select revoked_at from auth_tokens where token_hash = $1', [hashToken(first)])
    ).rows[0];
    expect(row.revoked_at).toBeInstanceOf(Date);
    // A revoked token cannot log out again; no token at all is 401 too.
    expect(
      (await c.t.app.inject({ method: 'POST', url: '/api/v1/logout', headers: bearer(first) })).statusCode,
    ).toBe(401);
    expect((await c.t.app.inject({ method: 'POST', url: '/api/v1/logout' })).statusCode).toBe(401);
  });
});

describe('changing the password through PUT /v1/profile', () => {
  const profile = (token: string, payload: object) =>
    c.t.app.inject({ method: 'PUT', url: '/api/v1/profile', headers: bearer(token), payload });

  it('needs the right current password and changes nothing otherwise', async () => {
    const user = c.seed.b.businessUser;
    const token = await login(c.t.app, user.email);
    const other = await login(c.t.app, user.email);
    const before = await snapshot(c.t.pool, ['users', 'auth_tokens']);
    const res = await profile(token, {
      first_name: 'Changed',
      last_name: 'Name',
      email: user.email,
      current_password: 'wrong-password',
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      success: false,
      errors: { current_password: ['The current password is incorrect.'] },
    });
    const missing = await profile(token, {
      first_name: 'Changed',
      email: user.email,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual({ current_password: ['The current password is incorrect.'] });
    const after = await snapshot(c.t.pool, ['users', 'auth_tokens']);
    // Only last_used_at of the two sessions may have moved.
    const strip = (s: Record<string, unknown[]>) => ({
      ...s,
      auth_tokens: s.auth_tokens?.map((r) => ({ ...(r as object), last_used_at: null })),
    });
    expect(strip(after)).toEqual(strip(before));
    expect((await authCheck(c.t.app, other)).statusCode).toBe(200);
  });

  it('revokes the other sessions and keeps the current one', async () => {
    const user = c.seed.b.businessAdmin;
    const current = await login(c.t.app, user.email);
    const other = await login(c.t.app, user.email);
    const res = await profile(current, {
      first_name: 'Bea',
      last_name: 'Admin',
      email: user.email,
      current_password: PASSWORD,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      message: 'Profile updated successfully.',
      data: { user: { first_name: 'Bea', last_name: 'Admin', email: user.email } },
    });
    expect((await authCheck(c.t.app, current)).statusCode).toBe(200);
    expect((await authCheck(c.t.app, other)).statusCode).toBe(401);
    expect((await signIn(c.t.app, user.email, PASSWORD)).statusCode).toBe(422);
    expect((await signIn(c.t.app, user.email, NEW_PASSWORD)).statusCode).toBe(200);
  });
});

describe('mail outbox (no SMTP server)', () => {
  it('keeps the reset mail in mail_outbox and shows it to a SuperAdmin only', async () => {
    const user = c.seed.a.agencyUser;
    const res = await post(c.t.app, '/password/email', { email: user.email });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: 'If that e-mail address is registered, a password reset link is on its way.',
    });
    await drainJobs(c.t);
    const rows = await outboxFor(c.t, user.email);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: 'stored',
      error: null,
      message_id: null,
      agency_id: c.seed.a.agency.id,
      // White-label mail: the agency's name at the platform's address.
      from: 'Agency A <no-reply@localhost>',
      subject: 'Reset your Agency A Calls password',
    });
    expect(rows[0].text).toContain('Hello agencyuser,');
    expect(rows[0].text).toContain('http://calls-a.example.com:3000/password/reset?token=');

    const superToken = await login(c.t.app, c.seed.superAdmin.email);
    const list = await c.t.app.inject({
      method: 'GET',
      url: '/api/v1/mail-outbox',
      headers: bearer(superToken),
    });
    expect(list.statusCode, list.body).toBe(200);
    const body = list.json();
    expect(body.meta.total).toBe(await count(c.t, 'select count(*) n from mail_outbox'));
    expect(body.meta.total).toBeGreaterThanOrEqual(1);
    const shown = body.data.find((m: { id: number }) => m.id === Number(rows[0].id));
    expect(shown).toMatchObject({
      to: user.email,
      status: 'stored',
      subject: 'Reset your Agency A Calls password',
    });
    expect(shown.text).toBe(rows[0].text);

    const agencyToken = await login(c.t.app, c.seed.a.agencyAdmin.email);
    const forbidden = await c.t.app.inject({
      method: 'GET',
      url: '/api/v1/mail-outbox',
      headers: bearer(agencyToken),
    });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({
      success: false,
      code: 'FORBIDDEN',
      message: 'This action is unauthorized.',
    });
    // A plain Admin does not read kept mail either (it holds reset links, a SuperAdmin's too).
    const adminToken = await login(c.t.app, c.seed.admin.email);
    const adminRes = await c.t.app.inject({
      method: 'GET',
      url: '/api/v1/mail-outbox',
      headers: bearer(adminToken),
    });
    expect(adminRes.statusCode).toBe(403);
    const anonymous = await c.t.app.inject({ method: 'GET', url: '/api/v1/mail-outbox' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({
      success: false,
      code: 'UNAUTHENTICATED',
      message: 'Unauthenticated.',
    });
  });
});

describe('e-mail verification', () => {
  const profile = (token: string, payload: object) =>
    c.t.app.inject({ method: 'PUT', url: '/api/v1/profile', headers: bearer(token), payload });
  const me = async (token: string) => {
    const res = await c.t.app.inject({ method: 'GET', url: '/api/v1/profile', headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.user;
  };

  it('needs the current password to change the e-mail, so an impersonator cannot take the account', async () => {
    const token = await login(c.t.app, c.seed.a.businessAdmin.email);
    const before = await snapshot(c.t.pool, ['users', 'mail_outbox', 'user_tokens']);
    const payload = { first_name: 'bizadmin', last_name: 'A', email: 'taken-over@evil.test' };
    for (const extra of [{}, { current_password: 'not-the-password' }]) {
      const res = await profile(token, { ...payload, ...extra });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ current_password: ['The current password is incorrect.'] });
    }
    const superToken = await login(c.t.app, c.seed.superAdmin.email);
    const imp = await c.t.app.inject({
      method: 'POST',
      url: `/api/v1/impersonate/${c.seed.a.businessAdmin.id}`,
      headers: bearer(superToken),
    });
    expect(imp.statusCode).toBe(200);
    // An impersonation token never changes the e-mail, even with the right current password (ADR 019).
    for (const extra of [{}, { current_password: PASSWORD }]) {
      const res = await profile(imp.json().access_token, { ...payload, ...extra });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().message).toBe(
        'While acting as another user you cannot change e-mail addresses or passwords, or send password links.',
      );
    }
    expect(await snapshot(c.t.pool, ['users', 'mail_outbox', 'user_tokens'])).toEqual(before);
  });

  it('refuses an e-mail another user has, changing nothing', async () => {
    const token = await login(c.t.app, c.seed.a.businessUser.email);
    const before = await snapshot(c.t.pool, ['users', 'mail_outbox', 'user_tokens']);
    const res = await profile(token, { first_name: 'Other', last_name: 'A', email: 'AgencyAdmin@B.test' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      success: false,
      errors: { email: ['The email has already been taken.'] },
    });
    expect(await snapshot(c.t.pool, ['users', 'mail_outbox', 'user_tokens'])).toEqual(before);
  });

  it('sends a link to the new address, which changes the address once', async () => {
    const user = c.seed.a.businessUser;
    const token = await login(c.t.app, user.email);
    expect((await me(token)).email_verified).toBe(true);
    const res = await profile(token, {
      first_name: 'bizuser',
      last_name: 'A',
      email: 'bizuser.new@a.test',
      current_password: PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(
      'We sent a confirmation link to bizuser.new@a.test. Your e-mail address changes once you open it.',
    );
    // Until the link is followed the address stays (ADR 050).
    expect(await me(token)).toMatchObject({
      email: user.email,
      email_verified: true,
      pending_email: 'bizuser.new@a.test',
    });
    const mails = await outboxFor(c.t, 'bizuser.new@a.test');
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('Confirm your new e-mail address for Agency A Calls');
    const verifyToken = tokenIn(mails[0].text, 'http://calls-a.example.com:3000/email-verify?token=');

    const info = await post(c.t.app, '/userinfo', { token: verifyToken });
    expect(info.json()).toEqual({
      success: true,
      data: { email: 'bizuser.new@a.test', first_name: 'bizuser', last_name: 'A', purpose: 'email_change' },
    });
    // A verification token is not a reset token.
    expect((await post(c.t.app, '/token/verify', { token: verifyToken })).statusCode).toBe(422);

    const ok = await post(c.t.app, '/verify-email', { token: verifyToken });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({
      success: true,
      message: 'Your e-mail address has been changed to bizuser.new@a.test.',
    });
    expect(await me(token)).toMatchObject({ email: 'bizuser.new@a.test', email_verified: true });
    const again = await post(c.t.app, '/verify-email', { token: verifyToken });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors).toEqual({ token: ['This verification link is invalid or has expired.'] });
    // The new address signs in.
    expect((await signIn(c.t.app, 'bizuser.new@a.test', PASSWORD)).statusCode).toBe(200);
  });

  it('does not verify an address the user has since changed', async () => {
    const token = await login(c.t.app, 'bizuser.new@a.test');
    await profile(token, {
      first_name: 'bizuser',
      last_name: 'A',
      email: 'first-change@a.test',
      current_password: PASSWORD,
    });
    const stale = tokenIn((await outboxFor(c.t, 'first-change@a.test'))[0].text, '/email-verify?token=');
    await profile(token, {
      first_name: 'bizuser',
      last_name: 'A',
      email: 'second-change@a.test',
      current_password: PASSWORD,
    });
    const res = await post(c.t.app, '/verify-email', { token: stale });
    expect(res.statusCode).toBe(422);
    expect(await me(token)).toMatchObject({
      email: 'bizuser.new@a.test',
      pending_email: 'second-change@a.test',
    });
  });

  it('answers 422 to a bogus token', async () => {
    const res = await post(c.t.app, '/verify-email', { token: 'bogus-token' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      success: false,
      code: 'VALIDATION',
      message: 'This verification link is invalid or has expired.',
      errors: { token: ['This verification link is invalid or has expired.'] },
    });
  });
});

describe('uniqueness checks', () => {
  const unique = async (url: string, payload: object) => {
    const res = await post(c.t.app, url, payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.unique;
  };

  it('POST /v1/uniquemailchk', async () => {
    expect(await unique('/uniquemailchk', { email: c.seed.a.agencyAdmin.email })).toBe(false);
    expect(await unique('/uniquemailchk', { email: 'AGENCYADMIN@a.test' })).toBe(false);
    expect(
      await unique('/uniquemailchk', { email: c.seed.a.agencyAdmin.email, id: c.seed.a.agencyAdmin.id }),
    ).toBe(true);
    expect(
      await unique('/uniquemailchk', { email: c.seed.a.agencyAdmin.email, id: c.seed.b.agencyAdmin.id }),
    ).toBe(false);
    expect(await unique('/uniquemailchk', { email: 'free@nowhere.test' })).toBe(true);
    const bad = await post(c.t.app, '/uniquemailchk', { email: 'not-an-email' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({ email: ['The email must be a valid email address.'] });
  });

  it('POST /v1/uniquedomain', async () => {
    expect(await unique('/uniquedomain', { domain: 'agency-a' })).toBe(false);
    expect(await unique('/uniquedomain', { domain: 'Agency-A' })).toBe(false);
    expect(await unique('/uniquedomain', { domain: 'agency-a.platform.test' })).toBe(false);
    expect(await unique('/uniquedomain', { domain: 'calls-a.example.com' })).toBe(false);
    expect(await unique('/uniquedomain', { domain: 'platform.test' })).toBe(false);
    expect(await unique('/uniquedomain', { domain: 'www.platform.test' })).toBe(false);
    expect(await unique('/uniquedomain', { domain: 'free-agency' })).toBe(true);
    expect(await unique('/uniquedomain', { domain: 'free-agency.platform.test' })).toBe(true);
    expect(await unique('/uniquedomain', { domain: 'calls-free.example.com' })).toBe(true);
  });
});

describe('unsubscribe', () => {
  it('stops notification mails with the link they carry', async () => {
    const deps = c.t.app.deps;
    const user = c.seed.a.agencyAdmin;
    const ctx = platformSystemContext(deps, 'job', 'notification test');
    const sent = await sendNotificationMail(ctx, {
      userId: user.id,
      subject: 'Weekly report',
      text: 'Numbers are up.',
    });
    expect(sent).toBe(true);
    await drainJobs(c.t);
    const rows = (await c.t.pool.query(`select * from mail_outbox where subject = 'Weekly report'`)).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ to: user.email, status: 'stored', agency_id: c.seed.a.agency.id });
    expect(rows[0].text).toMatch(/^Numbers are up\.\n\n--\nDo not want these e-mails\? Unsubscribe: /);
    const token = tokenIn(rows[0].text, 'http://calls-a.example.com:3000/unsubscribe/email/');

    const res = await post(c.t.app, '/unsubscribe', { token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'You have been unsubscribed from our e-mails.' });
    const settings = (await c.t.pool.query('select settings from users where id = $1', [user.id])).rows[0]
      .settings;
    expect(settings.email_unsubscribed).toBe(true);

    const total = await count(c.t, 'select count(*) n from mail_outbox');
    expect(
      await sendNotificationMail(ctx, { userId: user.id, subject: 'Weekly report', text: 'Again.' }),
    ).toBe(false);
    expect(await count(c.t, 'select count(*) n from mail_outbox')).toBe(total);
    // Transactional mail still goes out to an unsubscribed user.
    expect((await post(c.t.app, '/password/email', { email: user.email })).statusCode).toBe(200);
    await drainJobs(c.t);
    expect(await count(c.t, 'select count(*) n from mail_outbox')).toBe(total + 1);
  });

  it('answers 422 to a bogus token', async () => {
    const res = await post(c.t.app, '/unsubscribe', { token: 'bogus-token' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ token: ['This unsubscribe link is invalid.'] });
  });
});

// -------------------------------------------------------------------------------------------------

describe('sign-in rate limiting', () => {
  let r: TestApp;
  beforeAll(async () => {
    r = await createTestApp({ LOGIN_MAX_FAILURES_PER_ACCOUNT: '3', LOGIN_MAX_FAILURES_PER_ADDRESS: '5' });
    for (const email of ['locked@rl.test', 'neighbour@rl.test', 'fresh@rl.test']) {
      await createUser(fixtureCtx(r.db), { email, password: PASSWORD, role: 'Admin' });
    }
  });
  afterAll(() => r?.close());

  const from = (ip: string) => ({ remoteAddress: ip });
  const THROTTLED = 'Too many sign-in attempts. Please try again in 15 minutes.';

  it('locks an account after 3 failures, even for the right password and from another address', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await signIn(r.app, 'locked@rl.test', `wrong-${i}`, from('10.0.0.1'));
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.email).toEqual([FAILED]);
    }
    const locked = await signIn(r.app, 'locked@rl.test', PASSWORD, from('10.0.0.1'));
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({
      success: false,
      code: 'TOO_MANY',
      reason: 'auth.throttle',
      message: THROTTLED,
    });
    expect(locked.json().message).toContain('Too many sign-in attempts');
    expect((await signIn(r.app, 'LOCKED@rl.test', PASSWORD, from('10.0.0.2'))).statusCode).toBe(429);
    // Another account from the same address still signs in.
    const neighbour = await signIn(r.app, 'neighbour@rl.test', PASSWORD, from('10.0.0.1'));
    expect(neighbour.statusCode, neighbour.body).toBe(200);
    // Throttled attempts are not counted as failures.
    expect(await count(r, `select count(*) n from login_failures where email = 'locked@rl.test'`)).toBe(3);
  });

  it('blocks an address after failures spread over several accounts', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await signIn(r.app, `nobody${i}@rl.test`, 'wrong', from('10.0.0.5'));
      expect(res.statusCode).toBe(422);
    }
    const blocked = await signIn(r.app, 'fresh@rl.test', PASSWORD, from('10.0.0.5'));
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toContain('Too many sign-in attempts');
    const elsewhere = await signIn(r.app, 'fresh@rl.test', PASSWORD, from('10.0.0.6'));
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
  });

  it("a successful sign-in clears the account's failures", async () => {
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 2; i++) {
        expect((await signIn(r.app, 'neighbour@rl.test', 'wrong', from('10.0.0.7'))).statusCode).toBe(422);
      }
      expect((await signIn(r.app, 'neighbour@rl.test', PASSWORD, from('10.0.0.7'))).statusCode).toBe(200);
    }
  });

  it('answers the throttle message in the caller language', async () => {
    const res = await signIn(r.app, 'locked@rl.test', PASSWORD, { headers: { 'accept-language': 'es' } });
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toBe(
      'Demasiados intentos de inicio de sesión. Inténtalo de nuevo en 15 minutos.',
    );
  });
});

describe('access token lifetime', () => {
  let s: TestApp;
  beforeAll(async () => {
    s = await createTestApp({ ACCESS_TOKEN_TTL_MINUTES: '1' });
    await createUser(fixtureCtx(s.db), { email: 'ttl@ttl.test', password: PASSWORD, role: 'Admin' });
  });
  afterAll(() => s?.close());

  it('issues tokens for ACCESS_TOKEN_TTL_MINUTES and refuses them afterwards', async () => {
    const before = Date.now();
    const res = await signIn(s.app, 'ttl@ttl.test', PASSWORD);
    expect(res.statusCode, res.body).toBe(200);
    const { access_token: token, expires_at } = res.json();
    const expiresAt = Date.parse(expires_at);
    expect(expiresAt - before).toBeGreaterThanOrEqual(59_000);
    expect(expiresAt - before).toBeLessThan(65_000);
    const check = await authCheck(s.app, token);
    expect(check.statusCode).toBe(200);
    expect(check.json().data.expires_at).toBe(expires_at);
    // Move the server's clock: just before the expiry the token works, just after it does not.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(expiresAt - 2_000);
      expect((await authCheck(s.app, token)).statusCode).toBe(200);
      vi.setSystemTime(expiresAt + 1_000);
      const expired = await authCheck(s.app, token);
      expect(expired.statusCode).toBe(401);
      expect(expired.json()).toEqual({
        success: false,
        code: 'UNAUTHENTICATED',
        message: 'Unauthenticated.',
      });
    } finally {
      vi.useRealTimers();
    }
  });
});

// -------------------------------------------------------------------------------------------------

type Received = { to: string[]; raw: string };

/** Headers (unfolded, lower-case names) and the decoded text body of a raw single-part message. */
function parseMail(raw: string): { headers: Record<string, string>; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \c.t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.slice(split + 4);
  const encoding = headers['content-transfer-encoding']?.toLowerCase();
  if (encoding === 'quoted-printable') {
    const binary = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    body = Buffer.from(binary, 'latin1').toString('utf8');
  } else if (encoding === 'base64') {
    body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return { headers, text: body.replace(/\r\n/g, '\n') };
}

describe('password reset through a real SMTP server', () => {
  let m: TestApp;
  let ms: Awaited<ReturnType<typeof seedTenants>>;
  let smtp: SMTPServer;
  const received: Received[] = [];
  let resetToken = '';
  let sessions: string[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({
            to: session.envelope.rcptTo.map((a) => a.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    const { port } = smtp.server.address() as AddressInfo;
    m = await createTestApp({
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIN_DOMAIN: 'platform.test',
      PUBLIC_URL: 'http://platform.test:3000',
    });
    ms = await seedTenants(m.db);
  });
  afterAll(async () => {
    await m?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  const user = () => ms.a.agencyUser;

  it('delivers the reset mail, with a link on the agency own site', async () => {
    sessions = [await login(m.app, user().email), await login(m.app, user().email)];
    const res = await post(m.app, '/password/email', { email: user().email });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: 'If that e-mail address is registered, a password reset link is on its way.',
    });
    await drainJobs(m);
    expect(received).toHaveLength(1);
    const mail = received[0] as Received;
    expect(mail.to).toEqual([user().email]);
    const { headers, text } = parseMail(mail.raw);
    expect(headers.subject).toBe('Reset your Agency A Calls password');
    expect(headers.to).toBe(user().email);
    expect(headers.from).toBe('Agency A <no-reply@localhost>');
    expect(text).toContain('Hello agencyuser,');
    expect(text).toContain('Open this link within 60 minutes');
    // Agency A has a custom domain, which wins over its subdomain.
    const link = text.match(
      /http:\/\/calls-a\.example\.com:3000\/password\/reset\?token=([A-Za-z0-9_-]+)&email=(\S+)/,
    );
    expect(link, text).not.toBeNull();
    expect(link?.[2]).toBe(encodeURIComponent(user().email));
    resetToken = link?.[1] ?? '';
    expect(resetToken.length).toBeGreaterThanOrEqual(40);

    const outbox = await outboxFor(m, user().email);
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({
      status: 'sent',
      error: null,
      subject: 'Reset your Agency A Calls password',
    });
    expect(outbox[0].message_id).toBeTruthy();
    expect(mail.raw).toContain(outbox[0].message_id);
    // A delivered mail's body (with its reset link) is not kept in the outbox.
    expect(outbox[0].text).toBe('');
    // Only the hash of the reset token is stored.
    const stored = (await m.pool.query(`select * from user_tokens where purpose = 'password_reset'`)).rows;
    expect(JSON.stringify(stored)).not.toContain(resetToken);
    expect(stored.map((r) => r.token_hash)).toContain(hashToken(resetToken));
  });

  it('tells who the link is for and that it is valid', async () => {
    const info = await post(m.app, '/userinfo', { token: resetToken });
    expect(info.statusCode, info.body).toBe(200);
    expect(info.json()).toEqual({
      success: true,
      data: { email: user().email, first_name: 'agencyuser', last_name: 'A', purpose: 'password_reset' },
    });
    const ok = await post(m.app, '/token/verify', { token: resetToken, email: user().email });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ success: true, message: 'This link is valid.' });
    const wrongEmail = await post(m.app, '/token/verify', {
      token: resetToken,
      email: ms.b.agencyUser.email,
    });
    expect(wrongEmail.statusCode).toBe(422);
    expect(wrongEmail.json().errors).toEqual({
      token: ['This password reset link is invalid or has expired.'],
    });
    expect((await post(m.app, '/userinfo', { token: 'bogus' })).statusCode).toBe(422);
  });

  it('refuses a mismatched confirmation and keeps the password', async () => {
    const before = await passwordHashOf(m, user().id);
    const res = await post(m.app, '/password/reset', {
      token: resetToken,
      email: user().email,
      password: NEW_PASSWORD,
      password_confirmation: 'something-else-1',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ password_confirmation: ['Password confirmation does not match'] });
    expect(await passwordHashOf(m, user().id)).toBe(before);
    expect((await post(m.app, '/token/verify', { token: resetToken })).statusCode).toBe(200);
    for (const s of sessions) expect((await authCheck(m.app, s)).statusCode).toBe(200);
  });

  it('resets the password once and ends every session', async () => {
    const res = await post(m.app, '/password/reset', {
      token: resetToken,
      email: user().email,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: 'Your password has been reset. You can sign in now.',
    });
    for (const s of sessions) expect((await authCheck(m.app, s)).statusCode).toBe(401);
    expect((await signIn(m.app, user().email, PASSWORD)).json().errors.email).toEqual([FAILED]);
    const fresh = await signIn(m.app, user().email, NEW_PASSWORD);
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(fresh.json().role_group).toBe('Agency');

    const again = await post(m.app, '/password/reset', {
      token: resetToken,
      email: user().email,
      password: 'third-password-3',
      password_confirmation: 'third-password-3',
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors).toEqual({ token: ['This password reset link is invalid or has expired.'] });
    expect((await signIn(m.app, user().email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('answers the same for an unknown e-mail and sends nothing', async () => {
    const mails = received.length;
    const rows = await count(m, 'select count(*) n from mail_outbox');
    const res = await post(m.app, '/password/email', { email: 'nobody@nowhere.test' });
    expect(res.statusCode).toBe(200);
    await drainJobs(m);
    expect(res.json()).toEqual({
      success: true,
      message: 'If that e-mail address is registered, a password reset link is on its way.',
    });
    expect(received).toHaveLength(mails);
    expect(await count(m, 'select count(*) n from mail_outbox')).toBe(rows);
  });

  it('links to the subdomain without a custom domain, and to the main site for platform users', async () => {
    await m.pool.query('update agencies set domain = null where id = $1', [ms.b.agency.id]);
    expect((await post(m.app, '/password/email', { email: ms.b.businessUser.email })).statusCode).toBe(200);
    expect((await post(m.app, '/password/email', { email: ms.admin.email })).statusCode).toBe(200);
    await drainJobs(m);
    const biz = parseMail(received.find((r) => r.to.includes(ms.b.businessUser.email))?.raw ?? '');
    expect(biz.headers.subject).toBe('Reset your Agency B Calls password');
    expect(biz.text).toContain('http://agency-b.platform.test:3000/password/reset?token=');
    const admin = parseMail(received.find((r) => r.to.includes(ms.admin.email))?.raw ?? '');
    expect(admin.headers.subject).toBe('Reset your Main Site password');
    expect(admin.text).toContain('http://platform.test:3000/password/reset?token=');
  });

  it("delivers an agency's mail in its name, with its support address as Reply-To", async () => {
    await m.pool.query(
      `update agencies set branding = branding || '{"supportEmail": "help@b.test"}' where id = $1`,
      [ms.b.agency.id],
    );
    expect((await post(m.app, '/password/email', { email: ms.b.businessAdmin.email })).statusCode).toBe(200);
    await drainJobs(m);
    const mail = parseMail(received.find((r) => r.to.includes(ms.b.businessAdmin.email))?.raw ?? '');
    expect(mail.headers.from).toBe('Agency B <no-reply@localhost>');
    expect(mail.headers['reply-to']).toBe('help@b.test');
    // A platform user's mail has no agency: the platform's sender and no Reply-To.
    const admin = parseMail(received.find((r) => r.to.includes(ms.admin.email))?.raw ?? '');
    expect(admin.headers.from).toBe('Start Texting Now <no-reply@localhost>');
    expect(admin.headers['reply-to']).toBeUndefined();
  });

  it('only the newest link works, and an expired link does not', async () => {
    const email = ms.b.agencyAdmin.email;
    const tokens: string[] = [];
    for (let i = 0; i < 2; i++) {
      await post(m.app, '/password/email', { email });
      await drainJobs(m);
      const mails = received.filter((r) => r.to.includes(email));
      tokens.push(tokenIn(parseMail(mails.at(-1)?.raw ?? '').text, '/password/reset?token='));
    }
    const [older, newer] = tokens as [string, string];
    expect(older).not.toBe(newer);
    expect((await post(m.app, '/token/verify', { token: older })).statusCode).toBe(422);
    expect((await post(m.app, '/token/verify', { token: newer })).statusCode).toBe(200);
    await m.pool.query(
      `update user_tokens set expires_at = now() - interval '1 second' where token_hash = $1`,
      [hashToken(newer)],
    );
    expect((await post(m.app, '/token/verify', { token: newer })).statusCode).toBe(422);
    const reset = await post(m.app, '/password/reset', {
      token: newer,
      email,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(reset.statusCode).toBe(422);
    expect((await signIn(m.app, email, PASSWORD)).statusCode).toBe(200);
  });
});

// Issue 17: an impersonation token never changes anyone's e-mail or password and never sends a password
// link, whoever the target is (ADR 050). Every path that writes a credential or e-mails a link is tried
// with an impersonation token and must answer 403 and change nothing; the same call without
// impersonation works (so the 403 comes from the impersonation, not from the call's shape).
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, PASSWORD, snapshot, useSuite } from '../../../test/helpers.ts';

const REFUSED =
  'While acting as another user you cannot change e-mail addresses or passwords, or send password links.';
const NEW_PASSWORD = 'battery-staple-22';
const WATCHED = ['users', 'user_tokens', 'mail_outbox', 'auth_tokens'];

const c = useSuite({ env: { MAIN_DOMAIN: 'platform.test', PUBLIC_URL: 'http://platform.test:3000' } });

type Method = 'POST' | 'PUT';
const send = (token: string | null, method: Method, url: string, payload: object = {}) =>
  c.t.app.inject({ method, url: `/api/v1${url}`, headers: token ? bearer(token) : {}, payload });

async function impersonate(impersonatorEmail: string, targetId: number): Promise<string> {
  const res = await send(await c.token(impersonatorEmail), 'POST', `/impersonate/${targetId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().access_token as string;
}

/** Each call is refused with 403 and the credential tables are exactly as before. */
async function expectRefused(token: string, calls: [Method, string, object][]) {
  for (const [method, url, body] of calls) {
    const before = await snapshot(c.t.pool, WATCHED);
    const res = await send(token, method, url, body);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
    expect(res.json(), `${method} ${url}`).toMatchObject({ success: false, message: REFUSED });
    // auth_tokens: last_used_at of the impersonation token may move; the rest must not.
    const after = await snapshot(c.t.pool, WATCHED);
    const strip = (s: Record<string, unknown[]>) => ({
      ...s,
      auth_tokens: s.auth_tokens?.map((r) => ({ ...(r as object), last_used_at: null })),
    });
    expect(strip(after), `${method} ${url}`).toEqual(strip(before));
  }
}

beforeAll(async () => {
  await c.t.pool.query('update businesses set owner_id = $1, number_of_users = 50 where id = $2', [
    c.seed.a.businessAdmin.id,
    c.seed.a.business.id,
  ]);
});

describe('an impersonation token never changes credentials of anyone, nor sends password links', () => {
  it("an AgencyAdmin acting as a business owner: a SalesUser's e-mail, password and reset link", async () => {
    const staff = c.seed.a.businessUser;
    const token = await impersonate(c.seed.a.agencyAdmin.email, c.seed.a.businessAdmin.id);
    await expectRefused(token, [
      [
        'PUT',
        `/businesses/users/${staff.id}`,
        {
          first_name: 'bizuser',
          last_name: 'A',
          email: 'taken@evil.test',
          role: 'BusinessUser',
          user_type: '3',
        },
      ],
      [
        'PUT',
        `/businesses/users/${staff.id}/change-password`,
        { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      ],
      ['POST', `/businesses/users/${staff.id}/reset-password`, {}],
      // Its own too, with the right current password.
      [
        'PUT',
        '/profile',
        { first_name: 'bizadmin', last_name: 'A', email: 'own@evil.test', current_password: PASSWORD },
      ],
    ]);
    // The owner, signed in as themselves, may do each of these (the 403 above is the impersonation's).
    const owner = await c.token(c.seed.a.businessAdmin.email);
    const ok = await send(owner, 'POST', `/businesses/users/${staff.id}/reset-password`);
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it("a SuperAdmin acting as an AgencyAdmin: the business owner's e-mail and password, and reset links", async () => {
    const biz = c.seed.a.business;
    const token = await impersonate(c.seed.superAdmin.email, c.seed.a.agencyAdmin.id);
    const agencyStaff = c.seed.a.agencyUser;
    await expectRefused(token, [
      ['PUT', `/business/${biz.id}`, { owner: { email: 'owner@evil.test' } }],
      [
        'POST',
        `/business/${biz.id}/reset-password`,
        { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      ],
      ['POST', `/business/${biz.id}/reset-password`, {}],
      [
        'PUT',
        `/agency/users/${agencyStaff.id}`,
        { email: 'staff@evil.test', first_name: 'agencyuser', user_type: '1' },
      ],
      [
        'PUT',
        `/agency/users/${agencyStaff.id}/change-password`,
        { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      ],
      ['POST', `/agency/users/${agencyStaff.id}/reset-password`, {}],
    ]);
    // Other business fields still change under impersonation; only the credentials are refused.
    const rename = await send(token, 'PUT', `/business/${biz.id}`, { name: 'Business A' });
    expect(rename.statusCode, rename.body).toBe(200);
    // The agency admin itself sends the reset link.
    const ok = await send(
      await c.token(c.seed.a.agencyAdmin.email),
      'POST',
      `/business/${biz.id}/reset-password`,
    );
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('the public password routes refuse a request that carries an impersonation token', async () => {
    const token = await impersonate(c.seed.a.agencyAdmin.email, c.seed.a.businessAdmin.id);
    await expectRefused(token, [
      ['POST', '/password/email', { email: c.seed.a.businessUser.email }],
      [
        'POST',
        '/password/reset',
        {
          token: 'x'.repeat(43),
          email: c.seed.a.businessUser.email,
          password: NEW_PASSWORD,
          password_confirmation: NEW_PASSWORD,
        },
      ],
    ]);
    // Without the token the same request is the public one.
    const ok = await send(null, 'POST', '/password/email', { email: c.seed.a.businessUser.email });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

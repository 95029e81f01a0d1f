// Issue 17: an e-mail change takes effect only once the link sent to the new address is followed; until
// then the old address signs in and the new one does not, and the profile shows the address waiting for
// confirmation. Every e-mail change is in the audit log: who, whose, the old and the new address (ADR 050).
import { describe, expect, it } from 'vitest';
import { bearer, drainJobs, PASSWORD, useSuite } from '../../../test/helpers.ts';

const c = useSuite({ env: { MAIN_DOMAIN: 'platform.test', PUBLIC_URL: 'http://platform.test:3000' } });

type Method = 'GET' | 'POST' | 'PUT';
const send = (token: string | null, method: Method, url: string, payload?: object) =>
  c.t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: token ? bearer(token) : {},
    ...(payload ? { payload } : {}),
  });
/** The caller asks for a new address from the profile, proving the current password. */
const changeOwnEmail = (token: string, name: [string, string], email: string) =>
  send(token, 'PUT', '/profile', {
    first_name: name[0],
    last_name: name[1],
    email,
    current_password: PASSWORD,
  });
const signIn = (email: string) => send(null, 'POST', '/login', { email, password: PASSWORD });
const me = async (token: string) => (await send(token, 'GET', '/profile')).json().data.user;

async function mailsTo(to: string) {
  await drainJobs(c.t);
  return (await c.t.pool.query('select * from mail_outbox where "to" = $1 order by id', [to])).rows;
}

function linkToken(text: string): string {
  const m = text.match(/\/email-verify\?token=([A-Za-z0-9_-]+)/);
  if (!m?.[1]) throw new Error(`no confirmation link in:\n${text}`);
  return m[1];
}

/** The audit entries about e-mail changes of a user, oldest first, as the audit log route shows them. */
async function emailAudit(viewer: string, userId: number) {
  const res = await send(await c.token(viewer), 'GET', '/audit-logs?perPage=100&keyword=user.email');
  expect(res.statusCode, res.body).toBe(200);
  return (
    res.json().data as { action: string; target_user_id: number; actor_id: number | null; data: object }[]
  )
    .filter((r) => r.target_user_id === userId)
    .reverse();
}

describe('an e-mail change waits for the new address to confirm it', () => {
  it('from the profile: the old address signs in until the link is followed, then only the new one', async () => {
    const user = c.seed.a.businessUser;
    const token = await c.token(user.email);
    const res = await changeOwnEmail(token, ['bizuser', 'A'], 'bizuser.next@a.test');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(
      'We sent a confirmation link to bizuser.next@a.test. Your e-mail address changes once you open it.',
    );
    expect(res.json().data.user).toMatchObject({
      email: user.email,
      email_verified: true,
      pending_email: 'bizuser.next@a.test',
    });
    expect(await me(token)).toMatchObject({ email: user.email, pending_email: 'bizuser.next@a.test' });
    // Nothing has changed for signing in.
    expect((await signIn(user.email)).statusCode).toBe(200);
    expect((await signIn('bizuser.next@a.test')).statusCode).toBe(422);

    // The link goes to the new address; the old one is told, without a link.
    const [confirm] = await mailsTo('bizuser.next@a.test');
    expect(confirm.subject).toBe('Confirm your new e-mail address for Agency A Calls');
    const [notice] = await mailsTo(user.email);
    expect(notice.subject).toBe('Your e-mail address for Agency A Calls is changing');
    expect(notice.text).toContain('bizuser.next@a.test');
    expect(notice.text).not.toMatch(/token=/);

    const ok = await send(null, 'POST', '/verify-email', { token: linkToken(confirm.text) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().message).toBe('Your e-mail address has been changed to bizuser.next@a.test.');
    expect((await signIn('bizuser.next@a.test')).statusCode).toBe(200);
    expect((await signIn(user.email)).statusCode).toBe(422);
    expect(await me(token)).toMatchObject({
      email: 'bizuser.next@a.test',
      email_verified: true,
      pending_email: null,
    });
    // Used once.
    expect((await send(null, 'POST', '/verify-email', { token: linkToken(confirm.text) })).statusCode).toBe(
      422,
    );

    const entries = await emailAudit(c.seed.a.agencyAdmin.email, user.id);
    expect(entries.map((e) => [e.action, e.actor_id, e.data])).toEqual([
      ['user.email_change_requested', user.id, { from: user.email, to: 'bizuser.next@a.test' }],
      ['user.email_changed', null, { from: user.email, to: 'bizuser.next@a.test' }],
    ]);
  });

  it('by an agency admin on one of its users: the same, and the log names the admin', async () => {
    const staff = c.seed.a.agencyUser;
    const admin = c.seed.a.agencyAdmin;
    const res = await send(await c.token(admin.email), 'PUT', `/agency/users/${staff.id}`, {
      email: 'staff.next@a.test',
      first_name: 'agencyuser',
      user_type: '1',
    });
    expect(res.statusCode, res.body).toBe(200);
    const row = (await c.t.pool.query('select email from users where id = $1', [staff.id])).rows[0];
    expect(row.email).toBe(staff.email);
    expect((await signIn(staff.email)).statusCode).toBe(200);
    expect((await signIn('staff.next@a.test')).statusCode).toBe(422);
    expect(await me(await c.token(staff.email))).toMatchObject({ pending_email: 'staff.next@a.test' });

    const [confirm] = await mailsTo('staff.next@a.test');
    expect((await send(null, 'POST', '/verify-email', { token: linkToken(confirm.text) })).statusCode).toBe(
      200,
    );
    expect((await signIn('staff.next@a.test')).statusCode).toBe(200);

    const entries = await emailAudit(c.seed.superAdmin.email, staff.id);
    expect(entries.map((e) => [e.action, e.actor_id, e.data])).toEqual([
      ['user.email_change_requested', admin.id, { from: staff.email, to: 'staff.next@a.test' }],
      ['user.email_changed', null, { from: staff.email, to: 'staff.next@a.test' }],
    ]);
  });

  it('an address taken by someone else meanwhile is refused at confirmation, and nothing changes', async () => {
    const owner = c.seed.b.businessAdmin;
    const token = await c.token(owner.email);
    const res = await changeOwnEmail(token, ['bizadmin', 'B'], 'wanted@b.test');
    expect(res.statusCode, res.body).toBe(200);
    const [confirm] = await mailsTo('wanted@b.test');
    // Someone else takes the address before the link is followed.
    const other = await changeOwnEmail(
      await c.token(c.seed.b.businessUser.email),
      ['bizuser', 'B'],
      'wanted@b.test',
    );
    expect(other.statusCode, other.body).toBe(200);
    const [, otherConfirm] = await mailsTo('wanted@b.test');
    expect(
      (await send(null, 'POST', '/verify-email', { token: linkToken(otherConfirm.text) })).statusCode,
    ).toBe(200);
    const late = await send(null, 'POST', '/verify-email', { token: linkToken(confirm.text) });
    expect(late.statusCode).toBe(422);
    expect(late.json().errors).toEqual({ token: ['That e-mail address is now used by another account.'] });
    expect(await me(token)).toMatchObject({ email: owner.email, pending_email: null });
    expect((await signIn(owner.email)).statusCode).toBe(200);
  });

  it('only the newest change counts: an older link no longer changes anything', async () => {
    const user = c.seed.b.agencyUser;
    const admin = await c.token(c.seed.b.agencyAdmin.email);
    for (const email of ['first@b.test', 'second@b.test']) {
      const res = await send(admin, 'PUT', `/agency/users/${user.id}`, {
        email,
        first_name: 'agencyuser',
        user_type: '1',
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const [first] = await mailsTo('first@b.test');
    expect((await send(null, 'POST', '/verify-email', { token: linkToken(first.text) })).statusCode).toBe(
      422,
    );
    expect(await me(await c.token(user.email))).toMatchObject({
      email: user.email,
      pending_email: 'second@b.test',
    });
  });
});

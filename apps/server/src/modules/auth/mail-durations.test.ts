// How long a link is valid, as the mail says it: one day, one minute, in the user's language (plural
// forms from the locale files, not "1 days").
import { describe, expect, it } from 'vitest';
import { bearer, drainJobs, useSuite } from '../../../test/helpers.ts';

const c = useSuite({ env: { INVITATION_TTL_DAYS: '1', PASSWORD_RESET_TTL_MINUTES: '1' } });

async function lastMail(to: string): Promise<{ text: string }> {
  await drainJobs(c.t);
  const rows = (await c.t.pool.query('select * from mail_outbox where "to" = $1 order by id', [to])).rows;
  if (!rows.length) throw new Error(`no mail to ${to}`);
  return rows.at(-1);
}

describe('durations in mails', () => {
  it('a reset link valid one minute says "1 minute", in English and in Spanish', async () => {
    const email = c.seed.a.businessUser.email;
    const post = () => c.t.app.inject({ method: 'POST', url: '/api/v1/password/email', payload: { email } });
    expect((await post()).statusCode).toBe(200);
    const en = await lastMail(email);
    expect(en.text).toContain('within 1 minute to choose');
    await c.t.pool.query(`update users set settings = settings || '{"language": "es"}' where email = $1`, [
      email,
    ]);
    await c.t.pool.query(`delete from user_tokens where purpose = 'password_reset'`);
    expect((await post()).statusCode).toBe(200);
    const es = await lastMail(email);
    expect(es.text).toContain('próximos 1 minuto para');
  });

  it('an invitation valid one day says "1 day"', async () => {
    await c.t.pool.query(`update agencies set properties = '{"installs": 100}' where id = $1`, [
      c.seed.a.agency.id,
    ]);
    const res = await c.t.app.inject({
      method: 'POST',
      url: '/api/v1/business',
      headers: bearer(await c.token(c.seed.a.agencyAdmin.email)),
      payload: { name: 'One Day Shop', owner: { email: 'oneday@shop.test', first_name: 'Una' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const mail = await lastMail('oneday@shop.test');
    expect(mail.text).toContain('valid for 1 day:');
  });
});

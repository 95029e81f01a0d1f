import { describe, expect, it } from 'vitest';
import { drainJobs, useSuite } from '../../../test/helpers.ts';
import { platformSystemContext } from '../../platform/tenancy/context.ts';
import { sendNotificationMail } from './service.ts';

// ADR 023: opening an unsubscribe link (a mail scanner or a link preview does, with a GET) changes nothing;
// only the POST that the page's button sends unsubscribes.

const c = useSuite({ env: { MAIN_DOMAIN: 'platform.test', PUBLIC_URL: 'http://platform.test:3000' } });

const settingsOf = async (id: number) =>
  (await c.t.pool.query('select settings from users where id = $1', [id])).rows[0].settings as Record<
    string,
    unknown
  >;

describe('the unsubscribe link', () => {
  it('a GET of the link or of the API changes nothing; the POST unsubscribes', async () => {
    const user = c.seed.a.businessAdmin;
    const ctx = platformSystemContext(c.t.app.deps, 'job', 'unsubscribe link test');
    expect(await sendNotificationMail(ctx, { userId: user.id, subject: 'Link test', text: 'Hello.' })).toBe(
      true,
    );
    await drainJobs(c.t);
    const mail = (await c.t.pool.query(`select text from mail_outbox where subject = 'Link test'`)).rows[0];
    const link = String(mail?.text).match(/https?:\/\/[^/\s]+(\/unsubscribe\/email\/([A-Za-z0-9_-]+))/);
    expect(link, mail?.text).toBeTruthy();
    const [, path = '', token = ''] = link ?? [];
    const before = await settingsOf(user.id);
    expect(before.email_unsubscribed).toBeUndefined();

    // What a scanner does: open the link, and try the API by GET.
    for (const url of [path, `/api/v1/unsubscribe?token=${token}`, `/api/v1/unsubscribe/${token}`]) {
      const res = await c.t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBeLessThan(500);
      expect(res.statusCode === 200 && res.headers['content-type']?.toString().includes('json'), url).toBe(
        false,
      );
    }
    expect(await settingsOf(user.id)).toEqual(before);

    // The person's click.
    const res = await c.t.app.inject({ method: 'POST', url: '/api/v1/unsubscribe', payload: { token } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await settingsOf(user.id)).email_unsubscribed).toBe(true);
  });
});

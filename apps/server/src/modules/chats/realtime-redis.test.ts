// Two server processes sharing the database and Redis (127.0.0.1:6379): a text arriving at one reaches
// a WebSocket connected to the other. Skipped, with a message, where no Redis is running.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, openSocket } from '../../../test/helpers.ts';
import { hasTestRedis, TEST_REDIS_URL } from '../../../test/redis.ts';
import { carrierWebhook, type Telephony, telephonyApp } from '../telephony/testing.ts';

const REDIS_URL = TEST_REDIS_URL;
const hasRedis = await hasTestRedis('the two-process new_message test');

describe.skipIf(!hasRedis)('new_message across two server processes through Redis', () => {
  let h: Telephony;
  let two: Awaited<ReturnType<typeof import('../../app.ts')['buildApp']>>;
  let number: string;
  beforeAll(async () => {
    h = await telephonyApp({ REDIS_URL });
    const install = await h.install();
    [{ phone_number: number }] = (
      await h.t.pool.query('select phone_number from numbers where install_id = $1', [install.id])
    ).rows;
    const { buildApp } = await import('../../app.ts');
    two = await buildApp({ config: h.t.config, db: h.t.db });
    await two.ready();
  });
  afterAll(async () => {
    await two?.close();
    await h?.close();
  });

  it('a text posted to process one reaches a socket of process two, for its business only', async () => {
    await two.listen({ port: 0, host: '127.0.0.1' });
    const open = async (email: string) => openSocket(two, await login(h.t.app, email));
    const a = await open(h.seed.a.businessAdmin.email);
    const b = await open(h.seed.b.businessAdmin.email);
    const res = await carrierWebhook(h, '/webhooks/twilio/sms-in', {
      MessageSid: `SM${crypto.randomBytes(16).toString('hex')}`,
      From: '+14155550390',
      To: number,
      Body: 'across processes',
      NumMedia: '0',
    });
    expect(res.statusCode).toBe(200);
    await expect
      .poll(() => a.got.find((m) => m.type === 'new_message')?.data, { timeout: 5_000 })
      .toMatchObject({ number_of_messages: 1, message: { body: 'across processes' } });
    expect(b.got.some((m) => m.type === 'new_message')).toBe(false);
    a.ws.terminate();
    b.ws.terminate();
  });
});

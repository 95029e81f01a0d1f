// Two server processes sharing the database and Redis (127.0.0.1:6379): the visitor's event stream is
// open on process two while the callback and the carrier's webhooks are handled by process one; the
// call's progress reaches the stream through Redis. Skipped, with a message, where no Redis is running.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasTestRedis, TEST_REDIS_URL } from '../../../test/redis.ts';
import { STAFF_1, type Telephony, telephonyApp } from '../telephony/testing.ts';
import { openStream } from './testing.ts';

const REDIS_URL = TEST_REDIS_URL;
const hasRedis = await hasTestRedis('the two-process widget stream test');

describe.skipIf(!hasRedis)('the widget event stream across two server processes through Redis', () => {
  let h: Telephony;
  let two: Awaited<ReturnType<typeof import('../../app.ts')['buildApp']>>;
  beforeAll(async () => {
    h = await telephonyApp({ REDIS_URL, WIDGET_RATE_PER_INSTALL: '100000' });
    const { buildApp } = await import('../../app.ts');
    two = await buildApp({ config: h.t.config, db: h.t.db });
    await two.ready();
    await two.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await two?.close();
    await h?.close();
  });

  it('a callback handled by process one is followed on a stream of process two', async () => {
    const install = await h.install({ calling_type: 'simultaneous' });
    const visitor = '+14155550881';
    const res = await h.callback(install.key, { phone: visitor });
    expect(res.statusCode, res.body).toBe(200);
    const { token, call_id: callId } = res.json().data as { token: string; call_id: number };
    const base = `http://127.0.0.1:${(two.server.address() as AddressInfo).port}`;
    const stream = await openStream(base, install.key, token);
    await stream.until(1);
    await h.run(1000);
    h.sandbox.phones.answer(STAFF_1);
    await h.run(5000);
    h.sandbox.phones.press(STAFF_1, '1');
    await h.run(2000);
    h.sandbox.phones.answer(visitor);
    await h.run(3000);
    await stream.until(3);
    expect(stream.events.map((e) => e.data)).toEqual([
      { type: 'call', call_id: callId, status: 'finding' },
      { type: 'call', call_id: callId, status: 'calling_you' },
      { type: 'call', call_id: callId, status: 'connected' },
    ]);
    h.sandbox.phones.hangUp(visitor);
    await h.run(2000);
    await stream.until(4);
    stream.close();
  });
});

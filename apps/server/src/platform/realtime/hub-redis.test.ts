// The hub through a real Redis (127.0.0.1:6379): the processes of one deployment (one database) hear each
// other; another deployment on the same Redis, whose users, businesses and sessions have the same ids, does
// not (ADR 098). Skipped, with a message, where no Redis is running.
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { hasTestRedis, TEST_REDIS_URL } from '../../../test/redis.ts';
import { createHub, type Hub, hubNamespace, type RealtimeMessage } from './hub.ts';

const hasRedis = await hasTestRedis('the hub namespace test');
const log = pino({ level: 'silent' });

describe.skipIf(!hasRedis)('realtime hub on a shared Redis', () => {
  const hubs: Hub[] = [];
  const hub = async (databaseUrl: string) => {
    const h = createHub({ redisUrl: TEST_REDIS_URL, log, namespace: hubNamespace(databaseUrl) });
    hubs.push(h);
    await h.ready();
    return h;
  };
  afterAll(async () => {
    await Promise.all(hubs.map((h) => h.close()));
  });

  it("reaches the same database's other processes, never another database's", async () => {
    const suffix = Math.random().toString(36).slice(2, 8);
    const one = `postgres://u@127.0.0.1:5432/stn_one_${suffix}`;
    const other = `postgres://u@db.example.test:5432/stn_other_${suffix}`;
    const [oneA, oneB, otherA] = await Promise.all([hub(one), hub(one), hub(other)]);
    const heard = { oneB: [] as RealtimeMessage[], otherA: [] as RealtimeMessage[] };
    oneB.subscribe(['user:1', 'session:1'], (m) => heard.oneB.push(m));
    otherA.subscribe(['user:1', 'session:1'], (m) => heard.otherA.push(m));

    await oneA.publish('user:1', { type: 'new_message', data: { body: 'for one' } });
    await oneA.publish('session:1', { type: 'session_ended' });
    // Published after the two above were taken by Redis: heard once they would have been.
    await otherA.publish('user:1', { type: 'fence' });
    await expect.poll(() => heard.otherA.map((m) => m.type), { timeout: 5_000 }).toEqual(['fence']);
    await expect
      .poll(() => heard.oneB.map((m) => m.type), { timeout: 5_000 })
      .toEqual(['new_message', 'session_ended']);
  });

  it("a namespace with a pattern's characters is taken literally", async () => {
    const [star, plain] = await Promise.all([hub('postgres://u@h/stn*'), hub('postgres://u@h/stnx')]);
    const heard: string[] = [];
    star.subscribe(['user:2'], (m) => heard.push(m.type));
    await plain.publish('user:2', { type: 'not-mine' });
    await star.publish('user:2', { type: 'mine' });
    await expect.poll(() => heard, { timeout: 5_000 }).toEqual(['mine']);
  });

  it('names the namespace after the database', () => {
    expect(hubNamespace('postgres://u:p@host:5432/stn_prod?sslmode=require')).toBe('stn_prod');
    expect(hubNamespace(undefined)).toBe('local');
  });
});

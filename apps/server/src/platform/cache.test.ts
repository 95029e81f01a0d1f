// The shared cache (platform/cache.ts): a key is read once while it is young, forgotten at once in the
// process that changed it, and, through a real Redis (127.0.0.1:6379), in another process whose copy would
// otherwise live on. The Redis part skips, with a message, where no Redis is running.
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { hasTestRedis, TEST_REDIS_URL } from '../../test/redis.ts';
import { listenForCacheNews, sharedCache } from './cache.ts';
import type { Deps } from './deps.ts';
import { createHub, type Hub } from './realtime/hub.ts';

const log = pino({ level: 'silent' });
const hubs: Hub[] = [];
afterAll(async () => {
  await Promise.all(hubs.map((h) => h.close()));
});

/** What the cache uses of an app's dependencies: its hub and its log. */
async function appDeps(redisUrl?: string, namespace = 'cache-test'): Promise<Deps> {
  const hub = createHub({ log, namespace, ...(redisUrl ? { redisUrl } : {}) });
  hubs.push(hub);
  await hub.ready();
  const deps = { realtime: hub, log } as unknown as Deps;
  listenForCacheNews(deps);
  return deps;
}

/** A load that counts its reads and answers what `value` holds when it runs. */
function source<V>(value: { now: V }) {
  const src = {
    reads: 0,
    load: async () => {
      src.reads++;
      return value.now;
    },
  };
  return src;
}

describe('the shared cache in one process', () => {
  it('reads a key once while young, once for concurrent asks, again after a change or a failed read', async () => {
    const deps = await appDeps();
    const cache = sharedCache<string>(deps, 'one', 60_000);
    const value = { now: 'first' };
    const src = source(value);
    // Two handles on the cache of one name share its entries; another name is another cache.
    const again = sharedCache<string>(deps, 'one', 60_000);
    expect(await Promise.all([cache.get(1, src.load), again.get(1, src.load)])).toEqual(['first', 'first']);
    expect(src.reads).toBe(1);
    expect(await sharedCache<string>(deps, 'other', 60_000).get(1, src.load)).toBe('first');
    expect(src.reads).toBe(2);
    value.now = 'second';
    expect(await cache.get(1, src.load)).toBe('first');
    cache.forget(1);
    expect(await cache.get(1, src.load)).toBe('second');
    expect(src.reads).toBe(3);
    // Another key is its own.
    expect(await cache.get(2, src.load)).toBe('second');
    expect(src.reads).toBe(4);

    const failing = async (): Promise<string> => {
      throw new Error('database gone');
    };
    await expect(cache.get(3, failing)).rejects.toThrow('database gone');
    expect(await cache.get(3, src.load)).toBe('second');
  });

  it('reads again once an entry is older than its time to live', async () => {
    const deps = await appDeps();
    const cache = sharedCache<number>(deps, 'short', 1);
    const value = { now: 1 };
    const src = source(value);
    expect(await cache.get('k', src.load)).toBe(1);
    const at = Date.now();
    while (Date.now() - at < 5) await new Promise((resolve) => setImmediate(resolve));
    value.now = 2;
    expect(await cache.get('k', src.load)).toBe(2);
  });
});

const hasRedis = await hasTestRedis('the shared cache across processes');

describe.skipIf(!hasRedis)('the shared cache across two processes through Redis', () => {
  it("a change in one process is forgotten in the other's copy at once, not after its time to live", async () => {
    const namespace = `cache-test-${Math.random().toString(36).slice(2, 8)}`;
    const [one, two] = await Promise.all([
      appDeps(TEST_REDIS_URL, namespace),
      appDeps(TEST_REDIS_URL, namespace),
    ]);
    // An hour: only the other process's news can make the second process read again within the test.
    const inOne = sharedCache<string>(one, 'hooks', 3_600_000);
    const inTwo = sharedCache<string>(two, 'hooks', 3_600_000);
    const value = { now: 'none' };
    const src = source(value);
    expect(await inTwo.get(7, src.load)).toBe('none');
    expect(await inOne.get(7, src.load)).toBe('none');
    value.now = 'new_text';
    inOne.forget(7);
    expect(await inOne.get(7, src.load)).toBe('new_text');
    await expect.poll(() => inTwo.get(7, src.load), { timeout: 10_000 }).toBe('new_text');
    // Another key of process two keeps its copy.
    expect(await inTwo.get(8, src.load)).toBe('new_text');
    value.now = 'later';
    expect(await inTwo.get(8, src.load)).toBe('new_text');
  });
});

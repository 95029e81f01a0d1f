// The Redis of the machine (127.0.0.1:6379), for the tests that need a second real server (fan-out across
// processes). Where none is running those tests skip, and say so.
import { Redis } from 'ioredis';

export const TEST_REDIS_URL = 'redis://127.0.0.1:6379';

/** Whether a Redis answers at `url` (the tests', or the multi-process bench's). */
export async function redisReachable(url = TEST_REDIS_URL): Promise<boolean> {
  const r = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  r.on('error', () => undefined);
  try {
    await r.connect();
    await r.ping();
    return true;
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

const ci = !!process.env.CI && !['0', 'false'].includes(process.env.CI.toLowerCase());

/**
 * Whether the test Redis answers; when not, prints that `what` is skipped and why. In CI (CI=true, whose
 * script starts a Redis) a missing one is a broken CI, not a skip: it throws.
 */
export async function hasTestRedis(what: string): Promise<boolean> {
  const ok = await redisReachable();
  if (!ok && ci) throw new Error(`${what} needs Redis at ${TEST_REDIS_URL}, and CI=true: start one`);
  if (!ok) console.warn(`skipped: ${what} needs Redis at ${TEST_REDIS_URL}`);
  return ok;
}

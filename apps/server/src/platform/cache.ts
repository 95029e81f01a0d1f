// What busy paths read of rows that seldom change, kept a few seconds per process (issue 27, ADR 119): a
// callback or a batch of texts asks, for instance, which events its business has Zapier hooks for. An
// entry lives `ttlMs`; a change forgets its key at once in this process and, through the realtime hub
// (Redis pub/sub when the deployment runs several processes), in every other one. The TTL bounds what a
// lost message costs. Concurrent reads of a key wait for one load.
import type { Deps } from './deps.ts';

export type SharedCache<V> = {
  /** The value of `key`: this process's copy while younger than the TTL, else `load`'s (then kept). */
  get(key: string | number, load: () => Promise<V>): Promise<V>;
  /** Forgets `key` here at once, and in the deployment's other processes as soon as the hub tells them. */
  forget(key: string | number): void;
};

/** Past this many keys a cache starts over (a bound on memory, not an eviction policy). */
const MAX_KEYS = 10_000;
const caches = new WeakMap<Deps, Map<string, SharedCache<unknown>>>();

/** The hub's channel of a cache's news: never a socket's (channelsOf names none like it). */
export const cacheChannel = (name: string) => `cache:${name}`;

/**
 * The process's cache `name` (one per name and app): made at the module's registration, so that its hub
 * subscription is there before the first change can be announced.
 */
export function sharedCache<V>(deps: Deps, name: string, ttlMs: number): SharedCache<V> {
  let byName = caches.get(deps);
  if (!byName) {
    byName = new Map();
    caches.set(deps, byName);
  }
  const known = byName.get(name);
  if (known) return known as SharedCache<V>;
  const entries = new Map<string, { at: number; value: Promise<V> }>();
  const channel = cacheChannel(name);
  deps.realtime.subscribe([channel], (message) => {
    if (message.type === 'forget') entries.delete(String(message.data));
  });
  const cache: SharedCache<V> = {
    get(key, load) {
      const k = String(key);
      const hit = entries.get(k);
      if (hit && Date.now() - hit.at < ttlMs) return hit.value;
      const value = load();
      if (entries.size >= MAX_KEYS) entries.clear();
      entries.set(k, { at: Date.now(), value });
      // A failed read is not kept: the next asks again.
      value.catch(() => {
        if (entries.get(k)?.value === value) entries.delete(k);
      });
      return value;
    },
    forget(key) {
      const k = String(key);
      entries.delete(k);
      deps.realtime
        .publish(channel, { type: 'forget', data: k })
        .catch((err: unknown) => deps.log.warn({ err, cache: name }, 'cache change not announced'));
    },
  };
  byName.set(name, cache as SharedCache<unknown>);
  return cache;
}

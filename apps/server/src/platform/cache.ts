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
type Entry<V> = { at: number; value: Promise<V> };
/** Each app's caches by name, each its entries by key. */
const entriesOf = new WeakMap<Deps, Map<string, Map<string, Entry<unknown>>>>();

/** The hub's channel of the caches' news: never a socket's (channelsOf names none like it). */
export const CACHE_CHANNEL = 'cache';

function cachesOf(deps: Deps): Map<string, Map<string, Entry<unknown>>> {
  let byName = entriesOf.get(deps);
  if (!byName) {
    byName = new Map();
    entriesOf.set(deps, byName);
  }
  return byName;
}

/**
 * Listens, once for the whole app and from its start, for the news that a cached key changed in another
 * process (or this one): the key is forgotten in the cache of that name, if this process has it.
 */
export function listenForCacheNews(deps: Deps): void {
  deps.realtime.subscribe([CACHE_CHANNEL], (message) => {
    const news = message.data as { cache?: unknown; key?: unknown } | undefined;
    if (message.type !== 'forget' || typeof news?.cache !== 'string') return;
    cachesOf(deps).get(news.cache)?.delete(String(news.key));
  });
}

/** The process's cache `name` (one per name and app; listenForCacheNews brings other processes' news). */
export function sharedCache<V>(deps: Deps, name: string, ttlMs: number): SharedCache<V> {
  const byName = cachesOf(deps);
  let entries = byName.get(name) as Map<string, Entry<V>> | undefined;
  if (!entries) {
    entries = new Map();
    byName.set(name, entries as Map<string, Entry<unknown>>);
  }
  const kept = entries;
  return {
    get(key, load) {
      const k = String(key);
      const hit = kept.get(k);
      if (hit && Date.now() - hit.at < ttlMs) return hit.value;
      const value = load();
      if (kept.size >= MAX_KEYS) kept.clear();
      kept.set(k, { at: Date.now(), value });
      // A failed read is not kept: the next asks again.
      value.catch(() => {
        if (kept.get(k)?.value === value) kept.delete(k);
      });
      return value;
    },
    forget(key) {
      const k = String(key);
      kept.delete(k);
      deps.realtime
        .publish(CACHE_CHANNEL, { type: 'forget', data: { cache: name, key: k } })
        .catch((err: unknown) => deps.log.warn({ err, cache: name }, 'cache change not announced'));
    },
  };
}

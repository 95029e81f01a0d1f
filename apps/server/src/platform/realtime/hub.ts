// The realtime hub: publish(channel, message) reaches every socket subscribed to that channel. In one
// process it is a map of subscribers; with REDIS_URL every publish goes through Redis pub/sub, so a
// message published by any process (an API process, a worker) reaches the sockets of every process.
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Actor } from '../auth/actor.ts';

export type RealtimeMessage = { type: string; data?: unknown };
type Subscriber = (message: RealtimeMessage) => void;

export type Hub = {
  publish(channel: string, message: RealtimeMessage): Promise<void>;
  subscribe(channels: string[], fn: Subscriber): () => void;
  /** Subscriptions held in this process (one per channel a subscriber follows): what an operator watches. */
  subscriptions(): number;
  /** Resolves once the hub can receive (Redis subscription confirmed). */
  ready(): Promise<void>;
  close(): Promise<void>;
};

/** Channel names: a socket is only ever subscribed to the ones its actor is in (`channelsOf`). */
export const channel = {
  user: (id: number) => `user:${id}`,
  business: (id: number) => `business:${id}`,
  agency: (id: number) => `agency:${id}`,
  /** A call's progress, for the website widget's visitor who asked for it (never a user's socket). */
  call: (id: number) => `call:${id}`,
  /** A session's own channel: told when the session ends, so that its sockets close (never user data). */
  session: (tokenId: number) => `session:${tokenId}`,
  /** A contact's conversation with one install, for the widget's visitor (never a user's socket). */
  widgetConversation: (installId: number, contactId: number) => `widget:${installId}:${contactId}`,
};

/**
 * The channels a signed-in user's socket joins: their own, plus their business (business users) or
 * their agency (agency users). An agency's channel is not a business user's: agency-wide news is not
 * theirs to read.
 */
export function channelsOf(actor: Actor): string[] {
  const out = [channel.user(actor.userId)];
  if (actor.roleGroup === 'Business' && actor.businessId !== null)
    out.push(channel.business(actor.businessId));
  if (actor.roleGroup === 'Agency' && actor.agencyId !== null) out.push(channel.agency(actor.agencyId));
  return out;
}

/**
 * The Redis channels' prefix: `stn:rt:<namespace>:`. The namespace is the database's name (`hubNamespace`),
 * so that the processes of one deployment hear each other and those of another deployment on the same
 * Redis (a staging next to production, test files run side by side) do not: their users, businesses and
 * sessions have the same ids, and a `session_ended` or a `new_message` of one would reach the other's sockets.
 */
export function hubPrefix(namespace: string): string {
  return `stn:rt:${namespace}:`;
}

/** The hub's namespace of a deployment: its database's name (DATABASE_URL's path), else `local`. */
export function hubNamespace(databaseUrl: string | undefined): string {
  if (!databaseUrl) return 'local';
  try {
    const name = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\/+/, ''));
    return name || 'local';
  } catch {
    return 'local';
  }
}

export function createHub(opts: { redisUrl?: string; log: Logger; namespace?: string }): Hub {
  const PREFIX = hubPrefix(opts.namespace ?? 'local');
  const subs = new Map<string, Set<Subscriber>>();
  const dispatch = (name: string, message: RealtimeMessage) => {
    for (const fn of subs.get(name) ?? []) {
      try {
        fn(message);
      } catch (err) {
        opts.log.warn({ err, channel: name }, 'realtime subscriber failed');
      }
    }
  };
  const subscribe = (channels: string[], fn: Subscriber) => {
    for (const c of channels) {
      let set = subs.get(c);
      if (!set) {
        set = new Set();
        subs.set(c, set);
      }
      set.add(fn);
    }
    return () => {
      for (const c of channels) {
        const set = subs.get(c);
        set?.delete(fn);
        if (set?.size === 0) subs.delete(c);
      }
    };
  };

  const subscriptions = () => {
    let n = 0;
    for (const set of subs.values()) n += set.size;
    return n;
  };

  if (!opts.redisUrl) {
    return {
      async publish(name, message) {
        dispatch(name, message);
      },
      subscribe,
      subscriptions,
      ready: async () => {},
      close: async () => {},
    };
  }

  // One connection publishes, one listens (a subscribed Redis connection can do nothing else).
  const pub = new Redis(opts.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const sub = new Redis(opts.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  for (const c of [pub, sub]) c.on('error', (err) => opts.log.warn({ err }, 'realtime redis error'));
  sub.on('pmessage', (_pattern, name, raw) => {
    try {
      dispatch(name.slice(PREFIX.length), JSON.parse(raw) as RealtimeMessage);
    } catch (err) {
      opts.log.warn({ err }, 'realtime message unreadable');
    }
  });
  // The prefix as a literal in the pattern (a database's name may hold a glob's characters).
  const subscribed = sub.psubscribe(`${PREFIX.replace(/[*?[\]\\]/g, '\\$&')}*`);
  return {
    async publish(name, message) {
      await pub.publish(PREFIX + name, JSON.stringify(message));
    },
    subscribe,
    subscriptions,
    ready: async () => {
      await subscribed;
    },
    async close() {
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}

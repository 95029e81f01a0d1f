// The push module (ADR 037): the VAPID keys (generated and stored on the first start, the private key
// sealed), the browsers' subscriptions registered at api/v1/pusher/beams-auth, and the pushes sent to a
// business's subscribed users when a text comes in.
import type { TPushSubscription } from '@stn/contracts/push';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { sharedCache } from '../../platform/cache.ts';
import { anyOf } from '../../platform/db/any-of.ts';
import { prepared, slot } from '../../platform/db/prepared.ts';
import type { Deps } from '../../platform/deps.ts';
import { forbidden } from '../../platform/http/errors.ts';
import { acrossTenants, businessOf, type Ctx } from '../../platform/tenancy/context.ts';
import { pushSubscriptions, pushVapidKeys } from './tables.ts';
import { generateVapidKeys, sendPush, type VapidKeys } from './webpush.ts';

const cache = new WeakMap<Deps, Promise<VapidKeys>>();

async function loadOrCreate(deps: Deps): Promise<VapidKeys> {
  const first = async () =>
    (await deps.db.select().from(pushVapidKeys).orderBy(asc(pushVapidKeys.id)).limit(1))[0];
  let row = await first();
  if (!row) {
    const keys = generateVapidKeys();
    await deps.db
      .insert(pushVapidKeys)
      .values({ public_key: keys.publicKey, private_key: deps.secrets.seal(keys.privateKey) });
    // Two processes starting together may both insert: the oldest row wins for everyone.
    row = await first();
  }
  if (!row) throw new Error('push: no VAPID keys');
  return { publicKey: row.public_key, privateKey: deps.secrets.open(row.private_key) };
}

/** The platform's VAPID keys, created on the first call (the app's start-up step calls it). */
export function vapidKeys(deps: Deps): Promise<VapidKeys> {
  let keys = cache.get(deps);
  if (!keys) {
    keys = loadOrCreate(deps);
    keys.catch(() => cache.delete(deps));
    cache.set(deps, keys);
  }
  return keys;
}

/**
 * The start-up step: makes the keys exist. A process that cannot open them (its SECRETS_KEY differs from the
 * one that sealed them) still starts, with notifications off and the reason in the log: push is not worth
 * refusing to work jobs or answer the API for.
 */
export async function ensureVapidKeys(deps: Deps): Promise<void> {
  try {
    await vapidKeys(deps);
  } catch (err) {
    deps.log.error(
      { err },
      'push: the VAPID keys cannot be opened (is SECRETS_KEY the same in every process?); browser notifications are off',
    );
  }
}

export async function vapidPublicKey(ctx: Ctx): Promise<string> {
  return (await vapidKeys(ctx.deps)).publicKey;
}

/** Registers (or moves to the caller) a browser's subscription; one row per endpoint. */
export async function registerSubscription(ctx: Ctx, input: { subscription: TPushSubscription }) {
  if (ctx.by.kind !== 'user') throw forbidden();
  const actor = ctx.by.actor;
  const { endpoint, keys } = input.subscription;
  const values = {
    user_id: actor.userId,
    agency_id: actor.agencyId,
    business_id: actor.businessId,
    endpoint,
    p256dh: keys.p256dh,
    auth: keys.auth,
  };
  const [row] = await ctx.db
    .insert(pushSubscriptions)
    .values(values)
    .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { ...values, updated_at: new Date() } })
    .returning({ id: pushSubscriptions.id, endpoint: pushSubscriptions.endpoint });
  if (!row) throw new Error('push: subscription not stored');
  if (actor.businessId !== null) subscribedCache(ctx.deps).forget(actor.businessId);
  return row;
}

/** The subject of our VAPID claims: who the push services may contact. */
function subjectOf(deps: Deps): string {
  return `mailto:${deps.config.mailFrom.replace(/^.*<([^>]+)>.*$/, '$1')}`;
}

export type PushPayload = { title: string; body: string; url: string; tag?: string };

const anySubscriptionQuery = prepared((db) =>
  db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.business_id, slot('business')))
    .limit(1),
);

/**
 * Whether each business has a browser registered, kept a few seconds (platform/cache.ts): every inbound
 * text and staff alert asks. A registration is announced at once (registerSubscription); one gone costs at
 * most a push that finds nobody to send to (pushToUsers reads the subscriptions themselves).
 */
const SUBSCRIBED_TTL_MS = 5_000;
const subscribedCache = (deps: Deps) => sharedCache<boolean>(deps, 'push-subscribed', SUBSCRIBED_TTL_MS);

/** Whether any browser of the context's business is registered (most inbound texts need go no further). */
export async function hasSubscriptions(ctx: Ctx): Promise<boolean> {
  const { businessId } = businessOf(ctx);
  return subscribedCache(ctx.deps).get(businessId, async () => {
    const [row] = await anySubscriptionQuery(ctx.db, { business: businessId });
    return row !== undefined;
  });
}

/**
 * Pushes to every subscribed browser of the given users of the context's business; a subscription the
 * push service says is gone is deleted. Returns how many were sent. `fetcher` is for tests (a local push
 * service).
 */
export async function pushToUsers(
  ctx: Ctx,
  input: { userIds?: number[]; payload: PushPayload; fetcher?: typeof fetch },
): Promise<number> {
  const { deps } = ctx;
  const { userIds, payload, fetcher = fetch } = input;
  if (userIds?.length === 0) return 0;
  const targets = await ctx.db
    .select()
    .from(pushSubscriptions)
    .where(
      and(
        eq(pushSubscriptions.business_id, businessOf(ctx).businessId),
        userIds ? anyOf(pushSubscriptions.user_id, userIds) : undefined,
      ),
    );
  if (targets.length === 0) return 0;
  const keys = await vapidKeys(deps);
  const gone: number[] = [];
  let sent = 0;
  await Promise.all(
    targets.map(async (s) => {
      try {
        const res = await sendPush(
          { endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } },
          payload,
          keys,
          subjectOf(deps),
          fetcher,
        );
        if (res.gone) gone.push(s.id);
        else if (res.status < 300) sent += 1;
      } catch (err) {
        deps.log.warn({ err, endpoint: s.endpoint }, 'push failed');
      }
    }),
  );
  // A gone browser may be an Admin's or an agency user's, whose rows are not the business's to write.
  if (gone.length)
    await acrossTenants(ctx, 'browsers the push service says are gone')
      .db.delete(pushSubscriptions)
      .where(inArray(pushSubscriptions.id, gone));
  return sent;
}

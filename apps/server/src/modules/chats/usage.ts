// Incoming texts count against the business's monthly counter (spec 000 §4), but are never refused for
// it. Counting each one inside its own transaction made every text of a business wait for the previous
// one's commit on the business row (about 150 a second on the two-core machine). They are added up per
// process and written every FLUSH_MS instead, one update per business; at worst a crashed process
// forgets the last FLUSH_MS of incoming counts (the messages themselves are committed). Outgoing texts
// are counted in their own transaction, since the limit refuses them (ADR 033).
import type { Deps } from '../../platform/deps.ts';
import { businessOf, type Ctx, platformOnly, tenantContext } from '../../platform/tenancy/context.ts';
import { countMessages } from '../businesses/service.ts';

const FLUSH_MS = 50;

type Pending = {
  counts: Map<number, { agencyId: number; count: number }>;
  timer: NodeJS.Timeout | null;
  flushing: Promise<void>;
};
const pendingOf = new WeakMap<Deps, Pending>();

/** Adds `count` incoming segments to the context business's monthly counter (written within FLUSH_MS). */
export function countIncoming(ctx: Ctx, input: { count: number }): void {
  const { deps } = ctx;
  const { agencyId, businessId } = businessOf(ctx);
  let p = pendingOf.get(deps);
  if (!p) {
    p = { counts: new Map(), timer: null, flushing: Promise.resolve() };
    pendingOf.set(deps, p);
  }
  const cur = p.counts.get(businessId);
  if (cur) cur.count += input.count;
  else p.counts.set(businessId, { agencyId, count: input.count });
  if (!p.timer) {
    const state = p;
    state.timer = setTimeout(() => {
      state.timer = null;
      state.flushing = state.flushing.then(() => flush(deps, state));
    }, FLUSH_MS);
  }
}

async function flush(deps: Deps, p: Pending): Promise<void> {
  const batch = [...p.counts.entries()];
  p.counts.clear();
  for (const [businessId, { agencyId, count }] of batch) {
    const ctx = tenantContext(
      deps,
      { level: 'business', agencyId, businessId },
      { kind: 'system', source: 'carrier', name: 'incoming usage' },
    );
    try {
      await countMessages(ctx, { count, enforce: false });
    } catch (err) {
      deps.log.warn({ err, businessId, count }, 'incoming message usage not counted');
    }
  }
}

/** Writes what this process has pending now, for every business (tests, shutdown): a platform context. */
export async function flushIncomingUsage(ctx: Ctx): Promise<void> {
  platformOnly(ctx);
  const { deps } = ctx;
  const p = pendingOf.get(deps);
  if (!p) return;
  if (p.timer) clearTimeout(p.timer);
  p.timer = null;
  p.flushing = p.flushing.then(() => flush(deps, p));
  await p.flushing;
}

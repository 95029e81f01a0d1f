// Domain events: a registry of named zod schemas, published through the context and delivered only
// once the publishing transaction commits, to listeners that modules register from app.ts. A listener
// failing is logged and never reaches the request that published (ADR 015).
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Ctx } from '../tenancy/context.ts';

export type EventDef<S extends z.ZodType = z.ZodType> = { name: string; payload: S };

export function defineEvent<S extends z.ZodType>(name: string, payload: S): EventDef<S> {
  return { name, payload };
}

/** What a listener is told besides the payload: whose event it is. */
export type EventMeta = { tenant: Ctx['tenant']; by: Ctx['by'] };
export type Listener<S extends z.ZodType> = (payload: z.infer<S>, meta: EventMeta) => unknown;

export type EventBus = {
  on<S extends z.ZodType>(event: EventDef<S>, listener: Listener<S>): void;
  /** Delivers at once; `publish` is the way services use it. */
  deliver(name: string, payload: unknown, meta: EventMeta): Promise<void>;
};

export function createEventBus(log: Logger): EventBus {
  const listeners = new Map<string, Listener<z.ZodType>[]>();
  return {
    on(event, listener) {
      const list = listeners.get(event.name) ?? [];
      list.push(listener as Listener<z.ZodType>);
      listeners.set(event.name, list);
    },
    async deliver(name, payload, meta) {
      for (const listener of listeners.get(name) ?? []) {
        try {
          await listener(payload, meta);
        } catch (err) {
          log.error({ err, event: name }, 'event listener failed');
        }
      }
    },
  };
}

/**
 * Publishes `event` after the context's transaction commits (at once outside a transaction); a
 * rolled-back transaction announces nothing. The payload is checked now, so a bad event fails its caller.
 */
export function publish<S extends z.ZodType>(ctx: Ctx, event: EventDef<S>, payload: z.infer<S>): void {
  const data = event.payload.parse(payload);
  const meta: EventMeta = { tenant: ctx.tenant, by: ctx.by };
  ctx.afterCommit(() => ctx.deps.events.deliver(event.name, data, meta));
}

/**
 * Publishes `event` from a statement that needed no transaction (its data is committed already): delivered
 * now, and waited for, as `inTransaction` waits for what its commit announces. Inside a transaction it is
 * `publish`.
 */
export async function publishCommitted<S extends z.ZodType>(
  ctx: Ctx,
  event: EventDef<S>,
  payload: z.infer<S>,
): Promise<void> {
  if (ctx.inTx) return publish(ctx, event, payload);
  const data = event.payload.parse(payload);
  await ctx.deps.events.deliver(event.name, data, { tenant: ctx.tenant, by: ctx.by });
}

/**
 * Publishes many events of one kind after the commit, delivered concurrently (a batch of inbound texts):
 * listeners that batch their work then see them together instead of one after the other. `detached`:
 * the caller does not wait for the listeners (a webhook answered once its data is committed).
 */
export function publishMany<S extends z.ZodType>(
  ctx: Ctx,
  event: EventDef<S>,
  payloads: z.infer<S>[],
  opts: { detached?: boolean } = {},
): void {
  if (payloads.length === 0) return;
  const data = payloads.map((p) => event.payload.parse(p));
  const meta: EventMeta = { tenant: ctx.tenant, by: ctx.by };
  ctx.afterCommit(() => {
    const all = Promise.all(data.map((d) => ctx.deps.events.deliver(event.name, d, meta)));
    return opts.detached ? undefined : all;
  });
}

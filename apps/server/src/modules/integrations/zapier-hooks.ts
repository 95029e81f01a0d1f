// Zapier's triggers (ADR 089): listeners on the domain events of the business; an event with hooks
// enqueues one `zapier.event` job, which builds the payload once and enqueues a `zapier.deliver` job per
// hook. A delivery goes through the outbound URL guard and is retried with backoff; a 410 from the target
// unsubscribes the hook (Zapier's REST hook rule); a target the guard refuses is not retried.
import type { TZapierEvent } from '@stn/contracts/zapier';
import { z } from 'zod';
import { createBatcher } from '../../platform/batcher.ts';
import type { Config } from '../../platform/config.ts';
import type { Deps } from '../../platform/deps.ts';
import type { EventBus } from '../../platform/events/events.ts';
import { createOutbound, type Outbound, OutboundError } from '../../platform/outbound/guard.ts';
import { defineJob } from '../../platform/queue/queue.ts';
import { type Ctx, tenantContext } from '../../platform/tenancy/context.ts';
import { messageReceived } from '../chats/service.ts';
import { allTags, contactByPhone, contactCreated, contactTagged, getContact } from '../contacts/service.ts';
import { leadSubmitted } from '../leadforms/service.ts';
import { callCompleted, callMissed } from '../telephony/service.ts';
import { dropHook, hookEventsOf, hooksOf, hookTarget } from './zapier.ts';

/** The business's context for Zapier's jobs and listeners (a system actor). */
const zapierContext = (deps: Deps, p: { agencyId: number; businessId: number }): Ctx =>
  tenantContext(
    deps,
    { level: 'business', agencyId: p.agencyId, businessId: p.businessId },
    { kind: 'system', source: 'job', name: 'zapier' },
  );

const ZRef = z.object({
  contactId: z.number().nullable(),
  messageId: z.number().optional(),
  body: z.string().optional(),
  tagId: z.number().optional(),
  callId: z.number().optional(),
  phone: z.string().optional(),
  name: z.string().nullable().optional(),
  duration: z.number().nullable().optional(),
  installId: z.number().nullable().optional(),
  submissionId: z.number().optional(),
  leadFormId: z.number().optional(),
});
type Ref = z.infer<typeof ZRef>;
const keys = { agencyId: z.number(), businessId: z.number() };

type ContactOut = {
  id: number;
  phone: string;
  first_name: string;
  last_name: string;
  email: string | null;
  tags: string[];
};

async function contactOf(ctx: Ctx, id: number | null): Promise<ContactOut | null> {
  if (id === null) return null;
  try {
    const c = await getContact(ctx, { id });
    return {
      id: c.id,
      phone: c.phone,
      first_name: c.first_name,
      last_name: c.last_name,
      email: c.email,
      tags: c.tags.map((t) => t.name),
    };
  } catch {
    return null;
  }
}

/** What Zapier receives for an event: flat keys, an id first (Zapier's deduplication). */
export async function payloadOf(
  ctx: Ctx,
  event: TZapierEvent,
  ref: Ref,
  at: Date,
): Promise<Record<string, unknown>> {
  // A call names the visitor's phone: its contact, when the business has one.
  const contactId =
    ref.contactId ?? (ref.phone ? ((await contactByPhone(ctx, ref.phone))?.id ?? null) : null);
  const contact = await contactOf(ctx, contactId);
  const occurred_at = at.toISOString();
  switch (event) {
    case 'new_contact':
      return { ...contact, contact_id: ref.contactId, id: `contact-${ref.contactId}`, occurred_at };
    case 'contact_tagged': {
      const tag = (await allTags(ctx)).find((t) => t.id === ref.tagId);
      return { id: `tag-${ref.contactId}-${ref.tagId}`, tag: tag?.name ?? '', contact, occurred_at };
    }
    case 'new_text':
      return {
        id: `text-${ref.messageId}`,
        message_id: ref.messageId,
        body: ref.body ?? '',
        contact,
        occurred_at,
      };
    case 'call_completed':
    case 'call_missed':
      return {
        id: `call-${ref.callId}`,
        call_id: ref.callId,
        phone: ref.phone,
        name: ref.name ?? null,
        duration: ref.duration ?? null,
        install_id: ref.installId ?? null,
        contact,
        occurred_at,
      };
    case 'lead_submitted':
      return {
        id: `lead-${ref.submissionId}`,
        submission_id: ref.submissionId,
        lead_form_id: ref.leadFormId,
        install_id: ref.installId ?? null,
        contact,
        occurred_at,
      };
  }
}

/** Made-up examples for Zapier's editor when the business has nothing yet. */
export function sampleOf(event: TZapierEvent): Record<string, unknown> {
  const contact = {
    id: 1,
    phone: '+14155550100',
    first_name: 'Jane',
    last_name: 'Doe',
    email: 'jane@example.com',
    tags: ['vip'],
  };
  const at = '2026-01-01T12:00:00.000Z';
  switch (event) {
    case 'new_contact':
      return { ...contact, contact_id: 1, id: 'contact-1', occurred_at: at };
    case 'contact_tagged':
      return { id: 'tag-1-1', tag: 'vip', contact, occurred_at: at };
    case 'new_text':
      return {
        id: 'text-1',
        message_id: 1,
        body: 'Hi, do you have time on Friday?',
        contact,
        occurred_at: at,
      };
    case 'call_completed':
    case 'call_missed':
      return {
        id: 'call-1',
        call_id: 1,
        phone: contact.phone,
        name: 'Jane Doe',
        duration: event === 'call_completed' ? 95 : null,
        install_id: 1,
        contact,
        occurred_at: at,
      };
    case 'lead_submitted':
      return { id: 'lead-1', submission_id: 1, lead_form_id: 1, install_id: 1, contact, occurred_at: at };
  }
}

// One guard per configuration: the allowed origins (a test's receiver) are a setting, never a switch.
const guards = new WeakMap<Config, Outbound>();
function guardFor(config: Config): Outbound {
  let g = guards.get(config);
  if (!g) {
    g = createOutbound({ allowOrigins: config.zapier.hookAllowOrigins });
    guards.set(config, g);
  }
  return g;
}

/** Reasons of the guard that a repeat would meet again: not retried. */
const REFUSED = new Set(['url', 'scheme', 'host', 'address', 'redirect']);

export const zapierDeliverJob = defineJob({
  name: 'zapier.deliver',
  payload: z.object({ ...keys, hookId: z.number(), body: z.record(z.string(), z.unknown()) }),
  retry: { limit: 4, delaySeconds: 10, backoff: true },
  concurrency: 4,
  handler: async (deps, p) => {
    const ctx = zapierContext(deps, p);
    const target = await hookTarget(ctx, p.hookId);
    if (!target) return; // unsubscribed meanwhile
    let status: number;
    try {
      const res = await guardFor(deps.config).fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'StartTextingNow-Zapier/1' },
        body: JSON.stringify(p.body),
        maxBytes: 10_000,
        timeoutMs: 10_000,
        maxRedirects: 0,
      });
      status = res.status;
    } catch (err) {
      if (err instanceof OutboundError && REFUSED.has(err.reason)) {
        deps.log.warn({ err, hookId: p.hookId }, 'zapier hook target refused by the URL guard');
        return;
      }
      throw err;
    }
    if (status === 410) {
      await dropHook(ctx, p.hookId);
      return;
    }
    if (status >= 200 && status < 300) return;
    throw new Error(`zapier hook ${p.hookId}: the target answered ${status}`);
  },
});

export const zapierEventJob = defineJob({
  name: 'zapier.event',
  payload: z.object({ ...keys, event: z.string(), ref: ZRef, at: z.string() }),
  retry: { limit: 3, delaySeconds: 10, backoff: true },
  handler: async (deps, p) => {
    const ctx = zapierContext(deps, p);
    const event = p.event as TZapierEvent;
    const hooks = await hooksOf(ctx, event);
    if (hooks.length === 0) return;
    const body = await payloadOf(ctx, event, p.ref, new Date(p.at));
    for (const h of hooks) await deps.queue.send(deps.db, zapierDeliverJob, { ...p, hookId: h.id, body });
    deps.queue.committed(zapierDeliverJob.name);
  },
});

export function registerZapierListeners(events: EventBus, deps: Deps): void {
  type Fired = { who: { agencyId: number; businessId: number }; event: TZapierEvent; ref: Ref; at: string };
  // Only a business with hooks of the event costs a job. The events fired together (a batch of inbound
  // texts' events, delivered at once) ask once per business which events it has hooks for.
  const batch = createBatcher<Fired, void>({
    run: async (items) => {
      const byBusiness = new Map<number, Fired[]>();
      for (const f of items) {
        const list = byBusiness.get(f.who.businessId);
        if (list) list.push(f);
        else byBusiness.set(f.who.businessId, [f]);
      }
      await Promise.all(
        [...byBusiness.values()].map(async (list) => {
          const first = list[0] as Fired;
          try {
            const hooked = await hookEventsOf(zapierContext(deps, first.who));
            let sent = false;
            for (const { who, event, ref, at } of list) {
              if (!hooked.has(event)) continue;
              try {
                await deps.queue.send(deps.db, zapierEventJob, { ...who, event, ref, at });
                sent = true;
              } catch (err) {
                deps.log.error({ err, event }, 'zapier event not enqueued');
              }
            }
            if (sent) deps.queue.committed(zapierEventJob.name);
          } catch (err) {
            deps.log.error({ err, event: first.event }, 'zapier event not enqueued');
          }
        }),
      );
      return items.map(() => undefined);
    },
    maxBatch: 1000,
  });
  const fire = (who: { agencyId: number; businessId: number }, event: TZapierEvent, ref: Ref): void => {
    void batch.add({ who, event, ref, at: new Date().toISOString() });
  };
  const who = (p: { agencyId: number; businessId: number }) => ({
    agencyId: p.agencyId,
    businessId: p.businessId,
  });
  events.on(contactCreated, (p) => fire(who(p), 'new_contact', { contactId: p.contactId }));
  events.on(contactTagged, (p) => fire(who(p), 'contact_tagged', { contactId: p.contactId, tagId: p.tagId }));
  events.on(messageReceived, (p) =>
    fire(who(p), 'new_text', { contactId: p.contactId, messageId: p.messageId, body: p.body }),
  );
  const call = (p: {
    callId: number;
    visitorPhone: string;
    visitorName: string | null;
    installId: number;
    duration?: number | null;
  }): Ref => ({
    contactId: null,
    callId: p.callId,
    phone: p.visitorPhone,
    name: p.visitorName,
    duration: p.duration ?? null,
    installId: p.installId,
  });
  events.on(callCompleted, (p) => fire(who(p), 'call_completed', call(p)));
  events.on(callMissed, (p) => fire(who(p), 'call_missed', call(p)));
  events.on(leadSubmitted, (p) =>
    fire(who(p), 'lead_submitted', {
      contactId: p.contactId,
      submissionId: p.submissionId,
      leadFormId: p.leadFormId,
      installId: p.installId,
    }),
  );
}

/** Registered from app.ts in one line. */
export function plugZapier(p: {
  queue: { register(job: typeof zapierEventJob | typeof zapierDeliverJob): void };
  events: EventBus;
  deps: Deps;
}): void {
  p.queue.register(zapierEventJob);
  p.queue.register(zapierDeliverJob);
  registerZapierListeners(p.events, p.deps);
}

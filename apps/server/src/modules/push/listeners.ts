// A text came in: the users who may see its conversation (ADR 045: inbox.all, the install's SMS agents,
// the assigned agent) and registered a browser get a desktop notification (ADR 037). Events are worked in
// batches: a business without any registered browser costs one query per batch.
import { createBatcher } from '../../platform/batcher.ts';
import type { Deps } from '../../platform/deps.ts';
import type { EventBus } from '../../platform/events/events.ts';
import { businessSystemContext, tenantContext } from '../../platform/tenancy/context.ts';
import { conversationAudience, messageNotice, messageReceived } from '../chats/service.ts';
import { staffAlerted } from '../notifications/service.ts';
import { hasSubscriptions, pushToUsers } from './service.ts';

const PREVIEW = 120;

type Received = {
  messageId: number;
  agencyId: number;
  businessId: number;
  contactId: number;
  installId: number | null;
};

async function notify(deps: Deps, items: Received[], fetcher?: typeof fetch): Promise<void> {
  const first = items[0];
  if (!first) return;
  const ctx = businessSystemContext(deps, first, 'job', 'push notification');
  if (!(await hasSubscriptions(ctx))) return;
  const audience = await conversationAudience(ctx, { contactIds: items.map((i) => i.contactId) });
  for (const p of items) {
    const userIds = audience.get(p.contactId) ?? [];
    if (userIds.length === 0) continue;
    const notice = await messageNotice(ctx, p.messageId);
    const text = notice?.text ?? '';
    await pushToUsers(ctx, {
      userIds,
      payload: {
        title: notice?.name || 'New message',
        body: text.length > PREVIEW ? `${text.slice(0, PREVIEW)}…` : text,
        url: p.installId ? `/business/messaging/${p.installId}` : '/business/messaging',
        tag: `contact-${p.contactId}`,
      },
      ...(fetcher ? { fetcher } : {}),
    });
  }
}

export function registerPushListeners(events: EventBus, deps: Deps, fetcher?: typeof fetch): void {
  const batch = createBatcher<Received, void>({
    run: async (items) => {
      const byBusiness = new Map<number, Received[]>();
      for (const i of items) byBusiness.set(i.businessId, [...(byBusiness.get(i.businessId) ?? []), i]);
      await Promise.all(
        [...byBusiness.values()].map((list) =>
          notify(deps, list, fetcher).catch((err: unknown) => deps.log.warn({ err }, 'push not sent')),
        ),
      );
      return items.map(() => undefined);
    },
    maxBatch: 1000,
  });
  // An automation's Alert (ADR 071): the chosen users' registered browsers.
  events.on(staffAlerted, async (p) => {
    const ctx = tenantContext(
      deps,
      { level: 'business', agencyId: p.agencyId, businessId: p.businessId },
      { kind: 'system', source: 'job', name: 'push staff alert' },
    );
    try {
      await pushToUsers(ctx, {
        userIds: p.userIds,
        payload: { title: p.title, body: p.body, url: p.url, ...(p.tag ? { tag: p.tag } : {}) },
        ...(fetcher ? { fetcher } : {}),
      });
    } catch (err) {
      deps.log.warn({ err }, 'push staff alert not sent');
    }
  });
  events.on(messageReceived, (p) => {
    // Keyword texts (STOP, HELP...) are answered by the platform itself: nobody needs waking for them.
    if (p.keyword) return;
    return batch.add(p);
  });
}

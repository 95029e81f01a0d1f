// A text came in: the business's users who registered a browser get a desktop notification (ADR 037).
// Who may see it is kept as simple as the realtime channel of ADR 033: the business's subscribed users.
import type { Deps } from '../../platform/deps.ts';
import type { EventBus } from '../../platform/events/events.ts';
import { tenantContext } from '../../platform/tenancy/context.ts';
import { messageNotice, messageReceived } from '../chats/service.ts';
import { pushToUsers } from './service.ts';

const PREVIEW = 120;

export function registerPushListeners(events: EventBus, deps: Deps, fetcher?: typeof fetch): void {
  events.on(messageReceived, async (p) => {
    // Keyword texts (STOP, HELP...) are answered by the platform itself: nobody needs waking for them.
    if (p.keyword) return;
    await pushToUsers(
      deps,
      { businessId: p.businessId },
      {
        ...(await preview(deps, p)),
        url: p.installId ? `/business/messaging/${p.installId}` : '/business/messaging',
        tag: `contact-${p.contactId}`,
      },
      fetcher,
    );
  });
}

/** The notification's text: who wrote, and the start of what they wrote (read in the message's business). */
async function preview(
  deps: Deps,
  p: { agencyId: number; businessId: number; messageId: number },
): Promise<{ title: string; body: string }> {
  const ctx = tenantContext(
    deps,
    { level: 'business', agencyId: p.agencyId, businessId: p.businessId },
    { kind: 'system', source: 'job', name: 'push notification' },
  );
  const notice = await messageNotice(ctx, p.messageId);
  if (!notice) return { title: 'New message', body: '' };
  const text = notice.text;
  return { title: notice.name, body: text.length > PREVIEW ? `${text.slice(0, PREVIEW)}…` : text };
}

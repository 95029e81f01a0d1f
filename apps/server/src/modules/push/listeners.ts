// A text came in: the business's users who registered a browser get a desktop notification (ADR 037).
// Who may see it is kept as simple as the realtime channel of ADR 033: the business's subscribed users.
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Deps } from '../../platform/deps.ts';
import { defineEvent, type EventBus } from '../../platform/events/events.ts';
import { messages } from '../chats/tables.ts';
import { contacts } from '../contacts/tables.ts';
import { pushToUsers } from './service.ts';

const PREVIEW = 120;

/** The notification's text: who wrote, and the start of what they wrote (read only). */
async function previewOf(deps: Deps, messageId: number): Promise<{ title: string; body: string }> {
  const [row] = await deps.db
    .select({
      body: messages.body,
      media: messages.media,
      first: contacts.first_name,
      last: contacts.last_name,
      phone: contacts.phone,
    })
    .from(messages)
    .innerJoin(contacts, eq(contacts.id, messages.contact_id))
    .where(eq(messages.id, messageId));
  if (!row) return { title: 'New message', body: '' };
  const name = `${row.first} ${row.last}`.trim() || row.phone;
  const text = row.body || (row.media.length ? '[image]' : '');
  return { title: name, body: text.length > PREVIEW ? `${text.slice(0, PREVIEW)}…` : text };
}

/**
 * The chats module's `message.received` event, read by name: the fields this listener needs (the chats
 * module defines the full payload; an event is delivered by name, so the two stay in step through it).
 */
export const messageReceivedForPush = defineEvent(
  'message.received',
  z.looseObject({
    messageId: z.number(),
    businessId: z.number(),
    contactId: z.number(),
    installId: z.number().nullable(),
    keyword: z.string().nullable().optional(),
  }),
);

export function registerPushListeners(events: EventBus, deps: Deps, fetcher?: typeof fetch): void {
  events.on(messageReceivedForPush, async (p) => {
    // Keyword texts (STOP, HELP...) are answered by the platform itself: nobody needs waking for them.
    if (p.keyword) return;
    await pushToUsers(
      deps,
      { businessId: p.businessId },
      {
        ...(await previewOf(deps, p.messageId)),
        url: p.installId ? `/business/messaging/${p.installId}` : '/business/messaging',
        tag: `contact-${p.contactId}`,
      },
      fetcher,
    );
  });
}

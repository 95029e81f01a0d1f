// Realtime news of the inbox: every socket of the business (the business channel) hears `new_message`
// and `message_status`. Who may see a conversation is kept simple for now: the whole business's channel
// (inbox.all users and agents alike); the web app only shows what its user may open (ADR 033).
import type { TMessageStatusEvent, TNewMessageEvent } from '@stn/contracts/chats';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import type { EventBus } from '../../platform/events/events.ts';
import { channel } from '../../platform/realtime/hub.ts';
import { messageReceived, messageStatusChanged } from './events.ts';
import { toMessage } from './messages.ts';
import { messages } from './tables.ts';

export function registerChatsListeners(events: EventBus, deps: Deps): void {
  events.on(messageReceived, async (p) => {
    // One query: the message and how many came in from the contact.
    const [row] = await deps.db
      .select({
        ...getTableColumns(messages),
        inbound: sql<number>`(select count(*)::int from messages m where m.contact_id = ${p.contactId} and m.direction = 'in')`,
      })
      .from(messages)
      .where(eq(messages.id, p.messageId));
    if (!row) return;
    const { inbound, ...message } = row;
    const data: TNewMessageEvent = {
      contact: p.contactId,
      install: p.installId,
      number_of_messages: inbound,
      message: toMessage(message),
    };
    await deps.realtime.publish(channel.business(p.businessId), { type: 'new_message', data });
  });
  events.on(messageStatusChanged, async (p) => {
    const data: TMessageStatusEvent = {
      id: p.messageId,
      contact: p.contactId,
      status: p.status as TMessageStatusEvent['status'],
      error_code: p.errorCode,
    };
    await deps.realtime.publish(channel.business(p.businessId), { type: 'message_status', data });
  });
}

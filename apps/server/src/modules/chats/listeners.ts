// Realtime news of the inbox: every socket of the business (the business channel) hears `new_message`
// and `message_status`. Who may see a conversation is kept simple for now: the whole business's channel
// (inbox.all users and agents alike); the web app only shows what its user may open (ADR 033).
import type { TMessageStatusEvent, TNewMessageEvent } from '@stn/contracts/chats';
import { eq } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import type { EventBus } from '../../platform/events/events.ts';
import { channel } from '../../platform/realtime/hub.ts';
import { tenantContext } from '../../platform/tenancy/context.ts';
import { messageReceived, messageStatusChanged } from './events.ts';
import { inboundCount, toMessage } from './service.ts';
import { messages } from './tables.ts';

export function registerChatsListeners(events: EventBus, deps: Deps): void {
  events.on(messageReceived, async (p) => {
    const ctx = tenantContext(
      deps,
      { level: 'business', agencyId: p.agencyId, businessId: p.businessId },
      { kind: 'system', source: 'carrier', name: 'new message' },
    );
    const [row] = await deps.db.select().from(messages).where(eq(messages.id, p.messageId));
    const data: TNewMessageEvent = {
      contact: p.contactId,
      install: p.installId,
      number_of_messages: await inboundCount(ctx, { contactId: p.contactId }),
      ...(row ? { message: toMessage(row) } : {}),
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

// The visitor's side of the conversation, live: each text of the business to a contact (`messageSent`),
// each status change of it, and each text from the contact (typed into the widget or sent by SMS) is
// published on the widget conversation's realtime channel, which the visitor's event stream
// (./events.ts) follows. Published from the process that stored the message; with REDIS_URL it reaches
// the stream in any process.
import type { TWidgetEvent } from '@stn/contracts/widget';
import type { Deps } from '../../platform/deps.ts';
import type { EventBus } from '../../platform/events/events.ts';
import { channel } from '../../platform/realtime/hub.ts';
import { tenantContext } from '../../platform/tenancy/context.ts';
import {
  messageReceived,
  messageSent,
  messageStatusChanged,
  messageUpdated,
  widgetMessageById,
} from '../chats/service.ts';

export function registerWidgetListeners(events: EventBus, deps: Deps): void {
  const forward = async (p: { messageId: number; agencyId: number; businessId: number }) => {
    const ctx = tenantContext(
      deps,
      { level: 'business', agencyId: p.agencyId, businessId: p.businessId },
      { kind: 'system', source: 'job', name: 'widget stream' },
    );
    const found = await widgetMessageById(ctx, { id: p.messageId });
    if (!found?.installId) return;
    const data: TWidgetEvent = { type: 'message', message: found.message };
    await deps.realtime.publish(channel.widgetConversation(found.installId, found.contactId), {
      type: 'message',
      data,
    });
  };
  events.on(messageSent, forward);
  events.on(messageStatusChanged, forward);
  events.on(messageReceived, forward);
  events.on(messageUpdated, forward);
}

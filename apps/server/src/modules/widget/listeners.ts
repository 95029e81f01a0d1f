// The visitor's side of the conversation, live: each text of the business to a contact (`messageSent`),
// each status change of it, and each text from the contact (typed into the widget or sent by SMS) is
// published on the widget conversation's realtime channel, which the visitor's event stream
// (./events.ts) follows. Published from the process that stored the message; with REDIS_URL it reaches
// the stream in any process.
import type { TWidgetEvent } from '@stn/contracts/widget';
import { businessBatcher } from '../../platform/batcher.ts';
import type { Deps } from '../../platform/deps.ts';
import type { EventBus } from '../../platform/events/events.ts';
import { channel } from '../../platform/realtime/hub.ts';
import { businessSystemContext, tenantContext } from '../../platform/tenancy/context.ts';
import {
  messageReceived,
  messageSent,
  messageStatusChanged,
  messageUpdated,
  widgetMessageById,
  widgetMessagesByIds,
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
  // The texts announced together (a batch of inbound texts) are read in one query.
  const received = businessBatcher<{ messageId: number; agencyId: number; businessId: number }>({
    run: async (items) => {
      const first = items[0];
      if (!first) return;
      const ctx = businessSystemContext(deps, first, 'job', 'widget stream');
      const found = await widgetMessagesByIds(ctx, { ids: items.map((i) => i.messageId) });
      await Promise.all(
        found.map((f) => {
          if (!f.installId) return undefined;
          const data: TWidgetEvent = { type: 'message', message: f.message };
          return deps.realtime.publish(channel.widgetConversation(f.installId, f.contactId), {
            type: 'message',
            data,
          });
        }),
      );
    },
    onError: (err) => deps.log.error({ err, event: messageReceived.name }, 'event listener failed'),
  });
  events.on(messageReceived, (p) =>
    received.add({ messageId: p.messageId, agencyId: p.agencyId, businessId: p.businessId }),
  );
  events.on(messageUpdated, forward);
}

import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import { businessBatcher } from '../../platform/batcher.ts';
import { anyOf } from '../../platform/db/any-of.ts';
import type { Deps } from '../../platform/deps.ts';
import type { EventBus } from '../../platform/events/events.ts';
import {
  businessOf,
  businessSystemContext,
  type Ctx,
  inTransaction,
} from '../../platform/tenancy/context.ts';
import { markBroadcastReply, messageReceived } from '../chats/service.ts';
import { announceProgress } from './engine.ts';
import { broadcastRecipients } from './tables.ts';

// What the broadcasts module hears (ADR 062): a text in from a contact who was sent a broadcast in the last
// 7 days is a reply to it (the recipient's replied_at, and the inbox marks the message with the broadcast);
// a STOP in that window counts the recipient as opted out (the contact itself is opted out by chats).

export const REPLY_WINDOW_MS = 7 * 86_400_000;

/** The latest broadcast recipient row of this contact sent within the window, if any. */
async function latestRecipient(ctx: Ctx, contactId: number, at: Date) {
  const [row] = await ctx.db
    .select({ id: broadcastRecipients.id, broadcastId: broadcastRecipients.broadcast_id })
    .from(broadcastRecipients)
    .where(
      and(
        eq(broadcastRecipients.contact_id, contactId),
        eq(broadcastRecipients.business_id, businessOf(ctx).businessId),
        inArray(broadcastRecipients.state, ['sent', 'delivered', 'failed']),
        gte(broadcastRecipients.sent_at, new Date(at.getTime() - REPLY_WINDOW_MS)),
      ),
    )
    .orderBy(desc(broadcastRecipients.sent_at), desc(broadcastRecipients.id))
    .limit(1);
  return row;
}

/** A text in: a reply to the contact's latest broadcast of the week, or its opt-out (STOP). */
export async function recordReply(
  ctx: Ctx,
  input: { messageId: number; contactId: number; keyword: 'stop' | 'start' | 'help' | null },
): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const recipient = await latestRecipient(tx, input.contactId, new Date());
    if (!recipient) return;
    await tx.db
      .update(broadcastRecipients)
      .set(
        input.keyword === 'stop'
          ? { opted_out_at: sql`coalesce(${broadcastRecipients.opted_out_at}, now())` }
          : { replied_at: sql`coalesce(${broadcastRecipients.replied_at}, now())` },
      )
      .where(eq(broadcastRecipients.id, recipient.id));
    await markBroadcastReply(tx, { messageId: input.messageId, broadcastId: recipient.broadcastId });
    // The list and the report show the replied and opted-out counts live.
    tx.afterCommit(() => announceProgress(tx, { broadcastId: recipient.broadcastId }));
  });
}

type Received = {
  agencyId: number;
  businessId: number;
  messageId: number;
  contactId: number;
  keyword: 'stop' | 'start' | 'help' | null;
};

/** The contacts among these that were sent a broadcast within the window (one read for a batch of texts). */
async function recentRecipients(ctx: Ctx, contactIds: number[], at: Date): Promise<Set<number>> {
  const rows = await ctx.db
    .selectDistinct({ contactId: broadcastRecipients.contact_id })
    .from(broadcastRecipients)
    .where(
      and(
        anyOf(broadcastRecipients.contact_id, contactIds),
        eq(broadcastRecipients.business_id, businessOf(ctx).businessId),
        inArray(broadcastRecipients.state, ['sent', 'delivered', 'failed']),
        gte(broadcastRecipients.sent_at, new Date(at.getTime() - REPLY_WINDOW_MS)),
      ),
    );
  return new Set(rows.flatMap((r) => (r.contactId === null ? [] : [r.contactId])));
}

export function registerBroadcastsListeners(events: EventBus, deps: Deps): void {
  // The texts announced together (a batch of inbound texts) are looked up in one read; each reply is then
  // recorded as one text's is.
  const replies = businessBatcher<Received>({
    run: async (items) => {
      const first = items[0];
      if (!first) return;
      const ctx = businessSystemContext(deps, first, 'carrier', 'broadcast reply');
      const recent = await recentRecipients(ctx, [...new Set(items.map((i) => i.contactId))], new Date());
      for (const p of items)
        if (recent.has(p.contactId))
          await recordReply(ctx, { messageId: p.messageId, contactId: p.contactId, keyword: p.keyword });
    },
    onError: (err) => deps.log.error({ err, event: messageReceived.name }, 'event listener failed'),
  });
  events.on(messageReceived, (p) =>
    replies.add({
      agencyId: p.agencyId,
      businessId: p.businessId,
      messageId: p.messageId,
      contactId: p.contactId,
      keyword: p.keyword,
    }),
  );
}

// Realtime news of the inbox (ADR 045): `new_message`, `message_status` and `message_updated` (an MMS's
// media attached, ADR 049) go to the user channel of each
// user who may see the conversation (./audience.ts: inbox.all, the install's SMS agents, the assigned
// agent), `new_message` with that user's unread total. Events are worked in batches (every event of a
// commit, and whatever arrives while a batch is worked, make one): one statement for the messages, their
// conversations and who may see them, one for every recipient's total.
import type { TMessageStatusEvent, TMessageUpdatedEvent, TNewMessageEvent } from '@stn/contracts/chats';
import { sql } from 'drizzle-orm';
import { createBatcher, gatherWhileBusy } from '../../platform/batcher.ts';
import { selectValues } from '../../platform/db/select-values.ts';
import { tableRow } from '../../platform/db/table-rows.ts';
import type { Deps } from '../../platform/deps.ts';
import type { EventBus } from '../../platform/events/events.ts';
import { channel } from '../../platform/realtime/hub.ts';
import {
  businessOf,
  type Ctx,
  platformSystemContext,
  tenantContext,
} from '../../platform/tenancy/context.ts';
import { callMissed, callReceived, callRequested, numberChanged } from '../telephony/service.ts';
import { audienceFrom, audienceValues, sees, unreadTotals } from './audience.ts';
import { awayReply } from './away.ts';
import { callJoinsConversation } from './calls.ts';
import { messageReceived, messageStatusChanged, messageUpdated } from './events.ts';
import { forgetNumbers, toMessage } from './messages.ts';
import { messages } from './tables.ts';

/**
 * While texts come together (the batch before held more than one), a batch of new_message waits this long
 * for more once the previous one is done: under load the totals query runs at most ~25 times a second
 * whatever the rate (issue 27: 20 ms before, for every batch). A lone text is announced at once.
 */
const RECEIVED_WAIT_MS = 40;

type OfBusiness = { agencyId: number; businessId: number };
type Received = OfBusiness & { messageId: number; contactId: number; installId: number | null };
type Status = OfBusiness & {
  messageId: number;
  contactId: number;
  status: string;
  errorCode: number | null;
};

const byBusiness = <T extends OfBusiness>(items: T[]) => {
  const out = new Map<number, { agencyId: number; list: T[] }>();
  for (const item of items) {
    const group = out.get(item.businessId);
    if (group) group.list.push(item);
    else out.set(item.businessId, { agencyId: item.agencyId, list: [item] });
  }
  return out;
};

/** The messages, their conversations and who may see the business's inbox: one statement. */
async function messagesAndAudience(ctx: Ctx, items: { messageId: number; contactId: number }[]) {
  const { businessId } = businessOf(ctx);
  const read = await selectValues(ctx.db, {
    rows: sql`(select coalesce(json_agg(m), '[]'::json) from messages m
      where m.business_id = ${businessId} and m.id = any(${sql.param(items.map((i) => i.messageId))}::int[]))`,
    ...audienceValues(
      ctx,
      items.map((i) => i.contactId),
    ),
  });
  const rows = (Array.isArray(read.rows) ? read.rows : []).map((r: Record<string, unknown>) =>
    tableRow(messages, r),
  );
  const { conversations, viewers } = audienceFrom(read);
  return [rows, conversations, viewers] as const;
}

async function announceReceived(ctx: Ctx, items: Received[]): Promise<void> {
  const [rows, conversations, viewers] = await messagesAndAudience(ctx, items);
  const rowOf = new Map(rows.map((r) => [r.id, r]));
  const sends: { userId: number; item: Received }[] = [];
  for (const item of items) {
    const c = conversations.get(item.contactId);
    if (!c || !rowOf.has(item.messageId)) continue;
    for (const v of viewers) if (sees(v, c)) sends.push({ userId: v.userId, item });
  }
  if (sends.length === 0) return;
  const recipients = new Set(sends.map((s) => s.userId));
  const totals = await unreadTotals(
    ctx,
    viewers.filter((v) => recipients.has(v.userId)),
  );
  await Promise.all(
    sends.map(({ userId, item }) => {
      const row = rowOf.get(item.messageId);
      if (!row) return undefined;
      const data: TNewMessageEvent = {
        contact: item.contactId,
        install: item.installId,
        number_of_messages: totals.get(userId) ?? 0,
        message: toMessage(row),
      };
      return ctx.deps.realtime.publish(channel.user(userId), { type: 'new_message', data });
    }),
  );
}

async function announceStatuses(ctx: Ctx, items: Status[]): Promise<void> {
  const { conversations, viewers } = audienceFrom(
    await selectValues(
      ctx.db,
      audienceValues(
        ctx,
        items.map((i) => i.contactId),
      ),
    ),
  );
  const sends: Promise<void>[] = [];
  for (const item of items) {
    const c = conversations.get(item.contactId);
    if (!c) continue;
    const data: TMessageStatusEvent = {
      id: item.messageId,
      contact: item.contactId,
      status: item.status as TMessageStatusEvent['status'],
      error_code: item.errorCode,
    };
    for (const v of viewers)
      if (sees(v, c))
        sends.push(ctx.deps.realtime.publish(channel.user(v.userId), { type: 'message_status', data }));
  }
  await Promise.all(sends);
}

/** `message_updated`: the message as it is now (an MMS's media attached), to whoever may see it. */
async function announceUpdated(ctx: Ctx, items: { messageId: number; contactId: number }[]): Promise<void> {
  const [rows, conversations, viewers] = await messagesAndAudience(ctx, items);
  const sends: Promise<void>[] = [];
  for (const row of rows) {
    const c = conversations.get(row.contact_id);
    if (!c) continue;
    const data: TMessageUpdatedEvent = { id: row.id, contact: row.contact_id, message: toMessage(row) };
    for (const v of viewers)
      if (sees(v, c))
        sends.push(ctx.deps.realtime.publish(channel.user(v.userId), { type: 'message_updated', data }));
  }
  await Promise.all(sends);
}

/**
 * Works a batch business by business, each in that business's context; one business's failure is logged
 * and spares the others.
 */
function batchOf<T extends OfBusiness>(
  deps: Deps,
  work: (ctx: Ctx, items: T[]) => Promise<void>,
  waitMs: number | ((lastBatchSize: number) => number) = 0,
) {
  return createBatcher<T, void>({
    run: async (items) => {
      await Promise.all(
        [...byBusiness(items)].map(([businessId, { agencyId, list }]) =>
          work(
            tenantContext(
              deps,
              { level: 'business', agencyId, businessId },
              { kind: 'system', source: 'job', name: 'inbox realtime' },
            ),
            list,
          ).catch((err: unknown) => deps.log.warn({ err, businessId }, 'realtime news not published')),
        ),
      );
      return items.map(() => undefined);
    },
    maxBatch: 1000,
    waitMs,
  });
}

export function registerChatsListeners(events: EventBus, deps: Deps): void {
  const received = batchOf<Received>(deps, announceReceived, gatherWhileBusy(RECEIVED_WAIT_MS));
  const statuses = batchOf<Status>(deps, announceStatuses);
  const updated = batchOf<OfBusiness & { messageId: number; contactId: number }>(deps, announceUpdated);
  events.on(messageReceived, (p) => received.add(p));
  // The away auto-reply (ADR 094) is not waited for: the other listeners of the text go on.
  events.on(messageReceived, (p) => {
    const ctx = tenantContext(
      deps,
      { level: 'business', agencyId: p.agencyId, businessId: p.businessId },
      { kind: 'system', source: 'carrier', name: 'away reply' },
    );
    void awayReply(ctx, p).catch((err: unknown) =>
      deps.log.warn({ err, businessId: p.businessId }, 'away reply not sent'),
    );
  });
  events.on(messageStatusChanged, (p) => statuses.add(p));
  events.on(messageUpdated, (p) => updated.add(p));
  // Who answers a number may have changed: the next text to it reads the database again.
  events.on(numberChanged, (p) =>
    forgetNumbers(platformSystemContext(deps, 'carrier', 'numbers changed'), {
      phoneNumbers: p.phoneNumbers,
    }),
  );
  // A callback, a scheduled call, an inbound call (answered or not) or a missed call is part of the
  // caller's conversation (ADR 052).
  const ofCall = (p: OfBusiness) =>
    tenantContext(
      deps,
      { level: 'business', agencyId: p.agencyId, businessId: p.businessId },
      { kind: 'system', source: 'carrier', name: 'call in conversation' },
    );
  events.on(callRequested, (p) => callJoinsConversation(ofCall(p), p));
  events.on(callReceived, (p) => callJoinsConversation(ofCall(p), { ...p, visitorName: null }));
  events.on(callMissed, (p) => callJoinsConversation(ofCall(p), p));
}

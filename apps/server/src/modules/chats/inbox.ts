// The inbox's reads (ADR 034): the conversations of an install with filters, search, paging and the
// caller's unread counts; one conversation (opening it marks it read); its files, its messages, and its
// history with messages and calls together. Contacts and calls are the contacts and telephony modules'
// rows: the list joins them as those modules' table expressions (`liveContactsTable`, `latestCallOf`),
// scoped by them to the context's business, so a page stays one query.
import type {
  TConversationItem,
  TInboxContact,
  TInboxConversation,
  TInboxMessage,
  TInboxQuery,
} from '@stn/contracts/chats';
import type { TListQuery } from '@stn/contracts/http';
import { count, desc, eq, type SQL, sql } from 'drizzle-orm';
import { actorCan } from '../../platform/auth/actor.ts';
import { notFound } from '../../platform/http/errors.ts';
import { likePattern, listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { businessOf, type Ctx, scope } from '../../platform/tenancy/context.ts';
import { liveContactsTable } from '../contacts/service.ts';
import { installForCalls } from '../installs/service.ts';
import { callsOfContact, latestCallOf } from '../telephony/service.ts';
import { announceUnreadTotal } from './audience.ts';
import { conversationReads, messages } from './tables.ts';

type MessageRow = typeof messages.$inferSelect;

const iso = (d: Date | string | null | undefined) =>
  d === null || d === undefined ? null : (d instanceof Date ? d : new Date(d)).toISOString();

/** The acting user's id, or 0 for a context without a user (no reads recorded). */
function me(ctx: Ctx): number {
  return ctx.by.kind === 'user' ? ctx.by.actor.userId : 0;
}

/** Whether the caller sees every conversation of the business (inbox.all) or only its own. */
function seesAll(ctx: Ctx): boolean {
  return ctx.by.kind !== 'user' || actorCan(ctx.by.actor, 'inbox.all');
}

/** The context business's live install, or a 404; and whether the caller is one of its SMS agents. */
export async function inboxInstall(ctx: Ctx, installId: number) {
  businessOf(ctx);
  const install = await installForCalls(ctx, installId);
  if (!install || install.status === 'deleted') throw notFound();
  const agent = ctx.by.kind === 'user' && install.settings.smsAgents.includes(ctx.by.actor.userId);
  return { install, agent };
}

export type ContactRow = {
  id: number;
  agency_id: number;
  business_id: number;
  install_id: number | null;
  phone: string;
  first_name: string;
  last_name: string;
  email: string | null;
  birthday: string | null;
  anniversary: string | null;
  fields: Record<string, string>;
  source: 'sms' | 'voice' | 'cms';
  agent_user_id: number | null;
  on_top: boolean;
  opted_out_at: Date | null;
  blocked_at: Date | null;
  last_message_at: Date | null;
  created_at: Date;
  unread: number;
  lm_body: string | null;
  lm_direction: 'in' | 'out' | null;
  lm_status: string | null;
  lm_media: unknown[] | null;
  lm_sent_at: Date | null;
  last_call_at: Date | null;
  lc_id: number | null;
  lc_kind: string | null;
  lc_outcome: string | null;
  lc_at: Date | null;
};

/**
 * The columns of a conversation row of the context business: the contact, the caller's unread count, the
 * last message and the last call.
 */
function selectConversation(ctx: Ctx, userId: number): SQL {
  return sql`select c.id, c.agency_id, c.business_id, c.install_id, c.phone, c.first_name, c.last_name,
      c.email, c.birthday::text as birthday, c.anniversary::text as anniversary, c.fields, c.source,
      c.agent_user_id, c.on_top, c.opted_out_at, c.blocked_at, c.last_message_at, c.created_at,
      greatest(c.in_count - ${seenInCount(userId)}, 0) as unread,
      lm.body as lm_body, lm.direction as lm_direction, lm.status as lm_status, lm.media as lm_media,
      lm.sent_at as lm_sent_at, c.last_call_at,
      lc.id as lc_id, lc.kind as lc_kind, lc.outcome as lc_outcome, lc.requested_at as lc_at
    from ${liveContactsTable(ctx)} c
    left join lateral (select m.body, m.direction, m.status, m.media, m.sent_at from messages m
      where m.contact_id = c.id and m.status not in ('scheduled', 'canceled')
      order by m.sent_at desc, m.id desc limit 1) lm on true
    left join lateral (select * from ${latestCallOf(ctx, sql`c.phone`)} l
      where c.last_call_at is not null) lc on true`;
}

/** How many messages in the conversation `c` had when the user last saw it (none if never: ADR 103). */
function seenInCount(userId: number): SQL {
  return sql`coalesce((select r.seen_in_count from conversation_reads r where r.contact_id = c.id
    and r.user_id = ${userId}), 0)`;
}

function presentConversation(r: ContactRow): TInboxConversation {
  const name = `${r.first_name} ${r.last_name}`.trim();
  return {
    id: r.id,
    install_id: r.install_id,
    phone: r.phone,
    first_name: r.first_name,
    last_name: r.last_name,
    name: name || r.phone,
    email: r.email,
    source: r.source,
    on_top: r.on_top,
    agent_user_id: r.agent_user_id,
    opted_out: r.opted_out_at !== null,
    blocked: r.blocked_at !== null,
    last_message_at: iso(r.last_message_at ?? r.lm_sent_at),
    last_message:
      r.lm_direction === null
        ? null
        : {
            body: r.lm_body ?? '',
            direction: r.lm_direction,
            status: r.lm_status ?? '',
            has_media: (r.lm_media ?? []).length > 0,
          },
    last_call:
      r.lc_id === null
        ? null
        : { id: r.lc_id, kind: r.lc_kind ?? '', outcome: r.lc_outcome ?? '', at: iso(r.lc_at) ?? '' },
    unread: Number(r.unread),
  };
}

export type InboxList = 'contacts' | 'inbox' | 'inbox-new';

/**
 * GET /v1/chats/installs/{installId}/contacts | inbox | inbox-new: `contacts` every contact of the
 * install, `inbox` those with messages or calls (with a keyword: every contact of the business the caller
 * may see), `inbox-new` those with messages the caller has not seen. On-top conversations first, then by
 * the last message or call, newest first.
 */
export async function listConversations(
  ctx: Ctx,
  input: TInboxQuery & { installId: number; list: InboxList },
) {
  const { agent } = await inboxInstall(ctx, input.installId);
  const userId = me(ctx);
  // A search of the inbox finds every contact of the business the caller may see, texted or not (an
  // imported contact, one on another install): the inbox is where a conversation starts (ADR 052).
  const everyContact = input.list === 'inbox' && Boolean(input.keyword);
  // The business and live contacts only: liveContactsTable's own filter.
  const conditions: SQL[] = [sql`true`];
  if (!everyContact || !seesAll(ctx)) conditions.push(sql`c.install_id = ${input.installId}`);
  if (!seesAll(ctx) && !agent) conditions.push(sql`c.agent_user_id = ${userId}`);
  if (input.type === 'voice') conditions.push(sql`(c.source = 'voice' or c.last_call_at is not null)`);
  else if (input.type !== 'all') conditions.push(sql`c.source = ${input.type}`);
  if (input.keyword) {
    const pattern = likePattern(input.keyword);
    const digits = input.keyword.replace(/\D/g, '');
    conditions.push(
      sql`((c.first_name || ' ' || c.last_name) ilike ${pattern} or c.email ilike ${pattern} or c.phone ilike ${pattern}${
        digits.length >= 3 ? sql` or c.phone like ${`%${digits}%`}` : sql``
      })`,
    );
  }
  // The inbox lists conversations: a contact with a text, a call or a lead form (not a bare contact, unless
  // searched).
  if (input.list !== 'contacts' && !everyContact)
    conditions.push(
      sql`(c.last_call_at is not null or c.last_lead_at is not null or exists (select 1 from messages em where em.contact_id = c.id
        and em.status not in ('scheduled', 'canceled')))`,
    );
  if (input.list === 'inbox-new') conditions.push(sql`c.in_count > ${seenInCount(userId)}`);
  const where = sql.join(conditions, sql` and `);
  const { limit, offset } = pageOf(input);
  const rows = await ctx.db.execute<ContactRow>(
    sql`${selectConversation(ctx, userId)} where ${where}
      order by c.on_top desc, greatest(coalesce(c.last_message_at, lm.sent_at), c.last_call_at, c.last_lead_at) desc nulls last,
        c.id desc
      limit ${limit} offset ${offset}`,
  );
  const total = await ctx.db.execute<{ n: number }>(
    sql`select count(*)::int as n from ${liveContactsTable(ctx)} c where ${where}`,
  );
  return listEnvelope(rows.rows.map(presentConversation), Number(total.rows[0]?.n ?? 0), input);
}

/**
 * A conversation the caller may see (the business's, not deleted; without inbox.all only one assigned
 * to the caller or on an install whose SMS agents include the caller), or a 404.
 */
export async function visibleContact(ctx: Ctx, contactId: number): Promise<ContactRow> {
  const userId = me(ctx);
  const res = await ctx.db.execute<ContactRow>(
    sql`${selectConversation(ctx, userId)} where c.id = ${contactId}`,
  );
  const row = res.rows[0];
  if (!row) throw notFound();
  if (seesAll(ctx) || row.agent_user_id === userId) return row;
  if (row.install_id !== null) {
    const install = await installForCalls(ctx, row.install_id);
    if (install?.settings.smsAgents.includes(userId)) return row;
  }
  throw notFound();
}

/**
 * Records that the user has seen the conversation now; when it had unread messages, the user's channel
 * is told its new unread total (the sidebar badge, ADR 045).
 */
export async function markRead(ctx: Ctx, contact: { id: number; unread: number }): Promise<void> {
  const userId = me(ctx);
  if (!userId) return;
  const contactId = contact.id;
  // The count of messages in the conversation has now: the ones in after it are unread for this user.
  const inCount = sql`coalesce((select c.in_count from ${liveContactsTable(ctx)} c where c.id = ${contactId}), 0)`;
  await ctx.db
    .insert(conversationReads)
    .values({ contact_id: contactId, user_id: userId, seen_at: new Date(), seen_in_count: inCount })
    .onConflictDoUpdate({
      target: [conversationReads.contact_id, conversationReads.user_id],
      set: { seen_at: new Date(), seen_in_count: inCount },
    });
  if (Number(contact.unread) > 0) {
    ctx.afterCommit(() =>
      announceUnreadTotal(ctx, { userId }).catch((err: unknown) =>
        ctx.deps.log.warn({ err }, 'unread total not announced'),
      ),
    );
  }
}

export function presentContact(r: ContactRow): TInboxContact {
  return {
    ...presentConversation(r),
    birthday: r.birthday,
    anniversary: r.anniversary,
    fields: r.fields ?? {},
    created_at: iso(r.created_at) ?? '',
  };
}

/** GET /v1/chats/contacts/{id}: the conversation, marked read for the caller (its unread count is 0). */
export async function openConversation(ctx: Ctx, input: { id: number }): Promise<TInboxContact> {
  const row = await visibleContact(ctx, input.id);
  await markRead(ctx, row);
  return presentContact({ ...row, unread: 0 });
}

export function presentMessage(m: MessageRow): TInboxMessage {
  return {
    id: m.id,
    contact_id: m.contact_id,
    install_id: m.install_id,
    direction: m.direction,
    body: m.body,
    media: m.media ?? [],
    media_pending: m.media_pending,
    media_unavailable: m.media_unavailable,
    status: m.status as TInboxMessage['status'],
    error_code: m.error_code,
    error_message: m.error_message,
    from_number: m.from_number,
    to_number: m.to_number,
    segments: m.segments,
    sent_at: m.sent_at.toISOString(),
    send_at: iso(m.send_at),
    user_id: m.user_id,
    created_at: m.created_at.toISOString(),
  };
}

/** GET /v1/chats/contacts/{id}/messages: the conversation's messages, newest first, paged. */
export async function contactMessages(ctx: Ctx, input: TListQuery & { id: number }) {
  const contact = await visibleContact(ctx, input.id);
  const where = scope(ctx, messages, eq(messages.contact_id, contact.id));
  const { limit, offset } = pageOf(input);
  const rows = await ctx.db
    .select()
    .from(messages)
    .where(where)
    .orderBy(desc(messages.sent_at), desc(messages.id))
    .limit(limit)
    .offset(offset);
  const [total] = await ctx.db.select({ n: count() }).from(messages).where(where);
  return listEnvelope(rows.map(presentMessage), total?.n ?? 0, input);
}

/** GET /v1/chats/contacts/{id}/conversation/{messageId}: one message of the conversation. */
export async function contactMessage(ctx: Ctx, input: { id: number; messageId: number }) {
  const contact = await visibleContact(ctx, input.id);
  const [row] = await ctx.db
    .select()
    .from(messages)
    .where(scope(ctx, messages, eq(messages.contact_id, contact.id), eq(messages.id, input.messageId)));
  if (!row) throw notFound();
  return presentMessage(row);
}

/** The message row of a conversation the caller may see, for the actions (resend, cancel...), or a 404. */
export async function messageOfContact(ctx: Ctx, contactId: number, messageId: number): Promise<MessageRow> {
  const [row] = await ctx.db
    .select()
    .from(messages)
    .where(scope(ctx, messages, eq(messages.contact_id, contactId), eq(messages.id, messageId)));
  if (!row) throw notFound();
  return row;
}

/** GET /v1/chats/contacts/{id}/files: the media of the conversation's messages, newest first. */
export async function contactFiles(ctx: Ctx, input: { id: number }) {
  const contact = await visibleContact(ctx, input.id);
  const rows = await ctx.db
    .select({ id: messages.id, media: messages.media, sent_at: messages.sent_at })
    .from(messages)
    .where(
      scope(
        ctx,
        messages,
        eq(messages.contact_id, contact.id),
        sql`jsonb_array_length(${messages.media}) > 0`,
      ),
    )
    .orderBy(desc(messages.sent_at), desc(messages.id))
    .limit(500);
  return rows.flatMap((r) =>
    (r.media ?? []).map((m) => ({ ...m, message_id: r.id, sent_at: r.sent_at.toISOString() })),
  );
}

/**
 * GET /v1/chats/contacts/{id}/conversations: the history, messages (scheduled ones included, by their
 * time) and calls with the contact's phone together, oldest first; the last 500 of each.
 */
export async function contactHistory(ctx: Ctx, input: { id: number }): Promise<TConversationItem[]> {
  const contact = await visibleContact(ctx, input.id);
  const recent = await ctx.db
    .select()
    .from(messages)
    .where(scope(ctx, messages, eq(messages.contact_id, contact.id)))
    .orderBy(desc(messages.sent_at), desc(messages.id))
    .limit(500);
  const calls = (await callsOfContact(ctx, contact.phone, 5000)).slice(-500);
  const items: TConversationItem[] = [
    ...recent.map((m) => ({
      kind: 'message' as const,
      at: (m.status === 'scheduled' && m.send_at ? m.send_at : m.sent_at).toISOString(),
      message: presentMessage(m),
    })),
    ...calls.map((c) => ({
      kind: 'call' as const,
      at: c.requested_at.toISOString(),
      call: { ...c, requested_at: c.requested_at.toISOString() },
    })),
  ];
  return items.sort(
    (a, b) =>
      a.at.localeCompare(b.at) ||
      (a.kind === b.kind ? 0 : a.kind === 'call' ? -1 : 1) ||
      (a.kind === 'message' && b.kind === 'message' ? a.message.id - b.message.id : 0),
  );
}

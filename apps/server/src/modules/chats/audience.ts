// Who may see a conversation, and each such user's unread total (ADR 045). The rule is the inbox API's
// (ADR 034, ./inbox.ts): an enabled business user with inbox.use sees a conversation when it has
// inbox.all, is one of the SMS agents of the conversation's install, or is the agent assigned to it.
// A user's unread total is the inbox's unread count (messages in since the user last saw the
// conversation, by count: ADR 103) summed over every conversation that user may see: the sidebar badge,
// `new_message.number_of_messages` and the profile's `number_of_messages`.
import { can } from '@stn/contracts/capabilities';
import type { TRole, TUserType } from '@stn/contracts/roles';
import { sql } from 'drizzle-orm';
import { selectValues } from '../../platform/db/select-values.ts';
import { channel } from '../../platform/realtime/hub.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';
import {
  contactInTotalsTable,
  contactOwnersFrom,
  contactOwnersSql,
  liveContactsTable,
} from '../contacts/service.ts';
import { smsAgentsFrom, smsAgentsSql } from '../installs/service.ts';
import { businessSubjectsFrom, businessSubjectsSql } from '../users/service.ts';

/** A user who may open the inbox, with the conversations it sees beyond the ones assigned to it. */
export type Viewer = { userId: number; all: boolean; installs: number[] };

/** A conversation as the rule needs it. */
export type Conversation = { id: number; installId: number | null; agentId: number | null };

/**
 * What `viewersFrom` needs, as subqueries for the caller's one statement (`selectValues`): the business's
 * users and the installs' SMS agents (issue 27: every text's news asks).
 */
export const viewerValues = (ctx: Ctx) => ({ people: businessSubjectsSql(ctx), agents: smsAgentsSql(ctx) });

/** The context business's users with inbox.use, each with inbox.all or the installs it is an SMS agent of. */
export function viewersFrom(read: { people?: unknown; agents?: unknown }): Viewer[] {
  const people = businessSubjectsFrom(read.people);
  const agents = smsAgentsFrom(read.agents);
  const out: Viewer[] = [];
  for (const p of people) {
    const subject = { role: p.role as TRole, user_type: p.user_type as TUserType | null, pages: p.pages };
    if (!can(subject, 'inbox.use')) continue;
    const installs = [...agents].filter(([, ids]) => ids.includes(p.id)).map(([id]) => id);
    out.push({ userId: p.id, all: can(subject, 'inbox.all'), installs });
  }
  return out;
}

/** `viewersFrom`, read. */
export async function viewersOf(ctx: Ctx): Promise<Viewer[]> {
  return viewersFrom(await selectValues(ctx.db, viewerValues(ctx)));
}

/** Whether the viewer may see the conversation (the rule of ./inbox.ts `visibleContact`). */
export function sees(v: Viewer, c: Conversation): boolean {
  return v.all || c.agentId === v.userId || (c.installId !== null && v.installs.includes(c.installId));
}

/**
 * The unread totals of these viewers of one business, in one query: for each, the messages in since its
 * last look (`contacts.in_count` less the count its look saw, `conversation_reads.seen_in_count`; never
 * looked: all) over the live conversations it sees (ADR 103), summed by groups (ADR 104).
 */
export async function unreadTotals(ctx: Ctx, viewers: Viewer[]): Promise<Map<number, number>> {
  if (viewers.length === 0) return new Map();
  const list = JSON.stringify(
    viewers.map((v) => ({ user_id: v.userId, sees_all: v.all, installs: v.installs })),
  );
  // The messages in of the groups each viewer sees (ADR 104), less what it has seen of them: no contact is read
  // but those the viewer has opened, so the cost no longer grows with the business's conversations. The looks
  // lead, each finding its contact by id (a plan led by the contacts, chosen on stale statistics while a
  // business grows fast, read them all).
  const res = await ctx.db.execute<{ user_id: number; total: number }>(
    sql`select v.user_id,
        ((select coalesce(sum(t.in_sum), 0) from ${contactInTotalsTable(ctx)} t
           where v.sees_all or t.agent_user_id = v.user_id or t.install_id = any(v.installs))
         - (select coalesce(sum((select least(r.seen_in_count, c.in_count) from ${liveContactsTable(ctx)} c
                  where c.id = r.contact_id
                    and (v.sees_all or c.agent_user_id = v.user_id or c.install_id = any(v.installs)))), 0)
              from conversation_reads r where r.user_id = v.user_id))::int as total
      from jsonb_to_recordset(${list}::jsonb) as v(user_id int, sees_all boolean, installs int[])`,
  );
  // One row a viewer.
  return new Map(res.rows.map((r) => [Number(r.user_id), Number(r.total)]));
}

/** One user's unread total (the profile), 0 for a user who may not open the inbox. */
export async function unreadTotalOf(ctx: Ctx, input: { userId: number }): Promise<number> {
  const viewer = (await viewersOf(ctx)).find((v) => v.userId === input.userId);
  if (!viewer) return 0;
  return (await unreadTotals(ctx, [viewer])).get(input.userId) ?? 0;
}

/**
 * The live conversations (contacts) of the context business by id, as the rule needs them, and who may see
 * the business's inbox: the subqueries of the caller's one statement (`audienceFrom` reads its answer).
 */
export const audienceValues = (ctx: Ctx, contactIds: number[]) => ({
  ...viewerValues(ctx),
  conversations: contactOwnersSql(ctx, contactIds),
});

/** What a statement of `audienceValues` answered: the conversations by id, and the viewers. */
export function audienceFrom(read: { people?: unknown; agents?: unknown; conversations?: unknown }) {
  const conversations = new Map<number, Conversation>(
    contactOwnersFrom(read.conversations).map((r) => [
      Number(r.id),
      { id: Number(r.id), installId: r.install_id, agentId: r.agent_user_id },
    ]),
  );
  return { conversations, viewers: viewersFrom(read) };
}

/** The users who may see each of these conversations of the context business, by conversation id. */
export async function audienceOf(ctx: Ctx, contactIds: number[]): Promise<Map<number, number[]>> {
  const { viewers, conversations } = audienceFrom(
    await selectValues(ctx.db, audienceValues(ctx, contactIds)),
  );
  const out = new Map<number, number[]>();
  for (const c of conversations.values())
    out.set(
      c.id,
      viewers.filter((v) => sees(v, c)).map((v) => v.userId),
    );
  return out;
}

/**
 * Tells the user its unread total now (`unread_messages { number_of_messages }` on its own channel): after
 * it has read a conversation, so that the badge goes down in every browser it has open.
 */
export async function announceUnreadTotal(ctx: Ctx, input: { userId: number }): Promise<void> {
  const total = await unreadTotalOf(ctx, input);
  await ctx.deps.realtime.publish(channel.user(input.userId), {
    type: 'unread_messages',
    data: { number_of_messages: total },
  });
}

/**
 * Tells each user who may see the contact's conversation of something that joined it (`conversation_call`,
 * `conversation_lead`), so an open inbox refreshes.
 */
export async function tellViewers(
  ctx: Ctx,
  contact: { id: number; install_id: number | null; agent_user_id: number | null },
  event: { type: string; data: Record<string, unknown> },
): Promise<void> {
  await tellViewersOf(ctx, await viewersOf(ctx), contact, event);
}

/** `tellViewers`, the business's viewers read already (with the caller's statement). */
export async function tellViewersOf(
  ctx: Ctx,
  viewers: Viewer[],
  contact: { id: number; install_id: number | null; agent_user_id: number | null },
  event: { type: string; data: Record<string, unknown> },
): Promise<void> {
  const conversation = { id: contact.id, installId: contact.install_id, agentId: contact.agent_user_id };
  await Promise.all(
    viewers
      .filter((v) => sees(v, conversation))
      .map((v) => ctx.deps.realtime.publish(channel.user(v.userId), event)),
  );
}

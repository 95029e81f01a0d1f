// Reads of the calls for the inbox (modules/chats): the calls with one phone number, to show them in the
// conversation with that contact beside its messages, and the latest call of a phone for the inbox list.
import { asc, eq, type SQL, sql } from 'drizzle-orm';
import { businessOf, type Ctx, scope } from '../../platform/tenancy/context.ts';
import { calls } from './tables.ts';

export type CallOfContact = {
  id: number;
  kind: string;
  outcome: string;
  install_id: number | null;
  agent_name: string | null;
  duration: number | null;
  recording_url: string | null;
  requested_at: Date;
};

/** The context business's calls with a phone (E.164), oldest first (at most `limit`). */
export async function callsOfContact(ctx: Ctx, phone: string, limit = 500): Promise<CallOfContact[]> {
  businessOf(ctx);
  const rows = await ctx.db
    .select()
    .from(calls)
    .where(scope(ctx, calls, eq(calls.visitor_phone, phone)))
    .orderBy(asc(calls.requested_at), asc(calls.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    outcome: r.outcome,
    install_id: r.install_id,
    agent_name: r.agent_name,
    duration: r.duration,
    recording_url: r.recording_sid ? `/api/v1/calls/${r.id}/recording` : null,
    requested_at: r.requested_at,
  }));
}

/**
 * The latest call of the context business with the phone `phone` (a column of the caller's row):
 * `left join lateral ${latestCallOf(ctx, sql`c.phone`)} lc on true` gives lc.id, lc.kind, lc.outcome and
 * lc.requested_at. A subquery for the inbox list's one query per page (modules/chats), on the index of
 * calls by business and phone; the table and the tenant filter stay this module's.
 */
export function latestCallOf(ctx: Ctx, phone: SQL): SQL {
  const { agencyId, businessId } = businessOf(ctx);
  return sql`(select cl.id, cl.kind, cl.outcome, cl.requested_at from calls cl
    where cl.agency_id = ${agencyId} and cl.business_id = ${businessId} and cl.visitor_phone = ${phone}
    order by cl.requested_at desc, cl.id desc limit 1)`;
}

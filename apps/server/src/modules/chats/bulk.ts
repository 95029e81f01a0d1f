// A broadcast's texts as conversation messages (the broadcasts module asks, ADR 061): written, marked sent
// or failed, and refreshed in batches, one statement each, instead of sendMessage's one text at a time.
// The checks (opted out, blocked, blacklisted, content, the monthly limit) are the broadcast's, made once
// for the whole snapshot; status callbacks reach these rows through the sms-status webhook (`?message=`).
import type { TMessageMedia } from '@stn/contracts/chats';
import { sql } from 'drizzle-orm';
import { businessOf, type Ctx } from '../../platform/tenancy/context.ts';
import { messages } from './tables.ts';

export type BroadcastText = {
  contactId: number;
  installId: number | null;
  body: string;
  media: TMessageMedia[];
  from: string;
  to: string;
  segments: number;
  broadcastId: number;
  at: Date;
};

const intArray = (ids: (number | null)[]) => sql`${sql.param(ids)}::int[]`;
const textArray = (values: (string | null)[]) => sql`${sql.param(values)}::text[]`;

/** Writes a broadcast's texts (status queued), in the given order; their ids, in that order. */
export async function addBroadcastTexts(ctx: Ctx, texts: BroadcastText[]): Promise<number[]> {
  if (texts.length === 0) return [];
  const { agencyId, businessId } = businessOf(ctx);
  const rows = await ctx.db
    .insert(messages)
    .values(
      texts.map((t) => ({
        agency_id: agencyId,
        business_id: businessId,
        contact_id: t.contactId,
        install_id: t.installId,
        direction: 'out' as const,
        body: t.body,
        media: t.media,
        status: 'queued',
        from_number: t.from,
        to_number: t.to,
        segments: t.segments,
        broadcast_id: t.broadcastId,
        sent_at: t.at,
      })),
    )
    .returning({ id: messages.id });
  return rows.map((r) => r.id);
}

/** The bodies of these texts of the business (a text sent again after a crash is sent as written). */
export async function broadcastTextBodies(ctx: Ctx, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const { businessId } = businessOf(ctx);
  const res = await ctx.db.execute<{ id: number; body: string }>(
    sql`select id, body from messages where business_id = ${businessId} and id = any(${intArray(ids)})`,
  );
  return new Map(res.rows.map((r) => [r.id, r.body]));
}

/** The carrier took these texts: their sids (the status callbacks move them on from queued). */
export async function broadcastTextsSent(ctx: Ctx, sent: { id: number; sid: string }[]): Promise<void> {
  if (sent.length === 0) return;
  const { businessId } = businessOf(ctx);
  await ctx.db.execute(sql`
    update messages m set carrier_sid = v.sid, updated_at = now()
      from unnest(${intArray(sent.map((s) => s.id))}, ${textArray(sent.map((s) => s.sid))}) as v(id, sid)
     where m.id = v.id and m.business_id = ${businessId} and m.carrier_sid is null`);
}

/**
 * These texts' statuses as the carrier now tells them (a refused send: failed with its error; a refresh:
 * the fetched status). Only forward: a final status stays.
 */
export async function broadcastTextStatuses(
  ctx: Ctx,
  items: { id: number; status: string; code: number | null; message: string | null }[],
): Promise<void> {
  if (items.length === 0) return;
  const { businessId } = businessOf(ctx);
  await ctx.db.execute(sql`
    update messages m set status = v.status, error_code = coalesce(v.code, m.error_code),
           error_message = coalesce(v.message, m.error_message), updated_at = now()
      from unnest(${intArray(items.map((s) => s.id))}, ${textArray(items.map((s) => s.status))},
                  ${intArray(items.map((s) => s.code))},
                  ${textArray(items.map((s) => s.message))}) as v(id, status, code, message)
     where m.id = v.id and m.business_id = ${businessId}
       and m.status not in ('delivered', 'undelivered', 'failed', 'canceled', 'refused')`);
}

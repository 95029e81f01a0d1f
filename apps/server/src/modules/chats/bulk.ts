// A broadcast's texts as conversation messages (the broadcasts module asks, ADR 061): written, marked sent
// or failed, and refreshed in batches, one statement each, instead of sendMessage's one text at a time.
// The checks (opted out, blocked, blacklisted, content, the monthly limit) are the broadcast's, made once
// for the whole snapshot; status callbacks reach these rows through the sms-status webhook (`?message=`).
import type { TMessageMedia } from '@stn/contracts/chats';
import { sql } from 'drizzle-orm';
import { businessOf, type Ctx } from '../../platform/tenancy/context.ts';

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

/**
 * Writes a broadcast's texts (status queued), one text a contact, in one statement (arrays, not a
 * parameter a value); their ids, in the given order.
 */
export async function addBroadcastTexts(ctx: Ctx, texts: BroadcastText[]): Promise<number[]> {
  if (texts.length === 0) return [];
  const { agencyId, businessId } = businessOf(ctx);
  const col = <T>(f: (t: BroadcastText) => T) => sql.param(texts.map(f));
  const res = await ctx.db.execute<{ id: number; contact_id: number }>(sql`
    insert into messages (agency_id, business_id, contact_id, install_id, direction, body, media, status,
                          from_number, to_number, segments, broadcast_id, sent_at)
    select ${agencyId}, ${businessId}, v.contact_id, v.install_id, 'out', v.body, v.media, 'queued',
           v.from_number, v.to_number, v.segments, v.broadcast_id, v.sent_at
      from unnest(${col((t) => t.contactId)}::int[], ${col((t) => t.installId)}::int[], ${col((t) => t.body)}::text[],
                  ${col((t) => JSON.stringify(t.media))}::jsonb[], ${col((t) => t.from)}::text[],
                  ${col((t) => t.to)}::text[], ${col((t) => t.segments)}::int[], ${col((t) => t.broadcastId)}::int[],
                  ${col((t) => t.at.toISOString())}::timestamptz[])
           as v(contact_id, install_id, body, media, from_number, to_number, segments, broadcast_id, sent_at)
    returning id, contact_id`);
  const ids = new Map(res.rows.map((r) => [r.contact_id, r.id]));
  return texts.map((t) => {
    const id = ids.get(t.contactId);
    if (id === undefined) throw new Error('chats: a broadcast text was not written');
    return id;
  });
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

/** The carrier's id (once it has one) and the segments of these texts of the business. */
export async function broadcastTextFacts(
  ctx: Ctx,
  ids: number[],
): Promise<Map<number, { sid: string | null; segments: number }>> {
  if (ids.length === 0) return new Map();
  const { businessId } = businessOf(ctx);
  const res = await ctx.db.execute<{ id: number; carrier_sid: string | null; segments: number }>(
    sql`select id, carrier_sid, segments from messages where business_id = ${businessId} and id = any(${intArray(ids)})`,
  );
  return new Map(res.rows.map((r) => [r.id, { sid: r.carrier_sid, segments: r.segments }]));
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

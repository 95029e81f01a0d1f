// Who a broadcast goes to (the broadcasts module asks, ADR 061): the business's live contacts with any of
// the tags (none given: no tag condition), without the excluded tags, limited to installs when given, plus
// the contacts picked by id; in one query, with what the sending needs to decide who is skipped.
import { sql } from 'drizzle-orm';
import { businessOf, type Ctx } from '../../platform/tenancy/context.ts';

export type AudienceInput = {
  tag_ids: number[];
  exclude_tag_ids: number[];
  install_ids: number[];
  contact_ids: number[];
};

export type AudienceContact = {
  id: number;
  phone: string;
  name: string;
  install_id: number | null;
  time_zone: string | null;
  opted_out: boolean;
  blocked: boolean;
};

/** The audience's live contacts, in id order (an empty audience: none). */
export async function audienceContacts(ctx: Ctx, input: AudienceInput): Promise<AudienceContact[]> {
  const { agencyId, businessId } = businessOf(ctx);
  const byFilter = input.tag_ids.length > 0 || input.install_ids.length > 0;
  if (!byFilter && input.contact_ids.length === 0) return [];
  const pg = (ids: number[]) => sql`${`{${ids.join(',')}}`}::int[]`;
  const filter = byFilter
    ? sql`(${
        input.tag_ids.length
          ? sql`exists (select 1 from contact_tags ct where ct.contact_id = c.id and ct.tag_id = any(${pg(input.tag_ids)}))`
          : sql`true`
      } and ${input.install_ids.length ? sql`c.install_id = any(${pg(input.install_ids)})` : sql`true`} and ${
        input.exclude_tag_ids.length
          ? sql`not exists (select 1 from contact_tags cx where cx.contact_id = c.id and cx.tag_id = any(${pg(input.exclude_tag_ids)}))`
          : sql`true`
      })`
    : sql`false`;
  const picked = input.contact_ids.length ? sql`c.id = any(${pg(input.contact_ids)})` : sql`false`;
  const res = await ctx.db.execute<AudienceContact>(sql`
    select c.id, c.phone, trim(c.first_name || ' ' || c.last_name) as name, c.install_id, c.time_zone,
           c.opted_out_at is not null as opted_out, c.blocked_at is not null as blocked
      from contacts c
     where c.agency_id = ${agencyId} and c.business_id = ${businessId} and c.deleted_at is null
       and (${filter} or ${picked})
     order by c.id`);
  return res.rows;
}

/** Moves these contacts' last message time forward to `at` (a broadcast's texts), in one statement. */
export async function touchContactsLastMessage(
  ctx: Ctx,
  input: { contactIds: number[]; at: Date },
): Promise<void> {
  if (input.contactIds.length === 0) return;
  const { businessId } = businessOf(ctx);
  await ctx.db.execute(sql`
    update contacts set last_message_at = greatest(last_message_at, ${input.at.toISOString()}::timestamptz)
     where business_id = ${businessId} and id = any(${`{${input.contactIds.join(',')}}`}::int[])`);
}

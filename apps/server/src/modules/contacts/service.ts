import type {
  TContact,
  TContactListQuery,
  TContactSource,
  TContactUpdate,
  TContactWrite,
} from '@stn/contracts/contacts';
import { toE164 } from '@stn/contracts/users';
import {
  and,
  asc,
  count,
  desc,
  eq,
  exists,
  getTableColumns,
  ilike,
  inArray,
  isNotNull,
  isNull,
  notInArray,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { anyOf } from '../../platform/db/any-of.ts';
import { preparedSql, slot } from '../../platform/db/prepared.ts';
import { tableRow } from '../../platform/db/table-rows.ts';
import { publish, publishMany } from '../../platform/events/events.ts';
import { AppError, invalid } from '../../platform/http/errors.ts';
import { likePattern, listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { businessOf, type Ctx, found, inTransaction, scope } from '../../platform/tenancy/context.ts';
import { businessContactsSettings } from '../businesses/service.ts';
import { assertReachable } from '../compliance/service.ts';
import { installsOfBusiness } from '../installs/service.ts';
import { businessUserSummaries } from '../users/service.ts';
import { contactAutomationAdded, contactCreated, contactTagged } from './events.ts';
import { listFieldRows } from './fields.ts';
import { contactAutomations, contacts, contactTags, tags } from './tables.ts';

// The contacts module's public functions: the ONLY file other modules import (ADR 011). The chats module
// creates contacts from inbound texts, checks a contact before a send (opted out, blocked), records
// opt-outs from STOP/START and a carrier's 21610, and touches the last message time.

export { type AudienceContact, audienceContacts, touchContactsLastMessage } from './audience.ts';
export { contactAutomationAdded, contactCreated, contactTagged } from './events.ts';
export { allTags, tagIdsByName } from './tags.ts';

export type ContactRow = typeof contacts.$inferSelect;

const cols = { agency_id: contacts.agency_id, business_id: contacts.business_id };
const live = (...conditions: (SQL | undefined)[]) => and(isNull(contacts.deleted_at), ...conditions);
/** The context's live contacts (another tenant's or a deleted one is not found). */
export const contactScope = (ctx: Ctx, ...conditions: (SQL | undefined)[]) =>
  scope(ctx, cols, live(...conditions));

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The context business's live contacts as a table expression, for a higher module's query that must join
 * them with its own rows for speed (the inbox list and the unread totals of the chats module):
 * `from ${liveContactsTable(ctx)} c`. A plain subquery, which PostgreSQL inlines, so the join plans as on
 * the table; the tenant filter and the table stay this module's.
 */
export function liveContactsTable(ctx: Ctx): SQL {
  const { agencyId, businessId } = businessOf(ctx);
  return sql`(select * from contacts where agency_id = ${agencyId} and business_id = ${businessId}
    and deleted_at is null)`;
}

/**
 * The context business's messages in, summed over its live contacts by install and assigned agent (0 for none;
 * ADR 104), as a table expression: `from ${contactInTotalsTable(ctx)} t` (the unread totals of the chats module).
 */
export function contactInTotalsTable(ctx: Ctx): SQL {
  const { agencyId, businessId } = businessOf(ctx);
  return sql`(select * from contact_in_totals where agency_id = ${agencyId} and business_id = ${businessId})`;
}

// ---------------------------------------------------------------------------------------------------
// What the chats module calls.

/**
 * The context business's live contact with this phone (E.164), created on first contact, in one
 * statement: concurrent first messages from one phone make one contact (the partial unique index
 * decides). The conversation moves to `installId` when given; `lastMessageAt` moves the conversation's
 * latest message time forward (never back). The chats module calls it on every inbound text.
 */
export async function findOrCreateContactByPhone(
  ctx: Ctx,
  input: {
    phone: string;
    installId?: number | null;
    source?: TContactSource;
    lastMessageAt?: Date | undefined;
  },
): Promise<{ contact: ContactRow; created: boolean }> {
  const at = input.lastMessageAt?.toISOString() ?? null;
  return upsertLiveContact(
    ctx,
    {
      phone: input.phone,
      install_id: input.installId ?? null,
      source: input.source ?? 'sms',
      last_message_at: input.lastMessageAt ?? null,
    },
    {
      install_id: sql`coalesce(excluded.install_id, ${contacts.install_id})`,
      last_message_at: sql`greatest(${contacts.last_message_at}, ${at}::timestamptz)`,
    },
  );
}

/** What an upsert of a live contact answers: the row, and whether it was made now. */
const upserted = { ...getTableColumns(contacts), created: sql<boolean>`(xmax = 0)` };
const liveContactConflict = {
  target: [contacts.business_id, contacts.phone],
  targetWhere: sql`${contacts.deleted_at} is null`,
};

/**
 * Inserts the context business's contact with `values.phone`, or when a live one has that phone applies
 * `onExisting` to it instead (the partial unique index decides, so concurrent first contacts make one).
 */
async function upsertLiveContact(
  ctx: Ctx,
  values: Omit<typeof contacts.$inferInsert, 'agency_id' | 'business_id'>,
  onExisting: Partial<Record<keyof typeof contacts.$inferInsert, SQL>>,
): Promise<{ contact: ContactRow; created: boolean }> {
  const { agencyId, businessId } = businessOf(ctx);
  const [row] = await ctx.db
    .insert(contacts)
    .values({ ...values, agency_id: agencyId, business_id: businessId })
    .onConflictDoUpdate({ ...liveContactConflict, set: onExisting })
    .returning(upserted);
  return upsertedContact(ctx, row);
}

/** The upserted row as `upsertLiveContact` answers it, announced when it was made now. */
function upsertedContact(
  ctx: Ctx,
  row: (ContactRow & { created: boolean }) | undefined,
): { contact: ContactRow; created: boolean } {
  const { created, ...contact } = found(row);
  if (created === true) announceCreated(ctx, [contact.id]);
  return { contact, created: created === true };
}

/**
 * `findOrCreateContactByPhone` for many phones in one statement (a batch of inbound texts), by phone. A
 * phone given twice counts once: its last install, its latest message time and the sum of its `inCount`.
 * Rows are written in phone order, so concurrent batches take their row locks in one order.
 *
 * The same statement counts the texts into the contacts' `in_count` (ADR 117): each contact gains its
 * `inCount` (the caller's texts not stored yet). The caller inserts those messages with the mark that keeps
 * the messages trigger from counting them again, and corrects with `correctInCounts` a contact whose
 * inserted texts are not what it counted (a text stored by a concurrent batch in between).
 */
export async function findOrCreateContactsByPhone(
  ctx: Ctx,
  input: {
    phone: string;
    installId: number | null;
    source: TContactSource;
    lastMessageAt: Date;
    inCount: number;
  }[],
): Promise<Map<string, { id: number; created: boolean }>> {
  const byPhone = new Map<string, (typeof input)[number]>();
  for (const i of input) {
    const before = byPhone.get(i.phone);
    byPhone.set(i.phone, {
      ...i,
      installId: i.installId ?? before?.installId ?? null,
      lastMessageAt:
        before && before.lastMessageAt > i.lastMessageAt ? before.lastMessageAt : i.lastMessageAt,
      inCount: i.inCount + (before?.inCount ?? 0),
    });
  }
  if (byPhone.size === 0) return new Map();
  // One JSON parameter for every row (a statement of constant text, whatever the batch's size).
  const rows = JSON.stringify(
    [...byPhone.values()].map((i) => ({
      p: i.phone,
      i: i.installId,
      s: i.source,
      t: i.lastMessageAt.toISOString(),
      n: i.inCount,
    })),
  );
  const res = await ctx.db.execute<UpsertedContact>(
    upsertContactsByPhoneSql(
      ctx,
      sql`select * from jsonb_to_recordset(${rows}::jsonb) as r(p text, i int, s text, t timestamptz, n int)`,
    ),
  );
  return contactsUpserted(ctx, res.rows);
}

/** A row `upsertContactsByPhoneSql` returns. */
export type UpsertedContact = { id: number; phone: string; created: boolean };

/**
 * The upsert of `findOrCreateContactsByPhone`, as a statement or a part of another's (`with people as
 * (...)`: a batch of plain inbound texts, ADR 126). `rows` is a relation of one row per phone: `p` the
 * phone, `i` its install, `s` its source, `t` its latest message's time, `n` its texts to count. Written in
 * phone order (concurrent batches lock their rows in one order); returns `id`, `phone`, `created`.
 */
export function upsertContactsByPhoneSql(ctx: Ctx, rows: SQL): SQL {
  const { agencyId, businessId } = businessOf(ctx);
  return sql`insert into contacts (agency_id, business_id, phone, install_id, source, last_message_at, in_count)
      select ${agencyId}::int, ${businessId}::int, r.p, r.i, r.s, r.t, r.n from (${rows}) r order by r.p
      on conflict (business_id, phone) where deleted_at is null do update set
        install_id = coalesce(excluded.install_id, contacts.install_id),
        last_message_at = greatest(contacts.last_message_at, excluded.last_message_at),
        in_count = contacts.in_count + excluded.in_count
      returning id, phone, (xmax = 0) as created`;
}

/** What `upsertContactsByPhoneSql` returned, by phone; the contacts it created are announced. */
export function contactsUpserted(
  ctx: Ctx,
  rows: UpsertedContact[],
): Map<string, { id: number; created: boolean }> {
  const out = new Map<string, { id: number; created: boolean }>();
  for (const r of rows) out.set(r.phone, { id: Number(r.id), created: r.created === true });
  announceCreated(
    ctx,
    rows.filter((r) => r.created === true).map((r) => Number(r.id)),
  );
  return out;
}

/**
 * Adds `n` (negative: takes away) to each contact's `in_count`: the texts of a batch that
 * findOrCreateContactsByPhone counted and its insert did not store (rare: a concurrent batch stored the
 * same text in between).
 */
export async function correctInCounts(ctx: Ctx, input: { id: number; n: number }[]): Promise<void> {
  if (input.length === 0) return;
  const rows = JSON.stringify([...input].sort((a, b) => a.id - b.id));
  await ctx.db.execute(
    sql`update contacts set in_count = greatest(contacts.in_count + d.n, 0)
      from jsonb_to_recordset(${rows}::jsonb) as d(id int, n int)
     where contacts.id = d.id and ${scope(ctx, contacts)}`,
  );
}

/**
 * The upsert of `recordContactCall`, with `slot`s for its values (`contactCallValues`): its statement, or a
 * part of a caller's statement built once (`with c as (...)`: the chats module reads who may see the
 * conversation with it). Returns every column and `created`; `contactCalled` reads the row.
 */
export function contactCallUpsertSql(): SQL {
  return sql`insert into contacts (agency_id, business_id, phone, install_id, first_name, last_name, email,
      source, last_call_at)
    values (${slot('agency_id')}::int, ${slot('business_id')}::int, ${slot('phone')}::text,
      ${slot('install_id')}::int, ${slot('first_name')}::text, ${slot('last_name')}::text, ${slot('email')}::text,
      'voice', ${slot('last_call_at')}::timestamptz)
    on conflict (business_id, phone) where deleted_at is null do update set
      install_id = coalesce(contacts.install_id, excluded.install_id),
      first_name = case when contacts.first_name = '' and contacts.last_name = ''
        then excluded.first_name else contacts.first_name end,
      last_name = case when contacts.first_name = '' and contacts.last_name = ''
        then excluded.last_name else contacts.last_name end,
      email = coalesce(contacts.email, excluded.email),
      last_call_at = greatest(contacts.last_call_at, excluded.last_call_at),
      updated_at = now()
    returning *, (xmax = 0) as created`;
}

const contactCallUpsert = preparedSql(contactCallUpsertSql);

/** What a call tells of its phone's contact. */
export type ContactCall = {
  phone: string;
  installId: number;
  at: Date;
  firstName?: string;
  lastName?: string;
  email?: string | null;
};

/** The values of `contactCallUpsertSql`'s slots. */
export function contactCallValues(ctx: Ctx, input: ContactCall): Record<string, unknown> {
  const { agencyId, businessId } = businessOf(ctx);
  return {
    agency_id: agencyId,
    business_id: businessId,
    phone: input.phone,
    install_id: input.installId,
    first_name: (input.firstName ?? '').slice(0, 100),
    last_name: (input.lastName ?? '').slice(0, 100),
    email: input.email || null,
    last_call_at: input.at,
  };
}

/** The contact `contactCallUpsertSql` wrote, from its row; a created one is announced. */
export function contactCalled(
  ctx: Ctx,
  raw: Record<string, unknown> | undefined,
): { contact: ContactRow; created: boolean } {
  return upsertedContact(
    ctx,
    raw ? { ...tableRow(contacts, raw), created: raw.created === true } : undefined,
  );
}

/**
 * A call with a phone joins that phone's conversation (ADR 052): the business's live contact with the
 * phone, created when there is none (source voice, on the call's install, named and e-mailed as the
 * caller said), in one statement. An existing contact keeps its install (the number its texts run on)
 * unless it has none, and its name and e-mail unless it has none; its latest call time moves forward only.
 */
export async function recordContactCall(
  ctx: Ctx,
  input: ContactCall,
): Promise<{ contact: ContactRow; created: boolean }> {
  const [row] = await contactCallUpsert(ctx.db, contactCallValues(ctx, input));
  return contactCalled(ctx, row);
}

/**
 * The live contact with this phone, to start a conversation with it from an install's inbox (ADR 052):
 * a contact with no install yet (imported, added without one) is put on this install, so that it can be
 * texted from its number; one on another install stays there. Undefined when the phone is no contact.
 */
export async function contactToText(
  ctx: Ctx,
  input: { phone: string; installId: number },
): Promise<ContactRow | undefined> {
  const [row] = await ctx.db
    .update(contacts)
    .set({ install_id: sql`coalesce(${contacts.install_id}, ${input.installId}::int)` })
    .where(contactScope(ctx, eq(contacts.phone, input.phone)))
    .returning();
  return row;
}

/** The contact row for a send: phone, install, opted_out_at, blocked_at (a 404 for another tenant's). */
export async function contactForSend(ctx: Ctx, contactId: number): Promise<ContactRow> {
  const [row] = await ctx.db
    .select()
    .from(contacts)
    .where(contactScope(ctx, eq(contacts.id, contactId)));
  return found(row);
}

/** A contact of the context's business by id (live only), or a 404. */
export const getContactRow = contactForSend;

/** The business's live contact with this phone, if any. */
export async function contactByPhone(ctx: Ctx, phone: string): Promise<ContactRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(contacts)
    .where(contactScope(ctx, eq(contacts.phone, phone)));
  return row;
}

/**
 * Opts a contact out of (or back into) the business's texts. By phone (STOP from a number), the contact is
 * created when the number never texted before, so the suppression holds for every install and number.
 * Opting out again keeps the first time.
 */
export async function setOptOut(
  ctx: Ctx,
  input: ({ contactId: number } | { phone: string; installId?: number | null }) & { optedOut: boolean },
): Promise<ContactRow> {
  const row =
    'contactId' in input
      ? await contactForSend(ctx, input.contactId)
      : (await findOrCreateContactByPhone(ctx, { phone: input.phone, installId: input.installId ?? null }))
          .contact;
  const [updated] = await ctx.db
    .update(contacts)
    .set({
      opted_out_at: input.optedOut ? sql`coalesce(${contacts.opted_out_at}, now())` : null,
      updated_at: new Date(),
    })
    .where(eq(contacts.id, row.id))
    .returning();
  return found(updated);
}

/** Opts the contact out of the business's texts (STOP, carrier error 21610) or back in (START). */
export async function setContactOptOut(
  ctx: Ctx,
  input: { contactId: number; optedOut: boolean },
): Promise<void> {
  await setOptOut(ctx, input);
}

/** The conversation's latest message time (the inbox's order), never moved back. */
export async function touchContactConversation(
  ctx: Ctx,
  input: { contactId: number; at: Date },
): Promise<void> {
  await touchLastMessage(ctx, input.contactId, input.at);
}

/** Blocks or unblocks a contact (a blocked contact is never texted). */
export async function setBlocked(
  ctx: Ctx,
  input: { contactId: number; blocked: boolean },
): Promise<ContactRow> {
  const row = await contactForSend(ctx, input.contactId);
  const [updated] = await ctx.db
    .update(contacts)
    .set({
      blocked_at: input.blocked ? sql`coalesce(${contacts.blocked_at}, now())` : null,
      updated_at: new Date(),
    })
    .where(eq(contacts.id, row.id))
    .returning();
  return found(updated);
}

/** Moves the contact's last message time forward (never back: messages arrive out of order). */
export async function touchLastMessage(ctx: Ctx, contactId: number, at: Date): Promise<void> {
  await ctx.db
    .update(contacts)
    .set({ last_message_at: sql`greatest(${contacts.last_message_at}, ${at.toISOString()}::timestamptz)` })
    .where(contactScope(ctx, eq(contacts.id, contactId)));
}

/** Of these ids, the context's live contacts (in id order). */
export async function contactsByIds(ctx: Ctx, ids: number[]): Promise<ContactRow[]> {
  if (ids.length === 0) return [];
  return ctx.db
    .select()
    .from(contacts)
    .where(contactScope(ctx, anyOf(contacts.id, ids)))
    .orderBy(asc(contacts.id));
}

/** A live contact as `contactOwnersSql` gives it. */
export type ContactOwner = { id: number; install_id: number | null; agent_user_id: number | null };

/**
 * Who may see each of these live contacts of the context business: its install and assigned agent only (the
 * chats module's audience of a batch of texts reads no more than that; issue 27), as a JSON array: a
 * subquery for the caller's one statement (`contactOwnersFrom` reads it).
 */
export function contactOwnersSql(ctx: Ctx, ids: number[]): SQL<unknown> {
  return sql`(select coalesce(json_agg(json_build_object('id', c.id, 'install_id', c.install_id,
      'agent_user_id', c.agent_user_id)), '[]'::json)
    from ${liveContactsTable(ctx)} c where c.id = any(${sql.param([...new Set(ids)])}::int[]))`;
}

/** What `contactOwnersSql` answered. */
export const contactOwnersFrom = (value: unknown): ContactOwner[] =>
  Array.isArray(value) ? (value as ContactOwner[]) : [];

// ---------------------------------------------------------------------------------------------------
// The contact as the API shows it.

export async function toContacts(ctx: Ctx, rows: ContactRow[]): Promise<TContact[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [tagRows, autoRows] = await Promise.all([
    ctx.db
      .select({ contact_id: contactTags.contact_id, id: tags.id, name: tags.name })
      .from(contactTags)
      .innerJoin(tags, eq(tags.id, contactTags.tag_id))
      .where(anyOf(contactTags.contact_id, ids))
      .orderBy(asc(tags.name)),
    ctx.db
      .select()
      .from(contactAutomations)
      .where(anyOf(contactAutomations.contact_id, ids))
      .orderBy(asc(contactAutomations.automation_id)),
  ]);
  return rows.map((r) => ({
    id: r.id,
    phone: r.phone,
    first_name: r.first_name,
    last_name: r.last_name,
    name: `${r.first_name} ${r.last_name}`.trim() || r.phone,
    email: r.email,
    birthday: r.birthday,
    anniversary: r.anniversary,
    fields: r.fields ?? {},
    source: r.source,
    install_id: r.install_id,
    agent_user_id: r.agent_user_id,
    on_top: r.on_top,
    opted_out: r.opted_out_at !== null,
    opted_out_at: iso(r.opted_out_at),
    blocked: r.blocked_at !== null,
    blocked_at: iso(r.blocked_at),
    last_message_at: iso(r.last_message_at),
    tags: tagRows.filter((t) => t.contact_id === r.id).map((t) => ({ id: t.id, name: t.name })),
    automations: autoRows.filter((a) => a.contact_id === r.id).map((a) => a.automation_id),
    created_at: r.created_at.toISOString(),
  }));
}

export async function getContact(ctx: Ctx, input: { id: number }): Promise<TContact> {
  const [c] = await toContacts(ctx, [await contactForSend(ctx, input.id)]);
  return found(c);
}

const truthy = (v: string | undefined) => (v === undefined ? undefined : v === '1' || v === 'true');

/** The keys of the business's custom contact fields (active or not): a template's merge fields. */
export async function contactFieldKeys(ctx: Ctx): Promise<string[]> {
  return (await listFieldRows(ctx)).map((f) => f.key);
}

/** The business's contacts, paged (page 1, 10 per page), with keyword, type, tag, install and state filters. */
export async function listContacts(ctx: Ctx, q: TContactListQuery) {
  const kw = q.keyword?.trim();
  const digits = kw?.replace(/[^\d]/g, '');
  const keyword = kw
    ? or(
        ilike(sql`${contacts.first_name} || ' ' || ${contacts.last_name}`, likePattern(kw)),
        ilike(contacts.email, likePattern(kw)),
        digits ? ilike(contacts.phone, likePattern(digits)) : undefined,
      )
    : undefined;
  const optedOut = truthy(q.opted_out);
  const blocked = truthy(q.blocked);
  const where = contactScope(
    ctx,
    keyword,
    q.type !== 'all' ? eq(contacts.source, q.type) : undefined,
    q.install_id ? eq(contacts.install_id, q.install_id) : undefined,
    q.tag_id
      ? exists(
          ctx.db
            .select({ one: sql`1` })
            .from(contactTags)
            .where(and(eq(contactTags.contact_id, contacts.id), eq(contactTags.tag_id, q.tag_id))),
        )
      : undefined,
    optedOut === undefined
      ? undefined
      : optedOut
        ? isNotNull(contacts.opted_out_at)
        : isNull(contacts.opted_out_at),
    blocked === undefined
      ? undefined
      : blocked
        ? isNotNull(contacts.blocked_at)
        : isNull(contacts.blocked_at),
  );
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(contacts)
      .where(where)
      .orderBy(desc(contacts.on_top), sql`${contacts.last_message_at} desc nulls last`, desc(contacts.id))
      .limit(limit)
      .offset(offset),
    ctx.db.select({ n: count() }).from(contacts).where(where),
  ]);
  return listEnvelope(await toContacts(ctx, rows), total?.n ?? 0, q);
}

// ---------------------------------------------------------------------------------------------------
// Writes.

/** Of these tag ids, those of the business; any other is a 422 on `field`. */
export async function checkTagIds(ctx: Ctx, ids: number[], field = 'tag_ids'): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const { businessId } = businessOf(ctx);
  const rows = await ctx.db
    .select({ id: tags.id })
    .from(tags)
    .where(and(eq(tags.business_id, businessId), inArray(tags.id, unique)));
  if (rows.length !== unique.length) throw invalid(field, 'contacts.tag_invalid');
  return unique;
}

type Values = Partial<typeof contacts.$inferInsert>;

/** The columns of a contact write; custom field values merged onto the stored ones ('' removes one). */
function valuesOf(input: TContactUpdate, stored: Record<string, string> = {}): Values {
  const v: Values = {};
  if (input.phone !== undefined) v.phone = input.phone;
  if (input.first_name !== undefined) v.first_name = input.first_name;
  if (input.last_name !== undefined) v.last_name = input.last_name;
  if (input.email !== undefined) v.email = input.email || null;
  if (input.birthday !== undefined) v.birthday = input.birthday || null;
  if (input.anniversary !== undefined) v.anniversary = input.anniversary || null;
  if (input.install_id !== undefined) v.install_id = input.install_id;
  if (input.fields !== undefined) {
    const merged = { ...stored };
    for (const [k, value] of Object.entries(input.fields)) {
      if (value === '') delete merged[k];
      else merged[k] = value;
    }
    v.fields = merged;
  }
  return v;
}

async function checkFieldKeys(ctx: Ctx, fields: Record<string, string> | undefined) {
  if (!fields || Object.keys(fields).length === 0) return;
  const known = new Set((await listFieldRows(ctx)).map((f) => f.key));
  for (const key of Object.keys(fields)) {
    if (!known.has(key)) throw invalid(`fields.${key}`, 'contacts.field_unknown');
  }
}

async function checkInstall(ctx: Ctx, installId: number | null | undefined) {
  if (installId === undefined || installId === null) return;
  const list = await installsOfBusiness(ctx);
  if (!list.some((i) => i.id === installId)) throw invalid('install_id', 'contacts.install_invalid');
}

/**
 * Announces `contact.created` after commit for each contact newly made. Delivered together, not one after
 * the other: an import's chunk of 500 reaches a batching listener as one batch.
 */
function announceCreated(ctx: Ctx, ids: number[]): void {
  const { agencyId, businessId } = businessOf(ctx);
  publishMany(
    ctx,
    contactCreated,
    ids.map((contactId) => ({ agencyId, businessId, contactId })),
  );
}

/**
 * Announces `contact.tagged` after commit for each contact and tag newly linked (the rows an insert
 * `on conflict do nothing returning` gave back: a tag the contact had already is not announced again),
 * together: the new-tag trigger reads the business's automations once for an import's chunk, not once a
 * link (20,000 reads for 10,000 contacts of two tags).
 */
export function announceTagged(ctx: Ctx, links: { contact_id: number; tag_id: number }[]): void {
  const { agencyId, businessId } = businessOf(ctx);
  publishMany(
    ctx,
    contactTagged,
    links.map((l) => ({ agencyId, businessId, contactId: l.contact_id, tagId: l.tag_id })),
  );
}

async function setTags(ctx: Ctx, contactId: number, tagIds: number[], mode: 'set' | 'add' | 'remove') {
  if (mode === 'set')
    // Only the tags it loses go; those it keeps stay (and are not announced as new).
    await ctx.db
      .delete(contactTags)
      .where(
        and(
          eq(contactTags.contact_id, contactId),
          tagIds.length > 0 ? notInArray(contactTags.tag_id, tagIds) : undefined,
        ),
      );
  if (mode === 'remove') {
    if (tagIds.length > 0)
      await ctx.db
        .delete(contactTags)
        .where(and(eq(contactTags.contact_id, contactId), inArray(contactTags.tag_id, tagIds)));
    return;
  }
  if (tagIds.length > 0) {
    const added = await ctx.db
      .insert(contactTags)
      .values(tagIds.map((tag_id) => ({ contact_id: contactId, tag_id })))
      .onConflictDoNothing()
      .returning({ contact_id: contactTags.contact_id, tag_id: contactTags.tag_id });
    announceTagged(ctx, added);
  }
}

const phoneTaken = (err: unknown) =>
  (err as { code?: string; cause?: { code?: string } })?.code === '23505' ||
  (err as { cause?: { code?: string } })?.cause?.code === '23505';

/**
 * A phone typed for a contact in E.164: read in the business's default country when it has no country
 * code (its contacts setting, ADR 094); a 422 on `phone` when it is no number.
 */
async function contactPhone(ctx: Ctx, raw: string): Promise<string> {
  const { default_country } = await businessContactsSettings(ctx);
  const phone = toE164(raw, default_country);
  if (!phone) throw invalid('phone', 'validation.phone');
  return phone;
}

/** Creates a contact (a phone already a contact of the business is a 422). */
export async function createContact(ctx: Ctx, raw: TContactWrite & { source?: TContactSource }) {
  const { agencyId, businessId } = businessOf(ctx);
  const input = { ...raw, phone: await contactPhone(ctx, raw.phone) };
  await assertReachable(ctx, input.phone, 'contact');
  await checkFieldKeys(ctx, input.fields);
  await checkInstall(ctx, input.install_id);
  const tagIds = await checkTagIds(ctx, input.tag_ids ?? []);
  const id = await inTransaction(ctx, async (tx) => {
    let row: ContactRow | undefined;
    try {
      [row] = await tx.db
        .insert(contacts)
        .values({
          ...valuesOf(input),
          phone: input.phone,
          agency_id: agencyId,
          business_id: businessId,
          source: input.source ?? 'cms',
        })
        .returning();
    } catch (err) {
      if (phoneTaken(err)) throw invalid('phone', 'contacts.phone_taken');
      throw err;
    }
    const created = found(row);
    await setTags(tx, created.id, tagIds, 'set');
    announceCreated(tx, [created.id]);
    return created.id;
  });
  return getContact(ctx, { id });
}

/** Edits a contact; tag_ids, when given, become its tags. */
export async function updateContact(ctx: Ctx, raw: TContactUpdate & { id: number }): Promise<TContact> {
  const row = await contactForSend(ctx, raw.id);
  const input = raw.phone === undefined ? raw : { ...raw, phone: await contactPhone(ctx, raw.phone) };
  if (input.phone !== undefined && input.phone !== row.phone)
    await assertReachable(ctx, input.phone, 'contact');
  await checkFieldKeys(ctx, input.fields);
  await checkInstall(ctx, input.install_id);
  const tagIds = input.tag_ids ? await checkTagIds(ctx, input.tag_ids) : undefined;
  await inTransaction(ctx, async (tx) => {
    const values = valuesOf(input, row.fields ?? {});
    if (Object.keys(values).length > 0) {
      try {
        await tx.db
          .update(contacts)
          .set({ ...values, updated_at: new Date() })
          .where(eq(contacts.id, row.id));
      } catch (err) {
        if (phoneTaken(err)) throw invalid('phone', 'contacts.phone_taken');
        throw err;
      }
    }
    if (tagIds) await setTags(tx, row.id, tagIds, 'set');
  });
  return getContact(ctx, { id: row.id });
}

/** Deletes a contact (kept as deleted, so its messages stay on record; the phone is free again). */
export async function deleteContact(ctx: Ctx, input: { id: number }): Promise<void> {
  const row = await contactForSend(ctx, input.id);
  await ctx.db
    .update(contacts)
    .set({ deleted_at: new Date(), updated_at: new Date() })
    .where(eq(contacts.id, row.id));
}

/** Every id must be a live contact of the business, or the whole call is a 422 and nothing changes. */
async function checkContactIds(ctx: Ctx, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  const rows = await ctx.db
    .select({ id: contacts.id })
    .from(contacts)
    .where(contactScope(ctx, anyOf(contacts.id, unique)));
  if (rows.length !== unique.length) throw invalid('ids', 'contacts.ids_invalid');
  return unique;
}

export async function bulkBlock(ctx: Ctx, input: { ids: number[] }): Promise<number> {
  const ids = await checkContactIds(ctx, input.ids);
  await ctx.db
    .update(contacts)
    .set({ blocked_at: sql`coalesce(${contacts.blocked_at}, now())`, updated_at: new Date() })
    .where(contactScope(ctx, anyOf(contacts.id, ids)));
  return ids.length;
}

export async function bulkOptOut(ctx: Ctx, input: { ids: number[] }): Promise<number> {
  const ids = await checkContactIds(ctx, input.ids);
  await ctx.db
    .update(contacts)
    .set({ opted_out_at: sql`coalesce(${contacts.opted_out_at}, now())`, updated_at: new Date() })
    .where(contactScope(ctx, anyOf(contacts.id, ids)));
  return ids.length;
}

export async function bulkDelete(ctx: Ctx, input: { ids: number[] }): Promise<number> {
  const ids = await checkContactIds(ctx, input.ids);
  await ctx.db
    .update(contacts)
    .set({ deleted_at: new Date(), updated_at: new Date() })
    .where(contactScope(ctx, anyOf(contacts.id, ids)));
  return ids.length;
}

/** Adds tags to many contacts (POST /v1/contacts/tag). */
export async function bulkTag(ctx: Ctx, input: { ids: number[]; tag_ids: number[] }): Promise<number> {
  const tagIds = await checkTagIds(ctx, input.tag_ids);
  const ids = await checkContactIds(ctx, input.ids);
  await inTransaction(ctx, async (tx) => {
    const values = ids.flatMap((contact_id) => tagIds.map((tag_id) => ({ contact_id, tag_id })));
    for (let i = 0; i < values.length; i += 5000) {
      const added = await tx.db
        .insert(contactTags)
        .values(values.slice(i, i + 5000))
        .onConflictDoNothing()
        .returning({ contact_id: contactTags.contact_id, tag_id: contactTags.tag_id });
      announceTagged(tx, added);
    }
  });
  return ids.length;
}

/** One contact's tags: set (default), add or remove (POST /v1/contacts/{id}/tag). */
export async function tagContact(
  ctx: Ctx,
  input: { id: number; tag_ids: number[]; mode: 'set' | 'add' | 'remove' },
): Promise<TContact> {
  const row = await contactForSend(ctx, input.id);
  const tagIds = await checkTagIds(ctx, input.tag_ids);
  await inTransaction(ctx, (tx) => setTags(tx, row.id, tagIds, input.mode));
  return getContact(ctx, { id: row.id });
}

export async function setOnTop(ctx: Ctx, input: { id: number; onTop: boolean }): Promise<TContact> {
  const row = await contactForSend(ctx, input.id);
  await ctx.db
    .update(contacts)
    .set({ on_top: input.onTop, updated_at: new Date() })
    .where(eq(contacts.id, row.id));
  return getContact(ctx, { id: row.id });
}

/** Assigns the conversation to an agent: a user of the business (another is a 422), or none. */
export async function setAgent(ctx: Ctx, input: { id: number; agentId: number | null }): Promise<TContact> {
  const row = await contactForSend(ctx, input.id);
  if (input.agentId !== null) {
    const { businessId } = businessOf(ctx);
    const [agent] = await businessUserSummaries(ctx, { businessId, ids: [input.agentId] });
    if (!agent) throw invalid('agent_id', 'contacts.agent_invalid');
  }
  await ctx.db
    .update(contacts)
    .set({ agent_user_id: input.agentId, updated_at: new Date() })
    .where(eq(contacts.id, row.id));
  return getContact(ctx, { id: row.id });
}

/**
 * The automation must be one of the business's (asked of the automations module through its port, ADR
 * 054): another business's, a deleted one or an unknown id is a 404 that says so. Entering needs it
 * switched on (a 422 naming automation_id); stopping a journey does not.
 */
async function assertAutomation(ctx: Ctx, automationId: number, opts: { active: boolean }): Promise<void> {
  const status = await ctx.deps.ports.automations.status(ctx, { automationId });
  if (status === null) throw new AppError('NOT_FOUND', 'contacts.automation_not_found');
  if (opts.active && status !== 'active') throw invalid('automation_id', 'contacts.automation_inactive');
}

/**
 * Records contacts in an automation and starts each one's journey there (a direct-call entry), in one
 * transaction. A contact whose journey in it is still going is not started twice; one who finished
 * enters again when the automation's re-entry rule lets them. Answers how many contacts were named.
 */
export async function addToAutomation(ctx: Ctx, input: { ids: number[]; automationId: number }) {
  const { agencyId, businessId } = businessOf(ctx);
  await assertAutomation(ctx, input.automationId, { active: true });
  const ids = await checkContactIds(ctx, input.ids);
  await inTransaction(ctx, async (tx) => {
    const added = await tx.db
      .insert(contactAutomations)
      .values(ids.map((contact_id) => ({ contact_id, automation_id: input.automationId })))
      .onConflictDoNothing()
      .returning({ contact_id: contactAutomations.contact_id });
    // Announced once per contact newly recorded (one already in the automation is not added again).
    for (const a of added)
      publish(tx, contactAutomationAdded, {
        agencyId,
        businessId,
        contactId: a.contact_id,
        automationId: input.automationId,
      });
    await tx.deps.ports.automations.enter(tx, { automationId: input.automationId, contactIds: ids });
  });
  return ids.length;
}

/** Takes a contact out of an automation: no longer recorded there, and its journey in progress stops. */
export async function removeFromAutomation(ctx: Ctx, input: { id: number; automationId: number }) {
  const row = await contactForSend(ctx, input.id);
  await assertAutomation(ctx, input.automationId, { active: false });
  await inTransaction(ctx, async (tx) => {
    await tx.db
      .delete(contactAutomations)
      .where(
        and(
          eq(contactAutomations.contact_id, row.id),
          eq(contactAutomations.automation_id, input.automationId),
        ),
      );
    await tx.deps.ports.automations.stop(tx, { automationId: input.automationId, contactId: row.id });
  });
  return getContact(ctx, { id: row.id });
}

/** The contacts recorded in an automation (for the automations module). */
export async function automationContactIds(ctx: Ctx, automationId: number): Promise<number[]> {
  const rows = await ctx.db
    .select({ id: contacts.id })
    .from(contactAutomations)
    .innerJoin(contacts, eq(contacts.id, contactAutomations.contact_id))
    .where(contactScope(ctx, eq(contactAutomations.automation_id, automationId)));
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------------------------------------------
// What the automations module's triggers call (ADR 069).

/** The business's live contacts whose birthday or anniversary falls on one of these days (MM-DD). */
export async function contactIdsOnDay(
  ctx: Ctx,
  input: { field: 'birthday' | 'anniversary'; monthDays: string[] },
): Promise<number[]> {
  if (input.monthDays.length === 0) return [];
  const column = input.field === 'birthday' ? contacts.birthday : contacts.anniversary;
  const rows = await ctx.db
    .select({ id: contacts.id })
    .from(contacts)
    .where(
      contactScope(
        ctx,
        isNotNull(column),
        inArray(sql<string>`to_char(${column}, 'MM-DD')`, input.monthDays),
      ),
    )
    .orderBy(asc(contacts.id));
  return rows.map((r) => r.id);
}

/** The business's live contacts with any of these tags; every live contact when none is given. */
export async function contactIdsWithAnyTag(ctx: Ctx, tagIds: number[]): Promise<number[]> {
  const tagged =
    tagIds.length > 0
      ? exists(
          ctx.db
            .select({ one: sql`1` })
            .from(contactTags)
            .where(and(eq(contactTags.contact_id, contacts.id), inArray(contactTags.tag_id, tagIds))),
        )
      : undefined;
  const rows = await ctx.db
    .select({ id: contacts.id })
    .from(contacts)
    .where(contactScope(ctx, tagged))
    .orderBy(asc(contacts.id));
  return rows.map((r) => r.id);
}

/** A lead's contact details (phone in E.164, dates YYYY-MM-DD, custom field values by key). */
export type InboundContact = {
  phone: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  birthday?: string;
  anniversary?: string;
  fields?: Record<string, string>;
};

const INBOUND_COLUMNS = ['first_name', 'last_name', 'email', 'birthday', 'anniversary'] as const;

/**
 * The contact of an inbound lead (an automation's webhook or HomeAdvisor URL): the business's live contact
 * with the phone, created when there is none (source cms), in one statement. Each value given (not empty)
 * replaces the contact's own; custom fields the business does not have are left out.
 */
export async function saveInboundContact(
  ctx: Ctx,
  input: InboundContact,
): Promise<{ contact: ContactRow; created: boolean }> {
  const known = new Set((await listFieldRows(ctx)).map((f) => f.key));
  const fields = Object.fromEntries(
    Object.entries(input.fields ?? {}).filter(([k, v]) => known.has(k) && v !== ''),
  );
  const values: Partial<Record<(typeof INBOUND_COLUMNS)[number], string>> = {};
  const onExisting: Partial<Record<keyof typeof contacts.$inferInsert, SQL>> = { updated_at: sql`now()` };
  for (const column of INBOUND_COLUMNS) {
    const v = input[column];
    if (!v) continue;
    values[column] = v;
    onExisting[column] = sql.raw(`excluded.${column}`);
  }
  if (Object.keys(fields).length > 0) onExisting.fields = sql`${contacts.fields} || excluded.fields`;
  return upsertLiveContact(ctx, { phone: input.phone, source: 'cms', fields, ...values }, onExisting);
}

/**
 * These live contacts of the context's business with their tag ids, as the automations engine hands them
 * to its actions (one query for a batch of steps).
 */
export async function contactsWithTags(
  ctx: Ctx,
  ids: number[],
): Promise<(ContactRow & { tag_ids: number[] })[]> {
  if (ids.length === 0) return [];
  return ctx.db
    .select({
      ...getTableColumns(contacts),
      tag_ids: sql<number[]>`coalesce((select array_agg(ct.tag_id order by ct.tag_id) from ${contactTags} ct
        where ct.contact_id = ${contacts.id}), '{}')`,
    })
    .from(contacts)
    .where(contactScope(ctx, anyOf(contacts.id, ids)));
}

/** Sets one field of a contact: a standard one (first_name, last_name, email, birthday, anniversary) or a custom field's key. */
export async function setContactField(
  ctx: Ctx,
  input: { id: number; field: string; value: string },
): Promise<boolean> {
  const standard = ['first_name', 'last_name', 'email', 'birthday', 'anniversary'] as const;
  const key = standard.find((f) => f === input.field);
  const value = input.value.trim();
  const set = key
    ? { [key]: value === '' && key !== 'first_name' && key !== 'last_name' ? null : value }
    : { fields: sql`${contacts.fields} || jsonb_build_object(${input.field}::text, ${value}::text)` };
  const rows = await ctx.db
    .update(contacts)
    .set({ ...set, updated_at: new Date() })
    .where(contactScope(ctx, eq(contacts.id, input.id)))
    .returning({ id: contacts.id });
  return rows.length > 0;
}

/**
 * Adds and removes tags of one live contact of the context's business in few statements (the automations'
 * AddTag, thousands a second): ids that are not (or no longer) the business's tags are passed over and
 * answered as `missing`; each link added is announced (`contact.tagged`) as the contact screen's tagging
 * does. `known`: the contact's tags as the caller read them in this transaction, to answer the tags after
 * without reading them again. Null when it is not the business's live contact (nothing changed).
 */
export async function changeContactTags(
  ctx: Ctx,
  input: { id: number; add: number[]; remove: number[]; known: number[] },
): Promise<{ added: number[]; removed: number[]; missing: number[]; tag_ids: number[] } | null> {
  const { agencyId, businessId } = businessOf(ctx);
  const wanted = [...new Set([...input.add, ...input.remove])];
  // The contact (live, the business's) and which of the ids are the business's tags, in one statement.
  const res = await ctx.db.execute<{ tag_id: number | null }>(sql`
    select t.id as tag_id from contacts c
      left join tags t on t.business_id = c.business_id and t.id = any(${sql.param(wanted)}::int[])
     where c.id = ${input.id} and c.agency_id = ${agencyId} and c.business_id = ${businessId}
       and c.deleted_at is null`);
  if (res.rows.length === 0) return null;
  const live = new Set(res.rows.map((r) => r.tag_id).filter((t): t is number => t !== null));
  const add = [...new Set(input.add)].filter((id) => live.has(id));
  const remove = [...new Set(input.remove)].filter((id) => live.has(id) && !add.includes(id));
  if (remove.length) await setTags(ctx, input.id, remove, 'remove');
  if (add.length) await setTags(ctx, input.id, add, 'add');
  const after = new Set(input.known.filter((t) => !remove.includes(t)));
  for (const t of add) after.add(t);
  return {
    added: add,
    removed: remove,
    missing: wanted.filter((id) => !live.has(id)),
    tag_ids: [...after].sort((a, b) => a - b),
  };
}

// ---------------------------------------------------------------------------------------------------
// What the leadforms module calls (issue 21, ADR 074).

/** A lead form's answers for the contact: values by attribute (empty ones left out), custom fields by key. */
export type LeadContact = {
  /** E.164: the form's required phone question. */
  phone: string;
  installId: number | null;
  values: Partial<Record<'first_name' | 'last_name' | 'email' | 'birthday' | 'anniversary', string>>;
  fields: Record<string, string>;
  /** Tags to add (ids that are no longer the business's tags are passed over). */
  tagIds: number[];
  at: Date;
};

const LEAD_COLUMNS = ['first_name', 'last_name', 'email', 'birthday', 'anniversary'] as const;

/**
 * The contact of a lead form's submission, in the caller's transaction: the business's live contact with the
 * phone; else the one with the e-mail (case-insensitive), whose phone becomes the submitted one; else a new
 * one (source cms, on the install). Each value given replaces the contact's own (an empty answer never
 * empties a name); custom fields the business does not have are left out; its latest lead time moves
 * forward (the inbox's order); tags are added, each newly added one announced (`contact.tagged`).
 */
export async function saveLeadContact(
  ctx: Ctx,
  input: LeadContact,
): Promise<{ contact: ContactRow; created: boolean; matched: 'phone' | 'email' | null; tagIds: number[] }> {
  const { businessId } = businessOf(ctx);
  const known = new Set((await listFieldRows(ctx)).map((f) => f.key));
  const fields = Object.fromEntries(
    Object.entries(input.fields).filter(([k, v]) => known.has(k) && v.trim() !== ''),
  );
  const values: Partial<Record<(typeof LEAD_COLUMNS)[number], string>> = {};
  for (const column of LEAD_COLUMNS) {
    const v = input.values[column]?.trim();
    if (v) values[column] = column === 'email' ? v.toLowerCase() : v.slice(0, 100);
  }
  const at = input.at.toISOString();
  let matched: 'phone' | 'email' | null = (await contactByPhone(ctx, input.phone)) ? 'phone' : null;
  let result: { contact: ContactRow; created: boolean };
  const byEmail =
    matched === null && values.email
      ? (
          await ctx.db
            .select()
            .from(contacts)
            .where(contactScope(ctx, sql`lower(${contacts.email}) = ${values.email}`))
            .orderBy(asc(contacts.id))
            .limit(1)
        )[0]
      : undefined;
  if (byEmail) {
    matched = 'email';
    const [row] = await ctx.db
      .update(contacts)
      .set({
        ...values,
        phone: input.phone,
        fields: sql`${contacts.fields} || ${JSON.stringify(fields)}::jsonb`,
        install_id: sql`coalesce(${contacts.install_id}, ${input.installId}::int)`,
        last_lead_at: sql`greatest(${contacts.last_lead_at}, ${at}::timestamptz)`,
        updated_at: new Date(),
      })
      .where(eq(contacts.id, byEmail.id))
      .returning();
    result = { contact: found(row), created: false };
  } else {
    const onExisting: Partial<Record<keyof typeof contacts.$inferInsert, SQL>> = {
      install_id: sql`coalesce(${contacts.install_id}, excluded.install_id)`,
      fields: sql`${contacts.fields} || excluded.fields`,
      last_lead_at: sql`greatest(${contacts.last_lead_at}, excluded.last_lead_at)`,
      updated_at: sql`now()`,
    };
    for (const column of Object.keys(values) as (typeof LEAD_COLUMNS)[number][])
      onExisting[column] = sql.raw(`excluded.${column}`);
    result = await upsertLiveContact(
      ctx,
      {
        phone: input.phone,
        install_id: input.installId,
        source: 'cms',
        fields,
        last_lead_at: input.at,
        ...values,
      },
      onExisting,
    );
  }
  const wanted = [...new Set(input.tagIds)];
  const tagIds =
    wanted.length === 0
      ? []
      : (
          await ctx.db
            .select({ id: tags.id })
            .from(tags)
            .where(and(eq(tags.business_id, businessId), inArray(tags.id, wanted)))
        ).map((t) => t.id);
  if (tagIds.length) await setTags(ctx, result.contact.id, tagIds, 'add');
  return { ...result, matched, tagIds };
}

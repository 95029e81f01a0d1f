import type { TListQuery } from '@stn/contracts/http';
import {
  type TPhoneImportRequest,
  type TPhoneList,
  type TPhoneListEntry,
  type TPhoneListRequest,
  toE164,
} from '@stn/contracts/users';
import { and, count, desc, eq, ilike, isNull, or, type SQL, sql } from 'drizzle-orm';
import { actorCan } from '../../platform/auth/actor.ts';
import { selectValues } from '../../platform/db/select-values.ts';
import type { Client } from '../../platform/http/client.ts';
import { forbidden, invalid } from '../../platform/http/errors.ts';
import { likePattern, listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import {
  actingUser,
  auditActorId,
  businessOf,
  type Ctx,
  found,
  inTransaction,
  scope,
} from '../../platform/tenancy/context.ts';
import { audit } from '../audit/service.ts';
import { phoneLists } from './tables.ts';

export { assertReachable, type ReachUse, reachRule } from './reach.ts';

// Blacklist and whitelist: platform admins keep the platform-wide lists (agency_id and business_id
// null), business managers their business's list. Numbers are stored in E.164.

type Row = typeof phoneLists.$inferSelect;
const MAX_IMPORT = 10_000;
const INVALID_SHOWN = 100;

type Owner = { agency_id: number | null; business_id: number | null };

/** Whose list the context works on, and the filter that keeps every query on it. */
async function ownerOf(ctx: Ctx, list: TPhoneList): Promise<{ owner: Owner; where: SQL | undefined }> {
  if (ctx.tenant.level === 'platform') {
    return {
      owner: { agency_id: null, business_id: null },
      where: and(isNull(phoneLists.agency_id), isNull(phoneLists.business_id)),
    };
  }
  if (ctx.tenant.level !== 'business') throw forbidden();
  // The route checked the capability already; a service called another way checks it too.
  if (!actorCan(actingUser(ctx), `${list}.manage`)) throw forbidden();
  const business = businessOf(ctx);
  return {
    owner: { agency_id: business.agencyId, business_id: business.businessId },
    where: scope(ctx, { agency_id: phoneLists.agency_id, business_id: phoneLists.business_id }),
  };
}

/** The user who added a number; none when the system did. */
const creatorOf = (ctx: Ctx) => (ctx.by.kind === 'user' ? ctx.by.actor.userId : null);

const toEntry = (r: Row): TPhoneListEntry => ({
  id: r.id,
  phone: r.phone,
  note: r.note,
  created_at: r.created_at.toISOString(),
});

export async function listPhoneList(ctx: Ctx, input: { list: TPhoneList; query: TListQuery }) {
  const { list, query: q } = input;
  const { where: owned } = await ownerOf(ctx, list);
  // The keyword matches the stored number with or without its formatting.
  const digits = q.keyword?.replace(/[^\d]/g, '');
  const kw = q.keyword
    ? or(
        ilike(phoneLists.note, likePattern(q.keyword)),
        digits ? ilike(phoneLists.phone, likePattern(digits)) : undefined,
      )
    : undefined;
  const where = and(eq(phoneLists.list, list), owned, kw);
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    ctx.db.select().from(phoneLists).where(where).orderBy(desc(phoneLists.id)).limit(limit).offset(offset),
    ctx.db.select({ n: count() }).from(phoneLists).where(where),
  ]);
  return listEnvelope(rows.map(toEntry), total?.n ?? 0, q);
}

export async function addToPhoneList(
  ctx: Ctx,
  input: TPhoneListRequest & { list: TPhoneList },
): Promise<TPhoneListEntry> {
  const { list } = input;
  const { owner } = await ownerOf(ctx, list);
  const [row] = await ctx.db
    .insert(phoneLists)
    .values({ list, ...owner, phone: input.phone, note: input.note ?? null, created_by: creatorOf(ctx) })
    .onConflictDoNothing()
    .returning();
  if (!row) throw invalid('phone', 'users.phone_lists.duplicate');
  return toEntry(row);
}

export async function removeFromPhoneList(ctx: Ctx, input: { list: TPhoneList; id: number; client: Client }) {
  const { list, id, client } = input;
  const { where } = await ownerOf(ctx, list);
  await inTransaction(ctx, async (tx) => {
    const [deleted] = await tx.db
      .delete(phoneLists)
      .where(and(eq(phoneLists.id, id), eq(phoneLists.list, list), where))
      .returning();
    const row = found(deleted);
    await audit(tx, {
      action: `${list}.delete`,
      actorId: auditActorId(ctx),
      agencyId: row.agency_id,
      businessId: row.business_id,
      data: { phone: row.phone },
      ip: client.ip,
      requestId: client.requestId,
    });
  });
}

/** The values of a CSV text: every non-empty cell (a header cell is simply not a number). */
function csvCells(csv: string): string[] {
  return csv
    .split(/[\r\n,;\t]+/)
    .map((c) =>
      c
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .trim(),
    )
    .filter(Boolean);
}

/** Imports numbers into the blacklist; invalid ones and those already listed are skipped. */
export async function importPhoneList(ctx: Ctx, input: TPhoneImportRequest & { list: TPhoneList }) {
  const { list } = input;
  const { owner } = await ownerOf(ctx, list);
  const createdBy = creatorOf(ctx);
  const values = [...(input.phones ?? []), ...(input.csv ? csvCells(input.csv) : [])];
  if (values.length > MAX_IMPORT) throw invalid('phones', 'validation.max_array', { max: MAX_IMPORT });
  const invalidValues: string[] = [];
  const phones = new Set<string>();
  for (const value of values) {
    const e164 = toE164(value);
    if (e164) phones.add(e164);
    else invalidValues.push(value);
  }
  const unique = [...phones];
  let imported = 0;
  await inTransaction(ctx, async (tx) => {
    for (let i = 0; i < unique.length; i += 1000) {
      const rows = await tx.db
        .insert(phoneLists)
        .values(unique.slice(i, i + 1000).map((phone) => ({ list, ...owner, phone, created_by: createdBy })))
        .onConflictDoNothing()
        .returning({ id: phoneLists.id });
      imported += rows.length;
    }
  });
  return { imported, skipped: values.length - imported, invalid: invalidValues.slice(0, INVALID_SHOWN) };
}

/**
 * Whether calls and texts to or from this number are refused for the context's business, as a boolean
 * subquery (a callback's checks are one statement): on the platform's, the agency's or the business's
 * blacklist, and on none of their whitelists (a whitelist entry overrides a blacklist entry).
 */
export function blockedSql(ctx: Ctx, phone: string): SQL<boolean> {
  return sql<boolean>`exists (${blockedRowsSql(ctx, [phone])})`;
}

/**
 * blockedSql of a tenant and phones given as expressions of the caller's statement (slots: the agency's and
 * the business's ids, the phones as a text[]), for a statement built once.
 */
export function blockedOfSql(tenant: { agency: SQL; business: SQL }, phones: SQL): SQL<boolean> {
  return sql<boolean>`exists (${blockedRowsOfSql(tenant, phones)})`;
}

/**
 * The rule, once: of these phones, those on a blacklist (the platform's, the agency's or the business's)
 * and on no whitelist, as rows of `phone`. One scan of the lists for any number of phones, given as one
 * array parameter (a broadcast asks about 20,000 at once).
 */
export function blockedRowsSql(ctx: Ctx, phones: string[]): SQL {
  const { agencyId, businessId } = businessOf(ctx);
  return blockedRowsOfSql(
    { agency: sql`${agencyId}`, business: sql`${businessId}` },
    sql`${sql.param([...new Set(phones)])}`,
  );
}

/** blockedRowsSql of a tenant and phones given as expressions (values or slots; the phones a text[]). */
function blockedRowsOfSql(tenant: { agency: SQL; business: SQL }, phones: SQL): SQL {
  return sql`select l.phone from phone_lists l
    where l.phone = any(${phones}::text[])
      and ((l.agency_id is null and l.business_id is null)
        or (l.agency_id = ${tenant.agency} and l.business_id is null)
        or (l.agency_id = ${tenant.agency} and l.business_id = ${tenant.business}))
    group by l.phone
    having bool_or(l.list = 'blacklist') and not bool_or(l.list = 'whitelist')`;
}

/**
 * Of these numbers, the ones blockedSql refuses, as a JSON array (`blockedFrom` reads it): for a caller's
 * one statement of checks (an inbound batch's, with its duplicates, ADR 123).
 */
export function blockedAmongSql(ctx: Ctx, phones: string[]): SQL<unknown> {
  return sql`(select coalesce(json_agg(b.phone), '[]'::json) from (${blockedRowsSql(ctx, phones)}) b)`;
}

/** The numbers blockedAmongSql answered. */
export const blockedFrom = (value: unknown): Set<string> =>
  new Set(Array.isArray(value) ? (value as string[]) : []);

/** Whether calls and texts to or from this number are refused for the context's business (blockedSql). */
export async function isBlocked(ctx: Ctx, phone: string): Promise<boolean> {
  return (await selectValues(ctx.db, { blocked: blockedSql(ctx, phone) })).blocked === true;
}

/** Of these numbers, the ones `isBlocked` refuses for the context's business, in one query (inbound batches). */
export async function blockedAmong(ctx: Ctx, phones: string[]): Promise<Set<string>> {
  if (phones.length === 0) return new Set();
  return blockedFrom((await selectValues(ctx.db, { blocked: blockedAmongSql(ctx, phones) })).blocked);
}

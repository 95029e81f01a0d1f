import type { TListQuery } from '@stn/contracts/http';
import {
  type TPhoneImportRequest,
  type TPhoneList,
  type TPhoneListEntry,
  type TPhoneListRequest,
  toE164,
} from '@stn/contracts/users';
import { and, count, desc, eq, ilike, isNull, or, type SQL } from 'drizzle-orm';
import { audit } from '../../platform/audit.ts';
import type { Actor } from '../../platform/auth/actor.ts';
import type { Tx } from '../../platform/db/client.ts';
import { phoneLists } from '../../platform/db/schema.ts';
import type { Deps } from '../../platform/deps.ts';
import { forbidden, invalid, notFound } from '../../platform/http/errors.ts';
import { listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { inTenant } from '../../platform/tenancy.ts';
import { auditActor, type Client, likePattern, requireBusinessPage } from './business-access.ts';

// Blacklist and whitelist: platform admins keep the platform-wide lists (agency_id and business_id
// null), business managers their business's list. Numbers are stored in E.164.

type Row = typeof phoneLists.$inferSelect;
const MAX_IMPORT = 10_000;
const INVALID_SHOWN = 100;

type Owner = { agency_id: number | null; business_id: number | null };

/** Whose list the caller works on, and the filter that keeps every query on it. */
async function ownerOf(
  db: Tx,
  actor: Actor,
  list: TPhoneList,
): Promise<{ owner: Owner; where: SQL | undefined }> {
  if (actor.roleGroup === 'Admin') {
    return {
      owner: { agency_id: null, business_id: null },
      where: and(isNull(phoneLists.agency_id), isNull(phoneLists.business_id)),
    };
  }
  if (actor.roleGroup !== 'Business') throw forbidden();
  const scope = await requireBusinessPage(
    db,
    actor,
    list === 'blacklist' ? 'blacklist_page' : 'whitelist_page',
  );
  return {
    owner: { agency_id: scope.agencyId, business_id: scope.businessId },
    where: inTenant(actor, { agency_id: phoneLists.agency_id, business_id: phoneLists.business_id }),
  };
}

const toEntry = (r: Row): TPhoneListEntry => ({
  id: r.id,
  phone: r.phone,
  note: r.note,
  created_at: r.created_at.toISOString(),
});

export async function listPhoneList(deps: Deps, actor: Actor, list: TPhoneList, q: TListQuery) {
  const { where: scope } = await ownerOf(deps.db, actor, list);
  // The keyword matches the stored number with or without its formatting.
  const digits = q.keyword?.replace(/[^\d]/g, '');
  const kw = q.keyword
    ? or(
        ilike(phoneLists.note, likePattern(q.keyword)),
        digits ? ilike(phoneLists.phone, likePattern(digits)) : undefined,
      )
    : undefined;
  const where = and(eq(phoneLists.list, list), scope, kw);
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    deps.db.select().from(phoneLists).where(where).orderBy(desc(phoneLists.id)).limit(limit).offset(offset),
    deps.db.select({ n: count() }).from(phoneLists).where(where),
  ]);
  return listEnvelope(rows.map(toEntry), total?.n ?? 0, q);
}

export async function addToPhoneList(
  deps: Deps,
  actor: Actor,
  list: TPhoneList,
  input: TPhoneListRequest,
): Promise<TPhoneListEntry> {
  const { owner } = await ownerOf(deps.db, actor, list);
  const [row] = await deps.db
    .insert(phoneLists)
    .values({ list, ...owner, phone: input.phone, note: input.note ?? null, created_by: actor.userId })
    .onConflictDoNothing()
    .returning();
  if (!row) throw invalid('phone', 'users.phone_lists.duplicate');
  return toEntry(row);
}

export async function removeFromPhoneList(
  deps: Deps,
  actor: Actor,
  list: TPhoneList,
  id: number,
  client: Client,
) {
  const { where } = await ownerOf(deps.db, actor, list);
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(phoneLists)
      .where(and(eq(phoneLists.id, id), eq(phoneLists.list, list), where))
      .returning();
    if (!row) throw notFound();
    await audit(tx, {
      action: `${list}.delete`,
      actorId: auditActor(actor),
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
export async function importPhoneList(
  deps: Deps,
  actor: Actor,
  list: TPhoneList,
  input: TPhoneImportRequest,
) {
  const { owner } = await ownerOf(deps.db, actor, list);
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
  await deps.db.transaction(async (tx) => {
    for (let i = 0; i < unique.length; i += 1000) {
      const rows = await tx
        .insert(phoneLists)
        .values(
          unique.slice(i, i + 1000).map((phone) => ({ list, ...owner, phone, created_by: actor.userId })),
        )
        .onConflictDoNothing()
        .returning({ id: phoneLists.id });
      imported += rows.length;
    }
  });
  return { imported, skipped: values.length - imported, invalid: invalidValues.slice(0, INVALID_SHOWN) };
}

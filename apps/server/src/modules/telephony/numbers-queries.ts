import type { TListQuery } from '@stn/contracts/http';
import type { TNumber } from '@stn/contracts/telephony';
import { and, count, desc, eq, ilike, inArray, isNull, or, type SQL } from 'drizzle-orm';
import { likePattern, listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { type Ctx, found, scope } from '../../platform/tenancy/context.ts';
import { installNames } from './numbers-links.ts';
import { sandboxNumberSid } from './sandbox-restore.ts';
import { numbers } from './tables.ts';

// Reads of the numbers table, always inside the context's tenant: another business's number is a 404.

export type NumberRow = typeof numbers.$inferSelect;

const cols = { agency_id: numbers.agency_id, business_id: numbers.business_id };

/** The business's live (not released) numbers, with extra conditions. */
export const liveNumbers = (ctx: Ctx, ...conditions: (SQL | undefined)[]) =>
  scope(ctx, cols, isNull(numbers.released_at), ...conditions);

export function presentNumber(row: NumberRow, installName: string | null): TNumber {
  return {
    id: row.id,
    phone_number: row.phone_number,
    friendly_name: row.friendly_name,
    kind: row.kind,
    install_id: row.install_id,
    install_name: installName,
    capabilities: row.capabilities,
    // A purchased number is the carrier's own: nothing to verify.
    verified: row.kind === 'purchased' || row.verified,
    sms_enabled: row.sms_enabled,
    created_at: row.created_at.toISOString(),
  };
}

export async function presentNumbers(ctx: Ctx, rows: NumberRow[]): Promise<TNumber[]> {
  const names = rows.some((r) => r.install_id !== null) ? await installNames(ctx) : new Map<number, string>();
  return rows.map((r) => presentNumber(r, r.install_id === null ? null : (names.get(r.install_id) ?? null)));
}

/** A live number of the business, or 404. */
export async function findNumber(ctx: Ctx, id: number): Promise<NumberRow> {
  const [row] = await ctx.db
    .select()
    .from(numbers)
    .where(liveNumbers(ctx, eq(numbers.id, id)))
    .limit(1);
  return found(row);
}

/** The install's live number of a kind (one purchased number and one landline per install). */
export async function numberOfInstall(
  ctx: Ctx,
  installId: number,
  kind: NumberRow['kind'],
): Promise<NumberRow | null> {
  const [row] = await ctx.db
    .select()
    .from(numbers)
    .where(liveNumbers(ctx, eq(numbers.install_id, installId), eq(numbers.kind, kind)))
    .orderBy(desc(numbers.id))
    .limit(1);
  return row ?? null;
}

/** The business's live number with this phone and kind, or null. */
export async function numberByPhone(
  ctx: Ctx,
  phone: string,
  kinds: NumberRow['kind'][],
): Promise<NumberRow[]> {
  return ctx.db
    .select()
    .from(numbers)
    .where(liveNumbers(ctx, eq(numbers.phone_number, phone), or(...kinds.map((k) => eq(numbers.kind, k)))));
}

export async function listNumbers(ctx: Ctx, q: TListQuery) {
  const digits = q.keyword?.replace(/[^\d]/g, '');
  const kw = q.keyword
    ? or(
        ilike(numbers.friendly_name, likePattern(q.keyword)),
        digits ? ilike(numbers.phone_number, likePattern(digits)) : undefined,
      )
    : undefined;
  const where = and(liveNumbers(ctx), kw);
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    ctx.db.select().from(numbers).where(where).orderBy(desc(numbers.id)).limit(limit).offset(offset),
    ctx.db.select({ n: count() }).from(numbers).where(where),
  ]);
  return listEnvelope(await presentNumbers(ctx, rows), total?.n ?? 0, q);
}

export async function allNumbers(ctx: Ctx): Promise<TNumber[]> {
  const rows = await ctx.db.select().from(numbers).where(liveNumbers(ctx)).orderBy(desc(numbers.id));
  return presentNumbers(ctx, rows);
}

/**
 * Of these ids, the business's live numbers that can send texts (purchased or landline, SMS on): the
 * broadcasts module's sending numbers. Any other id is simply left out.
 */
export async function textNumbersOf(ctx: Ctx, ids: number[]): Promise<NumberRow[]> {
  if (ids.length === 0) return [];
  return ctx.db
    .select()
    .from(numbers)
    .where(
      liveNumbers(
        ctx,
        inArray(numbers.id, ids),
        inArray(numbers.kind, ['purchased', 'landline']),
        eq(numbers.sms_enabled, true),
      ),
    )
    .orderBy(desc(numbers.id));
}

/**
 * The live purchased numbers of an agency's businesses (or of one business) that the carrier texts from,
 * for SMS registration (issue 26): the Messaging Service's sender pool and each number's state.
 */
export async function registrationNumbers(
  ctx: Ctx,
  input: { agencyId: number; businessId?: number; installId?: number; phone?: string },
): Promise<
  { id: number; phone: string; carrierSid: string | null; businessId: number; installId: number | null }[]
> {
  const rows = await ctx.db
    .select({
      id: numbers.id,
      phone: numbers.phone_number,
      sid: numbers.carrier_sid,
      agencyId: numbers.agency_id,
      businessId: numbers.business_id,
      installId: numbers.install_id,
    })
    .from(numbers)
    .where(
      liveNumbers(
        ctx,
        eq(numbers.agency_id, input.agencyId),
        eq(numbers.kind, 'purchased'),
        input.businessId === undefined ? undefined : eq(numbers.business_id, input.businessId),
        input.installId === undefined ? undefined : eq(numbers.install_id, input.installId),
        input.phone === undefined ? undefined : eq(numbers.phone_number, input.phone),
      ),
    )
    .orderBy(numbers.id);
  // A seeded number has no carrier sid of its own: the sandbox knows it by the one it derives (ADR 073).
  return rows.map((r) => ({
    id: r.id,
    phone: r.phone,
    carrierSid: sandboxNumberSid({ agency_id: r.agencyId, phone_number: r.phone, carrier_sid: r.sid }),
    businessId: r.businessId,
    installId: r.installId,
  }));
}

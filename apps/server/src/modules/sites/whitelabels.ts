import type { TListQuery } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import { and, count, desc, eq, ilike, inArray, or, type SQLWrapper } from 'drizzle-orm';
import type { Client } from '../../platform/http/client.ts';
import { likePattern, listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { auditActorId, type Ctx, found, inTransaction } from '../../platform/tenancy/context.ts';
import { audit } from '../audit/service.ts';
import { toWhitelabel, type WhitelabelRow } from './service.ts';
import { whitelabels } from './tables.ts';

// The platform admins' list of white-label entries and their certificate requests. An entry is shown
// with its agency; agencies are the agencies module's rows, so the routes hand in its answers.

type AgencySummary = { id: number; name: string; status: 'active' | 'archived' | 'deleted' };

/** What this file needs to know of agencies, from the agencies module's service. */
export type AgencyDirectory = {
  /** A query of the ids of agencies that are not deleted, optionally whose name matches a pattern. */
  liveIds: (ctx: Ctx, input: { nameLike?: string }) => SQLWrapper;
  summaries: (ctx: Ctx, input: { ids: number[] }) => Promise<AgencySummary[]>;
};

const present = (w: WhitelabelRow, a: AgencySummary) => ({
  ...toWhitelabel(w),
  agency: { id: a.id, name: a.name, status: a.status },
});

async function withAgencies(ctx: Ctx, agencies: AgencyDirectory, rows: WhitelabelRow[]) {
  const summaries = await agencies.summaries(ctx, { ids: [...new Set(rows.map((w) => w.agency_id))] });
  return rows.flatMap((w) => {
    const a = summaries.find((s) => s.id === w.agency_id);
    return a ? [present(w, a)] : [];
  });
}

/** White-label entries of every live agency (platform admins only); the keyword matches host or agency. */
export async function listWhitelabels(ctx: Ctx, input: { query: TListQuery; agencies: AgencyDirectory }) {
  const { query: q, agencies } = input;
  const kw = q.keyword ? likePattern(q.keyword) : undefined;
  const where = and(
    inArray(whitelabels.agency_id, agencies.liveIds(ctx, {})),
    kw
      ? or(
          ilike(whitelabels.domain, kw),
          inArray(whitelabels.agency_id, agencies.liveIds(ctx, { nameLike: kw })),
        )
      : undefined,
  );
  const [total] = await ctx.db.select({ n: count() }).from(whitelabels).where(where);
  const { limit, offset } = pageOf(q);
  const rows = await ctx.db
    .select()
    .from(whitelabels)
    .where(where)
    .orderBy(desc(whitelabels.id))
    .limit(limit)
    .offset(offset);
  return listEnvelope(await withAgencies(ctx, agencies, rows), total?.n ?? 0, q);
}

/**
 * This build has no ACME client (docs/decisions/007): a certificate request marks the entry pending and
 * tells the operator what to do; TLS for white-label hosts is terminated at the proxy.
 */
export async function requestCertificate(
  ctx: Ctx,
  input: { id: number; client: Client; agencies: AgencyDirectory },
) {
  const { id, client, agencies } = input;
  const [entry] = await ctx.db
    .select()
    .from(whitelabels)
    .where(and(eq(whitelabels.id, id), inArray(whitelabels.agency_id, agencies.liveIds(ctx, {}))));
  const row = found(entry);
  const message = translate('agencies.cert_pending', 'en', { domain: row.domain });
  const updated = await inTransaction(ctx, async (tx) => {
    const [out] = await tx.db
      .update(whitelabels)
      .set({
        cert_status: 'pending',
        cert_message: message,
        cert_requested_at: new Date(),
        updated_at: new Date(),
      })
      .where(eq(whitelabels.id, id))
      .returning();
    await audit(tx, {
      action: 'whitelabel.cert_request',
      actorId: auditActorId(ctx),
      agencyId: row.agency_id,
      data: { whitelabel_id: id, domain: row.domain },
      ...client,
    });
    return found(out);
  });
  const [shown] = await withAgencies(ctx, agencies, [updated]);
  return found(shown);
}

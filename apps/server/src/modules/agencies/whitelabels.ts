import type { TListQuery } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import { and, count, desc, eq, ilike, ne, or } from 'drizzle-orm';
import { audit } from '../../platform/audit.ts';
import type { Actor } from '../../platform/auth/actor.ts';
import { agencies, whitelabels } from '../../platform/db/schema.ts';
import type { Deps } from '../../platform/deps.ts';
import { notFound } from '../../platform/http/errors.ts';
import { likePattern, listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { toWhitelabel, type WhitelabelRow } from './queries.ts';
import type { Client } from './service.ts';

const present = (
  w: WhitelabelRow,
  a: { id: number; name: string; status: 'active' | 'archived' | 'deleted' },
) => ({
  ...toWhitelabel(w),
  agency: { id: a.id, name: a.name, status: a.status },
});

/** White-label entries of every agency (platform admins only). */
export async function listWhitelabels(deps: Deps, q: TListQuery) {
  const kw = q.keyword ? likePattern(q.keyword) : undefined;
  const where = and(
    ne(agencies.status, 'deleted'),
    kw ? or(ilike(whitelabels.domain, kw), ilike(agencies.name, kw)) : undefined,
  );
  const [total] = await deps.db
    .select({ n: count() })
    .from(whitelabels)
    .innerJoin(agencies, eq(agencies.id, whitelabels.agency_id))
    .where(where);
  const { limit, offset } = pageOf(q);
  const rows = await deps.db
    .select({ w: whitelabels, a: { id: agencies.id, name: agencies.name, status: agencies.status } })
    .from(whitelabels)
    .innerJoin(agencies, eq(agencies.id, whitelabels.agency_id))
    .where(where)
    .orderBy(desc(whitelabels.id))
    .limit(limit)
    .offset(offset);
  return listEnvelope(
    rows.map((r) => present(r.w, r.a)),
    total?.n ?? 0,
    q,
  );
}

/**
 * This build has no ACME client (docs/decisions/007): a certificate request marks the entry pending and
 * tells the operator what to do; TLS for white-label hosts is terminated at the proxy.
 */
export async function requestCertificate(deps: Deps, actor: Actor, id: number, client: Client) {
  const [row] = await deps.db
    .select({ w: whitelabels, a: { id: agencies.id, name: agencies.name, status: agencies.status } })
    .from(whitelabels)
    .innerJoin(agencies, eq(agencies.id, whitelabels.agency_id))
    .where(and(eq(whitelabels.id, id), ne(agencies.status, 'deleted')));
  if (!row) throw notFound();
  const message = translate('agencies.cert_pending', 'en', { domain: row.w.domain });
  const [updated] = await deps.db.transaction(async (tx) => {
    const out = await tx
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
      actorId: actor.impersonatorId ?? actor.userId,
      agencyId: row.a.id,
      data: { whitelabel_id: id, domain: row.w.domain },
      ...client,
    });
    return out;
  });
  if (!updated) throw notFound();
  return present(updated, row.a);
}

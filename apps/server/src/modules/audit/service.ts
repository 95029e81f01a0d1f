import type { TListQuery } from '@stn/contracts/http';
import { count, desc, ilike } from 'drizzle-orm';
import { likePattern, listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { type Ctx, scope } from '../../platform/tenancy/context.ts';
import { auditLogs } from './tables.ts';

export type AuditEntry = {
  action: string;
  actorId: number | null;
  agencyId?: number | null;
  businessId?: number | null;
  targetUserId?: number | null;
  data?: Record<string, unknown>;
  ip?: string | null;
  requestId?: string | null;
};

/** Writes an audit entry with the context's handle (inside a transaction, the transaction's). */
export async function audit(ctx: Ctx, e: AuditEntry): Promise<void> {
  await ctx.db.insert(auditLogs).values({
    action: e.action,
    actor_id: e.actorId,
    agency_id: e.agencyId ?? null,
    business_id: e.businessId ?? null,
    target_user_id: e.targetUserId ?? null,
    data: e.data ?? {},
    ip: e.ip ?? null,
    request_id: e.requestId ?? null,
  });
}

/** The audit trail of the context's tenant (all of it on the platform), newest first, 10 per page. */
export async function listAuditLogs(ctx: Ctx, q: TListQuery) {
  const where = scope(
    ctx,
    { agency_id: auditLogs.agency_id },
    q.keyword ? ilike(auditLogs.action, likePattern(q.keyword)) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(auditLogs)
      .where(where)
      .orderBy(desc(auditLogs.id))
      .limit(pageOf(q).limit)
      .offset(pageOf(q).offset),
    ctx.db.select({ n: count() }).from(auditLogs).where(where),
  ]);
  return listEnvelope(
    rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() })),
    total?.n ?? 0,
    q,
  );
}

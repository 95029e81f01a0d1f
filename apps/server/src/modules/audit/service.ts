import type { Tx } from '../../platform/db/client.ts';
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

export async function audit(db: Tx, e: AuditEntry): Promise<void> {
  await db.insert(auditLogs).values({
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

import { listOf } from './http.ts';
import { z } from './zod.ts';

export const ZOutboxMail = z.object({
  id: z.number().int(),
  to: z.string(),
  from: z.string(),
  subject: z.string(),
  text: z.string(),
  status: z.enum(['queued', 'stored', 'sent', 'failed']),
  error: z.string().nullable(),
  agency_id: z.number().int().nullable(),
  created_at: z.string(),
});
export const ZOutboxList = listOf(ZOutboxMail);

export const ZAuditLog = z.object({
  id: z.number().int(),
  action: z.string(),
  actor_id: z.number().int().nullable(),
  target_user_id: z.number().int().nullable(),
  agency_id: z.number().int().nullable(),
  business_id: z.number().int().nullable(),
  data: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
  created_at: z.string(),
});
export const ZAuditLogList = listOf(ZAuditLog);

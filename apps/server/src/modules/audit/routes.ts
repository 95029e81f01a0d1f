import { ZAuditLogList } from '@stn/contracts/admin';
import { ZErrorResponse, ZListQuery } from '@stn/contracts/http';
import { count, desc, ilike } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../platform/auth/plugin.ts';
import type { Deps } from '../../platform/deps.ts';
import { likePattern, listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { inTenant } from '../../platform/tenancy.ts';
import { auditLogs } from './tables.ts';

export const auditRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/v1/audit-logs',
    {
      config: { capability: 'auditLogs.read' },
      schema: {
        tags: ['audit'],
        summary: "Audit trail (impersonation and other sensitive actions) of the caller's tenant",
        querystring: ZListQuery,
        response: { 200: ZAuditLogList, 401: ZErrorResponse, 403: ZErrorResponse },
      },
    },
    async (request) => {
      const q = request.query;
      const where = inTenant(
        actorOf(request),
        { agency_id: auditLogs.agency_id },
        q.keyword ? ilike(auditLogs.action, likePattern(q.keyword)) : undefined,
      );
      const [rows, [total]] = await Promise.all([
        deps.db
          .select()
          .from(auditLogs)
          .where(where)
          .orderBy(desc(auditLogs.id))
          .limit(pageOf(q).limit)
          .offset(pageOf(q).offset),
        deps.db.select({ n: count() }).from(auditLogs).where(where),
      ]);
      return listEnvelope(
        rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() })),
        total?.n ?? 0,
        q,
      );
    },
  );
};

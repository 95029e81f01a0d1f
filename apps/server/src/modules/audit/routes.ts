import { ZAuditLogList } from '@stn/contracts/admin';
import { ZErrorResponse, ZListQuery } from '@stn/contracts/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../platform/deps.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import { listAuditLogs } from './service.ts';

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
    async (request) => listAuditLogs(ctxOf(deps, request), request.query),
  );
};

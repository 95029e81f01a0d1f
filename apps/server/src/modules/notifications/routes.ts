import { ZOutboxList } from '@stn/contracts/admin';
import { ZErrorResponse, ZListQuery } from '@stn/contracts/http';
import { count, desc, ilike, or } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../platform/deps.ts';
import { likePattern, listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { mailOutbox } from './tables.ts';

export const notificationRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/v1/mail-outbox',
    {
      // Only a SuperAdmin: kept mail holds reset links, which would let an Admin take over any account.
      config: { capability: 'mailOutbox.read' },
      schema: {
        tags: ['notifications'],
        summary: 'E-mails the platform sent or kept (the outbox when no SMTP server is configured)',
        querystring: ZListQuery,
        response: { 200: ZOutboxList, 401: ZErrorResponse, 403: ZErrorResponse },
      },
    },
    async (request) => {
      const q = request.query;
      const where = q.keyword
        ? or(ilike(mailOutbox.to, likePattern(q.keyword)), ilike(mailOutbox.subject, likePattern(q.keyword)))
        : undefined;
      const [rows, [total]] = await Promise.all([
        deps.db
          .select()
          .from(mailOutbox)
          .where(where)
          .orderBy(desc(mailOutbox.id))
          .limit(pageOf(q).limit)
          .offset(pageOf(q).offset),
        deps.db.select({ n: count() }).from(mailOutbox).where(where),
      ]);
      return listEnvelope(
        rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() })),
        total?.n ?? 0,
        q,
      );
    },
  );
};

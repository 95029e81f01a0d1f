import type { FastifyRequest } from 'fastify';

/** Who sent a request, as audit entries and issued tokens record it. */
export type Client = { ip: string; userAgent?: string; requestId: string };

export const clientOf = (request: FastifyRequest): Client => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
  requestId: String(request.id),
});

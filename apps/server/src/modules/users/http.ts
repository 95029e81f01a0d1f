import type { FastifyRequest } from 'fastify';
import type { Client } from './business-access.ts';

export const clientOf = (request: FastifyRequest): Client => ({
  ip: request.ip,
  requestId: String(request.id),
});

import { ZErrorResponse } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import type { FastifyRequest } from 'fastify';

// Small shared pieces of this module's routes.

export const errors = { 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse };

export { clientOf as client } from '../../platform/http/client.ts';

export const msg = (request: FastifyRequest, key: string, params: Record<string, string | number> = {}) =>
  translate(`businesses.${key}`, request.lang, params);

export const ok = (request: FastifyRequest, key: string, params: Record<string, string | number> = {}) => ({
  success: true as const,
  message: msg(request, key, params),
});

import { ZErrorResponse } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import type { FastifyRequest } from 'fastify';

export const denied = { 401: ZErrorResponse, 403: ZErrorResponse };
export const errors = { ...denied, 404: ZErrorResponse, 422: ZErrorResponse };
export const contactsAccess = { capability: 'contacts.use' } as const;
export const tagsAccess = { capability: 'tags.use' } as const;
export const t = (request: FastifyRequest, key: string, params: Record<string, string | number> = {}) =>
  translate(key, request.lang, params);

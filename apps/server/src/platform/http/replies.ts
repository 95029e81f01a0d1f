import { ZErrorResponse } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import type { FastifyRequest } from 'fastify';

/** The error answers most routes declare beside their 200. */
export const errorResponses = {
  401: ZErrorResponse,
  403: ZErrorResponse,
  404: ZErrorResponse,
  422: ZErrorResponse,
};

/** A success envelope whose message is a locale key, in the caller's language. */
export const okMessage = (
  request: FastifyRequest,
  key: string,
  params: Record<string, string | number> = {},
) => ({ success: true as const, message: translate(key, request.lang, params) });

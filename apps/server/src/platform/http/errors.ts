import type { TLanguage } from '@stn/contracts/constants';
import type { TErrorCode } from '@stn/contracts/http';
import { fieldMessage as localisedFieldMessage, translate } from '@stn/contracts/i18n';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/client.ts';

/**
 * The codes a service may throw; SERVER and UNAVAILABLE are only ever the handler's own answers (to an
 * unexpected error, to the database out of reach).
 */
export type ErrorCode = Exclude<TErrorCode, 'SERVER' | 'UNAVAILABLE'>;

const STATUS: Record<ErrorCode, number> = {
  VALIDATION: 422,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  TOO_MANY: 429,
  CONFLICT: 409,
  BAD_REQUEST: 400,
};

const DEFAULT_KEY: Record<ErrorCode, string> = {
  VALIDATION: 'validation.invalid',
  UNAUTHENTICATED: 'auth.unauthenticated',
  FORBIDDEN: 'auth.forbidden',
  NOT_FOUND: 'errors.not_found',
  TOO_MANY: 'errors.too_many',
  CONFLICT: 'validation.invalid',
  BAD_REQUEST: 'errors.bad_request',
};

/**
 * The one error type services throw. `message` and the field messages are locale keys (with params),
 * translated by the error handler into the caller's language.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly fields?: Record<string, string>,
    readonly params: Record<string, string | number> = {},
    /** A finer, machine-readable reason beside the HTTP-level code, e.g. 'auth.throttle'. */
    readonly reason?: string,
    /** Details the web app shows beside the message, e.g. the filtered preview of restricted content. */
    readonly data?: unknown,
  ) {
    super(message ?? DEFAULT_KEY[code]);
  }
  get status(): number {
    return STATUS[this.code];
  }
}

export const notFound = () => new AppError('NOT_FOUND');
export const forbidden = (key?: string) => new AppError('FORBIDDEN', key);
export const unauthenticated = () => new AppError('UNAUTHENTICATED');
/** A 422 with one field's message, as forms expect. */
export const invalid = (field: string, key: string, params: Record<string, string | number> = {}) =>
  new AppError('VALIDATION', undefined, { [field]: key }, params);

/** A field's message in the caller's language, naming the field from the locale files (`fields.*`). */
function fieldMessage(message: string, path: readonly PropertyKey[], lang: TLanguage, extra = {}): string {
  return localisedFieldMessage(message, path, lang, extra);
}

/** PostgreSQL's SQLSTATE class 22 (data exception), on the error or its cause (Drizzle wraps it). */
function isPgDataException(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 3; i++) {
    if (typeof e.code === 'string' && /^22[0-9A-Z]{3}$/.test(e.code)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const lang = request.lang;
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: Record<string, string[]> = {};
      for (const issue of error.validation) {
        const path = issue.instancePath.split('/').filter(Boolean);
        // An unknown key is reported on the object; name the key itself.
        const unknownKey = (issue.params as { keys?: string[] } | undefined)?.keys?.[0];
        if (issue.keyword === 'unrecognized_keys' && unknownKey) path.push(unknownKey);
        const field = path.join('.') || (error.validationContext ?? 'body');
        const msg = fieldMessage(issue.message ?? 'validation.invalid', path, lang);
        errors[field] ??= [];
        errors[field].push(msg);
      }
      const first = Object.values(errors)[0]?.[0] ?? translate('validation.invalid', lang);
      return reply.status(422).send({ success: false, code: 'VALIDATION', message: first, errors });
    }
    if (error instanceof AppError) {
      const body: Record<string, unknown> = {
        success: false,
        code: error.code,
        message: translate(error.message, lang, error.params),
      };
      if (error.reason) body.reason = error.reason;
      if (error.data !== undefined) body.data = error.data;
      if (error.fields) {
        const errors: Record<string, string[]> = {};
        for (const [field, key] of Object.entries(error.fields)) {
          errors[field] = [fieldMessage(key, field.split('.'), lang, error.params)];
        }
        body.errors = errors;
        body.message = Object.values(errors)[0]?.[0];
      }
      return reply.status(error.status).send(body);
    }
    // The last line of defence: a value PostgreSQL refuses as data (class 22: out of range, NUL,
    // bad text) is the caller's input, never a server fault (ADR 021).
    if (isPgDataException(error)) {
      request.log.info({ err: error }, 'value refused by the database');
      return reply
        .status(422)
        .send({ success: false, code: 'VALIDATION', message: translate('validation.out_of_range', lang) });
    }
    // The database out of reach or too slow (its timeouts, ADR 050): the service is down for a moment,
    // which a client may retry; not a fault of the request.
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({
          success: false,
          code: 'UNAVAILABLE',
          message: translate('errors.unavailable', lang),
          request_id: request.id,
        });
    }
    const status = error.statusCode ?? 500;
    if (status === 429)
      return reply
        .status(429)
        .send({ success: false, code: 'TOO_MANY', message: translate('errors.too_many', lang) });
    if (status >= 400 && status < 500) {
      // Malformed JSON, unsupported media type, body too large: the client's fault, said plainly.
      request.log.info({ err: error }, 'client error');
      return reply
        .status(status)
        .send({ success: false, code: 'BAD_REQUEST', message: translate('errors.bad_request', lang) });
    }
    // Never show internals: the request id lets an operator find the stack in the logs.
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({
      success: false,
      code: 'SERVER',
      message: translate('errors.server', lang),
      request_id: request.id,
    });
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send({ success: false, code: 'NOT_FOUND', message: translate('errors.not_found', request.lang) });
  });
}

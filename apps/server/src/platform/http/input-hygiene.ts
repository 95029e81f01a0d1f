import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalid, notFound } from './errors.ts';

// Input PostgreSQL would refuse with an error of its own (a 500 to the caller): a NUL byte in text, and an
// id beyond its int4 columns. Checked once per request, on every tree, before any route sees the input
// (ADR 021), rather than in each route's schema.

/** The largest value of an int4 column: every id of ours. */
export const INT4_MAX = 2147483647;

const ID_NAME = /^(id|ids|.+_id|.+_ids)$/;
const isIdName = (name: string) => ID_NAME.test(name);

/** True for an id value PostgreSQL cannot hold: a number, or a string of digits, beyond int4. */
function outOfRange(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value) && Math.abs(value) > INT4_MAX;
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) return Number(value) > INT4_MAX;
  return false;
}

export type Flaw = { kind: 'nul' | 'id'; path: string[] };

/**
 * The first flaw in parsed input (params, query or a JSON body): a string or key holding a NUL byte, or
 * an id-named field (`id`, `ids`, `*_id`, `*_ids`) beyond int4. Ids in a query are text; in a JSON body
 * they are numbers, so there a string is left alone (a `caller_id` may be a phone number). Walked without
 * recursion, so that a deeply nested body cannot overflow the stack.
 */
export function firstFlaw(input: unknown, idsAsText = true): Flaw | null {
  const stack: { value: unknown; path: string[]; id: boolean }[] = [{ value: input, path: [], id: false }];
  while (stack.length > 0) {
    const item = stack.pop();
    if (!item) break;
    const { value, path, id } = item;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return { kind: 'nul', path };
      if (id && idsAsText && outOfRange(value)) return { kind: 'id', path };
    } else if (typeof value === 'number') {
      if (id && outOfRange(value)) return { kind: 'id', path };
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], path: [...path, String(i)], id });
    } else if (value && typeof value === 'object') {
      for (const [key, v] of Object.entries(value).reverse()) {
        if (key.includes('\u0000')) return { kind: 'nul', path: [...path, key.replaceAll('\u0000', '')] };
        stack.push({ value: v, path: [...path, key], id: isIdName(key) });
      }
    }
  }
  return null;
}

const fieldOf = (path: string[], where: string) => (path.length > 0 ? path.join('.') : where);

/**
 * The API's check (and the widget's): an id beyond int4 in the path is a row that cannot exist (404); a
 * NUL byte anywhere, or an id beyond int4 in the query or body, is a 422 naming the field.
 */
export function checkApiInput(request: FastifyRequest): void {
  const params = (request.params ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(params)) {
    if (isIdName(name) && outOfRange(value)) throw notFound();
  }
  for (const [where, input] of [
    ['params', params],
    ['query', request.query],
    ['body', request.body],
  ] as const) {
    const flaw = firstFlaw(input, where !== 'body');
    if (!flaw) continue;
    const field = fieldOf(flaw.path, where);
    throw invalid(field, flaw.kind === 'nul' ? 'validation.nul' : 'validation.invalid');
  }
}

/** True when the request's input holds a NUL byte (the webhook tree answers those with a plain 400). */
export function hasNul(request: FastifyRequest): boolean {
  return [request.params, request.query, request.body].some((input) => firstFlaw(input)?.kind === 'nul');
}

/**
 * The /api tree's own hooks: the input check above, before validation (after the access check, so that a
 * caller without access still gets 401/403), and `Cache-Control: no-store` on every answer that did not
 * set its own, as API answers carry tokens and personal data that no cache may keep.
 */
export function apiHooks(api: FastifyInstance): void {
  api.addHook('preValidation', async (request) => checkApiInput(request));
  api.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
}

import type { FastifyRequest } from 'fastify';
import { actorOf } from '../auth/plugin.ts';
import type { Deps } from '../deps.ts';
import { clientOf } from '../http/client.ts';
import { type Ctx, userContext } from './context.ts';

/** The context of a signed-in request: the caller's tenant, the caller, and the request for the audit. */
export function ctxOf(deps: Deps, request: FastifyRequest): Ctx {
  return userContext(deps, actorOf(request), clientOf(request));
}

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../platform/deps.ts';

export const agenciesRoutes: FastifyPluginAsyncZod<Deps> = async (_app, _deps) => {};

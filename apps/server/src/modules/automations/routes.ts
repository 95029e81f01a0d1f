// The automations API (spec 001 "Automations", ADR 070): /v1/automations and the run views.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../platform/deps.ts';

export const automationsRoutes: FastifyPluginAsyncZod<Deps> = async () => {};

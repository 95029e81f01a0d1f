// The inbox API (spec 001 "Chat", /v1/chats/...): registered in app.ts's /api tree.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../../platform/deps.ts';
import { inboxActionRoutes } from './actions.ts';
import { inboxReadRoutes } from './inbox.ts';
import { inboxMessageRoutes } from './messages.ts';

export const inboxRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  await inboxReadRoutes(app, deps);
  await inboxActionRoutes(app, deps);
  await inboxMessageRoutes(app, deps);
};

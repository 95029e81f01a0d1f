import { roleKey } from '@stn/contracts/capabilities';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../platform/deps.ts';
import { forbidden } from '../../platform/http/errors.ts';
import { userContext } from '../../platform/tenancy/context.ts';
import { hasSalesUserExtension } from '../businesses/service.ts';
import { contactRoutes } from './routes/contacts.ts';
import { fieldRoutes } from './routes/fields.ts';
import { importRoutes } from './routes/import.ts';
import { tagRoutes } from './routes/tags.ts';

// The contacts and tags calls (spec 001 "Contacts", "Tasks, tags"). Business tenant: contacts.use or
// tags.use from the one rules table. A state rule on top (spec 000 §6): contacts and tags are hidden from
// sales users unless their business has the sales-user extension, so those calls answer 403 for them.

export const contactsRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.addHook('preHandler', async (request) => {
    const actor = request.actor;
    if (!actor || roleKey({ role: actor.role, user_type: actor.userType }) !== 'SalesUser') return;
    if (
      !actor.businessId ||
      !(await hasSalesUserExtension(userContext(deps, actor), { id: actor.businessId }))
    )
      throw forbidden();
  });
  await app.register(fieldRoutes, deps);
  await app.register(importRoutes, deps);
  await app.register(contactRoutes, deps);
  await app.register(tagRoutes, deps);
};

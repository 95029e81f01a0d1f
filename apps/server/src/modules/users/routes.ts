import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../platform/deps.ts';
import { departmentsRoutes } from './departments-routes.ts';
import { agencyUsersRoutes } from './routes/agency-users.ts';
import { businessUsersRoutes } from './routes/business-users.ts';
import { globalUsersRoutes } from './routes/global-users.ts';

/** Global, agency and business users, departments. */
export const usersRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  for (const routes of [businessUsersRoutes, agencyUsersRoutes, departmentsRoutes, globalUsersRoutes]) {
    await app.register(routes, deps);
  }
};

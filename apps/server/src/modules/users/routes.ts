import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../platform/deps.ts';
import { businessUsersRoutes } from './business-users-routes.ts';
import { departmentsRoutes } from './departments-routes.ts';
import { globalUsersRoutes } from './global-users-routes.ts';

/** Business and global users, departments. */
export const usersRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  for (const routes of [businessUsersRoutes, departmentsRoutes, globalUsersRoutes]) {
    await app.register(routes, deps);
  }
};

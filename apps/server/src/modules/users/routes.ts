import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../platform/deps.ts';
import { businessUsersRoutes } from './business-users-routes.ts';
import { departmentsRoutes } from './departments-routes.ts';
import { globalUsersRoutes } from './global-users-routes.ts';
import { pagesRoutes } from './pages-routes.ts';
import { phoneListsRoutes } from './phone-lists-routes.ts';
import { releaseNotesRoutes } from './release-notes-routes.ts';

/** Business and global users, departments, release notes, blacklist and whitelist, editable pages. */
export const usersRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  for (const routes of [
    businessUsersRoutes,
    departmentsRoutes,
    globalUsersRoutes,
    releaseNotesRoutes,
    phoneListsRoutes,
    pagesRoutes,
  ]) {
    await app.register(routes, deps);
  }
};

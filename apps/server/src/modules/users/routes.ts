import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../platform/deps.ts';
import { departmentsRoutes } from './departments-routes.ts';
import { pagesRoutes } from './pages-routes.ts';
import { phoneListsRoutes } from './phone-lists-routes.ts';
import { releaseNotesRoutes } from './release-notes-routes.ts';
import { agencyUsersRoutes } from './routes/agency-users.ts';
import { businessUsersRoutes } from './routes/business-users.ts';
import { globalUsersRoutes } from './routes/global-users.ts';

/** Global, agency and business users, departments; release notes, phone lists and pages until they move. */
export const usersRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  for (const routes of [
    businessUsersRoutes,
    agencyUsersRoutes,
    departmentsRoutes,
    globalUsersRoutes,
    releaseNotesRoutes,
    phoneListsRoutes,
    pagesRoutes,
  ]) {
    await app.register(routes, deps);
  }
};

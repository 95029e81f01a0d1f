// The set-up of the tests that walk every API route by role (capabilities.test.ts judges each route by its own
// declaration, route-capabilities.test.ts by a hand-written table): an app on a fresh database with both
// tenants, a session per role, and every account state at its most permissive so that only the role decides.
import type { TRoleKey } from '@stn/contracts/capabilities';
import type { RouteInfo } from '../src/platform/http/catalogue.ts';
import { createTestApp, seedTenants, sessionsForAllRoles, type TestApp } from './helpers.ts';

// A path parameter gets a value no row has, so that an allowed call changes nothing (404 or 422).
const PARAM_VALUES: Record<string, string> = { key: 'training', type: 'headerLogo', domain: 'nowhere.test' };
export const concrete = (url: string) =>
  url.replace(/:(\w+)/g, (_m, name: string) => PARAM_VALUES[name] ?? '999999');

export type RouteWalk = { t: TestApp; tokens: Record<TRoleKey, string>; routes: RouteInfo[] };

export async function routeWalk(): Promise<RouteWalk> {
  const t = await createTestApp();
  const seed = await seedTenants(t.db);
  const tokens = await sessionsForAllRoles(t, seed);
  // A state rule (departments switched off, say) answers 403 of its own, which is not the table's to judge.
  await t.pool.query(
    'update businesses set dep_enabled = true, has_sales_user_extension = true where id = $1',
    [seed.a.business.id],
  );
  await t.pool.query('update agencies set department_enabled = true where id = $1', [seed.a.agency.id]);
  const routes = t.app.routeCatalogue.filter((r) => r.url.startsWith('/api/v'));
  return { t, tokens, routes };
}

// Generated parity of the web navigation with the one rules table (contracts/capabilities): for each of
// the 13 roles, with every account state at its most permissive, a menu item shows exactly where `can`
// says yes, and the guard opens an area route exactly where `can` says yes, otherwise it sends the user
// to a screen the same user may open (never round in a loop).
import { can, ROLE_KEYS, subjectOf, type TRoleKey } from '@stn/contracts/capabilities';
import { type TUser, ZUser } from '@stn/contracts/profile';
import { ROLE_GROUP_OF, type TRoleGroup } from '@stn/contracts/roles';
import { describe, expect, it } from 'vitest';
import { type GuardResult, guard } from './guards.ts';
import { type MenuItem, menuFor } from './menus.ts';
import { pathOf, ROUTES, type RouteDef } from './route-table.ts';
import { MAIN_SITE, testAgency, testBusiness, testUser } from './test-fixtures.ts';

const SITE = MAIN_SITE;

/**
 * The full profile of a role with every state flag at its most permissive: both widgets, an agent of both
 * kinds, departments on, card payments configured, zapier enabled and paid for, the sales-user
 * extension, telephony set up (on the carrier sandbox), paid, no template, no open install wizard.
 */
function permissiveUser(key: TRoleKey): TUser {
  const subject = subjectOf(key);
  const group = ROLE_GROUP_OF[subject.role];
  return ZUser.parse(
    testUser({
      first_name: 'Pat',
      last_name: 'Parity',
      email: 'pat@example.test',
      role: subject.role,
      role_group: group,
      user_type: subject.user_type ?? null,
      agent_type: group === 'Business' ? 'agent' : null,
      settings: key === 'Custom' ? { custom_type_pages: [...(subject.pages ?? [])] } : {},
      carrier_sandbox: true,
      number_of_messages: 0,
      number_of_tasks: 0,
      agency:
        group === 'Admin'
          ? null
          : testAgency({ name: 'Acme', properties: { twProfileSid: 'BU1', twCampaignSid: 'CM1' } }),
      business: group === 'Business' ? testBusiness() : null,
    }),
  );
}

const groupOf = (key: TRoleKey): TRoleGroup => ROLE_GROUP_OF[subjectOf(key).role];
const leaves = (items: MenuItem[]): MenuItem[] =>
  items.flatMap((m) => (m.children ? leaves(m.children) : [m]));

/** Placeholder values for every param a route path may have. */
const PARAMS = { id: '5', install: '3', token: 'tok', installId: '3', slug: 'plan' };

/** The route a concrete path opens, as the router ranks them: static segments beat params. */
function routeOfPath(path: string): RouteDef | undefined {
  const segs = path.replace(/\/+$/, '').split('/').filter(Boolean);
  let best: { route: RouteDef; score: number } | undefined;
  for (const route of ROUTES) {
    const parts = route.path.split('/').filter(Boolean);
    const required = parts.filter((p) => !p.endsWith('?')).length;
    if (segs.length < required || segs.length > parts.length) continue;
    let score = 0;
    const ok = segs.every((seg, i) => {
      const part = parts[i] ?? '';
      if (part.startsWith(':')) return true;
      score += 1;
      return part.toLowerCase() === seg.toLowerCase();
    });
    if (ok && (!best || score > best.score)) best = { route, score };
  }
  return best?.route;
}

/** Guards a path and follows redirects; the list of paths visited, the last one allowed (or not, after 5). */
function follow(user: TUser, start: RouteDef, path: string): { hops: string[]; allowed: boolean } {
  const hops: string[] = [];
  let route: RouteDef | undefined = start;
  let current = path;
  for (let i = 0; i <= 5 && route; i++) {
    const result: GuardResult = guard({ user, site: SITE, route, path: current, search: '' });
    if ('allow' in result) return { hops, allowed: true };
    current = result.redirect;
    hops.push(current);
    route = routeOfPath(current);
  }
  return { hops, allowed: false };
}

describe('the role fixtures', () => {
  it.each(ROLE_KEYS)('%s gets a schema-valid profile of its own role key', (key) => {
    const user = permissiveUser(key);
    expect(user.role_group).toBe(groupOf(key));
  });

  it('routeOfPath finds every route from its own path', () => {
    for (const route of ROUTES)
      expect(routeOfPath(pathOf(route.name, PARAMS))?.name, route.name).toBe(route.name);
  });
});

describe('menu parity: an item shows exactly where the capability table says yes', () => {
  for (const area of ['Admin', 'Agency', 'Business'] as const) {
    const keys = ROLE_KEYS.filter((k) => groupOf(k) === area);
    // Every item any role of the area sees: the area's menu vocabulary.
    const items = new Map<string, MenuItem>();
    for (const key of keys) for (const m of leaves(menuFor(permissiveUser(key)))) items.set(m.route, m);

    it(`${area}: every item declares a capability`, () => {
      expect(items.size).toBeGreaterThan(0);
      for (const m of items.values()) expect(m.capability, m.route).toBeDefined();
    });

    for (const key of keys) {
      it(`${area}: ${key}`, () => {
        const user = permissiveUser(key);
        const shown = new Set(leaves(menuFor(user)).map((m) => m.route));
        const subject = subjectOf(key);
        for (const m of items.values()) {
          if (!m.capability) continue;
          expect(shown.has(m.route), `${key} ${m.route} (${m.capability})`).toBe(can(subject, m.capability));
        }
      });
    }
  }
});

describe('guard parity: a route opens exactly where the capability table says yes', () => {
  for (const key of ROLE_KEYS) {
    it(key, () => {
      const user = permissiveUser(key);
      const subject = subjectOf(key);
      const routes = ROUTES.filter((r) => r.roleGroup === user.role_group && r.capability);
      expect(routes.length).toBeGreaterThan(0);
      for (const route of routes) {
        const capability = route.capability as NonNullable<RouteDef['capability']>;
        const path = pathOf(route.name, PARAMS);
        const first = guard({ user, site: SITE, route, path, search: '' });
        const label = `${key} ${route.name} (${capability})`;
        if (can(subject, capability)) {
          expect(first, label).toEqual({ allow: true });
          continue;
        }
        expect(first, label).not.toEqual({ allow: true });
        const { hops, allowed } = follow(user, route, path);
        expect(allowed, `${label} → ${hops.join(' → ')}`).toBe(true);
        const landed = routeOfPath(hops.at(-1) ?? '');
        expect(landed?.roleGroup, `${label} → ${hops.join(' → ')}`).toBe(user.role_group);
        expect(landed?.name, label).not.toBe(route.name);
      }
    });
  }
});

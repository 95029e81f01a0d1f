// Route guards and the derived navigation predicates of spec 000 §4, as plain functions of
// (user, site data, route). No React and no router here: the router calls `guard` before every
// navigation and follows a redirect by navigating again (the target is guarded in turn).
//
// Decisions where the spec is silent (each is tested in guards.test.ts):
// - Host rule: order pages (layout 'order') go to the landing route when site data is loaded and the
//   host is not the main domain (spec 000 §2, "Order pages redirect..."). Unknown site data (null)
//   skips the rule; the order layout checks again once it has fetched site data.
// - Sign-in: public routes are open to everyone. Every other route needs a user; without one the
//   target is /login?redirect=<path + query, URL-encoded>.
// - Prefix rule: besides spec's PREFIX_SKIP list, 'not-found' (unknown paths must stay reachable) and
//   'email-verify' (a verification link must work for a signed-in user) skip it. Every other public
//   route is covered, so a signed-in user opening /login, /password/*, /register, /order, /trial or a
//   thank-you page is sent to their dashboard ('/' + role group lower-cased + '/'). The prefix is
//   compared case-insensitively, matching the router's case-insensitive paths.
// - Business and Agency state rules apply to area routes only (routes with a roleGroup), never to
//   public pages.
// - Business, unpaid: subscriptions, payment-methods, add-card and profile stay open (they are needed
//   to pay, or to change one's own password and language). There the install-wizard rule is not
//   applied, otherwise the two rules would bounce between each other.
// - Business, open install wizard: only the forced screen itself is open (installs/add, or
//   installs/<id> compared by path).
// - Agency: while unpaid, subscriptions, payment-methods, training and profile stay open. While the
//   telephony set-up is missing (not template), setup, subscriptions, payment-methods, training and
//   profile stay open (spec §6 keeps subscriptions and training enabled for non-set-up agencies).
// - Agency, "already set up" means has_twilio_setup: a template agency without one may still open setup.
// - Area empty paths (/admin, /business, /agency) go to AREA_DEFAULT last, so a state rule (pay,
//   set up, wizard) wins and the user lands on the right screen in one hop.
// - Rule 3 (role group of an area route) runs after the prefix rule as spec orders them; with this route
//   table it only fires for a route whose roleGroup disagrees with its own path prefix.
// - Capabilities (issue 7): after the state rules, a route whose declared capability the user lacks
//   (contracts/capabilities) is not reachable by URL. The user goes to a screen they may open: the
//   screen a state rule forces when one does, else the area default, else the first item of their menu
//   that the guard allows, else their profile. A screen a state rule forces (pay, set up, install
//   wizard) opens whatever the capability, so the two rules never bounce between each other.
import type { TUser } from '@stn/contracts/profile';
import type { TSiteData } from '@stn/contracts/site';
import { agencyMustPay, businessMustPay, isSetupComplete } from './account-state.ts';
import { menuFor, menuRoutes } from './menus.ts';
import { AREA_DEFAULT, PREFIX_SKIP, pathOf, type RouteDef, routeByName } from './route-table.ts';
import { userCan } from './user-can.ts';

export type GuardInput = {
  /** The signed-in user, or null when nobody is signed in. */
  user: TUser | null;
  /** Site data of the current host, or null while it is unknown. */
  site: TSiteData | null;
  /** The matched route. */
  route: RouteDef;
  /** The concrete path being opened, e.g. '/business/installs/12'. */
  path: string;
  /** The query string, with or without its leading '?' ('' when none). */
  search: string;
  /** Route params; not needed by the rules today (paths are compared instead). */
  params?: Record<string, string>;
};

export type GuardResult = { allow: true } | { redirect: string };

const ALLOW: GuardResult = { allow: true };
const to = (name: string, params: Record<string, string | number> = {}): GuardResult => ({
  redirect: pathOf(name, params),
});

/** Routes that skip the role-group prefix rule: spec's PREFIX_SKIP plus not-found and email-verify. */
export const GUARD_PREFIX_SKIP: ReadonlySet<string> = new Set([...PREFIX_SKIP, 'not-found', 'email-verify']);

/** Business routes open while the business must pay. */
export const BUSINESS_UNPAID_ALLOWED: ReadonlySet<string> = new Set([
  'business.subscriptions',
  'business.payment-methods',
  'business.add-card',
  'business.profile',
]);

/** Agency routes open while the agency must pay (training is always open, by its own rule). */
export const AGENCY_UNPAID_ALLOWED: ReadonlySet<string> = new Set([
  'agency.subscriptions',
  'agency.payment-methods',
  'agency.profile',
]);

/** Agency routes open while the telephony-provider set-up is missing (training: always open). */
export const AGENCY_SETUP_ALLOWED: ReadonlySet<string> = new Set([...AGENCY_UNPAID_ALLOWED, 'agency.setup']);

const AREA_ROUTES = new Set<string>(['admin', 'business', 'agency']);

/** '/' + lower-cased role group + '/' (spec 000 §2 Layout). */
export function dashboardLink(user: TUser): string {
  return `/${user.role_group.toLowerCase()}/`;
}

/** The sign-in path that brings the user back to `path` + `search` afterwards. */
export function loginRedirect(path: string, search = ''): string {
  const query = search && !search.startsWith('?') ? `?${search}` : search;
  return `${pathOf('login')}?redirect=${encodeURIComponent(path + (query === '?' ? '' : query))}`;
}

/**
 * Spec §4: navigation is allowed for an Agency with free fee or active Stripe and with Twilio set-up or
 * template; for a Business whose agency has no payment key, or which is free, or has active Stripe.
 * Admins may always navigate; nobody signed in may not. (Unlike the business guard, the spec names no
 * template exception here, so none is made.)
 */
export function canNavigate(user: TUser | null): boolean {
  if (!user) return false;
  if (user.role_group === 'Agency') {
    const paid = user.agency?.free_fee === true || user.stripe_active;
    return paid && isSetupComplete(user);
  }
  if (user.role_group === 'Business') {
    return !user.agency_has_stripe_config || user.business?.free_fee === true || user.stripe_active;
  }
  return true;
}

/**
 * Spec §4: adding a business is allowed for Admin, or for an active agency that is paid up or free,
 * has Twilio set-up or is a template, and has free installs available (`availableInstalls` > 0, from
 * the agency install-stats call). Business users may not.
 */
export function canAddBusiness(user: TUser | null, availableInstalls: number): boolean {
  if (!user) return false;
  if (user.role_group === 'Admin') return true;
  if (user.role_group !== 'Agency' || !user.agency?.active) return false;
  const paid = user.agency.free_fee || user.stripe_active;
  return paid && isSetupComplete(user) && availableInstalls > 0;
}

/** Spec §2: order pages are only served on the main domain (unknown site data: allowed for now). */
export function orderPageAllowed(route: RouteDef, site: TSiteData | null): boolean {
  return route.layout !== 'order' || !site || site.isMainDomain;
}

const trimSlash = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p);

function hasPrefix(path: string, group: string): boolean {
  const p = path.toLowerCase();
  return p === `/${group}` || p.startsWith(`/${group}/`);
}

/** The state rules' verdict: a redirect, a screen they force open, or nothing to say (null). */
type StateVerdict = GuardResult | 'forced' | null;

/** The path a state rule forces every other screen of the area to, if one does. */
function forcedPath(user: TUser): string | null {
  if (user.role_group === 'Business') {
    if (businessMustPay(user)) return pathOf('business.subscriptions');
    const wizard = user.open_install_wizard;
    if (wizard === true) return pathOf('business.installs.add');
    if (wizard !== false) return pathOf('business.installs.edit', { id: wizard });
  }
  if (user.role_group === 'Agency') {
    if (agencyMustPay(user)) return pathOf('agency.subscriptions');
    if (!isSetupComplete(user)) return pathOf('agency.setup');
  }
  return null;
}

function businessRules(user: TUser, input: GuardInput): StateVerdict {
  const name = input.route.name;
  if (businessMustPay(user)) {
    if (name === 'business.subscriptions') return 'forced';
    return BUSINESS_UNPAID_ALLOWED.has(name) ? null : to('business.subscriptions');
  }
  const wizard = user.open_install_wizard;
  if (wizard !== false) {
    const target =
      wizard === true ? pathOf('business.installs.add') : pathOf('business.installs.edit', { id: wizard });
    return trimSlash(input.path) === target ? 'forced' : { redirect: target };
  }
  return null;
}

function agencyRules(user: TUser, input: GuardInput): StateVerdict {
  const { route } = input;
  if (route.name === 'agency.training') return null;
  if (agencyMustPay(user)) {
    if (route.name === 'agency.subscriptions') return 'forced';
    return AGENCY_UNPAID_ALLOWED.has(route.name) ? null : to('agency.subscriptions');
  }
  if (!isSetupComplete(user)) {
    if (route.name === 'agency.setup') return 'forced';
    return AGENCY_SETUP_ALLOWED.has(route.name) ? null : to('agency.setup');
  }
  if (route.name === 'agency.setup' && user.has_twilio_setup) {
    return userCan(user, 'landingPage.manage') ? to('agency.landing-page') : FALLBACK;
  }
  if (route.zapier && !user.agency?.zapier_enabled) return FALLBACK;
  return null;
}

/**
 * Whether `path` is the screen a state rule holds the user on (pay, set up): that screen explains what is
 * missing and who can fix it (app/held-screen.tsx). The install wizard is a screen of its own, not a hold.
 */
export function isHeldScreen(user: TUser | null, path: string): boolean {
  if (!user || user.role_group === 'Admin') return false;
  const held = user.role_group === 'Agency' || businessMustPay(user);
  return held && forcedPath(user) === trimSlash(path);
}

/** Send the user to a screen they may open (see fallback). */
const FALLBACK: GuardResult = { redirect: '' };

/** The decision for a route before any fallback is resolved. */
function decide(input: GuardInput): GuardResult {
  const { user, site, route, path, search } = input;

  if (!orderPageAllowed(route, site)) return to('landing');

  if (!user) return route.public ? ALLOW : { redirect: loginRedirect(path, search) };

  const group = user.role_group.toLowerCase();
  if (!GUARD_PREFIX_SKIP.has(route.name) && !hasPrefix(path, group)) return { redirect: dashboardLink(user) };

  if (route.public || !route.roleGroup) return ALLOW;
  if (route.roleGroup !== user.role_group) return { redirect: '/' };

  const state =
    user.role_group === 'Business'
      ? businessRules(user, input)
      : user.role_group === 'Agency'
        ? agencyRules(user, input)
        : null;
  if (state === 'forced') return ALLOW;
  if (state) return state;

  if (route.capability && !userCan(user, route.capability)) return FALLBACK;
  if (route.sandbox && !user.carrier_sandbox) return FALLBACK;
  if (AREA_ROUTES.has(route.name)) return FALLBACK;
  return ALLOW;
}

/**
 * Where a user goes instead of a screen they may not open, or from an area's empty path: the screen a
 * state rule forces, else the area default, else the first menu item the guard allows, else the profile.
 */
export function fallbackPath(user: TUser, site: TSiteData | null = null): string {
  const forced = forcedPath(user);
  if (forced) return forced;
  const area = user.role_group.toLowerCase() as keyof typeof AREA_DEFAULT;
  for (const name of [AREA_DEFAULT[area], ...menuRoutes(menuFor(user))]) {
    const path = pathOf(name);
    const result = decide({ user, site, route: routeByName(name), path, search: '' });
    if ('allow' in result) return path;
  }
  return pathOf(`${area}.profile`);
}

/**
 * Decides a navigation. Rules, first match wins:
 * 0. order page on a host that is not the main domain → landing;
 * 1. nobody signed in: public route → allow, else → /login?redirect=<path + query>;
 * 2. path without the user's '/<role group>' prefix (GUARD_PREFIX_SKIP excepted) → dashboardLink;
 * 3. public route → allow; area route of another role group → '/';
 * 4. Business area: must pay → subscriptions; open install wizard → installs/add or installs/<id>;
 * 5. Agency area: must pay → subscriptions (training exempt); no set-up → setup; set-up agency on
 *    setup → landing-page; zapier route without zapier enabled → fallback;
 * 6. a route whose capability the user lacks, or a sandbox route (Sandbox Phones) while the user's agency
 *    does not use the carrier sandbox → fallback (a screen forced by 4 or 5 is exempt);
 * 7. area empty path (/admin, /business, /agency) → fallback, which is AREA_DEFAULT when allowed;
 * 8. allow.
 */
export function guard(input: GuardInput): GuardResult {
  const result = decide(input);
  if (result !== FALLBACK || !input.user) return result;
  return { redirect: fallbackPath(input.user, input.site) };
}

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
import type { TUser } from '@stn/contracts/profile';
import type { TSiteData } from '@stn/contracts/site';
import { AREA_DEFAULT, PREFIX_SKIP, pathOf, type RouteDef } from './route-table.ts';

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

/** Spec §4: set-up is complete unless an Agency user has no Twilio set-up and the agency is not a template. */
export function isSetupComplete(user: TUser | null): boolean {
  if (user?.role_group !== 'Agency') return true;
  return user.has_twilio_setup || user.agency?.is_template === true;
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

/** Whether a Business user must pay before using the area (spec §4, template businesses excepted). */
export function businessMustPay(user: TUser): boolean {
  const business = user.business;
  return (
    user.agency_has_stripe_config && !business?.free_fee && !user.stripe_active && !business?.is_template
  );
}

/** Whether an Agency user must pay before using the area (spec §4). */
export function agencyMustPay(user: TUser): boolean {
  return !user.agency?.free_fee && !user.stripe_active;
}

const trimSlash = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p);

function hasPrefix(path: string, group: string): boolean {
  const p = path.toLowerCase();
  return p === `/${group}` || p.startsWith(`/${group}/`);
}

function businessRules(user: TUser, input: GuardInput): GuardResult | null {
  const name = input.route.name;
  if (businessMustPay(user)) {
    return BUSINESS_UNPAID_ALLOWED.has(name) ? ALLOW : to('business.subscriptions');
  }
  const wizard = user.open_install_wizard;
  if (wizard !== false) {
    const target =
      wizard === true ? pathOf('business.installs.add') : pathOf('business.installs.edit', { id: wizard });
    return trimSlash(input.path) === target ? ALLOW : { redirect: target };
  }
  return null;
}

function agencyRules(user: TUser, input: GuardInput): GuardResult | null {
  const { route } = input;
  if (route.name === 'agency.training') return ALLOW;
  if (agencyMustPay(user)) {
    return AGENCY_UNPAID_ALLOWED.has(route.name) ? ALLOW : to('agency.subscriptions');
  }
  if (!isSetupComplete(user)) {
    return AGENCY_SETUP_ALLOWED.has(route.name) ? ALLOW : to('agency.setup');
  }
  if (route.name === 'agency.setup' && user.has_twilio_setup) return to('agency.landing-page');
  if (route.agencyAdminOnly && user.role !== 'AgencyAdmin') return to('agency.business.accounts');
  if (route.zapier && !user.agency?.zapier_enabled) return to('agency.business.accounts');
  return null;
}

/**
 * Decides a navigation. Rules, first match wins:
 * 0. order page on a host that is not the main domain → landing;
 * 1. nobody signed in: public route → allow, else → /login?redirect=<path + query>;
 * 2. path without the user's '/<role group>' prefix (GUARD_PREFIX_SKIP excepted) → dashboardLink;
 * 3. public route → allow; area route of another role group → '/';
 * 4. Business area: must pay → subscriptions; open install wizard → installs/add or installs/<id>;
 * 5. Agency area: training → allow; must pay → subscriptions; no set-up → setup; set-up agency on
 *    setup → landing-page; AgencyAdmin-only route for others, or zapier route without zapier
 *    enabled → active business accounts;
 * 6. area empty path (/admin, /business, /agency) → AREA_DEFAULT;
 * 7. allow.
 */
export function guard(input: GuardInput): GuardResult {
  const { user, site, route, path, search } = input;

  if (!orderPageAllowed(route, site)) return to('landing');

  if (!user) return route.public ? ALLOW : { redirect: loginRedirect(path, search) };

  const group = user.role_group.toLowerCase();
  if (!GUARD_PREFIX_SKIP.has(route.name) && !hasPrefix(path, group)) return { redirect: dashboardLink(user) };

  if (route.public || !route.roleGroup) return ALLOW;
  if (route.roleGroup !== user.role_group) return { redirect: '/' };

  const stateRule =
    user.role_group === 'Business'
      ? businessRules(user, input)
      : user.role_group === 'Agency'
        ? agencyRules(user, input)
        : null;
  if (stateRule) return stateRule;

  if (AREA_ROUTES.has(route.name)) return to(AREA_DEFAULT[route.name as keyof typeof AREA_DEFAULT]);
  return ALLOW;
}

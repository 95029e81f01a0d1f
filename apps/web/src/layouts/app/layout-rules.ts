// Pure rules of the app layout (spec 000 §2 "Layout", §4 Impersonation, §8 banners, §9 breakpoints).
// No React, no browser globals: the components read these, and layout-rules.test.ts tests them.
import { USAGE_WARNING_RATIO } from '@stn/contracts/constants';
import type { TUser } from '@stn/contracts/profile';
import type { TRoleGroup } from '@stn/contracts/roles';
import { userCan } from '../../lib/nav/user-can.ts';

// ---- Breakpoints (spec 000 §9) ----

/** The sidebar opens after a route change on screens at least this wide, and closes otherwise. */
export const SIDEBAR_BREAKPOINT = 992;
/** At first load the sidebar starts open when the window is wider than this. */
export const SIDEBAR_INITIAL_OPEN_ABOVE = 700;
/** Sidebar links are short (40 px) when the body is lower than this, else tall (55 px). */
export const SHORT_BODY_BELOW = 700;
export const LINK_HEIGHT_SHORT = 40;
export const LINK_HEIGHT_TALL = 55;
/** Debounce of the impersonation drawer's search box (the table search debounce of spec §9). */
export const SEARCH_DEBOUNCE_MS = 250;

export function sidebarInitiallyOpen(windowWidth: number): boolean {
  return windowWidth > SIDEBAR_INITIAL_OPEN_ABOVE;
}

export function sidebarOpenAfterRouteChange(windowWidth: number): boolean {
  return windowWidth >= SIDEBAR_BREAKPOINT;
}

/** A height of 0 means "not measured yet" (first render) and counts as a tall body. */
export function sidebarLinkHeight(bodyHeight: number): number {
  return bodyHeight > 0 && bodyHeight < SHORT_BODY_BELOW ? LINK_HEIGHT_SHORT : LINK_HEIGHT_TALL;
}

// ---- Top bar ----

/** Agency or business name; admins (and a tenant without a name) see the site title. */
export function tenantName(user: TUser, siteTitle: string): string {
  if (user.role_group === 'Agency') return user.agency?.name || siteTitle;
  if (user.role_group === 'Business') return user.business?.name || siteTitle;
  return siteTitle;
}

/** First letters of first and last name, else '?' (spec 000 §3). */
export function initials(user: Pick<TUser, 'first_name' | 'last_name'>): string {
  const letters = `${user.first_name?.trim().charAt(0) ?? ''}${user.last_name?.trim().charAt(0) ?? ''}`;
  return letters ? letters.toUpperCase() : '?';
}

/** '/{group}/profile' for the profile dropdown. */
export function profilePath(roleGroup: TRoleGroup): string {
  return `/${roleGroup.toLowerCase()}/profile`;
}

// ---- Usage (calls and messages of a business) ----

export type UsageLevel = 'ok' | 'warning' | 'limit';
export type Usage = {
  used: number;
  /** null: no cap, shown as '∞'. */
  cap: number | null;
  level: UsageLevel;
};

/**
 * Usage against a monthly cap. Decision: a cap of 0 or a missing cap means "no cap" ('∞', no banner, never
 * red) — the spec's "infinity sign when there is no cap"; read literally, a cap of 0 would otherwise be
 * "reached" from the first day and show the limit banner for good. At or over the cap: 'limit' (red count,
 * danger banner); at 90% or more: 'warning' (warning banner).
 */
export function usageOf(used: number | null | undefined, cap: number | null | undefined): Usage {
  const u = Math.max(0, used ?? 0);
  if (!cap || cap <= 0) return { used: u, cap: null, level: 'ok' };
  if (u >= cap) return { used: u, cap, level: 'limit' };
  if (u >= cap * USAGE_WARNING_RATIO) return { used: u, cap, level: 'warning' };
  return { used: u, cap, level: 'ok' };
}

export function usageText(usage: Usage): string {
  return `${usage.used} / ${usage.cap ?? '∞'}`;
}

// ---- Banners ----

/**
 * Banners are hidden on the subscriptions pages and, for agencies, on setup (spec 000 §8). The desktop
 * notification prompt counts as a banner here.
 */
export function bannersHidden(routeName: string | undefined, roleGroup: TRoleGroup): boolean {
  if (!routeName) return false;
  if (routeName === 'business.subscriptions' || routeName === 'agency.subscriptions') return true;
  return roleGroup === 'Agency' && routeName === 'agency.setup';
}

export type AgencySmsBanner = 'twilio-profile' | 'sms-registration' | null;

/** The agency properties of spec 000 §3 that the banners read, when the profile carries them. */
type AgencyProperties = { twProfileSid?: string | null; twCampaignSid?: string | null };

/**
 * Agency SMS-registration banners (spec 000 §8): no provider profile → 'twilio-profile'; a profile but no
 * campaign → 'sms-registration'.
 *
 * Read from the profile's agency.properties (twProfileSid, twCampaignSid).
 * Shown to whoever holds 'agencyTelephony.manage' (both links go to its routes) and never to template
 * agencies (they need no telephony set-up, spec §4).
 */
export function agencySmsBanner(user: TUser): AgencySmsBanner {
  if (user.role_group !== 'Agency' || !userCan(user, 'agencyTelephony.manage') || user.agency?.is_template) {
    return null;
  }
  // An agency without an account yet is on Setup first (ADR 053).
  if (!user.has_twilio_setup) return null;
  const props: AgencyProperties | undefined = user.agency?.properties;
  // Registration is the carriers' rule for a real Twilio account; the sandbox holds an agency to it only
  // once it has begun registering (ADR 092: a submitted profile), so the demo texts as before.
  if (user.carrier_sandbox && !props?.twProfileSid) return null;
  if (!props?.twProfileSid) return 'twilio-profile';
  if (!props.twCampaignSid) return 'sms-registration';
  return null;
}

// ---- Impersonation (spec 000 §4) ----

/** Where to go after impersonation starts: an agency → /agency; a template → automation; else /business. */
export function impersonationTarget(answer: { role_group: TRoleGroup; is_template: boolean }): string {
  if (answer.role_group === 'Agency') return '/agency';
  if (answer.role_group === 'Admin') return '/admin';
  return answer.is_template ? '/business/automation' : '/business';
}

/** Where to go after impersonation stops: the area of the stored (impersonator's) role group. */
export function areaPath(roleGroup: TRoleGroup): string {
  return `/${roleGroup.toLowerCase()}`;
}

/**
 * Who sees the impersonation toggle: whoever holds 'impersonate' (the Admin and Agency role groups), and
 * not while impersonating, since an impersonation cannot start another one (the server answers 403).
 */
export function canImpersonate(user: TUser, impersonating: boolean): boolean {
  return !impersonating && userCan(user, 'impersonate');
}

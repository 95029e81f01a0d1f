// Sidebar menus of spec 000 §2 "Menus per role" with the visibility rules of §6 "Menu visibility".
// Plain functions over the profile (no React): the layout renders what menuFor returns.
//
// Who sees an item is the capability its route declares (contracts/capabilities, asked through
// userCan); on top of that the account states of spec §6 hide items (widget type, agent type,
// departments, card payments, zapier, template accounts) or disable them (agency set-up). Each area has
// one list in the spec's order; a role's menu is that list filtered, so no role is named here except
// where the spec orders or hides by role (SalesUser).

import type { TCapability } from '@stn/contracts/capabilities';
import { roleKey } from '@stn/contracts/capabilities';
import type { TUser } from '@stn/contracts/profile';
import {
  departmentsEnabled,
  hasPhoneWidget,
  hasTextWidget,
  isSetupComplete,
  isSmsAgent,
  isTemplateAccount,
  isVoiceAgent,
  zapierVisible,
} from './account-state.ts';
import { ROUTES, routeByName } from './route-table.ts';
import { userCan } from './user-can.ts';

export type MenuBadge = 'messages' | 'tasks';

export type MenuItem = {
  /** Unique within one menu: the route name for links, `group:<name>` for groups. */
  key: string;
  /** Route name from route-table.ts; a group links to its first child. */
  route: string;
  /** i18n key: the route's title key (a group's is the title of its main route). */
  title: string;
  /** The capability the item's route declares (links only; a group shows while a child does). */
  capability?: TCapability;
  icon?: string;
  children?: MenuItem[];
  /** Shown but not clickable (agencies without telephony set-up, spec §6). */
  disabled?: boolean;
  /** Counter shown beside the item: user.number_of_messages or user.number_of_tasks. */
  badge?: MenuBadge;
  /** Further route names (forms, editors, sub-pages without a link of their own) that highlight this item. */
  activeOn?: string[];
};

export type MenuContext = {
  /** Overrides the set-up state (defaults to isSetupComplete(user), spec §4). */
  setUp?: boolean;
};

// ---- Visibility predicates (spec §6) ----

/** Messaging: the inbox capability, a text widget, and an SMS agent or someone who sees every conversation. */
export function canMessage(user: TUser): boolean {
  return (
    userCan(user, 'inbox.use') && hasTextWidget(user) && (isSmsAgent(user) || userCan(user, 'inbox.all'))
  );
}

/** Calls: the calls capability, a phone widget, and a voice agent or someone who sees every call. */
export function canCall(user: TUser): boolean {
  return (
    userCan(user, 'calls.use') && hasPhoneWidget(user) && (isVoiceAgent(user) || userCan(user, 'calls.all'))
  );
}

// ---- Item builders ----

type ItemDef = { icon?: string; badge?: MenuBadge; activeOn?: string[] };

const DEFS: Record<string, ItemDef> = {
  // Admin
  'admin.agency.accounts': { icon: 'building', activeOn: ['admin', 'admin.agency.edit'] },
  'admin.agency.archived': { icon: 'archive' },
  'admin.agency.add': { icon: 'plus' },
  'admin.business': { icon: 'briefcase', activeOn: ['admin.business.edit'] },
  'admin.business.add': { icon: 'plus' },
  'admin.settings': { icon: 'cog' },
  'admin.whitelabel': { icon: 'globe' },
  'admin.training': { icon: 'graduation-cap' },
  'admin.blacklist': { icon: 'ban' },
  'admin.whitelist': { icon: 'check-circle' },
  'admin.users': { icon: 'users', activeOn: ['admin.users.create', 'admin.users.edit'] },
  'admin.releaseNote': {
    icon: 'megaphone',
    activeOn: ['admin.releaseNote.create', 'admin.releaseNote.edit'],
  },
  // Agency
  'agency.business.accounts': { icon: 'briefcase', activeOn: ['agency', 'agency.business.edit'] },
  'agency.business.archived': { icon: 'archive' },
  'agency.business.deleted': { icon: 'trash' },
  'agency.business.add': { icon: 'plus' },
  'agency.dashboard': { icon: 'chart' },
  'agency.landing-page': { icon: 'layout' },
  'agency.international': { icon: 'globe' },
  'agency.plans': { icon: 'layers', activeOn: ['agency.plans.add', 'agency.plans.edit'] },
  'agency.packages': { icon: 'package', activeOn: ['agency.packages.add', 'agency.packages.edit'] },
  'agency.zapier': { icon: 'zap' },
  'agency.settings': { icon: 'cog', activeOn: ['agency.settings.notification'] },
  'agency.subscriptions': { icon: 'credit-card' },
  'agency.payment-methods': { icon: 'wallet' },
  'agency.popup': { icon: 'window' },
  'agency.users': { icon: 'users', activeOn: ['agency.users.create', 'agency.users.edit'] },
  'agency.integrations': { icon: 'plug' },
  'agency.twilioProfile': {
    icon: 'id-card',
    activeOn: ['agency.twilioProfile.create', 'agency.twilioProfile.edit'],
  },
  'agency.sms-registration': { icon: 'clipboard' },
  'agency.training': { icon: 'graduation-cap' },
  // Business
  'business.messaging': { icon: 'message', badge: 'messages', activeOn: ['business'] },
  'business.dashboard': { icon: 'chart' },
  'business.tasks': { icon: 'tasks', badge: 'tasks' },
  'business.contacts': {
    icon: 'address-book',
    activeOn: ['business.contacts.create', 'business.contacts.edit', 'business.contacts.fields'],
  },
  'business.broadcast': {
    icon: 'broadcast',
    activeOn: [
      'business.broadcast.create',
      'business.broadcast.edit',
      'business.broadcast.duplicate',
      'business.broadcast.report',
    ],
  },
  'business.calls': { icon: 'phone' },
  'business.schedule.calls': { icon: 'calendar' },
  'business.voice-records': { icon: 'voicemail' },
  'business.sandbox-phones': { icon: 'device-mobile' },
  'business.automation': {
    icon: 'robot',
    activeOn: ['business.automation.create', 'business.automation.edit', 'business.automation.share'],
  },
  'business.leadForms': { icon: 'form', activeOn: ['business.leadForms.create', 'business.leadForms.edit'] },
  'business.installs': {
    icon: 'code',
    activeOn: [
      'business.installs.archived',
      'business.installs.deleted',
      'business.installs.add',
      'business.installs.edit',
      'business.installs.forms',
      'business.installs.forms.create',
      'business.installs.forms.edit',
    ],
  },
  'business.setting': { icon: 'cog' },
  'business.numbers': { icon: 'hash', activeOn: ['business.numbers.edit', 'business.numbers.verification'] },
  'business.tags': { icon: 'tag' },
  'business.calls-report': { icon: 'report' },
  'business.subscriptions': { icon: 'credit-card' },
  'business.packages': { icon: 'package' },
  'business.payment-methods': { icon: 'wallet' },
  'business.users': { icon: 'users', activeOn: ['business.users.create', 'business.users.edit'] },
  'business.departments': {
    icon: 'sitemap',
    activeOn: ['business.departments.create', 'business.departments.edit'],
  },
  'business.templates': {
    icon: 'file-text',
    activeOn: ['business.templates.create', 'business.templates.edit'],
  },
  'business.blacklist': { icon: 'ban' },
  'business.whitelist': { icon: 'check-circle' },
};

type Slot = MenuItem | null | undefined | false;

function compact(xs: Slot[]): MenuItem[] {
  return xs.filter((x): x is MenuItem => Boolean(x));
}

/** Whether the user holds the capability a route declares (routes declaring none are open to the area). */
export function mayOpen(user: TUser, route: string): boolean {
  const { capability } = routeByName(route);
  return capability === undefined || userCan(user, capability);
}

/** The item of a route, or null when the user lacks the route's capability. */
function item(user: TUser, route: string, extra: ItemDef = {}): MenuItem | null {
  if (!mayOpen(user, route)) return null;
  const def = { ...DEFS[route], ...extra };
  const { title, capability } = routeByName(route);
  const m: MenuItem = { key: route, route, title };
  if (capability) m.capability = capability;
  if (def.icon) m.icon = def.icon;
  if (def.badge) m.badge = def.badge;
  const activeOn = def.activeOn?.filter((r) => mayOpen(user, r));
  if (activeOn?.length) m.activeOn = activeOn;
  return m;
}

/**
 * A collapsible group titled after `titleRoute`, linking to its first visible child. Hidden children are
 * dropped; an empty group disappears; a group left with one child is replaced by that child.
 */
function group(name: string, titleRoute: string, icon: string, children: Slot[]): MenuItem | null {
  const kids = compact(children);
  const [first] = kids;
  if (!first) return null;
  if (kids.length === 1) return { ...first, icon: first.icon ?? icon };
  return {
    key: `group:${name}`,
    route: first.route,
    title: routeByName(titleRoute).title,
    icon,
    children: kids,
  };
}

// ---- Admin ----

function adminMenu(user: TUser): MenuItem[] {
  const i = (route: string) => item(user, route);
  return compact([
    group('agency', 'admin.agency.accounts', 'building', [
      i('admin.agency.accounts'),
      i('admin.agency.archived'),
      i('admin.agency.add'),
    ]),
    // Not in spec §2's admin menu, but screens of the admin area a person must be able to reach (ADR 053).
    group('business', 'admin.business', 'briefcase', [i('admin.business'), i('admin.business.add')]),
    i('admin.whitelabel'),
    i('admin.training'),
    i('admin.blacklist'),
    i('admin.whitelist'),
    i('admin.users'),
    i('admin.releaseNote'),
    i('admin.settings'),
  ]);
}

// ---- Agency ----

/** What a template agency keeps of its role's menu. */
const TEMPLATE_AGENCY_KEYS = new Set(['group:business-accounts', 'agency.training']);

function agencyMenu(user: TUser): MenuItem[] {
  const menu = agencyItems(user);
  return user.agency?.is_template ? menu.filter((m) => TEMPLATE_AGENCY_KEYS.has(m.key)) : menu;
}

/** The AgencyAdmin menu of spec §2, which orders every agency item; other roles see a subset. */
function agencyItems(user: TUser): MenuItem[] {
  const i = (route: string) => item(user, route);
  const subscriptions = !user.agency?.free_fee;
  const card = user.agency_has_stripe_config;
  return compact([
    group('business-accounts', 'agency.business.accounts', 'briefcase', [
      i('agency.business.accounts'),
      i('agency.business.archived'),
      i('agency.business.deleted'),
      i('agency.business.add'),
    ]),
    i('agency.dashboard'),
    i('agency.landing-page'),
    i('agency.international'),
    i('agency.plans'),
    i('agency.packages'),
    zapierVisible(user) && i('agency.zapier'),
    group('settings', 'agency.settings', 'cog', [
      i('agency.settings'),
      subscriptions && i('agency.subscriptions'),
      card && i('agency.payment-methods'),
      i('agency.popup'),
      i('agency.users'),
      i('agency.integrations'),
      i('agency.twilioProfile'),
      i('agency.sms-registration'),
    ]),
    i('agency.training'),
  ]);
}

/** Non-set-up agencies: every item disabled except these; a group stays enabled while a child is. */
const SETUP_EXEMPT = new Set(['agency.subscriptions', 'agency.training']);

function disableForSetup(items: MenuItem[]): MenuItem[] {
  return items.map((m) => {
    if (m.children) {
      const children = disableForSetup(m.children);
      return children.every((c) => c.disabled) ? { ...m, children, disabled: true } : { ...m, children };
    }
    return SETUP_EXEMPT.has(m.route) ? m : { ...m, disabled: true };
  });
}

// ---- Business ----

/** Sub-screens of the settings page: they highlight its item wherever the user may open them. */
const SETTING_PAGES = ROUTES.filter((r) => r.name.startsWith('business.setting.')).map((r) => r.name);

function businessItems(user: TUser): MenuItem[] {
  const i = (route: string, extra?: ItemDef) => item(user, route, extra);
  // Spec §6: contacts and tags are hidden from sales users unless the business has the extension.
  const salesHidden = roleKey(user) === 'SalesUser' && !user.business?.has_sales_user_extension;
  const text = hasTextWidget(user);
  const card = user.agency_has_stripe_config;
  const contacts = !salesHidden && i('business.contacts');
  const calls =
    canCall(user) &&
    group('calls', 'business.calls', 'phone', [
      i('business.calls'),
      i('business.schedule.calls'),
      i('business.voice-records'),
      user.carrier_sandbox && i('business.sandbox-phones'),
    ]);
  // Spec §2 orders the SalesUser menu "messaging, tasks, calls group, contacts"; every other role
  // follows the BusinessAdmin order, where contacts come before calls.
  const callsFirst = roleKey(user) === 'SalesUser';
  return compact([
    canMessage(user) && i('business.messaging'),
    i('business.dashboard'),
    i('business.tasks'),
    callsFirst ? calls : contacts,
    callsFirst ? contacts : null,
    text && i('business.broadcast'),
    callsFirst ? null : calls,
    i('business.automation'),
    i('business.leadForms'),
    i('business.installs'),
    group('settings', 'business.setting', 'cog', [
      i('business.setting', { activeOn: SETTING_PAGES }),
      i('business.numbers'),
      !salesHidden && i('business.tags'),
      i('business.calls-report'),
      !user.business?.free_fee && card && i('business.subscriptions'),
      card && i('business.packages'),
      card && i('business.payment-methods'),
      i('business.users'),
      departmentsEnabled(user) && i('business.departments'),
      text && i('business.templates'),
      i('business.blacklist'),
      i('business.whitelist'),
    ]),
  ]);
}

/** What a template business keeps of its role's menu, flat and in this order. */
export const TEMPLATE_BUSINESS_ROUTES = ['business.automation', 'business.templates'] as const;

function businessMenu(user: TUser): MenuItem[] {
  const menu = businessItems(user);
  if (!isTemplateAccount(user)) return menu;
  const present = new Set(menuRoutes(menu));
  return compact(TEMPLATE_BUSINESS_ROUTES.filter((r) => present.has(r)).map((r) => item(user, r)));
}

// ---- Entry points ----

/** The sidebar menu of a signed-in user (spec 000 §2 "Menus per role", §6 "Menu visibility"). */
export function menuFor(user: TUser, ctx: MenuContext = {}): MenuItem[] {
  switch (user.role_group) {
    case 'Admin':
      return adminMenu(user);
    case 'Agency': {
      const menu = agencyMenu(user);
      return (ctx.setUp ?? isSetupComplete(user)) ? menu : disableForSetup(menu);
    }
    case 'Business':
      return businessMenu(user);
    default:
      return [];
  }
}

/** Every route name a menu links to, depth first (groups contribute their children only). */
export function menuRoutes(items: MenuItem[]): string[] {
  return items.flatMap((m) => (m.children ? menuRoutes(m.children) : [m.route]));
}

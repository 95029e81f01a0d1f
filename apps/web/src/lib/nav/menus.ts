// Sidebar menus of spec 000 §2 "Menus per role" with the visibility rules of §6 "Menu visibility".
// Plain functions over the profile (no React): the layout renders what menuFor returns.

import type { TUser } from '@stn/contracts/profile';
import type { TCustomTypePage } from '@stn/contracts/roles';
import { isSetupComplete } from './guards.ts';
import { routeByName } from './route-table.ts';

export type MenuBadge = 'messages' | 'tasks';

export type MenuItem = {
  /** Unique within one menu: the route name for links, `group:<name>` for groups. */
  key: string;
  /** Route name from route-table.ts; a group links to its first child. */
  route: string;
  /** i18n key: the route's title key (a group's is the title of its main route). */
  title: string;
  icon?: string;
  children?: MenuItem[];
  /** Shown but not clickable (agencies without telephony set-up, spec §6). */
  disabled?: boolean;
  /** Counter shown beside the item: user.number_of_messages or user.number_of_tasks. */
  badge?: MenuBadge;
  /** Further route names (forms, editors, sub-pages without a link of their own) that highlight this item. */
  activeOn?: string[];
};

export type RoleKey =
  | 'SuperAdmin'
  | 'Admin'
  | 'AgencyAdmin'
  | 'AccountManager'
  | 'FinanaceManager'
  | 'MarketingManager'
  /** AgencyUser without a known user_type. */
  | 'AgencyUser'
  | 'BusinessAdmin'
  /** BusinessUser without a user_type. */
  | 'BusinessUser'
  | 'AdminSupport'
  | 'MarketingUser'
  | 'SalesUser'
  | 'Custom';

export type MenuContext = {
  /** Overrides the set-up state (defaults to isAgencySetUp(user), spec §4). */
  setUp?: boolean;
};

/** The menu-defining role of a user: the role, refined by user_type for agency and business users. */
export function roleKey(user: Pick<TUser, 'role' | 'user_type'>): RoleKey {
  switch (user.role) {
    case 'AgencyUser':
      if (user.user_type === '1') return 'AccountManager';
      if (user.user_type === '2') return 'FinanaceManager';
      if (user.user_type === '3') return 'MarketingManager';
      return 'AgencyUser';
    case 'BusinessUser':
      if (user.user_type === '1') return 'AdminSupport';
      if (user.user_type === '2') return 'MarketingUser';
      if (user.user_type === '3') return 'SalesUser';
      if (user.user_type === '4') return 'Custom';
      return 'BusinessUser';
    default:
      return user.role;
  }
}

// ---- Visibility predicates (spec §6, §9) ----

/** BusinessAdmin, or a business user of user_type '2' (spec §6). */
export function isBusinessManager(user: TUser): boolean {
  return user.role === 'BusinessAdmin' || (user.role_group === 'Business' && user.user_type === '2');
}

/** The business's widget type; a missing business counts as the create default 3 (both, spec §9). */
function widgetType(user: TUser): number {
  return user.business?.widget_type ?? 3;
}

/** widget_type 2 (texts) or 3 (both). */
export function hasTextWidget(user: TUser): boolean {
  const t = widgetType(user);
  return t === 2 || t === 3;
}

/** widget_type 1 (calls) or 3 (both). */
export function hasPhoneWidget(user: TUser): boolean {
  const t = widgetType(user);
  return t === 1 || t === 3;
}

/** Messaging: a text widget, and an SMS agent or a business manager. */
export function canMessage(user: TUser): boolean {
  const agent = user.agent_type === 'smsAgent' || user.agent_type === 'agent';
  return hasTextWidget(user) && (agent || isBusinessManager(user));
}

/** Calls group: a phone widget, and a voice agent or a business manager. */
export function canCall(user: TUser): boolean {
  const agent = user.agent_type === 'voiceAgent' || user.agent_type === 'agent';
  return hasPhoneWidget(user) && (agent || isBusinessManager(user));
}

/** Departments: enabled on the business and allowed by its agency (when the agency is known). */
export function departmentsEnabled(user: TUser): boolean {
  return Boolean(user.business?.dep_enabled) && (user.agency?.department_enabled ?? true);
}

/** Template accounts: a template business, or any account of a template agency. */
export function isTemplateAccount(user: TUser): boolean {
  return Boolean(user.business?.is_template) || Boolean(user.agency?.is_template);
}

/** Spec §4: set-up is complete unless an Agency user has no Twilio set-up and the agency is not a template. */
export const isAgencySetUp = (user: TUser): boolean => isSetupComplete(user);

/** Zapier: the agency has zapier enabled and it is not given for free. */
export function zapierVisible(user: TUser): boolean {
  return Boolean(user.agency?.zapier_enabled) && !user.agency?.zapier_free;
}

// ---- Item builders ----

type ItemDef = { icon?: string; badge?: MenuBadge; activeOn?: string[] };

const DEFS: Record<string, ItemDef> = {
  // Admin
  'admin.agency.accounts': { icon: 'building', activeOn: ['admin', 'admin.agency.edit'] },
  'admin.agency.archived': { icon: 'archive' },
  'admin.agency.add': { icon: 'plus' },
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

function item(route: string, extra: ItemDef = {}): MenuItem {
  const def = { ...DEFS[route], ...extra };
  const m: MenuItem = { key: route, route, title: routeByName(route).title };
  if (def.icon) m.icon = def.icon;
  if (def.badge) m.badge = def.badge;
  if (def.activeOn?.length) m.activeOn = [...def.activeOn];
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
  const superAdmin = user.role === 'SuperAdmin';
  return compact([
    group('agency', 'admin.agency.accounts', 'building', [
      item('admin.agency.accounts'),
      item('admin.agency.archived'),
      item('admin.agency.add'),
    ]),
    item('admin.whitelabel'),
    item('admin.training'),
    item('admin.blacklist'),
    item('admin.whitelist'),
    superAdmin && item('admin.users'),
    item('admin.releaseNote'),
  ]);
}

// ---- Agency ----

/** What a template agency keeps of its role's menu. */
const TEMPLATE_AGENCY_KEYS = new Set(['group:business-accounts', 'agency.training']);

function agencyMenu(user: TUser, key: RoleKey): MenuItem[] {
  const menu = agencyRoleMenu(user, key);
  return user.agency?.is_template ? menu.filter((m) => TEMPLATE_AGENCY_KEYS.has(m.key)) : menu;
}

function agencyRoleMenu(user: TUser, key: RoleKey): MenuItem[] {
  const subscriptions = !user.agency?.free_fee;
  const card = user.agency_has_stripe_config;
  const zapier = zapierVisible(user);
  const business = group('business-accounts', 'agency.business.accounts', 'briefcase', [
    item('agency.business.accounts'),
    item('agency.business.archived'),
    item('agency.business.deleted'),
    item('agency.business.add'),
  ]);
  const settings = (extra: Slot[]) =>
    group('settings', 'agency.settings', 'cog', [
      item('agency.settings'),
      subscriptions && item('agency.subscriptions'),
      card && item('agency.payment-methods'),
      ...extra,
    ]);
  const training = item('agency.training');

  switch (key) {
    case 'AgencyAdmin':
      return compact([
        business,
        item('agency.dashboard'),
        item('agency.landing-page'),
        item('agency.international'),
        item('agency.plans'),
        item('agency.packages'),
        zapier && item('agency.zapier'),
        settings([
          item('agency.popup'),
          // Agency user management, telephony profile and SMS registration: AgencyAdmin only (spec §6).
          item('agency.users'),
          item('agency.integrations'),
          item('agency.twilioProfile'),
          item('agency.sms-registration'),
        ]),
        training,
      ]);
    case 'AccountManager':
      return compact([
        business,
        item('agency.international'),
        item('agency.plans'),
        zapier && item('agency.zapier'),
        settings([item('agency.popup')]),
        training,
      ]);
    case 'FinanaceManager':
      return compact([business, item('agency.plans'), zapier && item('agency.zapier'), settings([])]);
    case 'MarketingManager':
      return compact([business, item('agency.landing-page'), zapier && item('agency.zapier')]);
    default:
      return compact([business]);
  }
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

type SettingChild = 'number' | 'smtp' | 'integration';

const SETTING_CHILD_ROUTES: Record<SettingChild, string[]> = {
  number: ['business.setting.number'],
  smtp: ['business.setting.smtp.create', 'business.setting.smtp.edit'],
  integration: ['business.setting.integration.create', 'business.setting.integration.edit'],
};

/** Tabs of the settings page every business role reaches through its settings item. */
const SETTING_PAGES = [
  'business.setting.location.create',
  'business.setting.location.edit',
  'business.setting.analytics',
  'business.setting.broadcast-numbers',
  'business.setting.contacts',
  'business.setting.messages',
  'business.setting.notification',
];

function businessItems(user: TUser, key: RoleKey) {
  const salesHidden = key === 'SalesUser' && !user.business?.has_sales_user_extension;
  const text = hasTextWidget(user);
  const card = user.agency_has_stripe_config;
  return {
    messaging: () => canMessage(user) && item('business.messaging'),
    dashboard: () => item('business.dashboard'),
    tasks: () => item('business.tasks'),
    contacts: () => !salesHidden && item('business.contacts'),
    broadcast: () => text && item('business.broadcast'),
    calls: () =>
      canCall(user) &&
      group('calls', 'business.calls', 'phone', [
        item('business.calls'),
        item('business.schedule.calls'),
        item('business.voice-records'),
      ]),
    automation: () => item('business.automation'),
    leadForms: () => item('business.leadForms'),
    installs: () => item('business.installs'),
    setting: (children: SettingChild[]) =>
      item('business.setting', {
        activeOn: [...children.flatMap((c) => SETTING_CHILD_ROUTES[c]), ...SETTING_PAGES],
      }),
    numbers: () => item('business.numbers'),
    tags: () => !salesHidden && item('business.tags'),
    callsReport: () => item('business.calls-report'),
    subscriptions: () => !user.business?.free_fee && card && item('business.subscriptions'),
    packages: () => card && item('business.packages'),
    paymentMethods: () => card && item('business.payment-methods'),
    users: () => item('business.users'),
    departments: () => departmentsEnabled(user) && item('business.departments'),
    templates: () => text && item('business.templates'),
    blacklist: () => item('business.blacklist'),
    whitelist: () => item('business.whitelist'),
  };
}

type BusinessItems = ReturnType<typeof businessItems>;

const settingsGroup = (children: Slot[]) => group('settings', 'business.setting', 'cog', children);

/** Top-level custom pages, in the BusinessAdmin menu order. */
const CUSTOM_TOP: [TCustomTypePage, keyof BusinessItems][] = [
  ['inbox_page', 'messaging'],
  ['analytic_page', 'dashboard'],
  ['tasks_page', 'tasks'],
  ['contacts_page', 'contacts'],
  ['broadcast_page', 'broadcast'],
  ['calls_page', 'calls'],
  ['automation_page', 'automation'],
  ['installs_page', 'installs'],
];

/** Custom pages that live in the settings group, in the BusinessAdmin order. */
const CUSTOM_SETTINGS: [TCustomTypePage, keyof BusinessItems][] = [
  ['numbers_page', 'numbers'],
  ['tags_page', 'tags'],
  ['users_page', 'users'],
  ['departments_page', 'departments'],
  ['message_template_page', 'templates'],
  ['blacklist_page', 'blacklist'],
  ['whitelist_page', 'whitelist'],
];

function businessRoleMenu(user: TUser, key: RoleKey): MenuItem[] {
  const b = businessItems(user, key);
  switch (key) {
    case 'BusinessAdmin':
    case 'MarketingUser': {
      const admin = key === 'BusinessAdmin';
      return compact([
        b.messaging(),
        b.dashboard(),
        b.tasks(),
        b.contacts(),
        b.broadcast(),
        b.calls(),
        b.automation(),
        admin && b.leadForms(),
        b.installs(),
        settingsGroup([
          b.setting(['number', 'smtp', 'integration']),
          b.numbers(),
          b.tags(),
          b.callsReport(),
          admin && b.subscriptions(),
          admin && b.packages(),
          admin && b.paymentMethods(),
          b.users(),
          b.departments(),
          b.templates(),
          b.blacklist(),
          b.whitelist(),
        ]),
      ]);
    }
    case 'AdminSupport':
      return compact([
        b.dashboard(),
        b.contacts(),
        b.calls(),
        b.installs(),
        settingsGroup([
          b.setting(['smtp']),
          b.tags(),
          b.callsReport(),
          b.users(),
          b.departments(),
          b.templates(),
          b.blacklist(),
          b.whitelist(),
        ]),
      ]);
    case 'SalesUser':
      return compact([
        b.messaging(),
        b.tasks(),
        b.calls(),
        b.contacts(),
        settingsGroup([b.setting([]), b.tags(), b.templates()]),
      ]);
    case 'Custom': {
      const pages = new Set(user.settings.custom_type_pages ?? []);
      const pick = ([page, slot]: [TCustomTypePage, keyof BusinessItems]): Slot =>
        pages.has(page) ? (b[slot] as () => Slot)() : null;
      return compact([...CUSTOM_TOP.map(pick), settingsGroup([b.setting([]), ...CUSTOM_SETTINGS.map(pick)])]);
    }
    default:
      return compact([b.messaging(), b.calls(), settingsGroup([b.setting([])])]);
  }
}

/** What a template business keeps of its role's menu, flat and in this order. */
export const TEMPLATE_BUSINESS_ROUTES = ['business.automation', 'business.templates'] as const;

function businessMenu(user: TUser, key: RoleKey): MenuItem[] {
  const menu = businessRoleMenu(user, key);
  if (!isTemplateAccount(user)) return menu;
  const present = new Set(menuRoutes(menu));
  return TEMPLATE_BUSINESS_ROUTES.filter((r) => present.has(r)).map((r) => item(r));
}

// ---- Entry points ----

/** The sidebar menu of a signed-in user (spec 000 §2 "Menus per role", §6 "Menu visibility"). */
export function menuFor(user: TUser, ctx: MenuContext = {}): MenuItem[] {
  const key = roleKey(user);
  switch (user.role_group) {
    case 'Admin':
      return adminMenu(user);
    case 'Agency': {
      const menu = agencyMenu(user, key);
      return (ctx.setUp ?? isAgencySetUp(user)) ? menu : disableForSetup(menu);
    }
    case 'Business':
      return businessMenu(user, key);
    default:
      return [];
  }
}

/** Every route name a menu links to, depth first (groups contribute their children only). */
export function menuRoutes(items: MenuItem[]): string[] {
  return items.flatMap((m) => (m.children ? menuRoutes(m.children) : [m.route]));
}

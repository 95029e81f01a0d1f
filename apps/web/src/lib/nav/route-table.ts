// Every route of spec 000 §2, by name and path. Pure data: the router, the guards and the menus read it.
import type { TRoleGroup } from '@stn/contracts/roles';

export type LayoutName = 'app' | 'auth' | 'blank' | 'order' | 'popup' | 'product';

export type RouteDef = {
  name: string;
  /** Full path, React Router syntax. */
  path: string;
  layout: LayoutName;
  /** Area routes need this role group (spec 000 §4). */
  roleGroup?: TRoleGroup;
  /** Public routes need no sign-in. */
  public?: boolean;
  /** Menu/title key; also the empty-page title of screens whose issue has not landed. */
  title: string;
  /** Agency routes that only AgencyAdmin may open. */
  agencyAdminOnly?: boolean;
  /** Agency routes that need zapier enabled. */
  zapier?: boolean;
  /** Screen implemented (else an empty page with the title, until its issue lands). */
  screen?: string;
};

const pub = (name: string, path: string, layout: LayoutName, title: string, screen?: string): RouteDef => ({
  name,
  path,
  layout,
  title,
  public: true,
  ...(screen ? { screen } : {}),
});

const area =
  (roleGroup: TRoleGroup, prefix: string) =>
  (name: string, path: string, title: string, extra: Partial<RouteDef> = {}): RouteDef => ({
    name,
    path: `/${prefix}/${path}`.replace(/\/$/, '') || '/',
    layout: 'app',
    roleGroup,
    title,
    ...extra,
  });

const admin = area('Admin', 'admin');
const business = area('Business', 'business');
const agency = area('Agency', 'agency');

export const ROUTES: RouteDef[] = [
  // Public and authentication
  pub('landing', '/', 'blank', 'menu.landing', 'landing'),
  pub('login', '/login', 'auth', 'auth.login', 'login'),
  pub('auth', '/auth/login', 'auth', 'auth.login', 'login'),
  pub('password-reset', '/password/reset', 'auth', 'auth.reset_password', 'password-reset'),
  pub('password-email', '/password/email', 'auth', 'auth.forgot_password', 'password-email'),
  pub('email-verify', '/email-verify', 'auth', 'auth.verify_email', 'email-verify'),
  pub('unsubscribe-email', '/unsubscribe/email/:token', 'blank', 'auth.unsubscribe', 'unsubscribe'),
  pub('release-notes', '/release-notes', 'blank', 'menu.release_notes', 'release-notes'),
  pub('popup', '/popup', 'popup', 'menu.popup'),
  pub('not-found', '/not-found', 'blank', 'errors.not_found_title', 'not-found'),
  // Order and registration
  pub('register', '/register', 'order', 'order.title'),
  pub('order', '/order', 'order', 'order.title'),
  pub('trial', '/trial', 'order', 'order.title'),
  pub('order-thankyou', '/order-thankyou', 'order', 'order.thank_you'),
  pub('business-register', '/business/register', 'order', 'order.title'),
  pub('business-order-thankyou', '/business/order-thankyou', 'order', 'order.thank_you'),
  pub('b-register', '/b/register', 'order', 'order.title'),
  pub('b-register-thankyou', '/b/register-thankyou', 'order', 'order.thank_you'),
  pub('product-thankyou', '/f/thank-you', 'product', 'order.thank_you'),
  pub('product-order', '/f/:slug', 'product', 'order.title'),

  // Admin area (default: agency accounts)
  admin('admin', '', 'menu.agency_accounts'),
  admin('admin.agency.accounts', 'agency/accounts', 'menu.agency_accounts'),
  admin('admin.agency.archived', 'agency/archived', 'menu.agency_archived'),
  admin('admin.agency.add', 'agency/add', 'menu.agency_add'),
  admin('admin.agency.edit', 'agency/edit/:id', 'menu.agency_edit'),
  admin('admin.business', 'business', 'menu.business_accounts'),
  admin('admin.business.add', 'business/add', 'menu.business_add'),
  admin('admin.business.edit', 'business/edit/:id', 'menu.business_edit'),
  admin('admin.settings', 'settings', 'menu.settings'),
  admin('admin.whitelabel', 'whitelabel', 'menu.whitelabel'),
  admin('admin.training', 'training', 'menu.training'),
  admin('admin.releaseNote', 'releaseNote', 'menu.release_notes'),
  admin('admin.releaseNote.create', 'releaseNote/create', 'menu.release_notes'),
  admin('admin.releaseNote.edit', 'releaseNote/:id', 'menu.release_notes'),
  admin('admin.profile', 'profile', 'menu.profile', { screen: 'profile' }),
  admin('admin.blacklist', 'blacklist', 'menu.blacklist'),
  admin('admin.whitelist', 'whitelist', 'menu.whitelist'),
  admin('admin.users', 'users', 'menu.users'),
  admin('admin.users.create', 'users/create', 'menu.users'),
  admin('admin.users.edit', 'users/:id', 'menu.users'),

  // Business area (default: messaging)
  business('business', '', 'menu.messaging'),
  business('business.dashboard', 'dashboard', 'menu.analytics'),
  business('business.blacklist', 'blacklist', 'menu.blacklist'),
  business('business.whitelist', 'whitelist', 'menu.whitelist'),
  business('business.messaging', 'messaging/:installId?', 'menu.messaging'),
  business('business.contacts', 'contacts', 'menu.contacts'),
  business('business.contacts.create', 'contacts/create', 'menu.contacts'),
  business('business.contacts.fields', 'contacts/custom-fields', 'menu.contact_fields'),
  business('business.contacts.edit', 'contacts/:id', 'menu.contacts'),
  business('business.tasks', 'tasks', 'menu.tasks'),
  business('business.calls', 'calls', 'menu.calls'),
  business('business.schedule.calls', 'schedule/calls', 'menu.call_schedule'),
  business('business.voice-records', 'voice-records', 'menu.voice_records'),
  business('business.installs', 'installs', 'menu.installs'),
  business('business.installs.archived', 'installs/archived', 'menu.installs_archived'),
  business('business.installs.deleted', 'installs/deleted', 'menu.installs_deleted'),
  business('business.installs.add', 'installs/add', 'menu.installs_add'),
  business('business.installs.edit', 'installs/:id', 'menu.installs_edit'),
  business('business.installs.forms', 'installs/:install/forms', 'menu.forms'),
  business('business.installs.forms.create', 'installs/:install/forms/create', 'menu.forms'),
  business('business.installs.forms.edit', 'installs/:install/forms/:id/edit', 'menu.forms'),
  business('business.setting', 'setting', 'menu.settings'),
  business('business.setting.location.create', 'setting/location/create', 'menu.settings'),
  business('business.setting.location.edit', 'setting/location/:id', 'menu.settings'),
  business('business.setting.smtp.create', 'setting/smtp/create', 'menu.smtp'),
  business('business.setting.smtp.edit', 'setting/smtp/:id', 'menu.smtp'),
  business('business.setting.integration.create', 'setting/integration/create', 'menu.integrations'),
  business('business.setting.integration.edit', 'setting/integration/:id/edit', 'menu.integrations'),
  business('business.setting.number', 'setting/number/:id', 'menu.numbers'),
  business('business.setting.analytics', 'setting/analytics', 'menu.settings'),
  business('business.setting.broadcast-numbers', 'setting/broadcast-numbers', 'menu.settings'),
  business('business.setting.contacts', 'setting/contacts', 'menu.settings'),
  business('business.setting.messages', 'setting/messages', 'menu.settings'),
  business('business.setting.notification', 'setting/notification', 'menu.settings'),
  business('business.calls-report', 'calls-report', 'menu.calls_report'),
  business('business.profile', 'profile', 'menu.profile', { screen: 'profile' }),
  business('business.subscriptions', 'subscriptions', 'menu.subscriptions'),
  business('business.packages', 'packages', 'menu.packages'),
  business('business.payment-methods', 'payment-methods', 'menu.payment_methods'),
  business('business.add-card', 'add-card', 'order.add_card'),
  business('business.tags', 'tags', 'menu.tags'),
  business('business.users', 'users', 'menu.users'),
  business('business.users.create', 'users/create', 'menu.users'),
  business('business.users.edit', 'users/:id', 'menu.users'),
  business('business.departments', 'departments', 'menu.departments'),
  business('business.departments.create', 'departments/create', 'menu.departments'),
  business('business.departments.edit', 'departments/:id', 'menu.departments'),
  business('business.automation', 'automation', 'menu.automation'),
  business('business.automation.create', 'automation/create', 'menu.automation'),
  business('business.automation.edit', 'automation/:id', 'menu.automation'),
  business('business.automation.share', 'automation/:token/share', 'menu.automation'),
  business('business.leadForms', 'leadForms', 'menu.lead_forms'),
  business('business.leadForms.create', 'leadForms/create', 'menu.lead_forms'),
  business('business.leadForms.edit', 'leadForms/:id/edit', 'menu.lead_forms'),
  business('business.broadcast', 'broadcast', 'menu.broadcast'),
  business('business.broadcast.create', 'broadcast/create', 'menu.broadcast'),
  business('business.broadcast.edit', 'broadcast/:id', 'menu.broadcast'),
  business('business.broadcast.duplicate', 'broadcast/:id/duplicate', 'menu.broadcast'),
  business('business.broadcast.report', 'broadcast/:id/report', 'menu.broadcast'),
  business('business.templates', 'templates', 'menu.templates'),
  business('business.templates.create', 'templates/create', 'menu.templates'),
  business('business.templates.edit', 'templates/:id', 'menu.templates'),
  business('business.numbers', 'numbers', 'menu.numbers'),
  business('business.numbers.edit', 'numbers/:id', 'menu.numbers'),
  business('business.numbers.verification', 'numbers/:id/verification', 'menu.numbers'),
  business('business.sms-registration', 'sms-registration', 'menu.sms_registration'),

  // Agency area (default: active business accounts)
  agency('agency', '', 'menu.business_accounts'),
  agency('agency.dashboard', 'dashboard', 'menu.analytics'),
  agency('agency.landing-page', 'landing-page', 'menu.landing_page'),
  agency('agency.business.accounts', 'business/accounts', 'menu.business_accounts'),
  agency('agency.business.archived', 'business/archived', 'menu.business_archived'),
  agency('agency.business.deleted', 'business/deleted', 'menu.business_deleted'),
  agency('agency.business.add', 'business/add', 'menu.business_add'),
  agency('agency.business.edit', 'business/edit/:id', 'menu.business_edit'),
  agency('agency.popup', 'popup', 'menu.popup'),
  agency('agency.subscriptions', 'subscriptions', 'menu.subscriptions'),
  agency('agency.setup', 'setup', 'menu.setup'),
  agency('agency.payment-methods', 'payment-methods', 'menu.payment_methods'),
  agency('agency.settings', 'settings', 'menu.settings'),
  agency('agency.settings.notification', 'settings/notification', 'menu.settings'),
  agency('agency.integrations', 'integrations', 'menu.integrations'),
  agency('agency.twilioProfile', 'twilio-profile', 'menu.twilio_profile', { agencyAdminOnly: true }),
  agency('agency.twilioProfile.create', 'twilio-profile/create', 'menu.twilio_profile', {
    agencyAdminOnly: true,
  }),
  agency('agency.twilioProfile.edit', 'twilio-profile/edit/:id', 'menu.twilio_profile', {
    agencyAdminOnly: true,
  }),
  agency('agency.sms-registration', 'sms-registration', 'menu.sms_registration', { agencyAdminOnly: true }),
  agency('agency.international', 'international', 'menu.international'),
  agency('agency.zapier', 'zapier', 'menu.zapier', { zapier: true }),
  agency('agency.training', 'training', 'menu.training'),
  agency('agency.profile', 'profile', 'menu.profile', { screen: 'profile' }),
  agency('agency.plans', 'plans', 'menu.plans'),
  agency('agency.plans.add', 'plans/add', 'menu.plans'),
  agency('agency.plans.edit', 'plans/edit/:id', 'menu.plans'),
  agency('agency.packages', 'packages', 'menu.packages'),
  agency('agency.packages.add', 'packages/add', 'menu.packages'),
  agency('agency.packages.edit', 'packages/edit/:id', 'menu.packages'),
  agency('agency.users', 'users', 'menu.users', { agencyAdminOnly: true }),
  agency('agency.users.create', 'users/create', 'menu.users', { agencyAdminOnly: true }),
  agency('agency.users.edit', 'users/:id', 'menu.users', { agencyAdminOnly: true }),
  agency('agency.release-notes', 'release-notes', 'menu.release_notes', { screen: 'release-notes' }),
];

export const ROUTE_BY_NAME: ReadonlyMap<string, RouteDef> = new Map(ROUTES.map((r) => [r.name, r]));

/** Default screen of each area's empty path (spec 000 §2). */
export const AREA_DEFAULT: Record<'admin' | 'business' | 'agency', string> = {
  admin: 'admin.agency.accounts',
  business: 'business.messaging',
  agency: 'agency.business.accounts',
};

/** Routes that skip the role-group prefix rule of spec 000 §4. */
export const PREFIX_SKIP = new Set([
  'landing',
  'popup',
  'auth',
  'unsubscribe-email',
  'product-order',
  'product-thankyou',
  'release-notes',
]);

export function routeByName(name: string): RouteDef {
  const r = ROUTE_BY_NAME.get(name);
  if (!r) throw new Error(`unknown route ${name}`);
  return r;
}

/** The path of a named route with its params filled in. */
export function pathOf(name: string, params: Record<string, string | number> = {}): string {
  return routeByName(name)
    .path.replace(/\/:(\w+)\?/g, (_m, k: string) => (params[k] !== undefined ? `/${params[k]}` : ''))
    .replace(/:(\w+)/g, (_m, k: string) => String(params[k] ?? `:${k}`));
}

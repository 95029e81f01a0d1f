// Every route of spec 000 §2, by name and path. Pure data: the router, the guards and the menus read it.
import type { TCapability } from '@stn/contracts/capabilities';
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
  /**
   * What the screen needs from the capability table (contracts/capabilities). Area landing paths and
   * screens every user of the area must reach (profile, telephony set-up) declare none.
   */
  capability?: TCapability;
  /** Agency routes that need zapier enabled. */
  zapier?: boolean;
  /** Routes only for users whose agency uses the carrier sandbox (profile carrier_sandbox). */
  sandbox?: boolean;
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
  (
    name: string,
    path: string,
    title: string,
    capability?: TCapability,
    extra: Partial<RouteDef> = {},
  ): RouteDef => ({
    name,
    path: `/${prefix}/${path}`.replace(/\/$/, '') || '/',
    layout: 'app',
    roleGroup,
    title,
    ...(capability ? { capability } : {}),
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
  pub('popup', '/popup', 'popup', 'menu.popup', 'popup'),
  pub('not-found', '/not-found', 'blank', 'errors.not_found_title', 'not-found'),
  // Order and registration
  pub('register', '/register', 'order', 'order.title', 'agency-order'),
  pub('order', '/order', 'order', 'order.title', 'agency-order'),
  pub('trial', '/trial', 'order', 'order.title', 'agency-order'),
  pub('order-thankyou', '/order-thankyou', 'order', 'order.thank_you', 'order-thankyou'),
  pub('business-register', '/business/register', 'order', 'order.title', 'business-order'),
  pub('business-order-thankyou', '/business/order-thankyou', 'order', 'order.thank_you', 'order-thankyou'),
  pub('b-register', '/b/register', 'order', 'order.title', 'business-order'),
  pub('b-register-thankyou', '/b/register-thankyou', 'order', 'order.thank_you', 'order-thankyou'),
  pub('product-thankyou', '/f/thank-you', 'product', 'order.thank_you', 'order-thankyou'),
  pub('product-order', '/f/:slug', 'product', 'order.title', 'product-order'),

  // Admin area (default: agency accounts)
  admin('admin', '', 'menu.agency_accounts'),
  admin('admin.agency.accounts', 'agency/accounts', 'menu.agency_accounts', 'agencies.manage'),
  admin('admin.agency.archived', 'agency/archived', 'menu.agency_archived', 'agencies.manage'),
  admin('admin.agency.add', 'agency/add', 'menu.agency_add', 'agencies.manage'),
  admin('admin.agency.edit', 'agency/edit/:id', 'menu.agency_edit', 'agencies.manage'),
  admin('admin.business', 'business', 'menu.business_accounts', 'businesses.view'),
  admin('admin.business.add', 'business/add', 'menu.business_add', 'businesses.manage'),
  admin('admin.business.edit', 'business/edit/:id', 'menu.business_edit', 'businesses.manage'),
  admin('admin.settings', 'settings', 'menu.settings', 'whitelabels.manage'),
  admin('admin.whitelabel', 'whitelabel', 'menu.whitelabel', 'whitelabels.manage'),
  admin('admin.training', 'training', 'menu.training', 'pages.edit'),
  admin('admin.releaseNote', 'releaseNote', 'menu.release_notes', 'releaseNotes.manage'),
  admin('admin.releaseNote.create', 'releaseNote/create', 'menu.release_notes', 'releaseNotes.manage'),
  admin('admin.releaseNote.edit', 'releaseNote/:id', 'menu.release_notes', 'releaseNotes.manage'),
  admin('admin.profile', 'profile', 'menu.profile', undefined, { screen: 'profile' }),
  admin('admin.blacklist', 'blacklist', 'menu.blacklist', 'blacklist.manage'),
  admin('admin.whitelist', 'whitelist', 'menu.whitelist', 'whitelist.manage'),
  admin('admin.users', 'users', 'menu.users', 'globalUsers.manage'),
  admin('admin.users.create', 'users/create', 'menu.users', 'globalUsers.manage'),
  admin('admin.users.edit', 'users/:id', 'menu.users', 'globalUsers.manage'),

  // Business area (default: messaging)
  business('business', '', 'menu.messaging'),
  business('business.dashboard', 'dashboard', 'menu.analytics', 'analytics.view'),
  business('business.blacklist', 'blacklist', 'menu.blacklist', 'blacklist.manage'),
  business('business.whitelist', 'whitelist', 'menu.whitelist', 'whitelist.manage'),
  business('business.messaging', 'messaging/:installId?', 'menu.messaging', 'inbox.use'),
  business('business.contacts', 'contacts', 'menu.contacts', 'contacts.use'),
  business('business.contacts.create', 'contacts/create', 'menu.contacts', 'contacts.use'),
  business('business.contacts.fields', 'contacts/custom-fields', 'menu.contact_fields', 'contacts.use'),
  business('business.contacts.edit', 'contacts/:id', 'menu.contacts', 'contacts.use'),
  business('business.tasks', 'tasks', 'menu.tasks', 'tasks.use'),
  business('business.calls', 'calls', 'menu.calls', 'calls.use'),
  business('business.schedule.calls', 'schedule/calls', 'menu.call_schedule', 'calls.use'),
  business('business.voice-records', 'voice-records', 'menu.voice_records', 'calls.use'),
  business('business.sandbox-phones', 'sandbox-phones', 'menu.sandbox_phones', 'calls.use', {
    sandbox: true,
  }),
  business('business.installs', 'installs', 'menu.installs', 'installs.use'),
  business('business.installs.archived', 'installs/archived', 'menu.installs_archived', 'installs.use'),
  business('business.installs.deleted', 'installs/deleted', 'menu.installs_deleted', 'installs.use'),
  business('business.installs.add', 'installs/add', 'menu.installs_add', 'installs.use'),
  business('business.installs.edit', 'installs/:id', 'menu.installs_edit', 'installs.use'),
  business('business.installs.forms', 'installs/:install/forms', 'menu.forms', 'leadForms.use'),
  business('business.installs.forms.create', 'installs/:install/forms/create', 'menu.forms', 'leadForms.use'),
  business('business.installs.forms.edit', 'installs/:install/forms/:id/edit', 'menu.forms', 'leadForms.use'),
  business('business.setting', 'setting', 'menu.settings', 'settings.view'),
  business('business.setting.location.create', 'setting/location/create', 'menu.settings', 'settings.view'),
  business('business.setting.location.edit', 'setting/location/:id', 'menu.settings', 'settings.view'),
  business('business.setting.smtp.create', 'setting/smtp/create', 'menu.smtp', 'settings.view'),
  business('business.setting.smtp.edit', 'setting/smtp/:id', 'menu.smtp', 'settings.view'),
  business(
    'business.setting.integration.create',
    'setting/integration/create',
    'menu.integrations',
    'settings.view',
  ),
  business(
    'business.setting.integration.edit',
    'setting/integration/:id/edit',
    'menu.integrations',
    'settings.view',
  ),
  business('business.setting.number', 'setting/number/:id', 'menu.numbers', 'numbers.use'),
  business('business.setting.analytics', 'setting/analytics', 'menu.settings', 'settings.view'),
  business(
    'business.setting.broadcast-numbers',
    'setting/broadcast-numbers',
    'menu.settings',
    'settings.view',
  ),
  business('business.setting.contacts', 'setting/contacts', 'menu.settings', 'settings.view'),
  business('business.setting.messages', 'setting/messages', 'menu.settings', 'settings.view'),
  business('business.setting.notification', 'setting/notification', 'menu.settings', 'settings.view'),
  business('business.calls-report', 'calls-report', 'menu.calls_report', 'callsReport.view'),
  business('business.profile', 'profile', 'menu.profile', undefined, { screen: 'profile' }),
  business('business.subscriptions', 'subscriptions', 'menu.subscriptions', 'subscriptions.manage'),
  business('business.packages', 'packages', 'menu.packages', 'packages.buy'),
  business('business.payment-methods', 'payment-methods', 'menu.payment_methods', 'paymentMethods.manage'),
  business('business.add-card', 'add-card', 'order.add_card', 'paymentMethods.manage'),
  business('business.tags', 'tags', 'menu.tags', 'tags.use'),
  business('business.users', 'users', 'menu.users', 'businessUsers.manage'),
  business('business.users.create', 'users/create', 'menu.users', 'businessUsers.manage'),
  business('business.users.edit', 'users/:id', 'menu.users', 'businessUsers.manage'),
  business('business.departments', 'departments', 'menu.departments', 'departments.manage'),
  business('business.departments.create', 'departments/create', 'menu.departments', 'departments.manage'),
  business('business.departments.edit', 'departments/:id', 'menu.departments', 'departments.manage'),
  business('business.automation', 'automation', 'menu.automation', 'automations.use'),
  business('business.automation.create', 'automation/create', 'menu.automation', 'automations.use'),
  business('business.automation.edit', 'automation/:id', 'menu.automation', 'automations.use'),
  business('business.automation.share', 'automation/:token/share', 'menu.automation', 'automations.use'),
  business('business.leadForms', 'leadForms', 'menu.lead_forms', 'leadForms.use'),
  business('business.leadForms.create', 'leadForms/create', 'menu.lead_forms', 'leadForms.use'),
  business('business.leadForms.edit', 'leadForms/:id/edit', 'menu.lead_forms', 'leadForms.use'),
  business('business.broadcast', 'broadcast', 'menu.broadcast', 'broadcasts.use'),
  business('business.broadcast.create', 'broadcast/create', 'menu.broadcast', 'broadcasts.use'),
  business('business.broadcast.edit', 'broadcast/:id', 'menu.broadcast', 'broadcasts.use'),
  business('business.broadcast.duplicate', 'broadcast/:id/duplicate', 'menu.broadcast', 'broadcasts.use'),
  business('business.broadcast.report', 'broadcast/:id/report', 'menu.broadcast', 'broadcasts.use'),
  business('business.templates', 'templates', 'menu.templates', 'templates.use'),
  business('business.templates.create', 'templates/create', 'menu.templates', 'templates.use'),
  business('business.templates.edit', 'templates/:id', 'menu.templates', 'templates.use'),
  business('business.numbers', 'numbers', 'menu.numbers', 'numbers.use'),
  business('business.numbers.edit', 'numbers/:id', 'menu.numbers', 'numbers.use'),
  business('business.numbers.verification', 'numbers/:id/verification', 'menu.numbers', 'numbers.use'),
  business(
    'business.sms-registration',
    'sms-registration',
    'menu.sms_registration',
    'businessSettings.manage',
  ),

  // Agency area (default: active business accounts)
  agency('agency', '', 'menu.business_accounts'),
  agency('agency.dashboard', 'dashboard', 'menu.analytics', 'agencyDashboard.view'),
  agency('agency.landing-page', 'landing-page', 'menu.landing_page', 'landingPage.manage'),
  agency('agency.business.accounts', 'business/accounts', 'menu.business_accounts', 'businesses.view'),
  agency('agency.business.archived', 'business/archived', 'menu.business_archived', 'businesses.view'),
  agency('agency.business.deleted', 'business/deleted', 'menu.business_deleted', 'businesses.view'),
  agency('agency.business.add', 'business/add', 'menu.business_add', 'businesses.manage'),
  agency('agency.business.edit', 'business/edit/:id', 'menu.business_edit', 'businesses.manage'),
  agency('agency.popup', 'popup', 'menu.popup', 'popup.manage'),
  agency('agency.subscriptions', 'subscriptions', 'menu.subscriptions', 'subscriptions.manage'),
  agency('agency.setup', 'setup', 'menu.setup'),
  agency('agency.payment-methods', 'payment-methods', 'menu.payment_methods', 'paymentMethods.manage'),
  agency('agency.settings', 'settings', 'menu.settings', 'agencySettings.manage'),
  agency('agency.settings.notification', 'settings/notification', 'menu.settings', 'agencySettings.manage'),
  agency('agency.integrations', 'integrations', 'menu.integrations', 'agencyIntegrations.manage'),
  agency('agency.twilioProfile', 'twilio-profile', 'menu.twilio_profile', 'agencyTelephony.manage'),
  agency(
    'agency.twilioProfile.create',
    'twilio-profile/create',
    'menu.twilio_profile',
    'agencyTelephony.manage',
  ),
  agency(
    'agency.twilioProfile.edit',
    'twilio-profile/edit/:id',
    'menu.twilio_profile',
    'agencyTelephony.manage',
  ),
  agency('agency.sms-registration', 'sms-registration', 'menu.sms_registration', 'agencyTelephony.manage'),
  agency('agency.international', 'international', 'menu.international', 'international.manage'),
  agency('agency.zapier', 'zapier', 'menu.zapier', 'zapier.use', { zapier: true }),
  agency('agency.training', 'training', 'menu.training', 'training.view'),
  agency('agency.profile', 'profile', 'menu.profile', undefined, { screen: 'profile' }),
  agency('agency.plans', 'plans', 'menu.plans', 'plans.manage'),
  agency('agency.plans.add', 'plans/add', 'menu.plans', 'plans.manage'),
  agency('agency.plans.edit', 'plans/edit/:id', 'menu.plans', 'plans.manage'),
  agency('agency.packages', 'packages', 'menu.packages', 'packages.manage'),
  agency('agency.packages.add', 'packages/add', 'menu.packages', 'packages.manage'),
  agency('agency.packages.edit', 'packages/edit/:id', 'menu.packages', 'packages.manage'),
  agency('agency.users', 'users', 'menu.users', 'agencyUsers.manage'),
  agency('agency.users.create', 'users/create', 'menu.users', 'agencyUsers.manage'),
  agency('agency.users.edit', 'users/:id', 'menu.users', 'agencyUsers.manage'),
  agency('agency.release-notes', 'release-notes', 'menu.release_notes', 'pages.read', {
    screen: 'release-notes',
  }),
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

// The one rules table: which capability each role, user type and custom page list has (spec 000 §2
// "Menus per role", §6). The server's routes declare the capability they need; the web app's menus,
// guards and buttons ask the same `can`. Nothing else decides who may do what.
//
// Capabilities say what a role may do, never what state an account is in: a widget type, an agent type,
// a payment key or an unfinished telephony set-up hide things on top of this table (the menus and
// guards apply those), but never show what the table refuses.
import { CUSTOM_TYPE_PAGES, type TCustomTypePage, type TRole, type TUserType } from './roles.ts';

const ADMINS = ['SuperAdmin', 'Admin'] as const;
const AGENCY_ROLES = [
  'AgencyAdmin',
  'AccountManager',
  'FinanaceManager',
  'MarketingManager',
  'AgencyUser',
] as const;
const AGENCY_MANAGERS = ['AgencyAdmin', 'AccountManager', 'FinanaceManager'] as const;
const BUSINESS_ROLES = [
  'BusinessAdmin',
  'BusinessUser',
  'AdminSupport',
  'MarketingUser',
  'SalesUser',
  'Custom',
] as const;
/** The 13 roles of the menus: the role, refined by user_type for agency and business users. */
export const ROLE_KEYS = [...ADMINS, ...AGENCY_ROLES, ...BUSINESS_ROLES] as const;
export type TRoleKey = (typeof ROLE_KEYS)[number];

/** Who is asking: a signed-in user (the profile) or a server Actor both fit. */
export type TSubject = {
  role: TRole;
  user_type?: TUserType | null;
  /** The custom type's pages (settings.custom_type_pages); ignored for every other role. */
  pages?: readonly string[] | null;
};

export function roleKey(s: Pick<TSubject, 'role' | 'user_type'>): TRoleKey {
  switch (s.role) {
    case 'AgencyUser':
      if (s.user_type === '1') return 'AccountManager';
      if (s.user_type === '2') return 'FinanaceManager';
      if (s.user_type === '3') return 'MarketingManager';
      return 'AgencyUser';
    case 'BusinessUser':
      if (s.user_type === '1') return 'AdminSupport';
      if (s.user_type === '2') return 'MarketingUser';
      if (s.user_type === '3') return 'SalesUser';
      if (s.user_type === '4') return 'Custom';
      return 'BusinessUser';
    default:
      return s.role;
  }
}

type Grant = {
  /** Roles that hold the capability. */
  roles: readonly TRoleKey[];
  /** The custom type (user_type 4) holds it when its page list has this page (or one of these pages). */
  page?: TCustomTypePage | readonly TCustomTypePage[];
};

/** The business users who manage the team and settings screens (and the custom type, by page). */
const BUSINESS_MANAGERS = ['BusinessAdmin', 'AdminSupport', 'MarketingUser'] as const;

export const CAPABILITIES = {
  // ---- Platform (admin area) ----
  /** Agency accounts: list, create, edit, archive, restore, delete, settings and password by id. */
  'agencies.manage': { roles: ADMINS },
  'whitelabels.manage': { roles: ADMINS },
  'releaseNotes.manage': { roles: ADMINS },
  /** The platform's support chat: which installs agencies and main-agency businesses get (issue 11). */
  'supportWidget.manage': { roles: ADMINS },
  /** Platform admins (SuperAdmin only). */
  'globalUsers.manage': { roles: ['SuperAdmin'] },
  'mailOutbox.read': { roles: ['SuperAdmin'] },
  'auditLogs.read': { roles: [...ADMINS, 'AgencyAdmin'] },
  /** Editable pages (training, terms, privacy): reading them in the app, and editing them. */
  'pages.read': { roles: [...ADMINS, ...AGENCY_ROLES] },
  'pages.edit': { roles: [...ADMINS, 'AgencyAdmin'] },
  /** Login as another user (admins: agency and business users; agencies: their businesses' users). */
  impersonate: { roles: [...ADMINS, ...AGENCY_ROLES] },

  // ---- Agency area ----
  /** An agency's own record, install stats and telephony status (admins: any agency). */
  'agency.view': { roles: [...ADMINS, ...AGENCY_ROLES] },
  /** An agency's images, card keys and CSV exports (admins: any agency; managers: their own). */
  'agency.edit': { roles: [...ADMINS, ...AGENCY_MANAGERS] },
  /** The agency's own settings screen and notices to its businesses. */
  'agencySettings.manage': { roles: AGENCY_MANAGERS },
  /** The agency's own telephony account, profile and SMS registration. */
  'agencyTelephony.manage': { roles: ['AgencyAdmin'] },
  /** The agency's SMS registration read (GET /v1/twilio/campaign): the agency admin, the business's admins. */
  'smsRegistration.view': { roles: ['AgencyAdmin', 'BusinessAdmin'] },
  /** Telephony account of an agency (admins) or of one of the agency's businesses. */
  'telephony.configure': { roles: [...ADMINS, 'AgencyAdmin'] },
  'agencyUsers.manage': { roles: ['AgencyAdmin'] },
  'agencyIntegrations.manage': { roles: ['AgencyAdmin'] },
  'agencyDashboard.view': { roles: ['AgencyAdmin'] },
  /** What's new: the platform's release notes an agency admin has not read yet (spec §2 Layout). */
  'whatsNew.view': { roles: ['AgencyAdmin'] },
  'landingPage.manage': { roles: ['AgencyAdmin', 'MarketingManager'] },
  'international.manage': { roles: ['AgencyAdmin', 'AccountManager'] },
  'popup.manage': { roles: [...ADMINS, 'AgencyAdmin', 'AccountManager'] },
  'plans.manage': { roles: [...ADMINS, ...AGENCY_MANAGERS] },
  'packages.manage': { roles: ['AgencyAdmin'] },
  'zapier.use': { roles: ['AgencyAdmin', 'AccountManager', 'FinanaceManager', 'MarketingManager'] },
  'training.view': { roles: ['AgencyAdmin', 'AccountManager'] },
  /** Business accounts: reading them, and creating, editing, archiving and resetting them. */
  'businesses.view': { roles: [...ADMINS, ...AGENCY_ROLES] },
  'businesses.manage': { roles: [...ADMINS, 'AgencyAdmin', 'AccountManager'] },
  /** Subscriptions and payment methods of the agency (its managers) or the business (its admin). */
  'subscriptions.manage': { roles: [...AGENCY_MANAGERS, 'BusinessAdmin'] },
  'paymentMethods.manage': { roles: [...AGENCY_MANAGERS, 'BusinessAdmin'] },

  // ---- Business area ----
  'inbox.use': { roles: ['BusinessAdmin', 'MarketingUser', 'SalesUser', 'BusinessUser'], page: 'inbox_page' },
  /** Every conversation of the business, not only an SMS agent's own (a widget with texts still needed). */
  'inbox.all': { roles: ['BusinessAdmin', 'MarketingUser'] },
  'analytics.view': { roles: BUSINESS_MANAGERS, page: 'analytic_page' },
  /**
   * Live data (GET /v1/live-data, ADR 083): who reads the business dashboard (analytics.view) sees its
   * business's; who reads the agency dashboard (agencyDashboard.view) sees it across the agency's businesses.
   */
  'liveData.view': { roles: [...BUSINESS_MANAGERS, 'AgencyAdmin'], page: 'analytic_page' },
  'tasks.use': { roles: ['BusinessAdmin', 'MarketingUser', 'SalesUser'], page: 'tasks_page' },
  'contacts.use': { roles: [...BUSINESS_MANAGERS, 'SalesUser'], page: 'contacts_page' },
  'broadcasts.use': { roles: ['BusinessAdmin', 'MarketingUser'], page: 'broadcast_page' },
  'calls.use': { roles: [...BUSINESS_MANAGERS, 'SalesUser', 'BusinessUser'], page: 'calls_page' },
  /** Every call of the business, not only a voice agent's own (a widget with calls still needed). */
  'calls.all': { roles: ['BusinessAdmin', 'MarketingUser'] },
  'automations.use': { roles: ['BusinessAdmin', 'MarketingUser'], page: 'automation_page' },
  'leadForms.use': { roles: ['BusinessAdmin'] },
  'installs.use': { roles: BUSINESS_MANAGERS, page: 'installs_page' },
  /**
   * The business's active installs and an install's SMS agents, as lists to pick from: the inbox, calls,
   * contacts and numbers screens show them to every business user (ADR 047), as the team is (team.view).
   */
  'installs.pick': { roles: BUSINESS_ROLES },
  'numbers.use': { roles: ['BusinessAdmin', 'MarketingUser'], page: 'numbers_page' },
  'tags.use': { roles: [...BUSINESS_MANAGERS, 'SalesUser'], page: 'tags_page' },
  /** Every tag, as a list to pick from: the tags screen, and the contacts screens that tag (ADR 047). */
  'tags.pick': { roles: [...BUSINESS_MANAGERS, 'SalesUser'], page: ['tags_page', 'contacts_page'] },
  'templates.use': { roles: [...BUSINESS_MANAGERS, 'SalesUser'], page: 'message_template_page' },
  'callsReport.view': { roles: BUSINESS_MANAGERS },
  /** The settings screen every business user reaches (its tabs ask finer capabilities). */
  'settings.view': { roles: BUSINESS_ROLES },
  /** The business's own information, reports, notifications and logo. */
  'businessSettings.manage': { roles: ['BusinessAdmin'] },
  /**
   * The business's SMTP accounts and the mail sent through them (spec 000 §6: AdminSupport's settings item
   * covers the smtp screens too; ADR 090).
   */
  'emailAccounts.manage': { roles: ['BusinessAdmin', 'AdminSupport'] },
  /** Add-on packages the business buys. */
  'packages.buy': { roles: ['BusinessAdmin'] },
  /** The business's users and departments. */
  'businessUsers.manage': { roles: BUSINESS_MANAGERS, page: 'users_page' },
  'departments.manage': { roles: BUSINESS_MANAGERS, page: 'departments_page' },
  /** The team as a list to pick from (agents, department members): every business user. */
  'team.view': { roles: BUSINESS_ROLES },
  /** Blacklist and whitelist: platform-wide for admins, the business's own for its managers. */
  'blacklist.manage': { roles: [...ADMINS, ...BUSINESS_MANAGERS], page: 'blacklist_page' },
  'whitelist.manage': { roles: [...ADMINS, ...BUSINESS_MANAGERS], page: 'whitelist_page' },
} as const satisfies Record<string, Grant>;

export type TCapability = keyof typeof CAPABILITIES;
export const CAPABILITY_NAMES = Object.keys(CAPABILITIES) as TCapability[];

/** Whether `subject` holds `capability`. The same function answers the server and the web app. */
export function can(subject: TSubject | null | undefined, capability: TCapability): boolean {
  if (!subject) return false;
  const grant: Grant = CAPABILITIES[capability];
  const key = roleKey(subject);
  if (grant.roles.includes(key)) return true;
  if (key !== 'Custom' || grant.page === undefined) return false;
  const pages = subject.pages ?? [];
  return typeof grant.page === 'string'
    ? pages.includes(grant.page)
    : grant.page.some((p) => pages.includes(p));
}

/** Every capability of a subject, for screens that list what a user may do. */
export function capabilitiesOf(subject: TSubject): TCapability[] {
  return CAPABILITY_NAMES.filter((c) => can(subject, c));
}

/** A representative subject of each role key, for tests that walk the table (Custom holds every page). */
export function subjectOf(key: TRoleKey): TSubject {
  const of = (role: TRole, user_type: TUserType | null = null, pages: readonly string[] = []) => ({
    role,
    user_type,
    pages,
  });
  switch (key) {
    case 'AccountManager':
      return of('AgencyUser', '1');
    case 'FinanaceManager':
      return of('AgencyUser', '2');
    case 'MarketingManager':
      return of('AgencyUser', '3');
    case 'AdminSupport':
      return of('BusinessUser', '1');
    case 'MarketingUser':
      return of('BusinessUser', '2');
    case 'SalesUser':
      return of('BusinessUser', '3');
    case 'Custom':
      return of('BusinessUser', '4', CUSTOM_TYPE_PAGES);
    default:
      return of(key);
  }
}

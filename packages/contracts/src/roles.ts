// Tenancy vocabulary of spec 000 §6. The spellings are the product's (FinanaceManager included).
export const ROLE_GROUPS = ['Admin', 'Agency', 'Business'] as const;
export type TRoleGroup = (typeof ROLE_GROUPS)[number];

export const ROLES = [
  'SuperAdmin',
  'Admin',
  'AgencyAdmin',
  'AgencyUser',
  'BusinessAdmin',
  'BusinessUser',
] as const;
export type TRole = (typeof ROLES)[number];

export const ROLE_GROUP_OF: Record<TRole, TRoleGroup> = {
  SuperAdmin: 'Admin',
  Admin: 'Admin',
  AgencyAdmin: 'Agency',
  AgencyUser: 'Agency',
  BusinessAdmin: 'Business',
  BusinessUser: 'Business',
};

/** user_type is a string '1'..'4'; its meaning depends on the role (spec 000 §6). */
export const USER_TYPES = ['1', '2', '3', '4'] as const;
export type TUserType = (typeof USER_TYPES)[number];

export const AGENCY_USER_TYPES = {
  '1': 'AccountManager',
  '2': 'FinanaceManager',
  '3': 'MarketingManager',
} as const;
export const BUSINESS_USER_TYPES = {
  '1': 'AdminSupport',
  '2': 'MarketingUser',
  '3': 'SalesUser',
  '4': 'Custom',
} as const;

export const AGENT_TYPES = ['agent', 'smsAgent', 'voiceAgent'] as const;
export type TAgentType = (typeof AGENT_TYPES)[number];

export const CUSTOM_TYPE_PAGES = [
  'inbox_page',
  'analytic_page',
  'calls_page',
  'tasks_page',
  'contacts_page',
  'broadcast_page',
  'automation_page',
  'installs_page',
  'numbers_page',
  'tags_page',
  'users_page',
  'departments_page',
  'message_template_page',
  'blacklist_page',
  'whitelist_page',
] as const;
export type TCustomTypePage = (typeof CUSTOM_TYPE_PAGES)[number];

/** Which user types are valid for a role; tenant-less roles take none. */
export function userTypesFor(role: TRole): readonly TUserType[] {
  if (role === 'AgencyUser') return ['1', '2', '3'];
  if (role === 'BusinessUser') return ['1', '2', '3', '4'];
  return [];
}

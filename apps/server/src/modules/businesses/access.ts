import type { Access, Actor } from '../../platform/auth/actor.ts';

// Who may call what in this module (spec 000 §2 menus, §6; the brief of issue 4 where the spec is silent).

const isAdmin = (a: Actor) => a.roleGroup === 'Admin';
const isAgencyUserOfType = (a: Actor, types: string[]) =>
  a.role === 'AgencyUser' && a.userType !== null && types.includes(a.userType);

/** Business accounts, read: platform admins and every agency user (the menus show them to all). */
export const BUSINESS_VIEWERS: Access = { roleGroups: ['Admin', 'Agency'] };

/** Business accounts, write: platform admins, the AgencyAdmin and AccountManagers (user_type 1). */
export const BUSINESS_MANAGERS: Access = {
  roleGroups: ['Admin', 'Agency'],
  check: (a) => isAdmin(a) || a.role === 'AgencyAdmin' || isAgencyUserOfType(a, ['1']),
};

/** Agency user management: the AgencyAdmin only. */
export const AGENCY_ADMIN: Access = { roleGroups: ['Agency'], roles: ['AgencyAdmin'] };

/** The business's own settings. */
export const BUSINESS_ADMIN: Access = { roleGroups: ['Business'], roles: ['BusinessAdmin'] };

/** Anyone of a business. */
export const BUSINESS_MEMBERS: Access = { roleGroups: ['Business'] };

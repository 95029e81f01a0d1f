import type { Access, Actor } from '../../platform/auth/actor.ts';

// Who may call billing's routes (spec 000 §2 menus; spec 001 §7). The capability table replaces these.

const isAgencyUserOfType = (a: Actor, types: string[]) =>
  a.role === 'AgencyUser' && a.userType !== null && types.includes(a.userType);

/** Plans: platform admins, the AgencyAdmin, AccountManagers (1) and FinanaceManagers (2). */
export const PLAN_MANAGERS: Access = {
  roleGroups: ['Admin', 'Agency'],
  check: (a) => a.roleGroup === 'Admin' || a.role === 'AgencyAdmin' || isAgencyUserOfType(a, ['1', '2']),
};

/** Packages: the AgencyAdmin only. */
export const AGENCY_ADMIN: Access = { roleGroups: ['Agency'], roles: ['AgencyAdmin'] };

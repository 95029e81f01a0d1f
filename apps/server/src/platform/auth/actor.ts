import type { TRole, TRoleGroup, TUserType } from '@stn/contracts/roles';

/** Who is calling, resolved once per request from the bearer token. */
export type Actor = {
  userId: number;
  roleGroup: TRoleGroup;
  role: TRole;
  userType: TUserType | null;
  agencyId: number | null;
  businessId: number | null;
  tokenId: number;
  tokenKind: 'access' | 'impersonation';
  /** The person really acting when this is an impersonation token. */
  impersonatorId: number | null;
  expiresAt: Date;
};

/** Who may call a route. Routes under /api default to any signed-in user. */
export type Access =
  | 'public'
  | 'user'
  | {
      roleGroups?: TRoleGroup[];
      roles?: TRole[];
      /** A finer rule (user types, custom pages), checked after the role groups and roles. */
      check?: (actor: Actor) => boolean;
    };

export function isAllowed(actor: Actor, access: Exclude<Access, 'public' | 'user'>): boolean {
  if (access.roleGroups && !access.roleGroups.includes(actor.roleGroup)) return false;
  if (access.roles && !access.roles.includes(actor.role)) return false;
  if (access.check && !access.check(actor)) return false;
  return true;
}

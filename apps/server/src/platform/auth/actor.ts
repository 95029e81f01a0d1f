import { can, type TCapability, type TSubject } from '@stn/contracts/capabilities';
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
  /** The custom type's pages (settings.custom_type_pages); empty for every other user. */
  pages: readonly string[];
};

/** The subject the capability table judges: role, user type and the custom type's pages. */
export function subjectOf(actor: Actor): TSubject {
  return { role: actor.role, user_type: actor.userType, pages: actor.pages };
}

/** Whether the caller holds a capability of the one rules table (the web app asks the same `can`). */
export function actorCan(actor: Actor, capability: TCapability): boolean {
  return can(subjectOf(actor), capability);
}

// The web's door to the one rules table (contracts/capabilities): a signed-in profile carries its
// custom pages in settings, where the table's subject expects them beside role and user_type.
import { can, type TCapability, type TSubject } from '@stn/contracts/capabilities';
import type { TUser } from '@stn/contracts/profile';

type ProfileLike = Pick<TUser, 'role' | 'user_type' | 'settings'>;

export function subjectOfUser(user: ProfileLike): TSubject {
  return { role: user.role, user_type: user.user_type, pages: user.settings.custom_type_pages ?? [] };
}

/** `can` for a signed-in profile; nobody signed in may do nothing. */
export function userCan(user: ProfileLike | null | undefined, capability: TCapability): boolean {
  return user ? can(subjectOfUser(user), capability) : false;
}

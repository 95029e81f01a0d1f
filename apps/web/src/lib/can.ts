import { can, type TCapability } from '@stn/contracts/capabilities';
import type { TUser } from '@stn/contracts/profile';

/** `can` of the one rules table for the signed-in user (the custom type's pages come from its settings). */
export function userCan(user: TUser | null | undefined, capability: TCapability): boolean {
  if (!user) return false;
  return can(
    { role: user.role, user_type: user.user_type, pages: user.settings.custom_type_pages },
    capability,
  );
}

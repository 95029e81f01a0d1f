import type { TUser } from '@stn/contracts/profile';

// Which agency users may change what (the server's access rules, mirrored so the screens hide what would
// answer 403): businesses' writes for the AgencyAdmin and AccountManagers (user_type 1); notifications,
// settings for the AgencyAdmin, AccountManagers and FinanaceManagers (2).

const agencyUserOfType = (user: TUser, types: string[]) =>
  user.role === 'AgencyUser' && user.user_type !== null && types.includes(String(user.user_type));

export function canManageBusinesses(user: TUser): boolean {
  return user.role === 'AgencyAdmin' || agencyUserOfType(user, ['1']);
}

export function canSendNotifications(user: TUser): boolean {
  return user.role === 'AgencyAdmin' || agencyUserOfType(user, ['1', '2']);
}

export function isAgencyAdmin(user: TUser): boolean {
  return user.role === 'AgencyAdmin';
}

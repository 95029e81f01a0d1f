import { BUSINESS_USER_TYPES, CUSTOM_TYPE_PAGES } from '@stn/contracts/roles';
import { useTranslation } from 'react-i18next';

/** The role of a business user as people read it: Business admin, or the user type of a BusinessUser. */
export function useRoleLabel() {
  const { t } = useTranslation();
  return (role: string, userType: string | null) =>
    role === 'BusinessAdmin' || !userType || !(userType in BUSINESS_USER_TYPES)
      ? t(`business.users.roles.${role === 'BusinessAdmin' ? 'BusinessAdmin' : 'BusinessUser'}`)
      : t(`business.users.types.${userType}`);
}

/** The custom type's pages (spec 000 §2) as options with readable labels. */
export function useCustomPageOptions() {
  const { t } = useTranslation();
  return CUSTOM_TYPE_PAGES.map((value) => ({ value, label: t(`business.users.pages.${value}`) }));
}

import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

const agencyAccounts = lazy(() => import('../features/agencies/agency-accounts-page.tsx'));
const agencyForm = lazy(() => import('../features/agencies/agency-form-page.tsx'));
const businessForm = lazy(() => import('../features/businesses/business-form.tsx'));
const releaseNoteForm = lazy(() => import('../features/sites/release-note-form.tsx'));
const userForm = lazy(() => import('../features/users/user-form.tsx'));

/** The admin area: its route names (route-table.ts) and the features' screens, each its own lazy chunk. */
export const adminRoutes: Record<string, LazyExoticComponent<ComponentType>> = {
  admin: agencyAccounts,
  'admin.agency.accounts': agencyAccounts,
  'admin.agency.archived': lazy(() => import('../features/agencies/agency-archived-page.tsx')),
  'admin.agency.add': agencyForm,
  'admin.agency.edit': agencyForm,
  'admin.business': lazy(() => import('../features/businesses/business-list.tsx')),
  'admin.business.add': businessForm,
  'admin.business.edit': businessForm,
  'admin.settings': lazy(() => import('../features/sites/admin-settings-page.tsx')),
  'admin.whitelabel': lazy(() => import('../features/sites/whitelabel-page.tsx')),
  'admin.releaseNote': lazy(() => import('../features/sites/release-notes-admin-page.tsx')),
  'admin.releaseNote.create': releaseNoteForm,
  'admin.releaseNote.edit': releaseNoteForm,
  'admin.users': lazy(() => import('../features/users/global-users-page.tsx')),
  'admin.users.create': userForm,
  'admin.users.edit': userForm,
  'admin.blacklist': lazy(() => import('../features/compliance/blacklist-page.tsx')),
  'admin.whitelist': lazy(() => import('../features/compliance/whitelist-page.tsx')),
  'admin.training': lazy(() => import('../features/sites/training-edit-page.tsx')),
};

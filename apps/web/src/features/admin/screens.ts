import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

const agencyAccounts = lazy(() => import('./agency-accounts-page.tsx'));
const agencyForm = lazy(() => import('./agency-form-page.tsx'));
const releaseNoteForm = lazy(() => import('./release-note-form-page.tsx'));
const userForm = lazy(() => import('./user-form-page.tsx'));

/** Screens of the admin area by route name (route-table.ts); each is its own lazy chunk. */
export const adminScreens: Record<string, LazyExoticComponent<ComponentType>> = {
  admin: agencyAccounts,
  'admin.agency.accounts': agencyAccounts,
  'admin.agency.archived': lazy(() => import('./agency-archived-page.tsx')),
  'admin.agency.add': agencyForm,
  'admin.agency.edit': agencyForm,
  'admin.whitelabel': lazy(() => import('./whitelabel-page.tsx')),
  'admin.releaseNote': lazy(() => import('./release-notes-page.tsx')),
  'admin.releaseNote.create': releaseNoteForm,
  'admin.releaseNote.edit': releaseNoteForm,
  'admin.users': lazy(() => import('./users-page.tsx')),
  'admin.users.create': userForm,
  'admin.users.edit': userForm,
  'admin.blacklist': lazy(() => import('./blacklist-page.tsx')),
  'admin.whitelist': lazy(() => import('./whitelist-page.tsx')),
  'admin.training': lazy(() => import('./training-page.tsx')),
};

import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/** Screens of the agency area by route name (route-table.ts); each is its own lazy chunk. */
const businessList = lazy(() => import('./business-list.tsx'));
const businessForm = lazy(() => import('./business-form.tsx'));
const agencyUserList = lazy(() => import('./agency-user-list.tsx'));
const agencyUserForm = lazy(() => import('./agency-user-form.tsx'));
const settings = lazy(() => import('./settings-page.tsx'));
const planList = lazy(() => import('./plan-list.tsx'));
const planForm = lazy(() => import('./plan-form.tsx'));
const packageList = lazy(() => import('./package-list.tsx'));
const packageForm = lazy(() => import('./package-form.tsx'));

export const agencyScreens: Record<string, LazyExoticComponent<ComponentType>> = {
  agency: businessList,
  'agency.business.accounts': businessList,
  'agency.business.archived': businessList,
  'agency.business.deleted': businessList,
  'agency.business.add': businessForm,
  'agency.business.edit': businessForm,
  'agency.users': agencyUserList,
  'agency.users.create': agencyUserForm,
  'agency.users.edit': agencyUserForm,
  'agency.settings': settings,
  'agency.settings.notification': settings,
  'agency.landing-page': lazy(() => import('./landing-page-script.tsx')),
  'agency.popup': lazy(() => import('./popup-settings.tsx')),
  'agency.international': lazy(() => import('./international-page.tsx')),
  'agency.training': lazy(() => import('./training-page.tsx')),
  'agency.plans': planList,
  'agency.plans.add': planForm,
  'agency.plans.edit': planForm,
  'agency.packages': packageList,
  'agency.packages.add': packageForm,
  'agency.packages.edit': packageForm,
};

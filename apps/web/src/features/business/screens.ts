import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

const users = lazy(() => import('./users-page.tsx'));
const userForm = lazy(() => import('./user-form-page.tsx'));
const departments = lazy(() => import('./departments-page.tsx'));
const departmentForm = lazy(() => import('./department-form-page.tsx'));

/** Screens of the business area by route name (route-table.ts); each is its own lazy chunk. */
export const businessScreens: Record<string, LazyExoticComponent<ComponentType>> = {
  'business.users': users,
  'business.users.create': userForm,
  'business.users.edit': userForm,
  'business.departments': departments,
  'business.departments.create': departmentForm,
  'business.departments.edit': departmentForm,
  'business.setting': lazy(() => import('./setting-page.tsx')),
  'business.setting.notification': lazy(() => import('./notification-page.tsx')),
  'business.blacklist': lazy(() => import('./blacklist-page.tsx')),
  'business.whitelist': lazy(() => import('./whitelist-page.tsx')),
};

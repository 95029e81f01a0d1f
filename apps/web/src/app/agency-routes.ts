import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

const businessList = lazy(() => import('../features/businesses/business-list.tsx'));
const businessForm = lazy(() => import('../features/businesses/business-form.tsx'));
const userForm = lazy(() => import('../features/users/user-form.tsx'));
const settings = lazy(() => import('../features/agencies/agency-settings-page.tsx'));
const planForm = lazy(() => import('../features/billing/plan-form.tsx'));
const packageForm = lazy(() => import('../features/billing/package-form.tsx'));
const subscriptions = lazy(() => import('../features/billing/subscriptions-page.tsx'));
const paymentMethods = lazy(() => import('../features/billing/payment-methods-page.tsx'));
const profileForm = lazy(() => import('../features/registration/profile-form-page.tsx'));

/** The agency area: its route names (route-table.ts) and the features' screens, each its own lazy chunk. */
export const agencyRoutes: Record<string, LazyExoticComponent<ComponentType>> = {
  'agency.dashboard': lazy(() => import('../features/analytics/agency-dashboard-page.tsx')),
  agency: businessList,
  'agency.business.accounts': businessList,
  'agency.business.archived': businessList,
  'agency.business.deleted': businessList,
  'agency.business.add': businessForm,
  'agency.business.edit': businessForm,
  'agency.users': lazy(() => import('../features/users/agency-users-page.tsx')),
  'agency.users.create': userForm,
  'agency.users.edit': userForm,
  'agency.settings': settings,
  'agency.settings.notification': settings,
  'agency.landing-page': lazy(() => import('../features/agencies/landing-page-script.tsx')),
  'agency.integrations': lazy(() => import('../features/integrations/mail-agency-page.tsx')),
  'agency.popup': lazy(() => import('../features/agencies/popup-settings.tsx')),
  'agency.international': lazy(() => import('../features/agencies/international-page.tsx')),
  'agency.training': lazy(() => import('../features/sites/training-page.tsx')),
  'agency.plans': lazy(() => import('../features/billing/plan-list.tsx')),
  'agency.plans.add': planForm,
  'agency.plans.edit': planForm,
  'agency.packages': lazy(() => import('../features/billing/package-list.tsx')),
  'agency.packages.add': packageForm,
  'agency.packages.edit': packageForm,
  'agency.subscriptions': subscriptions,
  'agency.payment-methods': paymentMethods,
  'agency.setup': lazy(() => import('../features/agencies/setup-page.tsx')),
  'agency.zapier': lazy(() => import('../features/integrations/zapier-agency-page.tsx')),
  'agency.twilioProfile': lazy(() => import('../features/registration/profile-list-page.tsx')),
  'agency.twilioProfile.create': profileForm,
  'agency.twilioProfile.edit': profileForm,
  'agency.sms-registration': lazy(() => import('../features/registration/sms-registration-page.tsx')),
};

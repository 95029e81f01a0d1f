import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

const userForm = lazy(() => import('../features/users/user-form.tsx'));
const numberEdit = lazy(() => import('../features/numbers/number-edit-page.tsx'));
const departmentForm = lazy(() => import('../features/users/department-form.tsx'));
const contactForm = lazy(() => import('../features/contacts/contact-form.tsx'));
const templateForm = lazy(() => import('../features/templates/template-form.tsx'));
const broadcastForm = lazy(() => import('../features/broadcasts/broadcast-form.tsx'));
const installsPage = lazy(() => import('../features/installs/installs-page.tsx'));
const automationEditor = lazy(() => import('../features/automations/automation-editor-page.tsx'));
const leadFormBuilder = lazy(() => import('../features/leadforms/lead-form-builder-page.tsx'));
const embeddedFormWizard = lazy(() => import('../features/leadforms/embedded-form-wizard.tsx'));
const subscriptions = lazy(() => import('../features/billing/subscriptions-page.tsx'));
const googleLocation = lazy(() => import('../features/integrations/google-location-page.tsx'));
const mailAccountForm = lazy(() => import('../features/integrations/mail-account-form.tsx'));
const mailIntegrationForm = lazy(() => import('../features/integrations/mail-integration-form.tsx'));
const paymentMethods = lazy(() => import('../features/billing/payment-methods-page.tsx'));

/** The business area: its route names (route-table.ts) and the features' screens, each its own lazy chunk. */
export const businessRoutes: Record<string, LazyExoticComponent<ComponentType>> = {
  'business.dashboard': lazy(() => import('../features/analytics/business-dashboard-page.tsx')),
  'business.users': lazy(() => import('../features/users/business-users-page.tsx')),
  'business.users.create': userForm,
  'business.users.edit': userForm,
  'business.departments': lazy(() => import('../features/users/departments-page.tsx')),
  'business.departments.create': departmentForm,
  'business.departments.edit': departmentForm,
  'business.setting': lazy(() => import('../features/businesses/business-settings-page.tsx')),
  'business.setting.analytics': lazy(() => import('../features/businesses/analytics-page.tsx')),
  'business.setting.notification': lazy(() => import('../features/businesses/notification-page.tsx')),
  'business.setting.contacts': lazy(() => import('../features/businesses/contacts-settings-page.tsx')),
  'business.setting.messages': lazy(() => import('../features/businesses/messages-settings-page.tsx')),
  'business.setting.location.create': googleLocation,
  'business.setting.location.edit': googleLocation,
  'business.setting.smtp.create': mailAccountForm,
  'business.setting.smtp.edit': mailAccountForm,
  'business.setting.integration.create': mailIntegrationForm,
  'business.setting.integration.edit': mailIntegrationForm,
  'business.blacklist': lazy(() => import('../features/compliance/blacklist-page.tsx')),
  'business.whitelist': lazy(() => import('../features/compliance/whitelist-page.tsx')),
  'business.calls': lazy(() => import('../features/calls/calls-page.tsx')),
  'business.schedule.calls': lazy(() => import('../features/calls/scheduled-calls-page.tsx')),
  'business.voice-records': lazy(() => import('../features/calls/voice-records-page.tsx')),
  'business.calls-report': lazy(() => import('../features/calls/calls-report-page.tsx')),
  'business.installs': installsPage,
  'business.installs.archived': installsPage,
  'business.installs.deleted': installsPage,
  'business.installs.add': lazy(() => import('../features/installs/install-add-page.tsx')),
  'business.installs.edit': lazy(() => import('../features/installs/install-edit-page.tsx')),
  'business.installs.forms': lazy(() => import('../features/leadforms/embedded-forms-page.tsx')),
  'business.installs.forms.create': embeddedFormWizard,
  'business.installs.forms.edit': embeddedFormWizard,
  'business.numbers': lazy(() => import('../features/numbers/numbers-page.tsx')),
  'business.numbers.edit': numberEdit,
  'business.numbers.verification': lazy(() => import('../features/numbers/number-verification-page.tsx')),
  'business.setting.number': numberEdit,
  'business.contacts': lazy(() => import('../features/contacts/contacts-page.tsx')),
  'business.contacts.create': contactForm,
  'business.contacts.edit': contactForm,
  'business.contacts.fields': lazy(() => import('../features/contacts/contact-fields-page.tsx')),
  'business.tasks': lazy(() => import('../features/tasks/tasks-page.tsx')),
  'business.templates': lazy(() => import('../features/templates/templates-page.tsx')),
  'business.templates.create': templateForm,
  'business.templates.edit': templateForm,
  'business.broadcast': lazy(() => import('../features/broadcasts/broadcasts-page.tsx')),
  'business.broadcast.create': broadcastForm,
  'business.broadcast.edit': broadcastForm,
  'business.broadcast.duplicate': broadcastForm,
  'business.setting.broadcast-numbers': lazy(
    () => import('../features/broadcasts/broadcast-numbers-page.tsx'),
  ),
  'business.tags': lazy(() => import('../features/tags/tags-page.tsx')),
  'business.messaging': lazy(() => import('../features/inbox/inbox-page.tsx')),
  'business.broadcast.report': lazy(() => import('../features/broadcasts/report/report-page.tsx')),
  'business.automation': lazy(() => import('../features/automations/automations-page.tsx')),
  'business.automation.create': automationEditor,
  'business.automation.edit': automationEditor,
  'business.automation.share': lazy(() => import('../features/automations/share-page.tsx')),
  'business.leadForms': lazy(() => import('../features/leadforms/lead-forms-page.tsx')),
  'business.leadForms.create': leadFormBuilder,
  'business.leadForms.edit': leadFormBuilder,
  'business.subscriptions': subscriptions,
  'business.packages': lazy(() => import('../features/billing/business-packages-page.tsx')),
  'business.payment-methods': paymentMethods,
  'business.add-card': lazy(() => import('../features/billing/add-card-page.tsx')),
  'business.sandbox-phones': lazy(() => import('../features/telephony/sandbox-phones-page.tsx')),
  'business.sms-registration': lazy(() => import('../features/registration/business-registration-page.tsx')),
};

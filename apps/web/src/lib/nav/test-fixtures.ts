// The signed-in user, its agency and business, and the main site, as the navigation tests build them:
// each test file states only where its user differs from these.
import type { TUser } from '@stn/contracts/profile';
import type { TSiteData } from '@stn/contracts/site';

export type TestAgency = NonNullable<TUser['agency']>;
export type TestBusiness = NonNullable<TUser['business']>;

/** A paid agency with card payments, zapier and departments on, on its own subdomain. */
export const testAgency = (over: Partial<TestAgency> = {}): TestAgency => ({
  id: 10,
  name: 'Acme Callbacks',
  email: 'hello@acme.test',
  domain: null,
  subdomain: 'acme',
  is_main: false,
  is_template: false,
  free_fee: false,
  active: true,
  zapier_enabled: true,
  zapier_free: false,
  department_enabled: true,
  remove_branding: false,
  profanity_enabled: false,
  properties: { twProfileSid: null, twCampaignSid: null },
  ...over,
});

/** A paid business with both widgets, departments and the sales-user extension. */
export const testBusiness = (over: Partial<TestBusiness> = {}): TestBusiness => ({
  id: 20,
  name: 'Bright Dental',
  free_fee: false,
  is_template: false,
  widget_type: 3,
  is_on_trial: false,
  calls: 200,
  number_of_calls: 0,
  messages: 2000,
  number_of_messages: 0,
  number_of_users: 1,
  number_of_installs: 1,
  number_of_automations: 2,
  dep_enabled: true,
  has_sales_user_extension: true,
  ai_enabled: false,
  ...over,
});

/** A SuperAdmin with no tenant, paid up, telephony set up, no open install wizard. */
export const testUser = (over: Partial<TUser> = {}): TUser => ({
  id: 1,
  first_name: 'Ann',
  last_name: 'User',
  email: 'ann@example.test',
  email_verified: true,
  avatar: null,
  role: 'SuperAdmin',
  role_group: 'Admin',
  user_type: null,
  agent_type: null,
  settings: {},
  subscriptions: { zapier: true },
  has_twilio_setup: true,
  carrier_sandbox: false,
  stripe_active: true,
  subscribed: true,
  has_payment_method: true,
  agency_has_stripe_config: true,
  max_departments: 5,
  open_install_wizard: false,
  support_widget_key: null,
  number_of_messages: 3,
  number_of_tasks: 2,
  countries: ['US'],
  agency: null,
  business: null,
  ...over,
});

/** The main agency's site on the main domain. */
export const MAIN_SITE: TSiteData = {
  validDomain: true,
  isMainAgency: true,
  isMainDomain: true,
  agency_id: 1,
  title: 'Start Texting Now',
  headerLogo: null,
  loginLogo: null,
  favicon: null,
  supportEmail: 'support@example.com',
  address: null,
  custom_script: null,
  landingPage: true,
  landingTexts: {},
  marketingUrl: null,
  maintenance: false,
};

import type { TUser } from '@stn/contracts/profile';
import { describe, expect, it } from 'vitest';
import {
  agencySmsBanner,
  areaPath,
  bannersHidden,
  canImpersonate,
  impersonationTarget,
  initials,
  profilePath,
  sidebarInitiallyOpen,
  sidebarLinkHeight,
  sidebarOpenAfterRouteChange,
  tenantName,
  usageOf,
  usageText,
} from './layout-rules.ts';

const agency: NonNullable<TUser['agency']> = {
  id: 10,
  name: 'Acme Callbacks',
  email: 'hello@acme.test',
  domain: null,
  subdomain: 'acme',
  is_main: false,
  is_template: false,
  free_fee: false,
  active: true,
  zapier_enabled: false,
  zapier_free: false,
  department_enabled: false,
  remove_branding: false,
  profanity_enabled: false,
  properties: { twProfileSid: null, twCampaignSid: null },
};

const business: NonNullable<TUser['business']> = {
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
  dep_enabled: false,
  has_sales_user_extension: false,
};

function user(over: Partial<TUser> = {}): TUser {
  return {
    id: 1,
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@acme.test',
    email_verified: true,
    avatar: null,
    role: 'AgencyAdmin',
    role_group: 'Agency',
    user_type: null,
    agent_type: null,
    settings: {},
    subscriptions: { zapier: false },
    has_twilio_setup: true,
    stripe_active: true,
    subscribed: true,
    has_payment_method: true,
    agency_has_stripe_config: false,
    max_departments: 0,
    open_install_wizard: false,
    number_of_messages: 0,
    number_of_tasks: 0,
    countries: [],
    agency,
    business: null,
    ...over,
  };
}

describe('sidebar breakpoints (spec 000 §9)', () => {
  it('starts open above 700 px, opens after a route change from 992 px, links 40/55 px by body height', () => {
    expect(sidebarInitiallyOpen(700)).toBe(false);
    expect(sidebarInitiallyOpen(701)).toBe(true);
    expect(sidebarOpenAfterRouteChange(991)).toBe(false);
    expect(sidebarOpenAfterRouteChange(992)).toBe(true);
    expect(sidebarLinkHeight(699)).toBe(40);
    expect(sidebarLinkHeight(700)).toBe(55);
    expect(sidebarLinkHeight(0)).toBe(55);
  });
});

describe('top bar', () => {
  it('names the tenant: agency, business, else the site title', () => {
    expect(tenantName(user(), 'Site')).toBe('Acme Callbacks');
    expect(tenantName(user({ role: 'BusinessAdmin', role_group: 'Business', business }), 'Site')).toBe(
      'Bright Dental',
    );
    expect(tenantName(user({ role: 'SuperAdmin', role_group: 'Admin', agency: null }), 'Site')).toBe('Site');
  });

  it('initials: first letters of first and last name, else ?', () => {
    expect(initials({ first_name: 'ada', last_name: 'lovelace' })).toBe('AL');
    expect(initials({ first_name: 'Ada', last_name: '' })).toBe('A');
    expect(initials({ first_name: '', last_name: '' })).toBe('?');
  });

  it('profile path by role group', () => {
    expect(profilePath('Business')).toBe('/business/profile');
  });
});

describe('usage', () => {
  it('no cap (0 or missing) is infinite and never warns', () => {
    expect(usageOf(500, 0)).toEqual({ used: 500, cap: null, level: 'ok' });
    expect(usageOf(5, undefined).level).toBe('ok');
    expect(usageText(usageOf(5, 0))).toBe('5 / ∞');
  });

  it('warns from 90% and is at the limit from 100%', () => {
    expect(usageOf(179, 200).level).toBe('ok');
    expect(usageOf(180, 200).level).toBe('warning');
    expect(usageOf(200, 200).level).toBe('limit');
    expect(usageOf(250, 200).level).toBe('limit');
    expect(usageText(usageOf(12, 200))).toBe('12 / 200');
  });
});

describe('banners', () => {
  it('are hidden on subscriptions, and on setup for agencies', () => {
    expect(bannersHidden('business.subscriptions', 'Business')).toBe(true);
    expect(bannersHidden('agency.subscriptions', 'Agency')).toBe(true);
    expect(bannersHidden('agency.setup', 'Agency')).toBe(true);
    expect(bannersHidden('business.messaging', 'Business')).toBe(false);
  });

  it('agency SMS banners: no profile, then no campaign', () => {
    expect(agencySmsBanner(user())).toBe('twilio-profile');
    expect(agencySmsBanner(user({ has_twilio_setup: false, role: 'AgencyUser', user_type: '1' }))).toBeNull();
    expect(
      agencySmsBanner(user({ has_twilio_setup: false, agency: { ...agency, is_template: true } })),
    ).toBeNull();
    const withProps = (p: object) => user({ agency: { ...agency, properties: p } as TUser['agency'] });
    expect(agencySmsBanner(withProps({ twProfileSid: null }))).toBe('twilio-profile');
    expect(agencySmsBanner(withProps({ twProfileSid: 'BU1', twCampaignSid: null }))).toBe('sms-registration');
    expect(agencySmsBanner(withProps({ twProfileSid: 'BU1', twCampaignSid: 'CM1' }))).toBeNull();
  });
});

describe('impersonation (spec 000 §4)', () => {
  it('goes to the agency, a template business automation, or the business area', () => {
    expect(impersonationTarget({ role_group: 'Agency', is_template: false })).toBe('/agency');
    expect(impersonationTarget({ role_group: 'Business', is_template: true })).toBe('/business/automation');
    expect(impersonationTarget({ role_group: 'Business', is_template: false })).toBe('/business');
    expect(areaPath('Admin')).toBe('/admin');
  });

  it('the toggle is for Admin and Agency, not while impersonating', () => {
    expect(canImpersonate(user(), false)).toBe(true);
    expect(canImpersonate(user(), true)).toBe(false);
    expect(canImpersonate(user({ role: 'BusinessAdmin', role_group: 'Business', business }), false)).toBe(
      false,
    );
  });
});

import type { TUser } from '@stn/contracts/profile';
import { describe, expect, it } from 'vitest';
import { testAgency, testBusiness, testUser } from '../../lib/nav/test-fixtures.ts';
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

const agency = testAgency({ zapier_enabled: false, department_enabled: false });

const business = testBusiness({ dep_enabled: false, has_sales_user_extension: false });

function user(over: Partial<TUser> = {}): TUser {
  return testUser({
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@acme.test',
    role: 'AgencyAdmin',
    role_group: 'Agency',
    subscriptions: { zapier: false },
    agency_has_stripe_config: false,
    max_departments: 0,
    number_of_messages: 0,
    number_of_tasks: 0,
    countries: [],
    agency,
    ...over,
  });
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

  it('agency SMS banners: on a real Twilio account (the sandbox: see below), not before set-up', () => {
    expect(agencySmsBanner(user())).toBe('twilio-profile');
    expect(agencySmsBanner(user({ carrier_sandbox: true }))).toBeNull();
    expect(agencySmsBanner(user({ has_twilio_setup: false }))).toBeNull();
  });

  it('agency SMS banners on the sandbox: once a profile is submitted, until the campaign is approved', () => {
    const sandbox = (p: object) =>
      user({ carrier_sandbox: true, agency: { ...agency, properties: p } as TUser['agency'] });
    expect(agencySmsBanner(sandbox({ twProfileSid: null, twCampaignSid: null }))).toBeNull();
    expect(agencySmsBanner(sandbox({ twProfileSid: 'BU1', twCampaignSid: null }))).toBe('sms-registration');
    expect(agencySmsBanner(sandbox({ twProfileSid: 'BU1', twCampaignSid: 'QE1' }))).toBeNull();
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

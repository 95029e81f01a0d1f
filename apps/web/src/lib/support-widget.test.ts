import { describe, expect, it } from 'vitest';
import { testAgency, testUser } from './nav/test-fixtures.ts';
import { SUPPORT_WIDGET_HIDDEN_ROUTES, supportWidgetKeyFor } from './support-widget.ts';

// Where the support chat loads (spec 000 §2 Layout): agencies on every route but landing, login,
// product-order and product-thankyou; businesses under the main agency; nobody else.

const agencyUser = testUser({
  role: 'AgencyAdmin',
  role_group: 'Agency',
  agency: testAgency({ is_main: false }),
  business: null,
  support_widget_key: 'agency-key',
});
const mainBusinessUser = testUser({
  role: 'BusinessAdmin',
  role_group: 'Business',
  agency: testAgency({ is_main: true }),
  support_widget_key: 'business-key',
});

describe('supportWidgetKeyFor', () => {
  it('loads for agencies on the app routes, not on landing, login, product-order or product-thankyou', () => {
    expect(supportWidgetKeyFor(agencyUser, 'agency.dashboard')).toBe('agency-key');
    expect(supportWidgetKeyFor(agencyUser, 'release-notes')).toBe('agency-key');
    for (const route of ['landing', 'login', 'auth', 'product-order', 'product-thankyou'])
      expect(supportWidgetKeyFor(agencyUser, route), route).toBeNull();
    expect(SUPPORT_WIDGET_HIDDEN_ROUTES.size).toBe(5);
  });

  it('loads for businesses under the main agency with their own install', () => {
    expect(supportWidgetKeyFor(mainBusinessUser, 'business.messaging')).toBe('business-key');
  });

  it('is removed for businesses of other agencies, admins, nobody, and when no install is picked', () => {
    const otherBusiness = { ...mainBusinessUser, agency: testAgency({ is_main: false }) };
    expect(supportWidgetKeyFor(otherBusiness, 'business.messaging')).toBeNull();
    const admin = testUser({
      role: 'SuperAdmin',
      role_group: 'Admin',
      agency: null,
      support_widget_key: 'x',
    });
    expect(supportWidgetKeyFor(admin, 'admin.agency.accounts')).toBeNull();
    expect(supportWidgetKeyFor(null, 'agency.dashboard')).toBeNull();
    expect(supportWidgetKeyFor({ ...agencyUser, support_widget_key: null }, 'agency.dashboard')).toBeNull();
  });
});

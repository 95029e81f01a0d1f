import { type TRoleKey as RoleKey, roleKey } from '@stn/contracts/capabilities';
import { type TUser, ZUser } from '@stn/contracts/profile';
import { CUSTOM_TYPE_PAGES, ROLE_GROUP_OF, type TRole, type TUserType } from '@stn/contracts/roles';
import { describe, expect, it } from 'vitest';
import { type MenuItem, menuFor, menuRoutes } from './menus.ts';
import { ROUTE_BY_NAME } from './route-table.ts';
import { type TestAgency, type TestBusiness, testAgency, testBusiness, testUser } from './test-fixtures.ts';

// ---- Test users ----

type Overrides = Partial<Omit<TUser, 'agency' | 'business'>> & {
  agency?: Partial<TestAgency> | null;
  business?: Partial<TestBusiness> | null;
};

/** Defaults show as much as possible: paid agency with card payments, zapier, departments, both widgets. */
const AGENCY = testAgency();
const BUSINESS = testBusiness();

/** A full, schema-valid TUser: defaults plus overrides (agency and business merge into their defaults). */
function makeUser(o: Overrides = {}): TUser {
  const { agency, business, ...rest } = o;
  return ZUser.parse(
    testUser({
      agency: agency ? { ...AGENCY, ...agency } : null,
      business: business ? { ...BUSINESS, ...business } : null,
      ...rest,
    }),
  );
}

const ROLE_SETUP: Record<RoleKey, { role: TRole; user_type: TUserType | null }> = {
  SuperAdmin: { role: 'SuperAdmin', user_type: null },
  Admin: { role: 'Admin', user_type: null },
  AgencyAdmin: { role: 'AgencyAdmin', user_type: null },
  AccountManager: { role: 'AgencyUser', user_type: '1' },
  FinanaceManager: { role: 'AgencyUser', user_type: '2' },
  MarketingManager: { role: 'AgencyUser', user_type: '3' },
  AgencyUser: { role: 'AgencyUser', user_type: null },
  BusinessAdmin: { role: 'BusinessAdmin', user_type: null },
  BusinessUser: { role: 'BusinessUser', user_type: null },
  AdminSupport: { role: 'BusinessUser', user_type: '1' },
  MarketingUser: { role: 'BusinessUser', user_type: '2' },
  SalesUser: { role: 'BusinessUser', user_type: '3' },
  Custom: { role: 'BusinessUser', user_type: '4' },
};
const ALL_ROLE_KEYS = Object.keys(ROLE_SETUP) as RoleKey[];

/** A user of a menu role, with the tenant rows its role group needs. */
function as(key: RoleKey, o: Overrides = {}): TUser {
  const { role, user_type } = ROLE_SETUP[key];
  const group = ROLE_GROUP_OF[role];
  return makeUser({
    role,
    role_group: group,
    user_type,
    agent_type: group === 'Business' ? 'agent' : null,
    settings: key === 'Custom' ? { custom_type_pages: [...CUSTOM_TYPE_PAGES] } : {},
    ...o,
    agency: o.agency !== undefined ? o.agency : group === 'Admin' ? null : {},
    business: o.business !== undefined ? o.business : group === 'Business' ? {} : null,
  });
}

// ---- Helpers ----

type Shape = string | Record<string, string[]>;
/** Top-level route names, groups as { key: child route names }. */
const shape = (menu: MenuItem[]): Shape[] =>
  menu.map((m) => (m.children ? { [m.key]: m.children.map((c) => c.route) } : m.route));

const routes = (user: TUser) => menuRoutes(menuFor(user));

function walk(items: MenuItem[]): MenuItem[] {
  return items.flatMap((m) => [m, ...walk(m.children ?? [])]);
}

const AGENCY_BUSINESS_GROUP = {
  'group:business-accounts': [
    'agency.business.accounts',
    'agency.business.archived',
    'agency.business.deleted',
    'agency.business.add',
  ],
};
/**
 * What agency roles without 'businesses.manage' see of it (issue 7: 'agency.business.add' follows the
 * capability table, so FinanaceManager, MarketingManager and AgencyUser no longer get "Add").
 */
const AGENCY_BUSINESS_GROUP_READ_ONLY = {
  'group:business-accounts': [
    'agency.business.accounts',
    'agency.business.archived',
    'agency.business.deleted',
  ],
};
const CALLS_GROUP = {
  'group:calls': ['business.calls', 'business.schedule.calls', 'business.voice-records'],
};

// ---- roleKey ----

describe('roleKey', () => {
  it.each(ALL_ROLE_KEYS)('maps role and user_type to %s', (key) => {
    expect(roleKey(as(key))).toBe(key);
  });
});

// ---- Menus per role (spec §2) ----

describe('menus per role', () => {
  // Beside the spec's list: the business accounts of every agency and the platform settings (ADR 053).
  it('SuperAdmin', () => {
    expect(shape(menuFor(as('SuperAdmin')))).toEqual([
      { 'group:agency': ['admin.agency.accounts', 'admin.agency.archived', 'admin.agency.add'] },
      { 'group:business': ['admin.business', 'admin.business.add'] },
      'admin.whitelabel',
      'admin.training',
      'admin.blacklist',
      'admin.whitelist',
      'admin.users',
      'admin.releaseNote',
      'admin.settings',
    ]);
  });

  it('Admin: as SuperAdmin without users', () => {
    expect(shape(menuFor(as('Admin')))).toEqual([
      { 'group:agency': ['admin.agency.accounts', 'admin.agency.archived', 'admin.agency.add'] },
      { 'group:business': ['admin.business', 'admin.business.add'] },
      'admin.whitelabel',
      'admin.training',
      'admin.blacklist',
      'admin.whitelist',
      'admin.releaseNote',
      'admin.settings',
    ]);
  });

  it('AgencyAdmin', () => {
    expect(shape(menuFor(as('AgencyAdmin')))).toEqual([
      AGENCY_BUSINESS_GROUP,
      'agency.dashboard',
      'agency.landing-page',
      'agency.international',
      'agency.plans',
      'agency.packages',
      'agency.zapier',
      {
        'group:settings': [
          'agency.settings',
          'agency.subscriptions',
          'agency.payment-methods',
          'agency.popup',
          'agency.users',
          'agency.integrations',
          'agency.twilioProfile',
          'agency.sms-registration',
        ],
      },
      'agency.training',
    ]);
  });

  it('AccountManager (AgencyUser 1)', () => {
    expect(shape(menuFor(as('AccountManager')))).toEqual([
      AGENCY_BUSINESS_GROUP,
      'agency.international',
      'agency.plans',
      'agency.zapier',
      {
        'group:settings': [
          'agency.settings',
          'agency.subscriptions',
          'agency.payment-methods',
          'agency.popup',
        ],
      },
      'agency.training',
    ]);
  });

  it('FinanaceManager (AgencyUser 2)', () => {
    expect(shape(menuFor(as('FinanaceManager')))).toEqual([
      AGENCY_BUSINESS_GROUP_READ_ONLY,
      'agency.plans',
      'agency.zapier',
      { 'group:settings': ['agency.settings', 'agency.subscriptions', 'agency.payment-methods'] },
    ]);
  });

  it('MarketingManager (AgencyUser 3)', () => {
    expect(shape(menuFor(as('MarketingManager')))).toEqual([
      AGENCY_BUSINESS_GROUP_READ_ONLY,
      'agency.landing-page',
      'agency.zapier',
    ]);
  });

  it('AgencyUser without a user_type: business accounts only', () => {
    expect(shape(menuFor(as('AgencyUser')))).toEqual([AGENCY_BUSINESS_GROUP_READ_ONLY]);
  });

  it('BusinessAdmin', () => {
    expect(shape(menuFor(as('BusinessAdmin')))).toEqual([
      'business.messaging',
      'business.dashboard',
      'business.tasks',
      'business.contacts',
      'business.broadcast',
      CALLS_GROUP,
      'business.automation',
      'business.leadForms',
      'business.installs',
      {
        'group:settings': [
          'business.setting',
          'business.numbers',
          'business.tags',
          'business.calls-report',
          'business.subscriptions',
          'business.packages',
          'business.payment-methods',
          'business.users',
          'business.departments',
          'business.templates',
          'business.blacklist',
          'business.whitelist',
        ],
      },
    ]);
  });

  it('BusinessAdmin: the setting item covers its number, smtp and integration screens', () => {
    const setting = walk(menuFor(as('BusinessAdmin'))).find((m) => m.key === 'business.setting');
    expect(setting?.activeOn).toEqual(
      expect.arrayContaining([
        'business.setting.number',
        'business.setting.smtp.create',
        'business.setting.smtp.edit',
        'business.setting.integration.create',
        'business.setting.integration.edit',
      ]),
    );
    const numbers = walk(menuFor(as('BusinessAdmin'))).find((m) => m.route === 'business.numbers');
    expect(numbers?.activeOn).toEqual(['business.numbers.edit', 'business.numbers.verification']);
  });

  it('BusinessUser without a user_type: messaging, calls group, settings', () => {
    expect(shape(menuFor(as('BusinessUser')))).toEqual([
      'business.messaging',
      CALLS_GROUP,
      'business.setting',
    ]);
  });

  it('AdminSupport (BusinessUser 1)', () => {
    const menu = menuFor(as('AdminSupport'));
    expect(shape(menu)).toEqual([
      'business.dashboard',
      'business.contacts',
      CALLS_GROUP,
      'business.installs',
      {
        'group:settings': [
          'business.setting',
          'business.tags',
          'business.calls-report',
          'business.users',
          'business.departments',
          'business.templates',
          'business.blacklist',
          'business.whitelist',
        ],
      },
    ]);
    const setting = walk(menu).find((m) => m.key === 'business.setting');
    expect(setting?.activeOn).toContain('business.setting.smtp.edit');
    expect(setting?.activeOn).not.toContain('business.setting.number');
  });

  it('MarketingUser (BusinessUser 2): BusinessAdmin without lead forms and billing settings', () => {
    expect(shape(menuFor(as('MarketingUser')))).toEqual([
      'business.messaging',
      'business.dashboard',
      'business.tasks',
      'business.contacts',
      'business.broadcast',
      CALLS_GROUP,
      'business.automation',
      'business.installs',
      {
        'group:settings': [
          'business.setting',
          'business.numbers',
          'business.tags',
          'business.calls-report',
          'business.users',
          'business.departments',
          'business.templates',
          'business.blacklist',
          'business.whitelist',
        ],
      },
    ]);
  });

  it('SalesUser (BusinessUser 3)', () => {
    expect(shape(menuFor(as('SalesUser')))).toEqual([
      'business.messaging',
      'business.tasks',
      CALLS_GROUP,
      'business.contacts',
      { 'group:settings': ['business.setting', 'business.tags', 'business.templates'] },
    ]);
  });

  it('Custom (BusinessUser 4) with every page', () => {
    expect(shape(menuFor(as('Custom')))).toEqual([
      'business.messaging',
      'business.dashboard',
      'business.tasks',
      'business.contacts',
      'business.broadcast',
      CALLS_GROUP,
      'business.automation',
      'business.installs',
      {
        'group:settings': [
          'business.setting',
          'business.numbers',
          'business.tags',
          'business.users',
          'business.departments',
          'business.templates',
          'business.blacklist',
          'business.whitelist',
        ],
      },
    ]);
  });

  it('Custom: only the chosen pages, in menu order, settings always', () => {
    const user = as('Custom', { settings: { custom_type_pages: ['tags_page', 'calls_page', 'inbox_page'] } });
    expect(shape(menuFor(user))).toEqual([
      'business.messaging',
      CALLS_GROUP,
      { 'group:settings': ['business.setting', 'business.tags'] },
    ]);
    expect(shape(menuFor(as('Custom', { settings: {} })))).toEqual(['business.setting']);
    expect(shape(menuFor(as('Custom', { settings: { custom_type_pages: [] } })))).toEqual([
      'business.setting',
    ]);
  });

  it('Custom: each page maps to its item', () => {
    const expected: Record<(typeof CUSTOM_TYPE_PAGES)[number], string> = {
      inbox_page: 'business.messaging',
      analytic_page: 'business.dashboard',
      calls_page: 'business.calls',
      tasks_page: 'business.tasks',
      contacts_page: 'business.contacts',
      broadcast_page: 'business.broadcast',
      automation_page: 'business.automation',
      installs_page: 'business.installs',
      numbers_page: 'business.numbers',
      tags_page: 'business.tags',
      users_page: 'business.users',
      departments_page: 'business.departments',
      message_template_page: 'business.templates',
      blacklist_page: 'business.blacklist',
      whitelist_page: 'business.whitelist',
    };
    for (const page of CUSTOM_TYPE_PAGES) {
      const r = routes(as('Custom', { settings: { custom_type_pages: [page] } }));
      expect(r, page).toContain(expected[page]);
      expect(r, page).toContain('business.setting');
      const without = routes(
        as('Custom', { settings: { custom_type_pages: CUSTOM_TYPE_PAGES.filter((p) => p !== page) } }),
      );
      expect(without, page).not.toContain(expected[page]);
    }
  });
});

// ---- Visibility rules (spec §6) ----

describe('visibility rules', () => {
  const has = (key: RoleKey, route: string, o: Overrides = {}) => routes(as(key, o)).includes(route);

  it('whitelabel and release notes only for Admin and SuperAdmin', () => {
    for (const key of ALL_ROLE_KEYS) {
      const admin = key === 'Admin' || key === 'SuperAdmin';
      const r = routes(as(key));
      expect(r.includes('admin.whitelabel'), key).toBe(admin);
      expect(r.includes('admin.releaseNote'), key).toBe(admin);
      expect(r, key).not.toContain('agency.release-notes');
    }
  });

  it('global users only for SuperAdmin', () => {
    expect(has('SuperAdmin', 'admin.users')).toBe(true);
    expect(has('Admin', 'admin.users')).toBe(false);
  });

  it('agency users, telephony profile and SMS registration only for AgencyAdmin', () => {
    const only = ['agency.users', 'agency.twilioProfile', 'agency.sms-registration'];
    for (const key of ALL_ROLE_KEYS) {
      const r = routes(as(key));
      for (const route of only) expect(r.includes(route), `${key} ${route}`).toBe(key === 'AgencyAdmin');
    }
    expect(routes(as('Custom'))).not.toContain('business.sms-registration');
  });

  it('agency subscriptions only when the agency is not free_fee', () => {
    for (const key of ['AgencyAdmin', 'AccountManager', 'FinanaceManager'] as const) {
      expect(has(key, 'agency.subscriptions'), key).toBe(true);
      expect(has(key, 'agency.subscriptions', { agency: { free_fee: true } }), key).toBe(false);
      // Card payments do not matter for the agency's own subscription.
      expect(has(key, 'agency.subscriptions', { agency_has_stripe_config: false }), key).toBe(true);
    }
  });

  it('business subscriptions only when the business is not free_fee and its agency has card payments', () => {
    expect(has('BusinessAdmin', 'business.subscriptions')).toBe(true);
    expect(has('BusinessAdmin', 'business.subscriptions', { business: { free_fee: true } })).toBe(false);
    expect(has('BusinessAdmin', 'business.subscriptions', { agency_has_stripe_config: false })).toBe(false);
    // The agency's own free_fee does not matter for its businesses.
    expect(has('BusinessAdmin', 'business.subscriptions', { agency: { free_fee: true } })).toBe(true);
  });

  it('payment methods and business packages only with the agency card configuration', () => {
    for (const route of ['business.payment-methods', 'business.packages']) {
      expect(has('BusinessAdmin', route), route).toBe(true);
      expect(has('BusinessAdmin', route, { agency_has_stripe_config: false }), route).toBe(false);
    }
    for (const key of ['AgencyAdmin', 'AccountManager', 'FinanaceManager'] as const) {
      expect(has(key, 'agency.payment-methods'), key).toBe(true);
      expect(has(key, 'agency.payment-methods', { agency_has_stripe_config: false }), key).toBe(false);
    }
    // The packages an agency defines are not the business packages: they stay.
    expect(has('AgencyAdmin', 'agency.packages', { agency_has_stripe_config: false })).toBe(true);
  });

  it('messaging, broadcast and templates need a text widget (2 or 3)', () => {
    for (const route of ['business.messaging', 'business.broadcast', 'business.templates']) {
      for (const key of ['BusinessAdmin', 'Custom'] as const) {
        expect(has(key, route, { business: { widget_type: 2 } }), `${key} ${route} 2`).toBe(true);
        expect(has(key, route, { business: { widget_type: 3 } }), `${key} ${route} 3`).toBe(true);
        expect(has(key, route, { business: { widget_type: 1 } }), `${key} ${route} 1`).toBe(false);
      }
    }
  });

  it('calls and scheduled calls need a phone widget (1 or 3)', () => {
    for (const route of ['business.calls', 'business.schedule.calls', 'business.voice-records']) {
      for (const key of ['BusinessAdmin', 'AdminSupport', 'SalesUser'] as const) {
        expect(has(key, route, { business: { widget_type: 1 } }), `${key} ${route} 1`).toBe(true);
        expect(has(key, route, { business: { widget_type: 3 } }), `${key} ${route} 3`).toBe(true);
        expect(has(key, route, { business: { widget_type: 2 } }), `${key} ${route} 2`).toBe(false);
      }
    }
  });

  it('departments need departments enabled on the business and its agency', () => {
    for (const key of ['BusinessAdmin', 'AdminSupport', 'MarketingUser', 'Custom'] as const) {
      expect(has(key, 'business.departments'), key).toBe(true);
      expect(has(key, 'business.departments', { business: { dep_enabled: false } }), key).toBe(false);
      expect(has(key, 'business.departments', { agency: { department_enabled: false } }), key).toBe(false);
    }
  });

  it('messaging needs an SMS agent or a business manager', () => {
    for (const key of ['SalesUser', 'BusinessUser', 'Custom'] as const) {
      expect(has(key, 'business.messaging', { agent_type: 'smsAgent' }), key).toBe(true);
      expect(has(key, 'business.messaging', { agent_type: 'agent' }), key).toBe(true);
      expect(has(key, 'business.messaging', { agent_type: 'voiceAgent' }), key).toBe(false);
      expect(has(key, 'business.messaging', { agent_type: null }), key).toBe(false);
    }
    expect(has('BusinessAdmin', 'business.messaging', { agent_type: null })).toBe(true);
    expect(has('MarketingUser', 'business.messaging', { agent_type: 'voiceAgent' })).toBe(true);
  });

  it('calls need a voice agent or a business manager', () => {
    for (const key of ['SalesUser', 'BusinessUser', 'AdminSupport', 'Custom'] as const) {
      expect(has(key, 'business.calls', { agent_type: 'voiceAgent' }), key).toBe(true);
      expect(has(key, 'business.calls', { agent_type: 'agent' }), key).toBe(true);
      expect(has(key, 'business.calls', { agent_type: 'smsAgent' }), key).toBe(false);
      expect(has(key, 'business.calls', { agent_type: null }), key).toBe(false);
    }
    expect(has('BusinessAdmin', 'business.calls', { agent_type: null })).toBe(true);
    expect(has('MarketingUser', 'business.calls', { agent_type: 'smsAgent' })).toBe(true);
  });

  it('sandbox phones in the calls group only while the agency uses the carrier sandbox', () => {
    for (const key of ['BusinessAdmin', 'AdminSupport', 'SalesUser', 'Custom'] as const) {
      expect(has(key, 'business.sandbox-phones', { carrier_sandbox: true }), key).toBe(true);
      expect(has(key, 'business.sandbox-phones', { carrier_sandbox: false }), key).toBe(false);
    }
    const calls = menuFor(as('BusinessAdmin', { carrier_sandbox: true })).find(
      (m) => m.key === 'group:calls',
    );
    expect(calls?.children?.map((c) => c.route)).toEqual([
      ...CALLS_GROUP['group:calls'],
      'business.sandbox-phones',
    ]);
    // Without the calls capability (a custom user without the calls page) nothing shows, sandbox or not.
    const noCalls = { carrier_sandbox: true, settings: { custom_type_pages: ['contacts_page' as const] } };
    expect(has('Custom', 'business.sandbox-phones', noCalls)).toBe(false);
    expect(
      has('BusinessAdmin', 'business.sandbox-phones', {
        carrier_sandbox: true,
        business: { widget_type: 2 },
      }),
    ).toBe(false);
  });

  it('zapier only for agencies with zapier enabled and not free', () => {
    for (const key of ['AgencyAdmin', 'AccountManager', 'FinanaceManager', 'MarketingManager'] as const) {
      expect(has(key, 'agency.zapier'), key).toBe(true);
      expect(has(key, 'agency.zapier', { agency: { zapier_enabled: false } }), key).toBe(false);
      expect(has(key, 'agency.zapier', { agency: { zapier_free: true } }), key).toBe(false);
    }
  });

  it('template businesses see automation and templates only', () => {
    const limited = ['business.automation', 'business.templates'];
    for (const key of ['BusinessAdmin', 'MarketingUser', 'Custom'] as const) {
      expect(shape(menuFor(as(key, { business: { is_template: true } }))), key).toEqual(limited);
      expect(shape(menuFor(as(key, { agency: { is_template: true } }))), key).toEqual(limited);
      expect(routes(as(key)).length, key).toBeGreaterThan(limited.length);
    }
    // Only what the role (and the widget type) would show anyway.
    expect(shape(menuFor(as('SalesUser', { business: { is_template: true } })))).toEqual([
      'business.templates',
    ]);
    expect(shape(menuFor(as('BusinessAdmin', { business: { is_template: true, widget_type: 1 } })))).toEqual([
      'business.automation',
    ]);
    expect(menuFor(as('BusinessUser', { business: { is_template: true } }))).toEqual([]);
  });

  it('template agencies see business accounts and training only, never disabled', () => {
    expect(shape(menuFor(as('AgencyAdmin', { agency: { is_template: true } })))).toEqual([
      AGENCY_BUSINESS_GROUP,
      'agency.training',
    ]);
    expect(shape(menuFor(as('FinanaceManager', { agency: { is_template: true } })))).toEqual([
      AGENCY_BUSINESS_GROUP_READ_ONLY,
    ]);
    const notSetUp = menuFor(as('AgencyAdmin', { agency: { is_template: true }, has_twilio_setup: false }));
    expect(walk(notSetUp).some((m) => m.disabled)).toBe(false);
  });

  it('contacts and tags hidden from sales users without the sales-user extension', () => {
    const off = { business: { has_sales_user_extension: false } };
    for (const route of ['business.contacts', 'business.tags']) {
      expect(has('SalesUser', route), route).toBe(true);
      expect(has('SalesUser', route, off), route).toBe(false);
      for (const key of ['BusinessAdmin', 'AdminSupport', 'MarketingUser', 'Custom'] as const) {
        expect(has(key, route, off), `${key} ${route}`).toBe(true);
      }
    }
    expect(shape(menuFor(as('SalesUser', off)))).toEqual([
      'business.messaging',
      'business.tasks',
      CALLS_GROUP,
      { 'group:settings': ['business.setting', 'business.templates'] },
    ]);
  });

  it('non-set-up agencies: everything disabled except subscriptions and training', () => {
    const exempt = ['agency.subscriptions', 'agency.training'];
    const menu = menuFor(as('AgencyAdmin', { has_twilio_setup: false }));
    const leaves = walk(menu).filter((m) => !m.children);
    for (const m of leaves) expect(Boolean(m.disabled), m.route).toBe(!exempt.includes(m.route));
    expect(menu.find((m) => m.key === 'group:settings')?.disabled).toBeFalsy();
    expect(menu.find((m) => m.key === 'group:business-accounts')?.disabled).toBe(true);
    // Same items as when set up, only disabled.
    expect(shape(menu)).toEqual(shape(menuFor(as('AgencyAdmin'))));
    // A role without exempt items: every item disabled, groups included.
    expect(walk(menuFor(as('MarketingManager', { has_twilio_setup: false }))).every((m) => m.disabled)).toBe(
      true,
    );
  });

  it('set-up agencies and other role groups have nothing disabled', () => {
    expect(walk(menuFor(as('AgencyAdmin'))).some((m) => m.disabled)).toBe(false);
    for (const key of ['SuperAdmin', 'BusinessAdmin', 'SalesUser'] as const) {
      expect(
        walk(menuFor(as(key, { has_twilio_setup: false }))).some((m) => m.disabled),
        key,
      ).toBe(false);
    }
  });

  it('ctx.setUp overrides the computed set-up state', () => {
    expect(
      walk(menuFor(as('AgencyAdmin', { has_twilio_setup: false }), { setUp: true })).some((m) => m.disabled),
    ).toBe(false);
    expect(walk(menuFor(as('AgencyAdmin'), { setUp: false })).some((m) => m.disabled)).toBe(true);
  });

  it('messaging carries the messages badge and tasks the tasks badge, nothing else has one', () => {
    for (const key of ALL_ROLE_KEYS) {
      for (const m of walk(menuFor(as(key)))) {
        const expected =
          m.route === 'business.messaging' ? 'messages' : m.route === 'business.tasks' ? 'tasks' : undefined;
        expect(m.badge, `${key} ${m.route}`).toBe(expected);
      }
    }
    expect(walk(menuFor(as('BusinessAdmin'))).filter((m) => m.badge)).toHaveLength(2);
  });

  it('a settings group left with one item becomes that item', () => {
    const free = { agency: { free_fee: true }, agency_has_stripe_config: false };
    expect(shape(menuFor(as('FinanaceManager', free)))).toEqual([
      AGENCY_BUSINESS_GROUP_READ_ONLY,
      'agency.plans',
      'agency.zapier',
      'agency.settings',
    ]);
  });
});

// ---- Integrity against the route table ----

describe('integrity', () => {
  /** Every role under many flag combinations. */
  function variants(): TUser[] {
    const out: TUser[] = [];
    for (const key of ALL_ROLE_KEYS) {
      for (const widget_type of [1, 2, 3]) {
        for (const flag of [true, false]) {
          out.push(
            as(key, {
              has_twilio_setup: flag,
              agency_has_stripe_config: flag,
              agent_type: flag ? 'agent' : null,
              agency:
                ROLE_GROUP_OF[ROLE_SETUP[key].role] === 'Admin'
                  ? null
                  : { free_fee: !flag, is_template: !flag },
              business:
                ROLE_GROUP_OF[ROLE_SETUP[key].role] === 'Business'
                  ? { widget_type, dep_enabled: flag, is_template: !flag }
                  : null,
            }),
          );
        }
      }
    }
    return out;
  }

  it('every route and activeOn route exists, in the user’s area, with the route’s title', () => {
    for (const user of variants()) {
      const key = roleKey(user);
      const menu = menuFor(user);
      // A template account whose role shows neither automation nor templates is left with nothing.
      if (!user.business?.is_template) expect(menu.length, key).toBeGreaterThan(0);
      for (const m of walk(menu)) {
        const route = ROUTE_BY_NAME.get(m.route);
        expect(route, `${key} ${m.route}`).toBeDefined();
        expect(route?.roleGroup, `${key} ${m.route}`).toBe(user.role_group);
        if (!m.children) expect(m.title, m.route).toBe(route?.title);
        if (m.children) expect(m.route, m.key).toBe(m.children[0]?.route);
        for (const r of m.activeOn ?? []) {
          expect(ROUTE_BY_NAME.get(r)?.roleGroup, `${key} ${m.route} activeOn ${r}`).toBe(user.role_group);
        }
      }
    }
  });

  it('keys are unique and no route is linked twice', () => {
    for (const user of variants()) {
      const all = walk(menuFor(user));
      const keys = all.map((m) => m.key);
      expect(new Set(keys).size, roleKey(user)).toBe(keys.length);
      const links = menuRoutes(menuFor(user));
      expect(new Set(links).size, roleKey(user)).toBe(links.length);
    }
  });

  it('group titles are the title keys of their main routes', () => {
    const groups = [
      ...menuFor(as('SuperAdmin')),
      ...menuFor(as('AgencyAdmin')),
      ...menuFor(as('BusinessAdmin')),
    ].filter((m) => m.children);
    expect(Object.fromEntries(groups.map((g) => [`${g.route}:${g.key}`, g.title]))).toEqual({
      'admin.agency.accounts:group:agency': 'menu.agency_accounts',
      'admin.business:group:business': 'menu.business_accounts',
      'agency.business.accounts:group:business-accounts': 'menu.business_accounts',
      'agency.settings:group:settings': 'menu.settings',
      'business.calls:group:calls': 'menu.calls',
      'business.setting:group:settings': 'menu.settings',
    });
  });

  it('does not modify the user', () => {
    const user = as('Custom');
    const copy = structuredClone(user);
    menuFor(user);
    menuFor(as('AgencyAdmin', { has_twilio_setup: false }));
    expect(user).toEqual(copy);
  });
});

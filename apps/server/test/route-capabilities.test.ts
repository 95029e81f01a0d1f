// Every API route against an INDEPENDENT expectation table (issue 18): the capability each route must ask
// for, written down here by hand, not read from the route's own declaration. A route that declares (or
// enforces) the wrong capability fails here even when the route-by-role walk of capabilities.test.ts, which
// judges each route by its own declaration, is satisfied. 'public' needs no session; 'signed-in' any session.
// A new route must be added here on purpose.
import { can, ROLE_KEYS, subjectOf, type TCapability, type TRoleKey } from '@stn/contracts/capabilities';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteInfo } from '../src/platform/http/catalogue.ts';
import { bearer, type TestApp } from './helpers.ts';
import { concrete, routeWalk } from './route-walk.ts';

const EXPECTED: Record<string, string[]> = {
  'agencies.manage': [
    'GET /api/v1/agencies',
    'POST /api/v1/agencies',
    'DELETE /api/v1/agencies/:id',
    'PUT /api/v1/agencies/:id',
    'PUT /api/v1/agencies/:id/change-password',
    'POST /api/v1/agencies/:id/restore',
    'PUT /api/v1/agencies/:id/settings',
    'DELETE /api/v1/agencies/bulk',
    'DELETE /api/v1/agencies/bulk-archive',
    'POST /api/v1/agencies/bulk-restore',
    'GET /api/v1/whitelabels',
    'POST /api/v1/whitelabels/:id/cert',
  ],
  'agency.edit': [
    'PUT /api/v1/agencies/:id/stripe-setting',
    'GET /api/v1/agencies/export-businesses',
    'GET /api/v1/agencies/export-users',
    'POST /api/v1/agencies/image/:id',
    'DELETE /api/v1/agencies/image/:id/:type',
  ],
  'agency.view': [
    'GET /api/v1/agencies/:id',
    'POST /api/v1/agencies/:id/install-stats',
    'GET /api/v1/agencies/:id/twilio-status',
  ],
  'agencySettings.manage': ['POST /api/v1/agencies/send-notification', 'PUT /api/v1/agencies/settings'],
  'agencyTelephony.manage': ['PUT /api/v1/agencies/twilio-config'],
  'agencyUsers.manage': [
    'GET /api/v1/agency/users',
    'POST /api/v1/agency/users',
    'DELETE /api/v1/agency/users/:id',
    'GET /api/v1/agency/users/:id',
    'PUT /api/v1/agency/users/:id',
    'PUT /api/v1/agency/users/:id/change-password',
    'POST /api/v1/agency/users/:id/reset-password',
    'GET /api/v1/agency/users/all',
  ],
  'auditLogs.read': ['GET /api/v1/audit-logs'],
  'automations.use': [
    'GET /api/v1/automations',
    'POST /api/v1/automations',
    'DELETE /api/v1/automations/:id',
    'GET /api/v1/automations/:id',
    'PUT /api/v1/automations/:id',
    'POST /api/v1/automations/:id/duplicate',
    'PUT /api/v1/automations/:id/toggle',
    'GET /api/v1/automations/:id/unique-id',
    'GET /api/v1/automations/all',
    'GET /api/v1/automations/new-webhook',
    'POST /api/v1/automations/:id/clone',
    'GET /api/v1/automations/shared/:token',
    'GET /api/v1/automations/template/:id',
    'GET /api/v1/automations/templates',
    'POST /api/v1/automations/test-email',
    'POST /api/v1/automations/test-sms',
    'GET /api/v1/automations/:id/runs',
    'GET /api/v1/automations/:id/blocks',
    'GET /api/v1/automations/runs/:runId',
    'GET /api/v1/automations/contact/:contactId/runs',
  ],
  'blacklist.manage': [
    'GET /api/v1/blacklist',
    'POST /api/v1/blacklist',
    'DELETE /api/v1/blacklist/:id',
    'POST /api/v1/blacklist/import',
  ],
  'broadcasts.use': [
    'GET /api/v1/broadcasts',
    'POST /api/v1/broadcasts',
    'DELETE /api/v1/broadcasts/:id',
    'GET /api/v1/broadcasts/:id',
    'PUT /api/v1/broadcasts/:id',
    'POST /api/v1/broadcasts/:id/bulk-optout',
    'POST /api/v1/broadcasts/:id/refresh',
    'GET /api/v1/broadcasts/:id/report',
    'POST /api/v1/broadcasts/:id/rerun',
    'POST /api/v1/broadcasts/:id/stop',
    'POST /api/v1/broadcasts/:id/tag',
    'POST /api/v1/broadcasts/message-credit',
    'GET /api/v1/broadcasts/report/download',
    'POST /api/v1/broadcasts/test',
    'GET /api/v1/broadcasters',
    'POST /api/v1/broadcasters',
    'DELETE /api/v1/broadcasters/:id',
    'PUT /api/v1/broadcasters/:id',
    'GET /api/v1/broadcasters/all',
  ],
  'businessSettings.manage': [
    'POST /api/v1/businesses/image',
    'DELETE /api/v1/businesses/image/:type',
    'GET /api/v1/businesses/info',
    'PUT /api/v1/businesses/info',
    'PUT /api/v1/businesses/report',
    'PUT /api/v1/businesses/setting',
  ],
  'businessUsers.manage': [
    'GET /api/v1/businesses/users',
    'POST /api/v1/businesses/users',
    'DELETE /api/v1/businesses/users/:id',
    'GET /api/v1/businesses/users/:id',
    'PUT /api/v1/businesses/users/:id',
    'PUT /api/v1/businesses/users/:id/change-password',
    'POST /api/v1/businesses/users/:id/reset-password',
  ],
  'businesses.manage': [
    'POST /api/v1/business',
    'DELETE /api/v1/business/:id',
    'PUT /api/v1/business/:id',
    'PUT /api/v1/business/:id/archive',
    'POST /api/v1/business/:id/reset-password',
    'PUT /api/v1/business/:id/restore',
    'POST /api/v1/business/:id/send-verification',
    'POST /api/v1/business/:id/verify-email',
    'PUT /api/v1/businesses/:id/active',
    'PUT /api/v1/businesses/:id/reset-usage',
  ],
  'businesses.view': [
    'GET /api/v1/agency/business/all',
    'GET /api/v1/business',
    'GET /api/v1/business/:id',
    'GET /api/v1/businesses/install-stats',
  ],
  'calls.use': [
    'GET /api/v1/calls',
    'GET /api/v1/calls/:id',
    'GET /api/v1/calls/:id/recording',
    'POST /api/v1/sandbox/callback',
    'GET /api/v1/sandbox/clock',
    'POST /api/v1/sandbox/clock/advance',
    'GET /api/v1/sandbox/failing-numbers',
    'DELETE /api/v1/sandbox/failing-numbers/:number',
    'PUT /api/v1/sandbox/failing-numbers/:number',
    'GET /api/v1/sandbox/phones',
    'POST /api/v1/sandbox/phones/:number/answer',
    'POST /api/v1/sandbox/phones/:number/dial',
    'POST /api/v1/sandbox/phones/:number/hangup',
    'POST /api/v1/sandbox/phones/:number/press',
    'POST /api/v1/sandbox/phones/:number/reject',
    'POST /api/v1/sandbox/phones/:number/texts',
    'POST /api/v1/sandbox/phones/:number/voicemail',
    'GET /api/v1/scheduled-calls',
    'POST /api/v1/scheduled-calls',
    'DELETE /api/v1/scheduled-calls/:id',
    'GET /api/v1/voice-records',
    'DELETE /api/v1/voice-records/:id',
    'GET /api/v1/voice-records/:id/audio',
  ],
  'callsReport.view': ['GET /api/v1/calls-report'],
  'contacts.use': [
    'GET /api/v1/chats/installs/:id/contacts/export',
    'GET /api/v1/contacts',
    'POST /api/v1/contacts',
    'DELETE /api/v1/contacts/:id',
    'GET /api/v1/contacts/:id',
    'PUT /api/v1/contacts/:id',
    'GET /api/v1/contacts/:id/leads',
    'POST /api/v1/contacts/:id/agent/:agent_id',
    'DELETE /api/v1/contacts/:id/automation/:automation_id',
    'POST /api/v1/contacts/:id/automation/:automation_id',
    'DELETE /api/v1/contacts/:id/delete-agent',
    'POST /api/v1/contacts/:id/opt-out',
    'POST /api/v1/contacts/:id/set-on-top',
    'POST /api/v1/contacts/:id/tag',
    'POST /api/v1/contacts/bulk-automation/:id',
    'POST /api/v1/contacts/bulk-block',
    'POST /api/v1/contacts/bulk-delete',
    'POST /api/v1/contacts/bulk-optout',
    'GET /api/v1/contacts/fields',
    'POST /api/v1/contacts/fields',
    'DELETE /api/v1/contacts/fields/:id',
    'POST /api/v1/contacts/fields/:id',
    'PUT /api/v1/contacts/fields/:id',
    'GET /api/v1/contacts/fields/active',
    'POST /api/v1/contacts/import',
    'GET /api/v1/contacts/import/:id',
    'POST /api/v1/contacts/tag',
    'GET /api/v1/contacts/template-download',
  ],
  'departments.manage': [
    'GET /api/v1/departments',
    'POST /api/v1/departments',
    'DELETE /api/v1/departments/:id',
    'GET /api/v1/departments/:id',
    'PUT /api/v1/departments/:id',
    'PUT /api/v1/departments/:id/toggle-active',
  ],
  'globalUsers.manage': [
    'GET /api/v1/users',
    'POST /api/v1/users',
    'DELETE /api/v1/users/:id',
    'GET /api/v1/users/:id',
    'PUT /api/v1/users/:id',
    'PUT /api/v1/users/:id/change-password',
  ],
  impersonate: ['POST /api/v1/impersonate/:id', 'GET /api/v1/impersonate/users'],
  'inbox.use': [
    'DELETE /api/v1/chats/contacts/:id',
    'GET /api/v1/chats/contacts/:id',
    'PUT /api/v1/chats/contacts/:id',
    'POST /api/v1/chats/contacts/:id/block',
    'POST /api/v1/chats/contacts/:id/cancel-schedule',
    'GET /api/v1/chats/contacts/:id/conversation/:messageId',
    'GET /api/v1/chats/contacts/:id/leads',
    'GET /api/v1/chats/contacts/:id/conversations',
    'POST /api/v1/chats/contacts/:id/email',
    'GET /api/v1/chats/contacts/:id/files',
    'GET /api/v1/chats/contacts/:id/messages',
    'POST /api/v1/chats/contacts/:id/messages',
    'POST /api/v1/chats/contacts/:id/refresh',
    'POST /api/v1/chats/contacts/:id/resend-messages',
    'POST /api/v1/chats/contacts/:id/send-ics',
    'POST /api/v1/chats/contacts/:id/unblock',
    'GET /api/v1/chats/installs/:installId/contacts',
    'POST /api/v1/chats/installs/:installId/contacts',
    'GET /api/v1/chats/installs/:installId/inbox',
    'GET /api/v1/chats/installs/:installId/inbox-new',
    'GET /api/v1/medias',
    'POST /api/v1/medias',
    'DELETE /api/v1/medias/:id',
    'POST /api/v1/pusher/beams-auth',
    'GET /api/v1/pusher/vapid-key',
    'GET /api/v1/templates/all',
  ],
  'installs.pick': ['GET /api/v1/installs/:id/sms-agents', 'GET /api/v1/installs/all'],
  'installs.use': [
    'POST /api/v1/business/can-create-install',
    'GET /api/v1/installs',
    'POST /api/v1/installs',
    'DELETE /api/v1/installs/:id',
    'GET /api/v1/installs/:id',
    'PUT /api/v1/installs/:id',
    'PUT /api/v1/installs/:id/archive',
    'GET /api/v1/installs/:id/embed-code',
    'DELETE /api/v1/installs/:id/logo',
    'POST /api/v1/installs/:id/logo',
    'PUT /api/v1/installs/:id/restore',
    'PUT /api/v1/installs/:id/setting',
    'POST /api/v1/installs/:id/toggle-active',
    'GET /api/v1/installs/:id/twilio-status',
    'DELETE /api/v1/installs/:id/widgetIcon',
    'POST /api/v1/installs/:id/widgetIcon',
  ],
  'international.manage': ['GET /api/v1/internationals', 'POST /api/v1/internationals'],
  'landingPage.manage': ['PUT /api/v1/agencies/custom-script'],
  'leadForms.use': [
    'GET /api/v1/installs/:install_id/forms',
    'POST /api/v1/installs/:install_id/forms',
    'DELETE /api/v1/installs/:install_id/forms/:id',
    'GET /api/v1/installs/:install_id/forms/:id',
    'PUT /api/v1/installs/:install_id/forms/:id',
    'POST /api/v1/installs/:install_id/forms/:id/toggle-active',
    'GET /api/v1/allLeadForms',
    'POST /api/v1/leadForm',
    'DELETE /api/v1/leadForm/:id',
    'GET /api/v1/leadForm/:id',
    'PUT /api/v1/leadForm/:id',
    'POST /api/v1/leadForm/:id/toggle-active',
    'GET /api/v1/leadSubmissions',
    'GET /api/v1/leadSubmissions/:id',
  ],
  'mailOutbox.read': ['GET /api/v1/mail-outbox'],
  'numbers.use': [
    'POST /api/v1/installs/:id/assign-landline-number',
    'POST /api/v1/installs/:id/assign-phonenumber',
    'POST /api/v1/installs/:id/check-number',
    'POST /api/v1/installs/:id/disable-landline-number',
    'POST /api/v1/installs/:id/purchase-phonenumber',
    'POST /api/v1/installs/:id/release-number',
    'POST /api/v1/installs/check-caller-id',
    'POST /api/v1/installs/search-phonenumber',
    'POST /api/v1/installs/verify-phone-number',
    'GET /api/v1/numbers',
    'POST /api/v1/numbers',
    'DELETE /api/v1/numbers/:id',
    'GET /api/v1/numbers/:id',
    'PUT /api/v1/numbers/:id',
    'GET /api/v1/numbers/all',
  ],
  'packages.buy': ['GET /api/v1/businesses/packages'],
  'packages.manage': [
    'GET /api/v1/packages',
    'POST /api/v1/packages',
    'DELETE /api/v1/packages/:id',
    'GET /api/v1/packages/:id',
    'PUT /api/v1/packages/:id',
    'PUT /api/v1/packages/:id/toggleActive',
    'GET /api/v1/packages/all',
  ],
  'pages.edit': ['PUT /api/v1/pages/:key'],
  'pages.read': ['GET /api/v1/pages/:key'],
  'plans.manage': [
    'GET /api/v1/agencies/:agency_id/subscription/plans',
    'POST /api/v1/agencies/:agency_id/subscription/plans',
    'DELETE /api/v1/agencies/:agency_id/subscription/plans/:plan_id',
    'GET /api/v1/agencies/:agency_id/subscription/plans/:plan_id',
    'PUT /api/v1/agencies/:agency_id/subscription/plans/:plan_id',
    'GET /api/v1/agencies/:agency_id/subscription/plans/all',
    'GET /api/v1/agencies/:agency_id/subscription/plans/has-default',
  ],
  'popup.manage': ['PUT /api/v1/agencies/:id/popup-payment'],
  'releaseNotes.manage': [
    'GET /api/v1/release-notes',
    'POST /api/v1/release-notes',
    'DELETE /api/v1/release-notes/:id',
    'GET /api/v1/release-notes/:id',
    'PUT /api/v1/release-notes/:id',
  ],
  'supportWidget.manage': [
    'GET /api/v1/settings/support-widget',
    'PUT /api/v1/settings/support-widget',
    'GET /api/v1/settings/support-widget/installs',
  ],
  'tags.pick': ['GET /api/v1/tags/all'],
  'tags.use': [
    'GET /api/v1/tags',
    'POST /api/v1/tags',
    'DELETE /api/v1/tags/:id',
    'PUT /api/v1/tags/:id',
    'DELETE /api/v1/tags/bulk',
  ],
  'tasks.use': [
    'GET /api/v1/tasks',
    'POST /api/v1/tasks',
    'DELETE /api/v1/tasks/:id',
    'GET /api/v1/tasks/:id',
    'PUT /api/v1/tasks/:id',
    'GET /api/v1/tasks/all',
  ],
  'team.view': [
    'GET /api/v1/businesses/users/agents',
    'GET /api/v1/businesses/users/all',
    'GET /api/v1/departments/:id/sms-agents',
    'GET /api/v1/departments/all',
    'GET /api/v1/departments/sms-departments',
    'GET /api/v1/departments/voice-departments',
  ],
  'telephony.configure': ['PUT /api/v1/agencies/:business_id/twilio-config'],
  'templates.use': [
    'GET /api/v1/templates',
    'POST /api/v1/templates',
    'DELETE /api/v1/templates/:id',
    'GET /api/v1/templates/:id',
    'PUT /api/v1/templates/:id',
    'PUT /api/v1/templates/:id/toggle-active',
  ],
  'whitelist.manage': ['GET /api/v1/whitelist', 'POST /api/v1/whitelist', 'DELETE /api/v1/whitelist/:id'],
  public: [
    'POST /api/v1/login',
    'GET /api/v1/pages/:key/public',
    'POST /api/v1/password/email',
    'POST /api/v1/password/reset',
    'GET /api/v1/release-notes/list',
    'GET /api/v1/settings/site-data/:domain',
    'POST /api/v1/token/verify',
    'POST /api/v1/uniquedomain',
    'POST /api/v1/uniquemailchk',
    'POST /api/v1/unsubscribe',
    'POST /api/v1/userinfo',
    'POST /api/v1/verify-email',
  ],
  'signed-in': [
    'GET /api/v1/auth/check',
    'PUT /api/v1/countries',
    'DELETE /api/v1/impersonate',
    'POST /api/v1/logout',
    'GET /api/v1/profile',
    'PUT /api/v1/profile',
    'PUT /api/v1/setting',
  ],
};

const expected = new Map(
  Object.entries(EXPECTED).flatMap(([cap, list]) => list.map((r) => [r, cap] as const)),
);

let t: TestApp;
let tokens: Record<TRoleKey, string>;
let routes: RouteInfo[];
const key = (r: RouteInfo) => `${r.method} ${r.url}`;

beforeAll(async () => {
  ({ t, tokens, routes } = await routeWalk());
});
afterAll(async () => t?.close());

describe('API routes against the expectation table', () => {
  it('each route declares exactly the capability the table expects, and the table names every route', () => {
    expect(expected.size).toBe(routes.length);
    const wrong = routes
      .map(
        (r) => [key(r), r.public ? 'public' : (r.capability ?? 'signed-in'), expected.get(key(r))] as const,
      )
      .filter(([, declared, want]) => declared !== want)
      .map(
        ([route, declared, want]) =>
          `${route}: declares ${declared}, expected ${want ?? '(not in the table)'}`,
      );
    expect(wrong).toEqual([]);
  });

  it('each guarded route refuses a role the table denies and lets through a role the table allows', async () => {
    const mismatches: string[] = [];
    for (const [route, capability] of expected) {
      if (capability === 'public' || capability === 'signed-in') continue;
      const [method, url] = route.split(' ') as [string, string];
      const allowed = ROLE_KEYS.find((role) => can(subjectOf(role), capability as TCapability));
      const denied = ROLE_KEYS.find((role) => !can(subjectOf(role), capability as TCapability));
      for (const role of [allowed, denied]) {
        if (!role) continue;
        const res = await t.app.inject({
          method: method as 'GET',
          url: concrete(url),
          headers: bearer(tokens[role]),
          ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
        });
        if ((role === allowed) === (res.statusCode === 403))
          mismatches.push(`${role} ${route} (${capability}): ${res.statusCode}`);
      }
    }
    expect(mismatches).toEqual([]);
  }, 300_000);
});

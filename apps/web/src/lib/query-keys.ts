// Query keys per resource, not per screen: a key starts with the resource's name, so one invalidation
// (a mutation's, or later a realtime event's) refreshes that resource wherever it is shown: the admin's
// list, the agency's own settings, the layout's counters.
import type { TPageKey } from '@stn/contracts/users';

export type UserKind = 'global' | 'agency' | 'business';
export type AgencyStatus = 'active' | 'archived';
export type BusinessStatus = 'active' | 'archived' | 'deleted';
export type PhoneList = 'blacklist' | 'whitelist';
export type InstallStatus = 'active' | 'archived' | 'deleted';

export const keys = {
  agencies: {
    all: ['agencies'] as const,
    list: (status: AgencyStatus) => ['agencies', 'list', status] as const,
    detail: (id: number) => ['agencies', 'detail', id] as const,
    installStats: (id: number) => ['agencies', 'install-stats', id] as const,
    /** Active agencies as a list to pick from (the admin's business screens). */
    picker: () => ['agencies', 'picker'] as const,
  },
  /** The app shell's available installs of an agency (the 'Add Business' button). */
  installStats: { all: ['install-stats'] as const },
  internationals: { all: ['internationals'] as const },
  businesses: {
    all: ['businesses'] as const,
    list: (status: BusinessStatus) => ['businesses', 'list', status] as const,
    detail: (id: number) => ['businesses', 'detail', id] as const,
    /** The signed-in business user's own business (its settings screen). */
    own: () => ['businesses', 'own'] as const,
  },
  users: {
    all: ['users'] as const,
    kind: (kind: UserKind) => ['users', kind] as const,
    list: (kind: UserKind) => ['users', kind, 'list'] as const,
    detail: (kind: UserKind, id: number) => ['users', kind, 'detail', id] as const,
    agents: (channel: string) => ['users', 'business', 'agents', channel] as const,
  },
  departments: {
    all: ['departments'] as const,
    list: () => ['departments', 'list'] as const,
    /** Whether the business may use departments at all (the list call answers 403 otherwise). */
    access: () => ['departments', 'access'] as const,
    detail: (id: number) => ['departments', 'detail', id] as const,
  },
  plans: {
    all: ['plans'] as const,
    list: (agencyId: number) => ['plans', 'list', agencyId] as const,
    everything: (agencyId: number) => ['plans', 'all', agencyId] as const,
    detail: (agencyId: number, id: number) => ['plans', 'detail', agencyId, id] as const,
  },
  /** An agency's coupon codes on its own Stripe account (its Plans screen). */
  coupons: {
    all: ['coupons'] as const,
    list: (agencyId: number) => ['coupons', 'list', agencyId] as const,
  },
  packages: {
    all: ['packages'] as const,
    list: () => ['packages', 'list'] as const,
    detail: (id: number) => ['packages', 'detail', id] as const,
  },
  phoneLists: {
    list: (list: PhoneList) => [list] as const,
  },
  /** The carrier sandbox's simulated phones the business sees (Sandbox Phones, polled while open). */
  sandboxPhones: { all: ['sandbox-phones'] as const },
  tasks: {
    all: ['tasks'] as const,
    list: () => ['tasks', 'list'] as const,
  },
  templates: {
    all: ['templates'] as const,
    list: () => ['templates', 'list'] as const,
    detail: (id: number) => ['templates', 'detail', id] as const,
  },
  /** The business's media library (GET /v1/medias, pages appended). */
  medias: {
    all: ['medias'] as const,
    list: () => ['medias', 'list'] as const,
  },
  tags: {
    all: ['tags'] as const,
    list: () => ['tags', 'list'] as const,
  },
  /** The platform's support chat: the two picks, and the installs the admin may pick from. */
  supportWidget: {
    all: ['support-widget'] as const,
    settings: () => ['support-widget', 'settings'] as const,
    choices: (keyword: string) => ['support-widget', 'choices', keyword] as const,
  },
  whitelabels: {
    all: ['whitelabels'] as const,
    list: () => ['whitelabels', 'list'] as const,
  },
  releaseNotes: {
    all: ['release-notes'] as const,
    list: () => ['release-notes', 'list'] as const,
    published: (page: number) => ['release-notes', 'published', page] as const,
    detail: (id: number) => ['release-notes', 'detail', id] as const,
  },
  pages: {
    all: ['pages'] as const,
    detail: (key: TPageKey) => ['pages', key] as const,
  },
  siteData: { all: ['site-data'] as const },
  /** The business's installs; `picker` is the short list of active ones (GET /v1/installs/all). */
  installs: {
    all: ['installs'] as const,
    picker: () => ['installs', 'picker'] as const,
    list: (status: InstallStatus) => ['installs', 'list', status] as const,
    detail: (id: number) => ['installs', 'detail', id] as const,
    embedCode: (id: number) => ['installs', 'embed-code', id] as const,
    canCreate: () => ['installs', 'can-create'] as const,
  },
  calls: {
    all: ['calls'] as const,
    list: () => ['calls', 'list'] as const,
    detail: (id: number) => ['calls', 'detail', id] as const,
  },
  /** Scheduled calls are calls too: a cancelled one changes the calls list, so they share its root. */
  scheduledCalls: {
    all: ['calls', 'scheduled'] as const,
    list: () => ['calls', 'scheduled', 'list'] as const,
  },
  voiceRecords: {
    all: ['voice-records'] as const,
    list: () => ['voice-records', 'list'] as const,
  },
  /** The live view (GET /v1/live-data): calls ringing and in progress, visitors with the widget open. */
  liveData: { all: ['live-data'] as const },
  callsReport: {
    all: ['calls-report'] as const,
    report: (query: Record<string, string | number | undefined>) => ['calls-report', query] as const,
  },
  numbers: {
    all: ['numbers'] as const,
    list: () => ['numbers', 'list'] as const,
    detail: (id: number) => ['numbers', 'detail', id] as const,
    /** The carrier's caller-id check of one phone number (polled on the verification screen). */
    callerId: (phone: string) => ['numbers', 'caller-id', phone] as const,
  },
  /** Broadcasts (issue 19): lists by filter, one broadcast, the live message-credit estimate. */
  broadcasts: {
    all: ['broadcasts'] as const,
    lists: () => ['broadcasts', 'list'] as const,
    detail: (id: number) => ['broadcasts', 'detail', id] as const,
    credit: (input: unknown) => ['broadcasts', 'credit', input] as const,
  },
  /** Automations (issue 20): lists, one automation, the gallery, a share preview, runs and block counts. */
  automations: {
    all: ['automations'] as const,
    lists: () => ['automations', 'list'] as const,
    detail: (id: number) => ['automations', 'detail', id] as const,
    refs: () => ['automations', 'all'] as const,
    templates: () => ['automations', 'templates'] as const,
    shared: (token: string) => ['automations', 'shared', token] as const,
    runs: (id: number) => ['automations', 'runs', id] as const,
    run: (runId: number) => ['automations', 'run', runId] as const,
    blocks: (id: number) => ['automations', 'blocks', id] as const,
    /** A contact's journeys (its edit screen). */
    contactRuns: (contactId: number) => ['automations', 'contact', contactId] as const,
    webhook: (id: number) => ['automations', 'webhook', id] as const,
  },
  /** Lead forms (issue 21): lists, one form, the active ones as a list to pick from (installs, embedded forms). */
  leadForms: {
    all: ['lead-forms'] as const,
    lists: () => ['lead-forms', 'list'] as const,
    detail: (id: number) => ['lead-forms', 'detail', id] as const,
    options: () => ['lead-forms', 'options'] as const,
  },
  /** An install's embedded forms (installs/:install/forms). */
  embeddedForms: {
    all: ['embedded-forms'] as const,
    list: (installId: number) => ['embedded-forms', 'list', installId] as const,
    detail: (installId: number, id: number) => ['embedded-forms', 'detail', installId, id] as const,
  },
  /** Lead submissions: a contact's (its page, the inbox). */
  leadSubmissions: {
    all: ['lead-submissions'] as const,
    contact: (contactId: number) => ['lead-submissions', 'contact', contactId] as const,
    form: (formId: number, page: number) => ['lead-submissions', 'form', formId, page] as const,
  },
  /** The business's sending numbers for broadcasts (setting/broadcast-numbers). */
  broadcasters: {
    all: ['broadcasters'] as const,
    list: () => ['broadcasters', 'list'] as const,
    detail: (id: number) => ['broadcasters', 'detail', id] as const,
  },
  /**
   * Billing on Stripe (issue 22): the account's subscription, the plans it can buy (all, or of one period),
   * its cards and invoices. One root: a subscribe, a card added or a payment refreshes all of them.
   */
  subscriptions: {
    all: ['subscriptions'] as const,
    current: () => ['subscriptions', 'current'] as const,
    offers: (period: 'all' | 'month' | 'year') => ['subscriptions', 'offers', period] as const,
    paymentMethods: () => ['subscriptions', 'payment-methods'] as const,
    invoices: () => ['subscriptions', 'invoices'] as const,
  },
  /** A setup intent's client secret for the card form: its own root, so refreshing billing makes no new intent. */
  setupSecret: { of: (domain: string | null) => ['setup-secret', domain ?? ''] as const },
  /** The business's packages to buy and its purchases (GET /v1/businesses/packages). */
  businessPackages: { all: ['business-packages'] as const },
  /** The inbox (ADR 037): lists per install, filter, search and page; one conversation's contact and history. */
  inbox: {
    all: ['inbox'] as const,
    lists: () => ['inbox', 'list'] as const,
    list: (installId: number, query: Record<string, string | number | undefined>) =>
      ['inbox', 'list', installId, query] as const,
    contact: (id: number) => ['inbox', 'contact', id] as const,
    conversation: (id: number) => ['inbox', 'contact', id, 'conversations'] as const,
    smsAgents: (installId: number) => ['inbox', 'sms-agents', installId] as const,
  },
  /** The dashboards (issue 24): a business's figures and an agency's, per range and filter. */
  analytics: {
    all: ['analytics'] as const,
    business: (query: unknown) => ['analytics', 'business', query] as const,
    agency: (query: unknown) => ['analytics', 'agency', query] as const,
  },
};

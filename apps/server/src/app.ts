import crypto from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { translate } from '@stn/contracts/i18n';
import type { TSiteData } from '@stn/contracts/site';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import pino, { type Logger } from 'pino';
import { ensureDemoCoupons } from './demo-billing.ts';
import { agenciesRoutes } from './modules/agencies/routes.ts';
import { agencyAccessRoutes } from './modules/agencies/routes-access.ts';
import { documentSite, siteDataRoutes, whitelabelsRoutes } from './modules/agencies/routes-sites.ts';
import { sealAgencySecrets, twilioAuthTokenBySid } from './modules/agencies/service.ts';
import { alertNoticeJob, alertNoticesJob, alertPushJob, alertTextJob } from './modules/alerts/jobs.ts';
import { registerAlertsListeners } from './modules/alerts/listeners.ts';
import { analyticsSweepJob, sweepAnalytics } from './modules/analytics/jobs.ts';
import { registerAnalyticsListeners } from './modules/analytics/listeners.ts';
import { analyticsReportsJob } from './modules/analytics/reports.ts';
import { analyticsRoutes } from './modules/analytics/routes.ts';
import { auditRoutes } from './modules/audit/routes.ts';
import { passwordResetRequestJob } from './modules/auth/jobs.ts';
import { registerAuthListeners } from './modules/auth/listeners.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { plugAutomationsEngine } from './modules/automations/engine.ts';
import { automationsRoutes } from './modules/automations/routes.ts';
import { plugAutomationTriggers } from './modules/automations/triggers.ts';
import { packagesRoutes } from './modules/billing/routes/packages.ts';
import { plansRoutes } from './modules/billing/routes/plans.ts';
import { plugBroadcastsEngine } from './modules/broadcasts/engine.ts';
import { registerBroadcastsListeners } from './modules/broadcasts/listeners.ts';
import { broadcastsRoutes } from './modules/broadcasts/routes.ts';
import { monthlyUsageResetJob } from './modules/businesses/jobs.ts';
import { businessesRoutes } from './modules/businesses/routes.ts';
import { registerChatsListeners } from './modules/chats/listeners.ts';
import { inboundMediaJob } from './modules/chats/media.ts';
import { inboxRoutes } from './modules/chats/routes/index.ts';
import { scheduledMessageJob, unhandedTextsJob } from './modules/chats/service.ts';
import { registerChatsWebhooks } from './modules/chats/webhooks.ts';
import { phoneListsRoutes } from './modules/compliance/routes.ts';
import { contactImportJob, watchImports } from './modules/contacts/import.ts';
import { contactsRoutes } from './modules/contacts/routes.ts';
import { installsRoutes } from './modules/installs/routes.ts';
import { installByKey } from './modules/installs/service.ts';
import { googleRoutes } from './modules/integrations/google-routes.ts';
import { ownMailRoutes } from './modules/integrations/mail-routes.ts';
import { ownMailJob, withAgencyOwnMail } from './modules/integrations/own-mail.ts';
import { integrationsRoutes } from './modules/integrations/routes.ts';
import { plugZapier } from './modules/integrations/zapier-hooks.ts';
import { zapierTokenRoutes } from './modules/integrations/zapier-routes.ts';
import { leadNoticeJob } from './modules/leadforms/notify.ts';
import { leadformsRoutes } from './modules/leadforms/routes.ts';
import { leadformsWidgetRoutes } from './modules/leadforms/widget.ts';
import { registerLiveListeners } from './modules/live/listeners.ts';
import { liveRoutes } from './modules/live/routes.ts';
import { liveWidgetRoutes } from './modules/live/widget.ts';
import { createMailer } from './modules/notifications/mailer.ts';
import { notificationRoutes } from './modules/notifications/routes.ts';
import { optinsRoutes } from './modules/optins/routes.ts';
import { popupAssetsRoutes } from './modules/orders/popup.ts';
import { ordersRoutes } from './modules/orders/routes.ts';
import { profileRoutes } from './modules/profile/routes.ts';
import { registerPushListeners } from './modules/push/listeners.ts';
import { pushRoutes } from './modules/push/routes.ts';
import { ensureVapidKeys } from './modules/push/service.ts';
import { registrationSyncJob, registrationWebhooks } from './modules/registration/jobs.ts';
import { registrationRoutes } from './modules/registration/routes.ts';
import { pagesRoutes } from './modules/sites/routes/pages.ts';
import { releaseNotesRoutes } from './modules/sites/routes/release-notes.ts';
import { subscriptionsRoutes } from './modules/subscriptions/routes.ts';
import { registerStripeWebhooks } from './modules/subscriptions/webhooks.ts';
import { supportRoutes } from './modules/support/routes.ts';
import { tasksRoutes } from './modules/tasks/routes.ts';
import { numbersWebhooks } from './modules/telephony/numbers-webhooks.ts';
import { callsRoutes } from './modules/telephony/routes/calls.ts';
import { numbersRoutes } from './modules/telephony/routes/numbers.ts';
import { sandboxPhonesRoutes } from './modules/telephony/routes/sandbox.ts';
import { restoreSandboxNumbers, scheduledCallJob, startCallReconciler } from './modules/telephony/service.ts';
import { registerTelephonyWebhooks } from './modules/telephony/webhooks.ts';
import { templatesRoutes } from './modules/templates/routes.ts';
import { usersRoutes } from './modules/users/routes.ts';
import { sessionHolder } from './modules/users/service.ts';
import { widgetAssetsRoutes } from './modules/widget/assets.ts';
import { widgetDemoRoutes } from './modules/widget/demo.ts';
import { widgetEventRoutes } from './modules/widget/events.ts';
import { registerWidgetListeners } from './modules/widget/listeners.ts';
import { widgetRoutes } from './modules/widget/routes.ts';
import { bearerHooks, requestBasics, type SessionHolder } from './platform/auth/plugin.ts';
import { listenForCacheNews } from './platform/cache.ts';
import {
  createCarrierDeps,
  inProcessTransport,
  sandboxRecordingRoutes,
} from './platform/carrier/platform.ts';
import { forwardToSandboxHolder, sandboxRestRoutes } from './platform/carrier/remote-sandbox.ts';
import { ManualClock, realClock, type SandboxClock } from './platform/carrier/sandbox/clock.ts';
import { TwilioSandbox } from './platform/carrier/sandbox/sandbox.ts';
import { type Config, fastifyTrustProxy } from './platform/config.ts';
import { type Db, databaseAnswers } from './platform/db/client.ts';
import { createTenantDbs } from './platform/db/tenant-db.ts';
import type { Deps } from './platform/deps.ts';
import { createEventBus, type EventBus } from './platform/events/events.ts';
import { createFileStore } from './platform/files.ts';
import { recordRoutes } from './platform/http/catalogue.ts';
import { registerErrorHandling } from './platform/http/errors.ts';
import { apiHooks } from './platform/http/input-hygiene.ts';
import { requestForLog } from './platform/http/log-redaction.ts';
import { securityHeaders } from './platform/http/security-headers.ts';
import { createOutbound } from './platform/outbound/guard.ts';
import { createPayments } from './platform/payments/payments.ts';
import { stripeSandboxBrowserRoutes } from './platform/payments/sandbox/browser-routes.ts';
import { createQueue, type Queue } from './platform/queue/queue.ts';
import { createHub, hubNamespace } from './platform/realtime/hub.ts';
import { socketTree } from './platform/realtime/socket.ts';
import { createSecrets, loadSecretsKey } from './platform/secrets.ts';
import { platformSystemContext } from './platform/tenancy/context.ts';
import { createIntake, type Intake } from './platform/webhooks/intake.ts';
import {
  createWebhookRegistry,
  twilioProvider,
  type WebhookRegistry,
  webhookTree,
} from './platform/webhooks/tree.ts';
import { type InstallResolver, type WidgetRoutes, widgetTree } from './platform/widget/tree.ts';
import { accountLetsIn, ports } from './ports.ts';

/** Where modules plug into the platform: job definitions, event listeners, webhook and widget routes. */
export type Plugs = {
  deps: Deps;
  queue: Queue;
  events: EventBus;
  webhooks: WebhookRegistry;
  widget: { resolve: InstallResolver; routes: WidgetRoutes[] };
  /** Work run once the app is ready (and the queue started), e.g. data steps that need the secrets key. */
  onReady: ((deps: Deps) => Promise<unknown>)[];
  /** Work run first when the app closes (periodic checks stop before the queue and the database). */
  onClose: (() => Promise<unknown>)[];
};

export type AppOptions = {
  config: Config;
  db: Db;
  logger?: Logger;
  /** Extra plugs after the modules' own (tests register a test job, listener or webhook route). */
  plug?: (plugs: Plugs) => void;
  /** The sandbox carrier's clock (tests pass a ManualClock to run its time fast); real time otherwise. */
  sandboxClock?: SandboxClock;
  /** A sandbox carrier shared with another app (tests: two processes on one carrier, as on Twilio). */
  sandbox?: TwilioSandbox;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The platform services the app was built with (tests reach the queue through it). */
    deps: Deps;
  }
}

/** Each module registers its jobs, listeners, webhooks and widget routes here; platform imports no module. */
function plugModules(p: Plugs): void {
  p.queue.register(p.deps.mailer.job);
  p.queue.register(passwordResetRequestJob);
  // Auth: the link that confirms a new e-mail address (ADR 050).
  registerAuthListeners(p.events, p.deps);
  p.queue.register(monthlyUsageResetJob);
  // The auth token of a signature check, read once every few seconds per account (every webhook asks).
  const tokens = new Map<string, { at: number; token: Promise<string | null> }>();
  p.webhooks.provider(
    twilioProvider((sid) => {
      const hit = tokens.get(sid);
      if (hit && Date.now() - hit.at < 5_000) return hit.token;
      if (tokens.size > 10_000) tokens.clear();
      const token = twilioAuthTokenBySid(p.deps, sid);
      tokens.set(sid, { at: Date.now(), token });
      return token;
    }),
  );
  numbersWebhooks(p.webhooks, p.deps);
  // Subscriptions: Stripe's events on the platform's and each agency's account (ADR 076).
  registerStripeWebhooks(p.webhooks, p.deps);
  p.widget.resolve = installByKey;
  // Telephony: the scheduled-call job, the carrier's webhooks, the widget's callback and schedule.
  p.queue.register(scheduledCallJob);
  // Contacts: the CSV import works on a job; a process that works jobs resumes imports left stalled.
  p.queue.register(contactImportJob);
  p.onReady.push(async (deps) => {
    p.onClose.push(watchImports(deps));
  });
  registerTelephonyWebhooks(p.webhooks, p.deps);
  // The sandbox carrier forgets its numbers on a restart: the database's are put back.
  p.onReady.push((deps) => restoreSandboxNumbers(platformSystemContext(deps, 'job', 'sandbox numbers')));
  // Calls a dead process (or a restarted sandbox) left in progress are ended with the carrier's word (ADR 051).
  p.onReady.push(async (deps) =>
    p.onClose.push(startCallReconciler(platformSystemContext(deps, 'job', 'call reconciler'))),
  );
  p.onReady.push(sealAgencySecrets);
  // The demo's coupon on its Stripe sandbox accounts (issue 22).
  p.onReady.push(ensureDemoCoupons);
  // Chats: inbound texts and status callbacks (telephony keeps voice), scheduled texts, realtime news.
  registerChatsWebhooks(p.webhooks, p.deps);
  p.queue.register(scheduledMessageJob);
  p.queue.register(unhandedTextsJob);
  p.queue.register(inboundMediaJob);
  registerChatsListeners(p.events, p.deps);
  // Web Push: the VAPID keys exist from the first start; a text in notifies subscribed browsers.
  p.onReady.push(ensureVapidKeys);
  registerPushListeners(p.deps.events, p.deps);
  // The website widget: the visitor's API (config, callback, schedule, slots, text us, conversation) and
  // their event stream, fed by the call's and the conversation's realtime channels.
  p.widget.routes.push(widgetRoutes, widgetEventRoutes);
  registerWidgetListeners(p.events, p.deps);
  // Broadcasts: the sending jobs, a recipient's delivery from its text's status, resuming after a crash.
  plugBroadcastsEngine(p);
  // Broadcasts: a text in from a recipient of the week's broadcast is its reply (ADR 062).
  registerBroadcastsListeners(p.events, p.deps);
  // Automations: the engine (runs, steps, the claim loop) and the triggers that start journeys (ADRs 068, 069).
  plugAutomationsEngine(p);
  plugAutomationTriggers(p);
  // Lead forms: the widget's calls (the install's form, embedded forms, a submission) and the staff's notice.
  p.widget.routes.push(leadformsWidgetRoutes);
  p.queue.register(leadNoticeJob);
  // Analytics: every call, text, opt-out and lead rebuilds its day's rollup; a per-minute sweep finds the rest.
  registerAnalyticsListeners(p.events, p.deps);
  p.queue.register(analyticsSweepJob);
  // A start brings the rollups up to date at once (the first one builds them all), not at the next minute.
  p.onReady.push(async (deps) => {
    if (!p.queue.working) return;
    const done = sweepAnalytics(platformSystemContext(deps, 'job', 'analytics sweep')).catch((err: unknown) =>
      deps.log.warn({ err }, 'analytics sweep at start failed (the per-minute job retries)'),
    );
    p.onClose.push(() => done);
  });
  // Report e-mails (ADR 084): due at 07:00 in the business's time zone, checked every minute.
  p.queue.register(analyticsReportsJob);
  // Staff notifications (ADR 082): missed calls, voicemails, widget leads and texts, by e-mail, SMS and push.
  p.queue.register(alertNoticeJob);
  p.queue.register(alertNoticesJob);
  p.queue.register(alertTextJob);
  p.queue.register(alertPushJob);
  registerAlertsListeners(p.events, p.deps);
  // Live data (ADR 083): the widget's heartbeat, and live_data to the dashboards as calls move.
  p.widget.routes.push(liveWidgetRoutes);
  registerLiveListeners(p.events, p.deps);
  // The business's own e-mail (ADR 090): mail sent through its SMTP account or SendGrid.
  p.queue.register(ownMailJob);
  // Zapier (ADR 089): its triggers' listeners and delivery jobs.
  plugZapier(p);
  // SMS registration (ADR 092): the carrier's decisions followed by a per-minute job and its status webhooks.
  p.queue.register(registrationSyncJob);
  registrationWebhooks(p.webhooks, p.deps);
}

/**
 * Who holds a session: the users module's user, let in by its agency and its business (a switched-off,
 * archived or deleted one locks its users out). Composed here, as the users module sits below the other two.
 */
const holder: SessionHolder = (db, input) =>
  sessionHolder(
    { db },
    {
      ...input,
      accountOk: (user) => accountLetsIn(user.agency_id, user.business_id),
    },
  );

/** The meta element that hands the document's script nonce to the web app (lib/landing-script.ts). */
const SCRIPT_NONCE_META = 'custom-script-nonce';

/**
 * The policy of a document that runs an agency's custom script (ADR 079): its scripts carry the nonce
 * (inline code and a snippet's <script src>), what they load comes from https origins, and they may call,
 * frame and draw from https origins (analytics, chat and pixel snippets). Everything else stays as it is.
 */
export function customScriptPolicy(csp: string, nonce: string): string {
  const directives = csp
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean);
  const extra: Record<string, string> = {
    'script-src': `'nonce-${nonce}' https:`,
    'connect-src': 'https:',
    'frame-src': "'self' https:",
  };
  const names = new Set(directives.map((d) => d.split(/\s+/)[0]));
  const out = directives.map((d) => {
    const more = extra[d.split(/\s+/)[0] ?? ''];
    return more ? `${d} ${more}` : d;
  });
  for (const [name, sources] of Object.entries(extra)) if (!names.has(name)) out.push(`${name} ${sources}`);
  return out.join(';');
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The light landing page's document (ADR 080) for a site: the tab's title and favicon in the HTML, the
 * site data in `<script type="application/json" id="site-data">` (no round trip for it; `<` escaped so
 * that nothing in it can close the element), and the script nonce's meta element when the agency's script
 * runs (ADR 079). The title reads as the app's tab does (lib/page-title.ts): 'Home - <Site> - Start Texting Now'.
 */
export function landingDocument(html: string, site: TSiteData, nonce: string | null): string {
  const platform = 'Start Texting Now';
  const parts = ['Home', site.title.trim() || platform, platform];
  const title = parts.filter((p, i) => parts.indexOf(p) === i).join(' - ');
  const data = JSON.stringify(site).replace(/</g, '\\u003c');
  const siteTitle = escapeHtml(site.title);
  let out = html
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`)
    .replace(/(id="landing-logo">)[^<]*/, (_m, a) =>
      site.headerLogo
        ? `${a}<img src="${escapeHtml(site.headerLogo)}" alt="${siteTitle}" height="36">`
        : `${a}${siteTitle}`,
    )
    .replace(/(id="landing-site-title">)[^<]*/, (_m, a) => `${a}${siteTitle}`)
    .replace(/(id="landing-year">)[^<]*/, (_m, a) => `${a}${new Date().getFullYear()}`)
    .replace('</head>', () => `<script type="application/json" id="site-data">${data}</script></head>`);
  if (site.favicon)
    out = out.replace(
      /(<link rel="icon" id="favicon" href=")data:,(")/,
      (_m, a, b) => `${a}${escapeHtml(site.favicon ?? '')}${b}`,
    );
  if (nonce) out = out.replace('<head>', () => `<head><meta name="${SCRIPT_NONCE_META}" content="${nonce}">`);
  return out;
}

/** A document made per request, compressed as the browser accepts it (the build's files are precompressed). */
function compressedHtml(
  acceptEncoding: string | undefined,
  html: string,
): { body: Buffer | string; encoding?: string } {
  const accept = acceptEncoding ?? '';
  if (/\bbr\b/.test(accept))
    return {
      body: zlib.brotliCompressSync(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }),
      encoding: 'br',
    };
  if (/\bgzip\b/.test(accept)) return { body: zlib.gzipSync(html), encoding: 'gzip' };
  return { body: html };
}

/**
 * Caching of the built web app (ADR 022): files under /assets/ carry a content hash in their names, so
 * they never change and are kept a year; everything else (index.html above all) is revalidated each time.
 */
function webAppHeaders(root: string) {
  const assets = path.join(root, 'assets') + path.sep;
  return (res: { setHeader: (name: string, value: string) => unknown }, file: string): void => {
    const immutable = file.startsWith(assets);
    res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    res.setHeader('vary', 'accept-encoding');
  };
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { config, db } = opts;
  const logger = opts.logger ?? pino({ level: config.logLevel });
  // The file store is checked before anything starts: wrong S3 settings stop the start with a clear reason.
  const storage = createFileStore(config);
  await storage.check();
  const app = Fastify({
    // Request lines go through a serializer that keeps secrets in URLs (visitor tokens) out of the logs.
    loggerInstance: logger.child({}, { serializers: { req: requestForLog } }) as FastifyBaseLogger,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    requestIdHeader: 'x-request-id',
    genReqId: () => crypto.randomUUID(),
    bodyLimit: 1024 * 1024,
    // The start (the job queue, the workers' first checks) is waited for, not timed at Fastify's 10 s: on a
    // saturated machine a worker's start passed 10 s and the process exited (a suite run, stop 53). A start
    // that cannot reach its database still fails, on the database's own connect and statement timeouts.
    pluginTimeout: 120_000,
  }).withTypeProvider<ZodTypeProvider>();
  // The carrier's form webhooks are answered by the direct intake, everything else by Fastify (ADR 116):
  // Fastify's own request listener is wrapped, its server made, timed and bound as Fastify makes it (a
  // second address of HOST, such as ::1 for localhost, is Fastify's alone: its texts take the app's path).
  // Once the app is closing, Fastify answers everything (503 while it drains).
  let intake: Intake | null = null;
  const fastifyListener = app.server.listeners('request')[0] as http.RequestListener | undefined;
  if (fastifyListener) {
    app.server.removeListener('request', fastifyListener);
    app.server.on('request', (req, res) => {
      if (!intake?.serve(req, res)) fastifyListener(req, res);
    });
  }
  app.addHook('preClose', async () => {
    intake = null;
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // A process on another's sandbox (CARRIER_SANDBOX_URL) passes the sandbox's own screens on to it (ADR 098).
  if (config.carrierSandbox && config.carrierSandboxUrl && !opts.sandbox)
    forwardToSandboxHolder(app, config.carrierSandboxUrl);

  const queue = createQueue({ db, log: logger, workers: config.workers === 'inline' });
  const mailer = createMailer({
    db,
    queue,
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    log: logger,
    retry: { limit: config.mailRetryLimit, delaySeconds: config.mailRetryDelaySeconds },
  });
  const events = createEventBus(logger);
  // Channels namespaced by the database: one deployment's processes share them, another's do not.
  const realtime = createHub({
    redisUrl: config.redisUrl,
    log: logger,
    namespace: hubNamespace(config.databaseUrl),
  });
  const secrets = createSecrets(loadSecretsKey(config), config.secretsKeyPrevious);
  // The sandbox carrier (ADR 026): its webhooks to our own URLs go in process.
  // With CARRIER_SANDBOX_URL (a worker), the API server's sandbox is used and this process holds none (ADR 063).
  const sandbox =
    opts.sandbox ??
    (config.carrierSandbox && !config.carrierSandboxUrl
      ? new TwilioSandbox({
          clock:
            opts.sandboxClock ??
            (config.sandboxClock === 'manual'
              ? new ManualClock(Date.now(), { running: true })
              : realClock((err) => logger.warn({ err }, 'sandbox carrier: background work failed'))),
          publicBase: config.publicUrl.origin,
          store: storage,
          onError: (err) => logger.warn({ err }, 'sandbox carrier: a request or a TwiML answer failed'),
          transport: inProcessTransport(() => app, {
            trustProxy: config.trustProxy !== false,
            hosts: [config.publicUrl.hostname],
            mainDomain: config.mainDomain,
            intake: () => intake,
          }),
        })
      : null);
  // Every fetch of an address from outside goes through this guard (ADR 049).
  const outbound = createOutbound();
  // Stripe through its SDK; sandbox keys are served by the platform's own emulator (ADR 076), whose
  // webhooks to our own URLs go in process.
  const payments = createPayments({
    db,
    sandbox: config.stripeSandbox,
    transport: inProcessTransport(() => app, {
      trustProxy: config.trustProxy !== false,
      hosts: [config.publicUrl.hostname],
      mainDomain: config.mainDomain,
    }),
    onError: (err) => logger.warn({ err }, 'stripe sandbox: a webhook delivery failed'),
  });
  const carrier = createCarrierDeps(
    sandbox,
    outbound,
    config.carrierSandbox && config.carrierSandboxUrl && !opts.sandbox
      ? {
          url: config.carrierSandboxUrl,
          mediaOrigins: [config.publicUrl.origin, new URL(config.carrierSandboxUrl).origin],
        }
      : undefined,
  );
  const deps: Deps = {
    db,
    tenants: createTenantDbs(db),
    config,
    // The agency's own mail through its own SMTP account when it has one (ADR 090).
    mailer: withAgencyOwnMail(mailer, () => deps),
    log: logger,
    queue,
    events,
    realtime,
    secrets,
    carrier,
    storage,
    outbound,
    payments,
    ports,
  };
  app.decorate('deps', deps);
  // The news that a cached row changed in another process (ADR 119): heard from the start.
  listenForCacheNews(deps);

  const plugs: Plugs = {
    deps,
    queue,
    events,
    webhooks: createWebhookRegistry(),
    widget: { resolve: async () => null, routes: [] },
    onReady: [],
    onClose: [],
  };
  plugModules(plugs);
  opts.plug?.(plugs);

  app.addHook('onReady', async () => {
    await realtime.ready();
    await queue.start(deps);
    for (const step of plugs.onReady) await step(deps);
  });
  // In reverse of start: stop working jobs, then drop the realtime and SMTP connections.
  app.addHook('onClose', async () => {
    // A running manual sandbox clock (SANDBOX_CLOCK=manual) stops following real time first.
    if (sandbox?.clock instanceof ManualClock) sandbox.clock.stop();
    for (const step of plugs.onClose) await step();
    await queue.stop();
    await payments.close();
    await realtime.close();
    mailer.close();
    await deps.tenants.close();
  });

  const security = securityHeaders(app, {
    // The web app and the widget load only our own code; the API docs page needs inline styles.
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        connectSrc: ["'self'"],
        // Recordings and voicemails play from object URLs of audio fetched with the bearer token (ADR 031).
        mediaSrc: ["'self'", 'blob:'],
        // Over plain http these two would send the browser to https for every asset: a blank page (ADR 022).
        upgradeInsecureRequests: config.tls ? [] : null,
      },
    },
    strictTransportSecurity: config.tls ? { maxAge: 31536000, includeSubDomains: true } : false,
  });
  registerErrorHandling(app);
  recordRoutes(app);
  await app.register(requestBasics);

  await app.register(swagger, {
    openapi: {
      info: { title: 'Start Texting Now API', version: '1' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  // Up means the database answers: within DB_CONNECT_TIMEOUT_MS, or 503 with the reason (ADR 050).
  app.get('/healthz', { schema: { hide: true } }, async (_req, reply) => {
    if (await databaseAnswers(db, config.dbTimeouts.connectMs)) return reply.send({ status: 'ok' });
    return reply.status(503).send({ status: 'unavailable', reason: 'database' });
  });

  await app.register(
    async (api) => {
      // The bearer token and the capabilities belong to this tree alone (ADR 055).
      bearerHooks(api, { db, holder });
      apiHooks(api);
      for (const routes of [
        authRoutes,
        agencyAccessRoutes,
        profileRoutes,
        siteDataRoutes,
        pagesRoutes,
        releaseNotesRoutes,
        supportRoutes,
        notificationRoutes,
        auditRoutes,
        agenciesRoutes,
        whitelabelsRoutes,
        businessesRoutes,
        plansRoutes,
        packagesRoutes,
        usersRoutes,
        phoneListsRoutes,
        installsRoutes,
        callsRoutes,
        numbersRoutes,
        sandboxPhonesRoutes,
        inboxRoutes,
        tasksRoutes,
        templatesRoutes,
        pushRoutes,
        contactsRoutes,
        broadcastsRoutes,
        automationsRoutes,
        leadformsRoutes,
        subscriptionsRoutes,
        ordersRoutes,
        optinsRoutes,
        analyticsRoutes,
        liveRoutes,
        integrationsRoutes,
        googleRoutes,
        ownMailRoutes,
        registrationRoutes,
      ]) {
        await api.register(routes, deps);
      }
    },
    { prefix: '/api' },
  );
  // The other three trees, each with its own hooks (ADR 015).
  await app.register(widgetTree, {
    prefix: '/api/widget',
    deps,
    resolve: (d, key) => plugs.widget.resolve(d, key),
    routes: plugs.widget.routes,
  });
  // The website widget's loader and app files, for any site (docs/decisions/043).
  await app.register(widgetAssetsRoutes, { dist: config.widgetDist });
  // The agency's payment popup loader, for the agency's own websites (issue 23).
  await app.register(popupAssetsRoutes, deps);
  await app.register(webhookTree, { prefix: '/webhooks', registry: plugs.webhooks });
  intake = createIntake({
    registry: plugs.webhooks,
    prefix: '/webhooks',
    trustProxy: config.trustProxy,
    securityHeaders: security,
    log: app.log,
  });
  // Zapier's OAuth token endpoint, /oauth/token (ADR 089).
  await app.register(zapierTokenRoutes, deps);
  await app.register(sandboxRecordingRoutes, { sandbox });
  // The Stripe sandbox's card-form calls (ADR 076): what Stripe.js would send to Stripe.
  await app.register(stripeSandboxBrowserRoutes, { payments });
  // The sandbox's REST for processes started with CARRIER_SANDBOX_URL (ADR 063).
  await app.register(sandboxRestRoutes, {
    sandbox,
    knownToken: (sid: string) => twilioAuthTokenBySid(deps, sid),
  });
  // The widget demo page (ADR 039): an install's widget on a page with hostile CSS and script.
  await app.register(widgetDemoRoutes, deps);
  await app.register(socketTree, { db, hub: realtime, holder, events });

  // Uploaded and received files: public, unguessable names, never the web app's index.html (ADR 040).
  await storage.serve(app);

  // The built web app answers every other path, so that deep links and reloads work.
  const index = path.join(config.webDist, 'index.html');
  if (fs.existsSync(index)) {
    const hasLoginPage = fs.existsSync(path.join(config.webDist, 'login.html'));
    const indexHtml = fs.readFileSync(index, 'utf8');
    const landingFile = path.join(config.webDist, 'landing.html');
    const landingHtml = fs.existsSync(landingFile) ? fs.readFileSync(landingFile, 'utf8') : null;
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: false,
      // '/' is answered below: a landing page's document may carry the agency's script nonce (ADR 079).
      index: false,
      // The build writes .br and .gz beside each text file (apps/web/vite.config.ts); sent when accepted.
      preCompressed: true,
      cacheControl: false,
      setHeaders: webAppHeaders(config.webDist),
    });
    app.get('/*', { schema: { hide: true } }, async (request, reply) => {
      if (request.url.startsWith('/api/')) {
        return reply
          .status(404)
          .send({ success: false, code: 'NOT_FOUND', message: translate('errors.not_found', request.lang) });
      }
      // A missing hashed file (an old chunk after a deploy) is a 404, not the app's page with a 200.
      if (request.url.startsWith('/assets/')) return reply.status(404).type('text/plain').send('Not found');
      // The sign-in page is a light page of its own (ADR 025), with the same caching as index.html.
      const pathname = request.url.split('?')[0];
      // The payment popup's page opens in an iframe on the agency's own websites (/popup.js): any framer.
      if (pathname === '/popup') {
        reply.removeHeader('x-frame-options');
        const csp = reply.getHeader('content-security-policy');
        if (typeof csp === 'string')
          reply.header('content-security-policy', csp.replace(/frame-ancestors [^;]*/, 'frame-ancestors *'));
      }
      if (hasLoginPage && (pathname === '/login' || pathname === '/auth/login'))
        return reply.type('text/html').sendFile('login.html');
      // The site behind '/' and the order pages, looked up once: the light landing page (ADR 080), and the
      // agency's custom script on its landing page (and the main agency's on its order pages, ADR 079).
      const doc = await documentSite(deps, { host: request.host, pathname: pathname ?? '' });
      const nonce = doc?.customScript ? crypto.randomBytes(16).toString('base64') : null;
      if (nonce) {
        const csp = reply.getHeader('content-security-policy');
        if (typeof csp === 'string') reply.header('content-security-policy', customScriptPolicy(csp, nonce));
      }
      if (doc?.landing && landingHtml) {
        // A nonce is for one response: never kept; else revalidated like index.html (the site may change).
        const { body, encoding } = compressedHtml(
          request.headers['accept-encoding'],
          landingDocument(landingHtml, doc.site, nonce),
        );
        if (encoding) reply.header('content-encoding', encoding);
        return reply
          .header('cache-control', nonce ? 'no-store' : 'no-cache')
          .header('vary', 'accept-encoding')
          .type('text/html; charset=utf-8')
          .send(body);
      }
      if (nonce) {
        return reply
          .header('cache-control', 'no-store')
          .type('text/html')
          .send(indexHtml.replace('<head>', `<head><meta name="${SCRIPT_NONCE_META}" content="${nonce}">`));
      }
      return reply.type('text/html').sendFile('index.html');
    });
  }
  return app;
}

/**
 * Creates every job's queue in `db` without starting anything (ADR 113): the test runs' template databases
 * get them once, so that the app started on each copy makes no DDL. Not the cron schedules: a process
 * that starts where they are enqueues their jobs at once, and each test file would run them all.
 */
export async function installJobQueues(opts: Pick<AppOptions, 'config' | 'db'>): Promise<void> {
  const app = await buildApp({ ...opts, logger: pino({ level: 'silent' }) });
  try {
    await app.deps.queue.install({ schedules: false });
  } finally {
    await app.close();
  }
}

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { translate } from '@stn/contracts/i18n';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import pino, { type Logger } from 'pino';
import { agenciesRoutes } from './modules/agencies/routes.ts';
import { auditRoutes } from './modules/audit/routes.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { packagesRoutes } from './modules/billing/routes/packages.ts';
import { plansRoutes } from './modules/billing/routes/plans.ts';
import { businessesRoutes } from './modules/businesses/routes.ts';
import { phoneListsRoutes } from './modules/compliance/routes.ts';
import { notificationRoutes } from './modules/notifications/routes.ts';
import { profileRoutes } from './modules/profile/routes.ts';
import { pagesRoutes } from './modules/sites/routes/pages.ts';
import { releaseNotesRoutes } from './modules/sites/routes/release-notes.ts';
import { siteDataRoutes } from './modules/sites/routes/site-data.ts';
import { whitelabelsRoutes } from './modules/sites/routes/whitelabels.ts';
import { usersRoutes } from './modules/users/routes.ts';
import { authPlugin } from './platform/auth/plugin.ts';
import type { Config } from './platform/config.ts';
import type { Db } from './platform/db/client.ts';
import type { Deps } from './platform/deps.ts';
import { recordRoutes } from './platform/http/catalogue.ts';
import { registerErrorHandling } from './platform/http/errors.ts';
import { createMailer, type Mailer } from './platform/mail.ts';

export type AppOptions = { config: Config; db: Db; logger?: Logger; mailer?: Mailer };

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { config, db } = opts;
  const logger = opts.logger ?? pino({ level: config.logLevel });
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    trustProxy: config.trustProxy,
    requestIdHeader: 'x-request-id',
    genReqId: () => crypto.randomUUID(),
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  const mailer =
    opts.mailer ?? createMailer({ db, smtpUrl: config.smtpUrl, from: config.mailFrom, log: logger });
  app.addHook('onClose', async () => mailer.close());
  const deps: Deps = { db, config, mailer, log: logger };

  await app.register(helmet, {
    // The web app and the widget load only our own code; the API docs page needs inline styles.
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        connectSrc: ["'self'"],
      },
    },
  });
  registerErrorHandling(app);
  recordRoutes(app);
  await app.register(authPlugin, { db });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Start Texting Now API', version: '1' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  app.get('/healthz', { schema: { hide: true } }, async (_req, reply) => {
    await db.execute('select 1');
    return reply.send({ status: 'ok' });
  });

  await app.register(
    async (api) => {
      for (const routes of [
        authRoutes,
        profileRoutes,
        siteDataRoutes,
        pagesRoutes,
        releaseNotesRoutes,
        notificationRoutes,
        auditRoutes,
        agenciesRoutes,
        whitelabelsRoutes,
        businessesRoutes,
        plansRoutes,
        packagesRoutes,
        usersRoutes,
        phoneListsRoutes,
      ]) {
        await api.register(routes, deps);
      }
    },
    { prefix: '/api' },
  );

  // Uploaded images (agency logos): public files under <dataDir>/uploads, never the web app's index.html.
  const uploads = path.join(config.dataDir, 'uploads');
  fs.mkdirSync(uploads, { recursive: true });
  await app.register(fastifyStatic, {
    root: uploads,
    prefix: '/uploads/',
    decorateReply: false,
    // Uploaded files are shown, never run: an SVG opened on its own cannot execute script.
    setHeaders: (res) =>
      res.setHeader('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox"),
  });

  // The built web app answers every other path, so that deep links and reloads work.
  const index = path.join(config.webDist, 'index.html');
  if (fs.existsSync(index)) {
    await app.register(fastifyStatic, { root: config.webDist, wildcard: false });
    app.get('/*', { schema: { hide: true } }, (request, reply) => {
      if (request.url.startsWith('/api/')) {
        return reply
          .status(404)
          .send({ success: false, message: translate('errors.not_found', request.lang) });
      }
      return reply.type('text/html').sendFile('index.html');
    });
  }
  return app;
}

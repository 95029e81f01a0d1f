import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import type { DbTimeouts } from './db/client.ts';
import { SERVER_DIR } from './paths.ts';
import type { S3Settings } from './s3.ts';

const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

/** The ranges Fastify's trustProxy knows by name (loopback: 127.0.0.0/8 and ::1). */
const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/** An IPv4 or IPv6 address, or a CIDR range of one. */
function isAddressOrRange(v: string): boolean {
  const [addr = '', prefix, ...rest] = v.split('/');
  const family = net.isIP(addr);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY (ADR 050): off; a number of proxies in front (the client is that many hops back in
 * X-Forwarded-For); or the proxies' addresses and ranges, comma-separated. `true` (trust every hop) lets a
 * client write its own X-Forwarded-For and choose the address every per-address limit counts: refused.
 */
const ZTrustProxy = z
  .string()
  .trim()
  .transform((v, ctx): false | number | string[] => {
    const lower = v.toLowerCase();
    if (['', '0', 'false', 'no', 'off'].includes(lower)) return false;
    if (['true', 'yes', 'on'].includes(lower)) {
      ctx.addIssue({
        code: 'custom',
        message:
          '"true" would trust every hop, so a client could write its own X-Forwarded-For: set the number of proxies in front (e.g. 1) or their addresses (e.g. 10.0.0.1,10.1.0.0/16)',
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(v)) {
      const hops = Number(v);
      if (hops <= 32) return hops;
    }
    const list = v
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean)
      .map((a) => (NAMED_RANGES.includes(a.toLowerCase()) ? a.toLowerCase() : a));
    const bad = list.filter((a) => !NAMED_RANGES.includes(a) && !isAddressOrRange(a));
    if (list.length === 0 || bad.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `must be off, a number of proxies (1-32) or proxy addresses/CIDR ranges separated by commas (loopback for a proxy on this machine); not an address: ${bad.join(', ') || v}`,
      });
      return z.NEVER;
    }
    return list;
  });

/**
 * AUTOMATION_WEBHOOK_ALLOW_ORIGINS (ADR 071): exact origins (`http://127.0.0.1:4567`) an automation's
 * Webhook block may reach although they are loopback or private, comma-separated: a test's or a demo's
 * local receiver. Empty by default; never a switch (no wildcard, no path, each one named).
 */
const ZOriginList = z
  .string()
  .trim()
  .transform((v, ctx): string[] => {
    const list = v
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean);
    const origins: string[] = [];
    for (const o of list) {
      let url: URL | null = null;
      try {
        url = new URL(o);
      } catch {
        url = null;
      }
      if (
        !url ||
        (url.protocol !== 'http:' && url.protocol !== 'https:') ||
        url.origin !== o.replace(/\/+$/, '') ||
        url.username ||
        url.password
      ) {
        ctx.addIssue({
          code: 'custom',
          message: `must be origins (scheme, host and port, e.g. http://127.0.0.1:4567) separated by commas; not an origin: ${o}`,
        });
        return z.NEVER;
      }
      origins.push(url.origin);
    }
    return origins;
  });

// Every setting comes from the environment, validated here at start, with a laptop-safe default.
const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('localhost'),
  DATA_DIR: z.string().min(1).default('.data'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  MAIN_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+$/, 'MAIN_DOMAIN must be a bare host name such as example.com')
    .default('localhost'),
  PUBLIC_URL: z.url().optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().min(3).default('Start Texting Now <no-reply@localhost>'),
  ACCESS_TOKEN_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(60 * 24 * 14),
  IMPERSONATION_TTL_MINUTES: z.coerce.number().int().min(1).default(120),
  PASSWORD_RESET_TTL_MINUTES: z.coerce.number().int().min(1).default(60),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
  LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).default(30),
  LOGIN_LOCK_MINUTES: z.coerce.number().int().min(1).default(15),
  DEMO_DATA: bool.optional(),
  MAINTENANCE: bool.default(false),
  TRUST_PROXY: ZTrustProxy.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WORKERS: z.enum(['inline', 'off']).default('inline'),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  SECRETS_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'SECRETS_KEY must be 32 bytes in base64')
    .optional(),
  /**
   * Earlier secrets keys (ADR 100), comma-separated: values sealed under them still open while
   * `npm run cli -- secrets:rotate` re-seals them under SECRETS_KEY.
   */
  SECRETS_KEY_PREVIOUS: z
    .string()
    .trim()
    .transform((v, ctx): Buffer[] => {
      const list = v
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean);
      const keys = list.map((k) => Buffer.from(k, 'base64'));
      if (keys.some((k) => k.length !== 32)) {
        ctx.addIssue({
          code: 'custom',
          message: 'SECRETS_KEY_PREVIOUS must be keys of 32 bytes in base64, separated by commas',
        });
        return z.NEVER;
      }
      return keys;
    })
    .default([]),
  MAIL_RETRY_LIMIT: z.coerce.number().int().min(0).max(100).default(8),
  MAIL_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).default(30),
  WIDGET_RATE_PER_ADDRESS: z.coerce.number().int().min(1).default(120),
  WIDGET_RATE_PER_INSTALL: z.coerce.number().int().min(1).default(1200),
  WIDGET_CALLBACKS_PER_INSTALL_MINUTE: z.coerce.number().int().min(1).max(10_000).default(10),
  WIDGET_CALLBACKS_PER_PHONE_DAY: z.coerce.number().int().min(1).max(1_000).default(5),
  INVITATION_TTL_DAYS: z.coerce.number().int().min(1).max(90).default(7),
  PUBLIC_CHECK_RATE_PER_ADDRESS: z.coerce.number().int().min(1).default(20),
  PUBLIC_CHECK_RATE_PER_EMAIL: z.coerce.number().int().min(1).default(10),
  TLS: z
    .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'], {
      message:
        'TLS must be on or off (on when browsers reach the platform over https, e.g. behind a TLS proxy)',
    })
    .transform((v) => ['1', 'true', 'yes', 'on'].includes(v))
    .optional(),
  CARRIER_SANDBOX: bool.default(true),
  /** The Stripe sandbox (ADR 076): sandbox keys are served by the platform's own emulator. */
  STRIPE_SANDBOX: bool.default(true),
  /** The platform's Stripe account (agencies pay it); none set: a sandbox account of the platform. */
  STRIPE_SECRET_KEY: z
    .string()
    .trim()
    .regex(
      /^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/,
      'STRIPE_SECRET_KEY must be a Stripe secret key (sk_live_… or sk_test_…)',
    )
    .optional(),
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .trim()
    .regex(/^pk_(test|live)_[A-Za-z0-9_]+$/, 'STRIPE_PUBLISHABLE_KEY must be a Stripe publishable key (pk_…)')
    .optional(),
  /** The broadcasts' throttle per sending number (ADR 061); off only for a bench of the pipeline. */
  BROADCAST_THROTTLE: bool.default(true),
  /**
   * The sandbox carrier's clock (ADR 073): real, or manual (it stands still until moved on the Sandbox
   * Phones screen or by POST /v1/sandbox/clock/advance; browser tests of timed journeys).
   */
  SANDBOX_CLOCK: z
    .enum(['real', 'manual'], { message: 'SANDBOX_CLOCK must be real or manual' })
    .default('real'),
  /** Another process's sandbox (the API server's) instead of one in this process (a worker; ADR 063). */
  CARRIER_SANDBOX_URL: z
    .url({ protocol: /^https?$/, message: 'CARRIER_SANDBOX_URL must be an http(s) URL (the API server)' })
    .optional(),
  /** Seconds between two passes of the call reconciler (ADR 051); 0 switches the periodic pass off. */
  CALL_RECONCILE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  DB_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(20),
  DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5_000),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(60_000),
  INBOUND_BATCHES: z.coerce.number().int().min(1).max(32).default(3),
  IMPORT_STALL_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  STORAGE_DRIVER: z.enum(['local', 's3'], { message: 'STORAGE_DRIVER must be local or s3' }).default('local'),
  S3_ENDPOINT: z.url({ protocol: /^https?$/, message: 'S3_ENDPOINT must be an http(s) URL' }).optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]+$/, 'S3_REGION must be a region name such as us-east-1')
    .default('us-east-1'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'S3_BUCKET must be a bucket name (a-z, 0-9, dot, dash)')
    .optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool.optional(),
  S3_PUBLIC_URL: z.url({ protocol: /^https?$/, message: 'S3_PUBLIC_URL must be an http(s) URL' }).optional(),
  AUTOMATION_WEBHOOK_ALLOW_ORIGINS: ZOriginList.default([]),
  /** An OpenAI-compatible API for AI drafts (ADR 086): its base address, ending before /chat/completions. */
  AI_BASE_URL: z
    .url({
      protocol: /^https?$/,
      message: 'AI_BASE_URL must be an http(s) URL, the API base such as https://api.openai.com/v1',
    })
    .optional(),
  AI_API_KEY: z.string().trim().min(1).max(500).optional(),
  AI_MODEL: z.string().trim().min(1).max(200).default('gpt-4o-mini'),
  /**
   * Google's OAuth and Business Profile APIs for Google Business locations (ADR 091): the base before
   * /o/oauth2/auth, /token and /v1/accounts. Unset: the in-process stand-in.
   */
  GOOGLE_BASE_URL: z
    .url({
      protocol: /^https?$/,
      message:
        'GOOGLE_BASE_URL must be an http(s) URL, the base before /o/oauth2/auth, /token and /v1/accounts',
    })
    .optional(),
  GOOGLE_CLIENT_ID: z.string().trim().min(1).max(300).optional(),
  GOOGLE_CLIENT_SECRET: z.string().trim().min(1).max(300).optional(),
  /** SendGrid's v3 API for businesses' own mail (ADR 090): its base address, before /v3/... */
  SENDGRID_BASE_URL: z
    .url({
      protocol: /^https?$/,
      message: 'SENDGRID_BASE_URL must be an http(s) URL, the API base such as https://api.sendgrid.com',
    })
    .optional(),
  /**
   * SMTP servers (`host:port`, comma-separated) a business's e-mail account may name although their address
   * is loopback or private: a test's local SMTP server (ADR 090). Empty by default.
   */
  OWN_MAIL_SMTP_ALLOW: z
    .string()
    .trim()
    .transform((v, ctx): string[] => {
      const list = v
        .split(',')
        .map((o) => o.trim().toLowerCase())
        .filter(Boolean);
      for (const o of list)
        if (!/^[a-z0-9.-]+:\d{1,5}$|^\[[0-9a-f:]+\]:\d{1,5}$/.test(o))
          ctx.addIssue({ code: 'custom', message: `OWN_MAIL_SMTP_ALLOW: ${o} is not host:port` });
      return list;
    })
    .default([]),
  /** Zapier's app as an OAuth client of ours (ADR 089): its client id, secret and redirect addresses. */
  ZAPIER_CLIENT_ID: z
    .string()
    .trim()
    .regex(
      /^[A-Za-z0-9._-]{3,100}$/,
      'ZAPIER_CLIENT_ID must be 3-100 letters, digits, dots, dashes or underscores',
    )
    .default('zapier'),
  ZAPIER_CLIENT_SECRET: z
    .string()
    .trim()
    .min(16, 'ZAPIER_CLIENT_SECRET must be at least 16 characters')
    .max(200)
    .optional(),
  ZAPIER_REDIRECT_URIS: z
    .string()
    .trim()
    .transform((v, ctx): string[] => {
      const list = v
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean);
      for (const u of list) {
        let url: URL | null = null;
        try {
          url = new URL(u);
        } catch {}
        if (!url || !/^https?:$/.test(url.protocol) || url.hash) {
          ctx.addIssue({
            code: 'custom',
            message: `must be http(s) addresses without a fragment, comma-separated; not: ${u}`,
          });
          return z.NEVER;
        }
      }
      return list;
    })
    .default(['https://zapier.com/dashboard/auth/oauth/return/App-StartTextingNow/']),
  ZAPIER_INVITE_URL: z
    .url({ protocol: /^https$/, message: 'ZAPIER_INVITE_URL must be an https URL' })
    .optional(),
  ZAPIER_HOOK_ALLOW_ORIGINS: ZOriginList.default([]),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  mainDomain: string;
  /** Scheme and port that links in e-mails use; the host is the agency's own. */
  publicUrl: URL;
  smtpUrl: string | undefined;
  mailFrom: string;
  accessTokenTtlSeconds: number;
  impersonationTtlSeconds: number;
  passwordResetTtlSeconds: number;
  loginMaxFailuresPerAccount: number;
  loginMaxFailuresPerAddress: number;
  loginLockSeconds: number;
  demoData: boolean;
  maintenance: boolean;
  /**
   * Which X-Forwarded-* to believe (Fastify's trustProxy): false; the number of proxies in front; or their
   * addresses and CIDR ranges (ADR 050). Never "every hop".
   */
  trustProxy: false | number | string[];
  logLevel: string;
  /** Whether this process works jobs ('inline') or only enqueues them ('off', for API-only processes). */
  workers: 'inline' | 'off';
  /** Realtime fan-out across processes; in-process only without it. */
  redisUrl: string | undefined;
  /** A running CSV import without progress for this long is taken over by a worker (ADR 052). */
  importStallSeconds: number;
  /** The key that seals secrets at rest; from DATA_DIR/secrets.key when unset (a laptop). */
  secretsKey: Buffer | undefined;
  /** Earlier keys that still open sealed values (SECRETS_KEY_PREVIOUS); nothing is sealed with them. */
  secretsKeyPrevious: Buffer[];
  mailRetryLimit: number;
  mailRetryDelaySeconds: number;
  /** Widget API requests per minute, per caller address and per install. */
  widgetRatePerAddress: number;
  widgetRatePerInstall: number;
  /**
   * Widget callbacks one install takes a minute, whatever addresses and phones ask (each rings staff), and
   * callbacks one visitor phone gets from a business a day (a third party's phone typed in again and again).
   */
  widgetCallbacksPerInstallMinute: number;
  widgetCallbacksPerPhoneDay: number;
  /** Where the built web app lives; served for every non-API path when present. */
  webDist: string;
  /** Where the built website widget lives (apps/widget/dist): /widget.js and /widget/<hash>.js. */
  widgetDist: string;
  /** How long an invitation link (a user created without a password) stays valid. */
  invitationTtlDays: number;
  /**
   * Public e-mail checks (uniquemailchk, password/email) per minute, per caller address and per checked
   * address; in-process, like the widget's limits (ADR 019).
   */
  publicCheckRatePerAddress: number;
  publicCheckRatePerEmail: number;
  /**
   * Browsers reach the platform over https (here or at a TLS proxy in front): only then are HSTS and
   * CSP upgrade-insecure-requests sent, which would turn a plain-http site into a blank page.
   */
  tls: boolean;
  /**
   * The embedded Twilio-compatible sandbox carrier (ADR 026): one per process, for agencies that choose
   * it, the Sandbox Phones screen and the tests. On by default.
   */
  carrierSandbox: boolean;
  /** STRIPE_SANDBOX: sandbox keys are served by the platform's Stripe emulator (ADR 076). */
  stripeSandbox: boolean;
  /** The platform's own Stripe keys; null: the platform uses a sandbox account. */
  stripe: { secretKey: string; publishableKey: string } | null;
  /** Broadcasts wait for each sending number's next slot (off: as fast as the pipeline goes, a bench). */
  broadcastThrottle: boolean;
  /** The sandbox carrier's clock: real time, or a manual clock moved by hand (ADR 073). */
  sandboxClock: 'real' | 'manual';
  /**
   * The API server whose sandbox this process uses (CARRIER_SANDBOX_URL, ADR 063): it then holds none of its
   * own, and its SDK requests for sandbox accounts go to that server's /sandbox/twilio/*. Unset: in process.
   */
  carrierSandboxUrl: string | undefined;
  callReconcileSeconds: number;
  /** Connections of each process's PostgreSQL pool (the server's; the CLI uses one). */
  dbPoolSize: number;
  /** How long the pool waits for a connection, a statement and an idle transaction (ADR 050). */
  dbTimeouts: DbTimeouts;
  /** Batches of inbound texts written at once per process (ADR 033: each is one transaction). */
  inboundBatches: number;
  /**
   * Files (media, logos, .ics) in an S3-compatible bucket when STORAGE_DRIVER=s3; on local disk under
   * DATA_DIR/uploads when undefined (ADR 040).
   */
  s3: (S3Settings & { publicUrl: string | undefined }) | undefined;
  /**
   * Origins an automation's Webhook block may reach although their address is loopback or private (a
   * test's local receiver), from AUTOMATION_WEBHOOK_ALLOW_ORIGINS; empty by default (ADR 071).
   */
  automationWebhookAllowOrigins: string[];
  /**
   * The OpenAI-compatible API of AI drafts (ADR 086): AI_BASE_URL (without a trailing slash), AI_API_KEY and
   * AI_MODEL. No base address: the platform's in-process stand-in writes the drafts (a laptop, the tests).
   */
  ai: { baseUrl: string | undefined; apiKey: string | undefined; model: string };
  /**
   * Google Business locations (ADR 091): GOOGLE_BASE_URL (without a trailing slash) with the OAuth client's
   * id and secret. No base address: the in-process stand-in, with a client id of its own and no secret.
   */
  google: { baseUrl: string | undefined; clientId: string; clientSecret: string | undefined };
  /**
   * Businesses' own mail (ADR 090): SendGrid's base address (SENDGRID_BASE_URL, no trailing slash; none: the
   * in-process stand-in) and the SMTP `host:port`s let through although private (OWN_MAIL_SMTP_ALLOW).
   */
  ownMail: { sendgridBaseUrl: string | undefined; smtpAllow: string[] };
  /**
   * Zapier's app (ADR 089): ZAPIER_CLIENT_ID, ZAPIER_CLIENT_SECRET (unset: derived from the secrets key,
   * a laptop's default), ZAPIER_REDIRECT_URIS (exact), ZAPIER_INVITE_URL (the app's invite link, shown to
   * agencies) and ZAPIER_HOOK_ALLOW_ORIGINS (a test's local hook receiver, as for automations' webhooks).
   */
  zapier: {
    clientId: string;
    clientSecret: string | undefined;
    redirectUris: string[];
    inviteUrl: string | undefined;
    hookAllowOrigins: string[];
  };
};

export class ConfigError extends Error {}

/**
 * Fastify's trustProxy from TRUST_PROXY. A list of proxies is exactly that list: loopback is trusted only
 * when listed (`127.0.0.1` or `loopback`, a proxy on the same machine), as otherwise any process on the
 * host could write X-Forwarded-For (ADR 050). A hop count is a function: the socket's peer and the next
 * hops-1 addresses of X-Forwarded-For are proxies, the one before them is the client (Fastify 5 now
 * treats a bare number as "trust nothing").
 */
export function fastifyTrustProxy(
  trust: Config['trustProxy'],
): false | string[] | ((address: string, hop: number) => boolean) {
  if (Array.isArray(trust)) return [...trust];
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return false;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ZEnv.safeParse(clean);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  // Several processes on one database must share one key: a key file per machine would not do.
  if (e.NODE_ENV === 'production' && e.DATABASE_URL && !e.SECRETS_KEY) {
    throw new ConfigError('Invalid environment:\n  SECRETS_KEY: required in production with DATABASE_URL');
  }
  if (
    e.SECRETS_KEY &&
    e.SECRETS_KEY_PREVIOUS.some((k) => k.equals(Buffer.from(e.SECRETS_KEY ?? '', 'base64')))
  )
    throw new ConfigError(
      'Invalid environment:\n  SECRETS_KEY_PREVIOUS: holds SECRETS_KEY itself; list only the earlier keys',
    );
  if (
    e.SANDBOX_CLOCK === 'manual' &&
    (!e.CARRIER_SANDBOX || e.CARRIER_SANDBOX_URL || e.NODE_ENV === 'production')
  )
    throw new ConfigError(
      "Invalid environment:\n  SANDBOX_CLOCK: manual only with this process's own sandbox carrier, never in production",
    );
  if (Boolean(e.STRIPE_SECRET_KEY) !== Boolean(e.STRIPE_PUBLISHABLE_KEY))
    throw new ConfigError(
      "Invalid environment:\n  STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY: set both (the platform's Stripe account) or neither (the Stripe sandbox)",
    );
  if (!e.STRIPE_SECRET_KEY && !e.STRIPE_SANDBOX)
    throw new ConfigError(
      "Invalid environment:\n  STRIPE_SANDBOX: off needs the platform's Stripe keys (STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY)",
    );
  if (e.CARRIER_SANDBOX_URL && !e.CARRIER_SANDBOX)
    throw new ConfigError(
      'Invalid environment:\n  CARRIER_SANDBOX_URL: set only with the sandbox on (CARRIER_SANDBOX is off)',
    );
  if (e.AI_API_KEY && !e.AI_BASE_URL)
    throw new ConfigError(
      'Invalid environment:\n  AI_API_KEY: set only with AI_BASE_URL (without it the local stand-in writes the drafts)',
    );
  if (e.GOOGLE_BASE_URL && (!e.GOOGLE_CLIENT_ID || !e.GOOGLE_CLIENT_SECRET))
    throw new ConfigError(
      'Invalid environment:\n  GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET: required with GOOGLE_BASE_URL (the OAuth client made in Google Cloud)',
    );
  if (!e.GOOGLE_BASE_URL && (e.GOOGLE_CLIENT_ID || e.GOOGLE_CLIENT_SECRET))
    throw new ConfigError(
      'Invalid environment:\n  GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET: set only with GOOGLE_BASE_URL (without it the local stand-in answers)',
    );
  if (e.STORAGE_DRIVER === 's3') {
    const missing = (['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((k) => !e[k]);
    if (missing.length > 0)
      throw new ConfigError(
        `Invalid environment:\n${missing.map((k) => `  ${k}: required when STORAGE_DRIVER=s3`).join('\n')}`,
      );
  }
  const publicUrl = new URL(e.PUBLIC_URL ?? `http://${e.MAIN_DOMAIN}:${e.PORT}`);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(cwd, e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    mainDomain: e.MAIN_DOMAIN,
    publicUrl,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_MINUTES * 60,
    impersonationTtlSeconds: e.IMPERSONATION_TTL_MINUTES * 60,
    passwordResetTtlSeconds: e.PASSWORD_RESET_TTL_MINUTES * 60,
    loginMaxFailuresPerAccount: e.LOGIN_MAX_FAILURES_PER_ACCOUNT,
    loginMaxFailuresPerAddress: e.LOGIN_MAX_FAILURES_PER_ADDRESS,
    loginLockSeconds: e.LOGIN_LOCK_MINUTES * 60,
    // Demo accounts have published passwords: never by default in production.
    demoData: e.DEMO_DATA ?? e.NODE_ENV !== 'production',
    maintenance: e.MAINTENANCE,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    workers: e.WORKERS,
    redisUrl: e.REDIS_URL,
    importStallSeconds: e.IMPORT_STALL_SECONDS,
    secretsKey: e.SECRETS_KEY ? Buffer.from(e.SECRETS_KEY, 'base64') : undefined,
    secretsKeyPrevious: e.SECRETS_KEY_PREVIOUS,
    mailRetryLimit: e.MAIL_RETRY_LIMIT,
    mailRetryDelaySeconds: e.MAIL_RETRY_DELAY_SECONDS,
    widgetRatePerAddress: e.WIDGET_RATE_PER_ADDRESS,
    widgetRatePerInstall: e.WIDGET_RATE_PER_INSTALL,
    widgetCallbacksPerInstallMinute: e.WIDGET_CALLBACKS_PER_INSTALL_MINUTE,
    widgetCallbacksPerPhoneDay: e.WIDGET_CALLBACKS_PER_PHONE_DAY,
    webDist: path.resolve(SERVER_DIR, '../web/dist'),
    widgetDist: path.resolve(SERVER_DIR, '../widget/dist'),
    invitationTtlDays: e.INVITATION_TTL_DAYS,
    publicCheckRatePerAddress: e.PUBLIC_CHECK_RATE_PER_ADDRESS,
    publicCheckRatePerEmail: e.PUBLIC_CHECK_RATE_PER_EMAIL,
    tls: e.TLS ?? publicUrl.protocol === 'https:',
    carrierSandbox: e.CARRIER_SANDBOX,
    stripeSandbox: e.STRIPE_SANDBOX,
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_PUBLISHABLE_KEY
        ? { secretKey: e.STRIPE_SECRET_KEY, publishableKey: e.STRIPE_PUBLISHABLE_KEY }
        : null,
    broadcastThrottle: e.BROADCAST_THROTTLE,
    sandboxClock: e.SANDBOX_CLOCK,
    carrierSandboxUrl: e.CARRIER_SANDBOX_URL?.replace(/\/+$/, ''),
    callReconcileSeconds: e.CALL_RECONCILE_SECONDS,
    dbPoolSize: e.DB_POOL_SIZE,
    dbTimeouts: {
      connectMs: e.DB_CONNECT_TIMEOUT_MS,
      statementMs: e.DB_STATEMENT_TIMEOUT_MS,
      idleInTransactionMs: e.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
    inboundBatches: e.INBOUND_BATCHES,
    s3:
      e.STORAGE_DRIVER === 's3' && e.S3_BUCKET && e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? {
            endpoint: new URL(e.S3_ENDPOINT ?? `https://s3.${e.S3_REGION}.amazonaws.com`),
            region: e.S3_REGION,
            bucket: e.S3_BUCKET,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            // Self-hosted stores (MinIO...) have no per-bucket host names: path style by default there.
            forcePathStyle: e.S3_FORCE_PATH_STYLE ?? e.S3_ENDPOINT !== undefined,
            publicUrl: e.S3_PUBLIC_URL,
          }
        : undefined,
    automationWebhookAllowOrigins: e.AUTOMATION_WEBHOOK_ALLOW_ORIGINS,
    ai: { baseUrl: e.AI_BASE_URL?.replace(/\/+$/, ''), apiKey: e.AI_API_KEY, model: e.AI_MODEL },
    google: {
      baseUrl: e.GOOGLE_BASE_URL?.replace(/\/+$/, ''),
      // The stand-in's client id: a name, not a secret (the stand-in checks none).
      clientId: e.GOOGLE_CLIENT_ID ?? 'local-stand-in',
      clientSecret: e.GOOGLE_CLIENT_SECRET,
    },
    ownMail: {
      sendgridBaseUrl: e.SENDGRID_BASE_URL?.replace(/\/+$/, ''),
      smtpAllow: e.OWN_MAIL_SMTP_ALLOW,
    },
    zapier: {
      clientId: e.ZAPIER_CLIENT_ID,
      clientSecret: e.ZAPIER_CLIENT_SECRET,
      redirectUris: e.ZAPIER_REDIRECT_URIS,
      inviteUrl: e.ZAPIER_INVITE_URL,
      hookAllowOrigins: e.ZAPIER_HOOK_ALLOW_ORIGINS,
    },
  };
}

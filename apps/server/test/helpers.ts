import crypto from 'node:crypto';
import { ROLE_KEYS, type TRoleKey } from '@stn/contracts/capabilities';
import { CUSTOM_TYPE_PAGES } from '@stn/contracts/roles';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import WebSocket from 'ws';
import { type AppOptions, buildApp } from '../src/app.ts';
import { agencies } from '../src/modules/agencies/tables.ts';
import { businesses } from '../src/modules/businesses/tables.ts';
import { createUser } from '../src/modules/users/service.ts';
import { hashPassword } from '../src/platform/auth/passwords.ts';
import { loadConfig } from '../src/platform/config.ts';
import { createDb, type Db } from '../src/platform/db/client.ts';
import type { Deps } from '../src/platform/deps.ts';
import { type Ctx, platformSystemContext } from '../src/platform/tenancy/context.ts';
import { ports } from '../src/ports.ts';
import { TEMPLATE_DB } from './global-setup.ts';

export type TestApp = {
  app: FastifyInstance;
  db: Db;
  pool: pg.Pool;
  config: ReturnType<typeof loadConfig>;
  close: () => Promise<void>;
};

/**
 * A fresh database (a copy of the migrated template) and an app on it, for one test file.
 * `env` overrides settings the way the environment would.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  opts: Pick<AppOptions, 'plug' | 'sandboxClock' | 'logger' | 'sandbox'> = {},
): Promise<TestApp> {
  const adminUrl = inject('pgAdminUrl');
  const name = `stn_t_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${TEMPLATE_DB}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: url.toString(), ...env });
  const { db, pool } = createDb(url.toString(), 4);
  const app = await buildApp({ config, db, ...opts });
  await app.ready();
  return {
    app,
    db,
    pool,
    config,
    close: async () => {
      await app.close();
      await pool.end();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

/** Waits until every enqueued job has run (mail included): the way to wait for a job, never a sleep. */
export async function drainJobs(t: Pick<TestApp, 'app'>, timeoutMs?: number): Promise<void> {
  await t.app.deps.queue.drain(timeoutMs);
}

export const PASSWORD = 'correct-horse-1';

/**
 * PASSWORD's Argon2id hash, made once per test process: the fixtures' users get it as it is (ten of them a
 * file took about 0.2 s of CPU to hash, as many files as the suite has API files). Signing in still checks
 * the password against it the real way.
 */
let passwordHash: Promise<string> | undefined;
const fixturePassword = async () => {
  passwordHash ??= hashPassword(PASSWORD);
  return { hash: await passwordHash };
};

/**
 * A platform context over a test database, for fixtures made through the services (users through the
 * users module). It has no mailer: fixtures send no mail.
 */
export function fixtureCtx(db: Db): Ctx {
  const deps = { db, log: pino({ level: 'silent' }), ports } as unknown as Deps;
  return platformSystemContext(deps, 'seed', 'test fixture');
}

/** Two tenants, A and B, each an agency with a business and users of every role, plus platform admins. */
export async function seedTenants(db: Db) {
  const [main] = await db
    .insert(agencies)
    .values({ name: 'Main', is_main: true, branding: { title: 'Main Site', landingPage: true } })
    .returning();
  if (!main) throw new Error('seed');
  const mk = async (key: 'a' | 'b') => {
    const [agency] = await db
      .insert(agencies)
      .values({
        name: `Agency ${key.toUpperCase()}`,
        subdomain: `agency-${key}`,
        domain: `calls-${key}.example.com`,
        branding: {
          title: `Agency ${key.toUpperCase()} Calls`,
          headerLogo: `https://cdn.example.com/${key}.png`,
        },
      })
      .returning();
    if (!agency) throw new Error('seed');
    const [business] = await db
      .insert(businesses)
      .values({ agency_id: agency.id, name: `Business ${key.toUpperCase()}` })
      .returning();
    if (!business) throw new Error('seed');
    const user = async (email: string, rest: Omit<Parameters<typeof createUser>[1], 'email' | 'password'>) =>
      createUser(fixtureCtx(db), {
        email,
        password: await fixturePassword(),
        emailVerified: true,
        firstName: email.split('@')[0],
        lastName: key.toUpperCase(),
        ...rest,
      });
    return {
      agency,
      business,
      agencyAdmin: {
        id: await user(`agencyadmin@${key}.test`, { role: 'AgencyAdmin', agencyId: agency.id }),
        email: `agencyadmin@${key}.test`,
      },
      agencyUser: {
        id: await user(`agencyuser@${key}.test`, { role: 'AgencyUser', userType: '1', agencyId: agency.id }),
        email: `agencyuser@${key}.test`,
      },
      businessAdmin: {
        id: await user(`bizadmin@${key}.test`, { role: 'BusinessAdmin', businessId: business.id }),
        email: `bizadmin@${key}.test`,
      },
      businessUser: {
        id: await user(`bizuser@${key}.test`, {
          role: 'BusinessUser',
          userType: '3',
          businessId: business.id,
        }),
        email: `bizuser@${key}.test`,
      },
    };
  };
  const superAdmin = {
    id: await createUser(fixtureCtx(db), {
      email: 'super@main.test',
      password: await fixturePassword(),
      role: 'SuperAdmin',
      firstName: 'Super',
    }),
    email: 'super@main.test',
  };
  const admin = {
    id: await createUser(fixtureCtx(db), {
      email: 'admin@main.test',
      password: await fixturePassword(),
      role: 'Admin',
      firstName: 'Plain',
    }),
    email: 'admin@main.test',
  };
  return { main, superAdmin, admin, a: await mk('a'), b: await mk('b') };
}

export async function login(app: FastifyInstance, email: string, password = PASSWORD): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/login', payload: { email, password } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().access_token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * Waits until the jobs that are due have run (a mail job turns its outbox row from queued to stored), so
 * that a snapshot is not taken halfway through work an earlier request started.
 */
async function settleJobs(pool: pg.Pool, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await pool.query(
      `select count(*)::int as n from pgboss.job
        where state in ('created', 'retry', 'active') and start_after <= now()`,
    );
    if (rows[0].n === 0 || Date.now() > until) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export type Seed = Awaited<ReturnType<typeof seedTenants>>;

/**
 * A signed-in session for each of the 13 roles of the capability table, all in tenant A (the custom type
 * holds every page). AgencyUser and BusinessUser without a user type exist in older data only, so they are
 * made by clearing the type of a created user.
 */
export async function sessionsForAllRoles(t: TestApp, seed: Seed): Promise<Record<TRoleKey, string>> {
  const { agency, business } = seed.a;
  const make = async (
    key: TRoleKey,
    input: Omit<Parameters<typeof createUser>[1], 'email' | 'password'>,
    clearType = false,
  ) => {
    const email = `role-${key.toLowerCase()}@a.test`;
    const id = await createUser(fixtureCtx(t.db), {
      email,
      password: await fixturePassword(),
      emailVerified: true,
      ...input,
    });
    if (clearType) await t.pool.query('update users set user_type = null where id = $1', [id]);
    return email;
  };
  const emails: Record<TRoleKey, string> = {
    SuperAdmin: seed.superAdmin.email,
    Admin: seed.admin.email,
    AgencyAdmin: seed.a.agencyAdmin.email,
    AccountManager: seed.a.agencyUser.email,
    FinanaceManager: await make('FinanaceManager', {
      role: 'AgencyUser',
      userType: '2',
      agencyId: agency.id,
    }),
    MarketingManager: await make('MarketingManager', {
      role: 'AgencyUser',
      userType: '3',
      agencyId: agency.id,
    }),
    AgencyUser: await make('AgencyUser', { role: 'AgencyUser', userType: '1', agencyId: agency.id }, true),
    BusinessAdmin: seed.a.businessAdmin.email,
    BusinessUser: await make(
      'BusinessUser',
      { role: 'BusinessUser', userType: '3', businessId: business.id },
      true,
    ),
    AdminSupport: await make('AdminSupport', {
      role: 'BusinessUser',
      userType: '1',
      businessId: business.id,
    }),
    MarketingUser: await make('MarketingUser', {
      role: 'BusinessUser',
      userType: '2',
      businessId: business.id,
    }),
    SalesUser: seed.a.businessUser.email,
    Custom: await make('Custom', {
      role: 'BusinessUser',
      userType: '4',
      businessId: business.id,
      settings: { custom_type_pages: [...CUSTOM_TYPE_PAGES] },
    }),
  };
  const tokens = {} as Record<TRoleKey, string>;
  for (const key of ROLE_KEYS) tokens[key] = await login(t.app, emails[key]);
  return tokens;
}

/** Every row of the named tables, in a stable order: a snapshot to prove nothing changed. */
export async function snapshot(pool: pg.Pool, tables: string[]): Promise<Record<string, unknown[]>> {
  await settleJobs(pool);
  const out: Record<string, unknown[]> = {};
  for (const t of tables)
    out[t] = (await pool.query(`select * from ${pg.escapeIdentifier(t)} order by 1`)).rows;
  return out;
}

/**
 * The tenant-isolation check every route test uses: a user of tenant A asking for tenant B's row by id
 * gets 404, and the listed tables are exactly as before.
 */
export async function expectCrossTenant404(
  t: Pick<TestApp, 'app' | 'pool'>,
  req: {
    /**
     * The same call on the caller's own tenant's row (required): it must not be a 404, which proves the
     * route exists and that the 404 comes from the tenant, not from the call's shape.
     */
    control: { url: string; method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; payload?: unknown };
    token: string;
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    url: string;
    payload?: unknown;
    tables: string[];
  },
): Promise<void> {
  // The route must exist, or every misspelled URL would pass: without a token, a guarded route answers
  // 401 (the access check runs before anything else), an unknown path 404.
  const anonymous = await t.app.inject({ method: req.method, url: req.url });
  expect(anonymous.statusCode, `${req.method} ${req.url} is not a route (404 without a token too)`).not.toBe(
    404,
  );
  {
    const ok = await t.app.inject({
      method: req.control.method ?? req.method,
      url: req.control.url,
      headers: bearer(req.token),
      ...(req.control.payload !== undefined ? { payload: req.control.payload as object } : {}),
    });
    expect(ok.statusCode, `control ${req.control.url} answered ${ok.statusCode}: ${ok.body}`).not.toBe(404);
  }
  const before = await snapshot(t.pool, req.tables);
  const res = await t.app.inject({
    method: req.method,
    url: req.url,
    headers: bearer(req.token),
    ...(req.payload !== undefined ? { payload: req.payload as object } : {}),
  });
  expect(res.statusCode, `${req.method} ${req.url} answered ${res.statusCode}: ${res.body}`).toBe(404);
  expect(res.json()).toMatchObject({ success: false });
  expect(await snapshot(t.pool, req.tables)).toEqual(before);
}

export type Suite = {
  t: TestApp;
  seed: Seed;
  /** A session per user, signed in on first use. */
  token: (email: string) => Promise<string>;
  /** Calls by HTTP method; the URL is the full path. */
  api: ReturnType<typeof call>;
  /** Calls the API as a token; the URL is the part after `/api`. */
  call: ReturnType<typeof caller>;
  /** Every seeded user signed in (`seededSessions`); only with `sessions: true`. */
  s: Awaited<ReturnType<typeof seededSessions>>;
};

/**
 * Registers a test file's set-up and tear-down (a fresh app on `env`, the two seeded tenants) and returns
 * the suite, whose fields are filled before the file's own `beforeAll` hooks and tests run.
 */
export function useSuite(
  opts: { env?: Record<string, string>; sessions?: boolean } & Pick<AppOptions, 'plug'> = {},
): Suite {
  const c = {} as Suite;
  beforeAll(async () => {
    c.t = await createTestApp(opts.env, opts.plug ? { plug: opts.plug } : {});
    c.seed = await seedTenants(c.t.db);
    const cache = new Map<string, string>();
    c.token = async (email: string) => {
      let tok = cache.get(email);
      if (!tok) {
        tok = await login(c.t.app, email);
        cache.set(email, tok);
      }
      return tok;
    };
    c.api = call(c.t);
    c.call = caller(c.t);
    if (opts.sessions) c.s = await seededSessions(c.t, c.seed);
  });
  afterAll(() => c.t?.close());
  return c;
}

/** Calls by HTTP method, as `token` (or nobody); the URL is the full path. */
export function call(t: TestApp) {
  const send = (method: InjectOptions['method'], token: string | null, url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: token ? bearer(token) : {},
      ...(payload !== undefined ? { payload } : {}),
    });
  return {
    get: (token: string | null, url: string) => send('GET', token, url),
    post: (token: string | null, url: string, payload: object = {}) => send('POST', token, url, payload),
    put: (token: string | null, url: string, payload: object = {}) => send('PUT', token, url, payload),
    del: (token: string | null, url: string) => send('DELETE', token, url),
  };
}

export const rows = async (t: TestApp, sql: string, params: unknown[] = []) =>
  (await t.pool.query(sql, params)).rows;

/** A business user of another type, with its e-mail, for access tests. */
export async function addBusinessUser(
  t: TestApp,
  businessId: number,
  email: string,
  userType: '1' | '2' | '3' | '4',
  pages: string[] = [],
) {
  const id = await createUser(fixtureCtx(t.db), {
    email,
    password: 'correct-horse-1',
    role: 'BusinessUser',
    userType,
    businessId,
    firstName: email.split('@')[0],
    settings: userType === '4' ? { custom_type_pages: pages as never } : {},
  });
  return { id, email };
}

/** Asserts a 422 whose first error on `field` is `message`. */
export function expect422(
  res: { statusCode: number; body: string; json: () => unknown },
  field: string,
  message: string,
) {
  expect(res.statusCode, res.body).toBe(422);
  const body = res.json() as { success: boolean; message: string; errors: Record<string, string[]> };
  expect(body.success).toBe(false);
  expect(body.errors?.[field]?.[0], res.body).toBe(message);
}

/** A session already used once, so that its first-use stamp does not show up in a snapshot. */
export async function touched(c: Suite, email: string): Promise<string> {
  const token = await c.token(email);
  const res = await c.t.app.inject({ url: '/api/v1/profile', headers: bearer(token) });
  expect(res.statusCode).toBe(200);
  return token;
}

export type Session = { id: number; email: string; token: string };

/** Signs in every seeded user, and adds agency A's FinanaceManager (2) and MarketingManager (3). */
export async function seededSessions(t: TestApp, seed: Seed) {
  const sign = async (u: { id: number; email: string }): Promise<Session> => ({
    ...u,
    token: await login(t.app, u.email),
  });
  const extra = async (email: string, userType: '2' | '3') => ({
    id: await createUser(fixtureCtx(t.db), {
      email,
      password: 'correct-horse-1',
      role: 'AgencyUser',
      userType,
      agencyId: seed.a.agency.id,
      firstName: email.split('@')[0],
    }),
    email,
  });
  return {
    superAdmin: await sign(seed.superAdmin),
    admin: await sign(seed.admin),
    a: {
      agencyAdmin: await sign(seed.a.agencyAdmin),
      accountManager: await sign(seed.a.agencyUser),
      financeManager: await sign(await extra('finance@a.test', '2')),
      marketingManager: await sign(await extra('marketing@a.test', '3')),
      businessAdmin: await sign(seed.a.businessAdmin),
      businessUser: await sign(seed.a.businessUser),
    },
    b: {
      agencyAdmin: await sign(seed.b.agencyAdmin),
      accountManager: await sign(seed.b.agencyUser),
      businessAdmin: await sign(seed.b.businessAdmin),
    },
  };
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Calls the API as `token`. */
export function caller(t: TestApp) {
  return (token: string, method: Method, url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api${url}`,
      headers: bearer(token),
      ...(payload !== undefined ? { payload } : {}),
    });
}

/** Expects a 403 and that none of `tables` changed. */
export async function expect403(
  t: TestApp,
  tables: string[],
  token: string,
  method: Method,
  url: string,
  payload?: object,
) {
  // auth_tokens.last_used_at moves on a session's first use, whatever the answer.
  const watched = tables.filter((name) => name !== 'auth_tokens');
  const before = await snapshot(t.pool, watched);
  const res = await caller(t)(token, method, url, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
  expect(res.json()).toMatchObject({ success: false, message: 'This action is unauthorized.' });
  expect(await snapshot(t.pool, watched)).toEqual(before);
}

export type RefusedCall = [
  token: string,
  method: Method,
  url: string,
  payload: object | undefined,
  status: number,
  message?: string,
];

/** A refused call: its status, its message (when given), and none of `tables` changed; answers the body. */
export async function expectRefused(
  t: TestApp,
  tables: string[],
  ...[token, method, url, payload, status, message]: RefusedCall
) {
  const before = await snapshot(t.pool, tables);
  const res = await caller(t)(token, method, url, payload);
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json().success).toBe(false);
  if (message) expect(res.json().message).toBe(message);
  expect(await snapshot(t.pool, tables)).toEqual(before);
  return res.json();
}

export const row = async (t: TestApp, table: string, id: number) =>
  (await t.pool.query(`select * from ${table} where id = $1`, [id])).rows[0];

/**
 * Follows the newest link that confirms an e-mail change to `email` (ADR 050: a new address becomes the
 * user's only then), as its owner would from the mail; answers the verify-email response.
 */
export async function confirmEmailChange(t: Pick<TestApp, 'app' | 'pool'>, email: string) {
  await drainJobs(t);
  const { rows } = await t.pool.query(
    `select text from mail_outbox where lower("to") = lower($1) and text like '%/email-verify?token=%'
      order by id desc limit 1`,
    [email],
  );
  const m = String(rows[0]?.text ?? '').match(/\/email-verify\?token=([A-Za-z0-9_-]+)/);
  if (!m?.[1]) throw new Error(`no e-mail change link to ${email}`);
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/verify-email', payload: { token: m[1] } });
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

/** A realtime socket on a listening app with a bearer token, open once `ready` came; every event is kept. */
export async function openSocket(app: FastifyInstance, token: string) {
  const { port } = app.server.address() as import('node:net').AddressInfo;
  return openSocketAt(`ws://127.0.0.1:${port}/ws`, token);
}

/** The same at a socket URL (a load balancer's), with headers of the upgrade request. */
export async function openSocketAt(url: string, token: string, headers?: Record<string, string>) {
  const ws = new WebSocket(url, ['bearer', token], headers ? { headers } : {});
  const got: { type: string; data?: Record<string, unknown> }[] = [];
  await new Promise<void>((resolve, reject) => {
    ws.on('message', (raw) => {
      const msg = JSON.parse(raw.toString());
      got.push(msg);
      if (msg.type === 'ready') resolve();
    });
    ws.on('error', reject);
  });
  return { ws, got };
}

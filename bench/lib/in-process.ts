// The platform as `npm start` runs it, inside the bench's own process: a fresh data folder, embedded
// PostgreSQL, the demo data, the sandbox carrier, the jobs worked in process, logs off. For the benches
// that call the services and read the sandbox's record directly (broadcast, callback, inbound, automations).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import pino from 'pino';
import { buildApp } from '../../apps/server/src/app.ts';
import { DEMO_INSTALL_NUMBER } from '../../apps/server/src/modules/telephony/service.ts';
import { loadConfig } from '../../apps/server/src/platform/config.ts';
import { openDatabase } from '../../apps/server/src/platform/db/open.ts';
import { seedFirstStart } from '../../apps/server/src/seed.ts';

/** Builds the app (not yet ready nor listening); `env` adds settings. `close()` ends it and removes its data. */
export async function inProcessPlatform(prefix: string, env: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    DEMO_DATA: 'true',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'fatal',
    PUBLIC_URL: 'http://localhost:3000',
    CARRIER_SANDBOX: 'true',
    ...env,
  });
  // BENCH_LOG_LEVEL (e.g. info, as in production): the logs are written to /dev/null, their cost counted.
  const level = process.env.BENCH_LOG_LEVEL ?? 'fatal';
  const log = level === 'fatal' ? pino({ level }) : pino({ level }, pino.destination('/dev/null'));
  const database = await openDatabase(config, () => undefined);
  await seedFirstStart({ db: database.db, config, log });
  const app = await buildApp({ config, db: database.db, logger: log });
  return {
    dataDir,
    config,
    database,
    app,
    pool: database.pool,
    close: async () => {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A bearer token of the demo business's admin (admin@brightdental.test), signed in through the API. */
export async function demoAdminToken(app: FastifyInstance): Promise<string> {
  const signIn = await app.inject({
    method: 'POST',
    url: '/api/v1/login',
    payload: { email: 'admin@brightdental.test', password: 'demo-dental-1' },
  });
  const token = signIn.json().access_token as string | undefined;
  if (!token) throw new Error(`sign-in failed: ${signIn.body}`);
  return token;
}

/** The demo business's (Bright Dental's) agency, business and install of its demo number. */
export async function demoBusiness(
  pool: pg.Pool,
): Promise<{ agency_id: number; business_id: number; install_id: number }> {
  const { rows } = await pool.query(
    `select n.agency_id, n.business_id, n.install_id from numbers n join businesses b on b.id = n.business_id
      where b.name = 'Bright Dental' and n.phone_number = $1 and n.released_at is null`,
    [DEMO_INSTALL_NUMBER],
  );
  const demo = rows[0] as { agency_id: number; business_id: number; install_id: number } | undefined;
  if (!demo) throw new Error('no demo number');
  return demo;
}

/** The load average before and now, and the cores (the machine may be shared while a bench runs). */
export function loadAverageLine(before: number[]): string {
  const f = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  return `  load average        ${f(before)} -> ${f(os.loadavg())} (${os.cpus().length} cores)`;
}

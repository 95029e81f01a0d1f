import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import PgBoss from 'pg-boss';
import pino from 'pino';
import type { TestProject } from 'vitest/node';
import { buildTestBundle } from '../apps/server/build.mjs';
import { installJobQueues } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/platform/config.ts';
import { createDb } from '../apps/server/src/platform/db/client.ts';
import { startEmbeddedPostgres } from '../apps/server/src/platform/db/embedded.ts';
import { runMigrations } from '../apps/server/src/platform/db/migrate.ts';
import { JOB_SCHEMA } from '../apps/server/src/platform/queue/queue.ts';
import { seedFirstStart } from '../apps/server/src/seed.ts';

/** The database each platform of the browser run copies: migrated, the job queue and its queues installed, demo data in. */
export const E2E_TEMPLATE_DB = 'stn_e2e_template';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The browser run's PostgreSQL (its `postgres` database), holding E2E_TEMPLATE_DB. */
    e2ePgAdminUrl: string;
    /** The server bundle this run's platforms start (`node <it>`), built from the sources at its start. */
    e2eServerBundle: string;
  }
}

/**
 * One embedded PostgreSQL for the whole browser run (ADR 058). A first start of the platform spends most
 * of its time on initdb, the migrations and the demo data; they are done once here, into a template that
 * `startPlatform()` copies (`create database ... template ...`) for each spec file. The server started on
 * a copy finds the migrations applied and the demo data there, and skips both, as on any later start.
 * The template holds exactly what the first start seeds: the start-up steps that depend on the process
 * (sealing the demo carrier token with its DATA_DIR's key, the push keys) still run in each server.
 */
export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stn-e2e-pg-'));
  // A throwaway database: its commits need not wait on the disk (ADR 111).
  const embedded = await startEmbeddedPostgres({
    dataDir: dir,
    databases: [],
    persistent: false,
    durable: false,
  });
  const adminUrl = embedded.url('postgres');
  // The server as `npm start` runs it, bundled (ADR 112) from the sources as they are now, into a folder of
  // this run's own.
  let bundleDir: string | undefined;
  try {
    bundleDir = await buildTestBundle('e2e');
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${E2E_TEMPLATE_DB}`);
    await admin.end();
    const url = embedded.url(E2E_TEMPLATE_DB);
    const { db, pool } = createDb(url, 1);
    await runMigrations(db);
    await pool.query(PgBoss.getConstructionPlans(JOB_SCHEMA));
    // The settings that shape the demo data are the defaults of `startPlatform()`'s servers.
    const config = loadConfig({ DATABASE_URL: url, DATA_DIR: dir, LOG_LEVEL: 'silent' });
    await seedFirstStart({ db, config, log: pino({ level: 'silent' }) });
    // Every job's queue too (ADR 113): a server started on a copy creates none.
    await installJobQueues({ config, db });
    await pool.end();
  } catch (err) {
    await embedded.stop();
    if (bundleDir) fs.rmSync(bundleDir, { recursive: true, force: true });
    throw err;
  }
  project.provide('e2ePgAdminUrl', adminUrl);
  project.provide('e2eServerBundle', path.join(bundleDir, 'main.mjs'));
  return async () => {
    await embedded.stop();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(bundleDir, { recursive: true, force: true });
  };
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import PgBoss from 'pg-boss';
import type { TestProject } from 'vitest/node';
import { buildTestBundle } from '../build.mjs';
import { installJobQueues } from '../src/app.ts';
import { loadConfig } from '../src/platform/config.ts';
import { createDb } from '../src/platform/db/client.ts';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.ts';
import { runMigrations } from '../src/platform/db/migrate.ts';
import { JOB_SCHEMA } from '../src/platform/queue/queue.ts';

export const TEMPLATE_DB = 'stn_test_template';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    /** The folder of this run's server bundle (main.mjs, worker.mjs, cli.mjs): what child processes run. */
    serverBundle: string;
  }
}

/**
 * One PostgreSQL for the whole run: TEST_DATABASE_URL (or DATABASE_URL) when set, else an embedded one
 * in a temporary folder. A template database holds the migrated schema; each test file copies it.
 */
export default async function setup(project: TestProject) {
  // The suite has two projects (vitest.config.ts), each running this setup in the same process: they
  // share one PostgreSQL and one template, stopped when the last of them tears down.
  const shared = globalThis as {
    __stnTestPg?: {
      adminUrl: Promise<string>;
      bundle: Promise<string>;
      users: number;
      stop: () => Promise<void>;
    };
  };
  if (!shared.__stnTestPg) {
    let stop = async () => {};
    const adminUrl = startTemplate((s) => {
      stop = s;
    });
    // The server bundled from the sources as they are (ADR 113): the entry points the tests run as child
    // processes (a server, workers, the CLI) start from it as `npm start` does, at half the CPU of tsx.
    const bundle = buildTestBundle('api');
    shared.__stnTestPg = {
      adminUrl,
      bundle,
      users: 0,
      stop: async () => {
        await stop();
        fs.rmSync(await bundle.catch(() => ''), { recursive: true, force: true });
      },
    };
  }
  const pgShared = shared.__stnTestPg;
  pgShared.users++;
  project.provide('pgAdminUrl', await pgShared.adminUrl);
  project.provide('serverBundle', await pgShared.bundle);
  return async () => {
    if (--pgShared.users > 0) return;
    shared.__stnTestPg = undefined;
    await pgShared.stop();
  };
}

async function startTemplate(onStop: (stop: () => Promise<void>) => void): Promise<string> {
  const external = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  let adminUrl: string;
  let stop = async () => {};
  let dir: string | undefined;
  if (external) {
    const u = new URL(external);
    u.pathname = '/postgres';
    adminUrl = u.toString();
  } else {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stn-test-pg-'));
    const embedded = await startEmbeddedPostgres({
      dataDir: dir,
      databases: [],
      persistent: false,
      // A throwaway database: its commits need not wait on the disk (ADR 111).
      durable: false,
    });
    adminUrl = embedded.url('postgres');
    stop = embedded.stop;
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${TEMPLATE_DB}`);
  await admin.query(`create database ${TEMPLATE_DB}`);
  const templateUrl = new URL(adminUrl);
  templateUrl.pathname = `/${TEMPLATE_DB}`;
  const { db, pool } = createDb(templateUrl.toString(), 1);
  await runMigrations(db);
  // The job queue's schema too, so that each file's copy starts its queue without installing it.
  await pool.query(PgBoss.getConstructionPlans(JOB_SCHEMA));
  // And every job's queue (ADR 113): an app started on a copy creates none.
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: templateUrl.toString() });
  await installJobQueues({ config, db });
  await pool.end();
  await admin.end();
  onStop(async () => {
    await stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  return adminUrl;
}

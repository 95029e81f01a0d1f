import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import PgBoss from 'pg-boss';
import type { TestProject } from 'vitest/node';
import { createDb } from '../src/platform/db/client.ts';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.ts';
import { runMigrations } from '../src/platform/db/migrate.ts';
import { JOB_SCHEMA } from '../src/platform/queue/queue.ts';

export const TEMPLATE_DB = 'stn_test_template';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
  }
}

/**
 * One PostgreSQL for the whole run: TEST_DATABASE_URL (or DATABASE_URL) when set, else an embedded one
 * in a temporary folder. A template database holds the migrated schema; each test file copies it.
 */
export default async function setup(project: TestProject) {
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
    const embedded = await startEmbeddedPostgres({ dataDir: dir, databases: [], persistent: false });
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
  await pool.end();
  await admin.end();
  project.provide('pgAdminUrl', adminUrl);

  return async () => {
    await stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  };
}

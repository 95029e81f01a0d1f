import type pg from 'pg';
import type { Config } from '../config.ts';
import { createDb, type Db } from './client.ts';
import { startEmbeddedPostgres } from './embedded.ts';
import { runMigrations } from './migrate.ts';

export type OpenDb = { db: Db; pool: pg.Pool; url: string; close: () => Promise<void> };

/**
 * DATABASE_URL when set; otherwise the embedded PostgreSQL under DATA_DIR (started here, or the one a
 * running server already started). Migrations are applied either way.
 */
export async function openDatabase(
  config: Config,
  log: (msg: string) => void,
  poolSize = config.dbPoolSize,
): Promise<OpenDb> {
  let url = config.databaseUrl;
  let stopEmbedded: () => Promise<void> = async () => {};
  if (!url) {
    const embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, databases: ['app'], log });
    url = embedded.url('app');
    stopEmbedded = embedded.stop;
  }
  // Migrations may run long (an index on a big table): they get a pool of their own, without timeouts.
  const migrating = createDb(url, 1);
  try {
    await runMigrations(migrating.db);
  } catch (err) {
    await migrating.pool.end().catch(() => undefined);
    await stopEmbedded();
    throw err;
  }
  await migrating.pool.end().catch(() => undefined);
  const { db, pool } = createDb(url, poolSize, config.dbTimeouts);
  return {
    db,
    pool,
    url,
    close: async () => {
      await pool.end().catch(() => undefined);
      await stopEmbedded();
    },
  };
}

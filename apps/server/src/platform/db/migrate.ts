import path from 'node:path';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { SERVER_DIR } from '../paths.ts';
import type { Db } from './client.ts';

const MIGRATIONS = path.join(SERVER_DIR, 'drizzle');
// Any constant: two processes starting at once must not apply the same migration twice.
const LOCK_KEY = 724_118_001;

export async function runMigrations(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(`select pg_advisory_xact_lock(${LOCK_KEY})`);
    await migrate(tx as unknown as Db, { migrationsFolder: MIGRATIONS });
  });
}

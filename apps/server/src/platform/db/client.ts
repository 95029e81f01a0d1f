import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';

// No relational schema is handed to drizzle: each module keeps its tables in its own tables.ts and
// queries them with the query builder (nothing uses db.query.*), so the platform knows no module's table.
export type Db = NodePgDatabase;
/** A transaction or the database: data access functions take either. */
export type Tx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

export function createDb(connectionString: string, max = 10): { db: Db; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => undefined);
  return { db: drizzle(pool), pool };
}

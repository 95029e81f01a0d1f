import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';

// No relational schema is handed to drizzle: each module keeps its tables in its own tables.ts and
// queries them with the query builder (nothing uses db.query.*), so the platform knows no module's table.
export type Db = NodePgDatabase;
/** A transaction or the database: data access functions take either. */
export type Tx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * The pool behind a database handle (Drizzle's node-postgres session keeps it as `client`): for work that
 * needs a connection of its own, such as a session advisory lock held while a worker works.
 */
export function poolOf(db: Tx): pg.Pool {
  const client = (db as unknown as { session?: { client?: pg.Pool } }).session?.client;
  if (!client || typeof client.connect !== 'function') throw new Error('db: the handle has no pool');
  return client;
}

/**
 * A connection lost (the server restarted, the database dropped, an administrator's terminate) must not
 * crash the process: an idle client's error goes to the pool, which drops it; a client taken out (held for a
 * transaction or a lock) gets its own listener, and its next statement fails instead.
 */
export function quietClients(pool: pg.Pool): void {
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
}

/**
 * How long to wait on PostgreSQL (ADR 050): for a connection, for a statement (enforced by the server,
 * and by the client a little later, for a server that no longer answers at all), and for a transaction
 * left idle. A frozen database then fails requests instead of hanging them.
 */
export type DbTimeouts = { connectMs: number; statementMs: number; idleInTransactionMs: number };

/** The client's own read timeout: past the server's statement timeout, so the server's cancel comes first. */
const CLIENT_GRACE_MS = 2_000;

export function createDb(
  connectionString: string,
  max = 10,
  timeouts?: DbTimeouts,
): { db: Db; pool: pg.Pool } {
  const pool = new pg.Pool({
    connectionString,
    max,
    idleTimeoutMillis: 30_000,
    ...(timeouts
      ? {
          connectionTimeoutMillis: timeouts.connectMs,
          statement_timeout: timeouts.statementMs,
          query_timeout: timeouts.statementMs + CLIENT_GRACE_MS,
          idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
        }
      : {}),
  });
  quietClients(pool);
  return { db: drizzle(pool), pool };
}

/**
 * Whether an error says the database is out of reach or too slow (no connection in time, no answer in time,
 * a statement cancelled by its timeout, a connection lost), rather than a fault of the request: answered
 * 503, and /healthz says so (ADR 050).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, i = 0;
    e && i < 4;
    i++
  ) {
    const code = typeof e.code === 'string' ? e.code : '';
    const message = typeof e.message === 'string' ? e.message : '';
    if (code === '57014' || code === '57P01' || code === '57P03' || code.startsWith('08')) return true;
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE'].includes(code)) return true;
    if (/^(Query read timeout|timeout exceeded when trying to connect|Connection terminated)/.test(message))
      return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** Whether the database answers `select 1` within `ms` (for /healthz: never waits longer, whatever hangs). */
export async function databaseAnswers(db: Db, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const answer = db.execute('select 1').then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

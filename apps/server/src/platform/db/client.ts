import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { leanNodePostgres } from './pg-lean.ts';

// Two of pg's per-statement costs our statements do not need (ADR 122), before any query.
leanNodePostgres();

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

/** How many texts a pool names: each is kept, parsed, on every connection of the pool that sent it. */
const MAX_NAMED_STATEMENTS = 500;
/** Texts sent once, remembered until their second run names them; forgotten all at once past this many. */
const MAX_SEEN_ONCE = 5_000;
/** A statement with more parameters is a batch whose text changes with its size: not worth keeping. */
const MAX_NAMED_PARAMETERS = 64;

type QueryFn = (config: unknown, values?: unknown, callback?: unknown) => unknown;

/**
 * Statements with parameters that a pool sends again are sent as named prepared statements (ADR 102):
 * PostgreSQL parses and analyses each once per connection instead of at every run (an unnamed statement
 * is parsed, analysed and planned each time). Drizzle and the modules write nothing for it; the name comes
 * from the text, from its second run on, so a statement sent once (a rare screen's) takes no place. A
 * text sent with another number of parameters is another statement; batches of many parameters stay
 * unnamed, and past MAX_NAMED_STATEMENTS texts new ones do too, so a connection keeps a bounded set.
 */
export function namedStatements(pool: pg.Pool): void {
  const names = new Map<string, string>();
  const seenOnce = new Set<string>();
  const nameOf = (text: string): string | undefined => {
    const known = names.get(text);
    if (known || names.size >= MAX_NAMED_STATEMENTS) return known;
    if (!seenOnce.delete(text)) {
      if (seenOnce.size >= MAX_SEEN_ONCE) seenOnce.clear();
      seenOnce.add(text);
      return undefined;
    }
    const name = `stn_${names.size + 1}`;
    names.set(text, name);
    return name;
  };
  pool.on('connect', (client) => {
    const query = client.query as unknown as QueryFn;
    (client as unknown as { query: QueryFn }).query = function (
      this: pg.PoolClient,
      config,
      values,
      callback,
    ) {
      // `query(text, values)` (pg-boss's and the raw queries' form) as well as `query({ text, values })`.
      const c = (typeof config === 'string' ? { text: config } : config) as {
        text?: unknown;
        name?: unknown;
        values?: unknown;
        submit?: unknown;
      } | null;
      if (
        c &&
        typeof c === 'object' &&
        typeof c.text === 'string' &&
        !c.name &&
        typeof c.submit !== 'function'
      ) {
        const params = Array.isArray(values) ? values : Array.isArray(c.values) ? c.values : [];
        const name = params.length > 0 && params.length <= MAX_NAMED_PARAMETERS ? nameOf(c.text) : undefined;
        if (name) return query.call(this, { ...c, values: params, name }, callback);
      }
      return query.call(this, config, values, callback);
    };
  });
}

/**
 * One statement at a time on a connection: a statement sent while the connection still works on another
 * (reads started together inside one transaction, `Promise.all` on a tenant's connection) waits for it here,
 * in order, instead of in pg's own queue. pg 8 warns of that queue and pg 9 refuses it. Streams (COPY, a
 * cursor) are handed to pg as they come: they are never sent beside another statement.
 */
export function oneStatementAtATime(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const query = client.query as unknown as QueryFn;
    /** Statements sent and not yet answered; `last` settles when the newest of them is answered. */
    let pending = 0;
    let last: Promise<unknown> = Promise.resolve();
    const answered = () => {
      pending--;
    };
    (client as unknown as { query: QueryFn }).query = function (
      this: pg.PoolClient,
      config,
      values,
      callback,
    ) {
      if (
        config &&
        typeof config === 'object' &&
        typeof (config as { submit?: unknown }).submit === 'function'
      )
        return query.call(this, config, values, callback);
      // `query(text, callback)` as well as `query(text, values, callback)`.
      const done = (typeof values === 'function' ? values : callback) as
        | ((err: unknown, result?: unknown) => void)
        | undefined;
      const vals = typeof values === 'function' ? undefined : values;
      const send = (): Promise<unknown> =>
        done
          ? new Promise((resolve) => {
              // A statement pg refuses at once (no text) is answered through the callback too: sent after
              // another, nobody would catch it.
              try {
                query.call(this, config, vals, (err: unknown, result: unknown) => {
                  resolve(undefined);
                  done(err, result);
                });
              } catch (err) {
                resolve(undefined);
                done(err);
              }
            })
          : (query.call(this, config, vals) as Promise<unknown>);
      const result = pending === 0 ? send() : last.then(send);
      pending++;
      last = result.then(answered, answered);
      return done ? undefined : result;
    };
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
  namedStatements(pool);
  oneStatementAtATime(pool);
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

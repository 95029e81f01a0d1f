// Queries of the hot paths built once (ADR 107). Drizzle builds a statement's text anew at every run: it
// walks the query's parts and checks each against its classes, which costs more of the process's CPU than
// sending the statement and reading its answer (about 0.1 ms a statement, measured in bench/callback). A
// query made with `prepared` is built the first time it runs, with `sql.placeholder(name)` where its values
// go; every later run fills the placeholders and sends the same text as a named prepared statement, on the
// handle it is given: the tenant's handle, a transaction, or the platform's.
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from './client.ts';

/** What Drizzle's query builders give: a query that can be prepared under a name. */
export type Preparable<R> = { prepare(name: string): Executable<R> };
type Executable<R> = { execute(values?: Record<string, unknown>): Promise<R> };

/** Names of our prepared queries: apart from the texts `namedStatements` names (`stn_N`). */
let count = 0;

/**
 * The value of placeholder `name` in a query made with `prepared`: anywhere a value goes (a condition, an
 * insert's or an update's value). Sent as it is given: a jsonb value must be given as its JSON text.
 */
export const slot = (name: string) => sql`${sql.placeholder(name)}`;

/**
 * A query built once (by `build`, on the first handle it runs on) and then run on any handle with the
 * placeholders' values. `build` must make the same query whatever handle it is given: no value but
 * placeholders, no condition that depends on the call.
 */
export function prepared<R>(
  build: (db: Tx) => Preparable<R>,
): (db: Tx, values?: Record<string, unknown>) => Promise<R> {
  const name = `stn_p${++count}`;
  let built: Executable<R> | undefined;
  return (db, values) => {
    const client = (db as unknown as { session?: { client?: unknown } }).session?.client;
    if (!client) throw new Error('db: the handle has no client');
    built ??= build(db).prepare(name);
    // The built query, bound to this handle's connection (a pool, a tenant's pool, a transaction's client):
    // Drizzle's node-postgres query keeps its client as `client` and everything else as it was built.
    const bound = Object.create(built) as Executable<R> & { client: unknown };
    bound.client = client;
    return bound.execute(values);
  };
}

type RawSession = {
  session: { prepareQuery(query: unknown, fields: undefined, name: string, arrayMode: false): unknown };
  dialect: { sqlToQuery(query: SQL): unknown };
};

/**
 * A statement written in SQL (its values as `slot` placeholders), built once as `prepared` builds a query:
 * for what the query builder cannot write, such as several writes in one statement (ADR 123); `build` may
 * put the builder's queries in it (a data-modifying WITH). Answers its rows as PostgreSQL gave them (times
 * as text, JSON parsed; `tableRow` reads a table's row from them).
 */
export function preparedSql<R extends Record<string, unknown>>(
  build: (db: Tx) => SQL,
): (db: Tx, values?: Record<string, unknown>) => Promise<R[]> {
  const run = prepared<{ rows: R[] }>((db) => ({
    prepare: (name) => {
      const raw = db as unknown as RawSession;
      return raw.session.prepareQuery(
        raw.dialect.sqlToQuery(build(db)),
        undefined,
        name,
        false,
      ) as Executable<{
        rows: R[];
      }>;
    },
  }));
  return async (db, values) => (await run(db, values)).rows;
}

import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from './client.ts';

/**
 * The values of scalar subqueries, read in one statement (issue 27, ADR 119): `selectValues(db, { a, b })`
 * runs `select (a) as "a", (b) as "b"` and answers the row. Modules hand each other such subqueries over
 * their own tables (`blockedSql`, `callUsageSql`...), so checks of several modules cost one round trip.
 */
export async function selectValues<K extends string>(
  db: Tx,
  values: Record<K, SQL>,
): Promise<Partial<Record<K, unknown>>> {
  const { rows } = await db.execute<Record<K, unknown>>(selectValuesSql(values));
  return rows[0] ?? {};
}

/** The statement selectValues runs, for a caller that builds it once (`preparedSql`, its values slots). */
export function selectValuesSql(values: Record<string, SQL>): SQL {
  const columns = Object.entries(values).map(([name, value]) => sql`${value} as ${sql.identifier(name)}`);
  return sql`select ${sql.join(columns, sql`, `)}`;
}

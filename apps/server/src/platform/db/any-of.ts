import { type Column, type SQL, sql } from 'drizzle-orm';

/**
 * `column = any($1)`: a list of ids or keys as one array parameter, where drizzle's `inArray` sends one
 * parameter per value (issue 27). The statement's text is the same however many values come, so PostgreSQL
 * keeps one prepared statement for it (ADR 102) and the query is built from three pieces, not two per value.
 * An empty list matches nothing, as `inArray`'s does.
 */
export const anyOf = (column: Column | SQL, values: readonly (number | string)[]): SQL =>
  sql`${column} = any(${sql.param([...values])})`;

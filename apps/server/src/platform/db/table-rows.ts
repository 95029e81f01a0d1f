import { getTableColumns, type InferSelectModel } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/**
 * A row a raw statement answered (`returning *` of a statement written in SQL, its columns by their
 * names), as the query builder would have answered it: each column read the way its definition reads it
 * (times as dates, JSON parsed). For a statement the query builder cannot write, such as several writes in
 * one (ADR 123).
 */
export function tableRow<T extends PgTable>(table: T, raw: Record<string, unknown>): InferSelectModel<T> {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as InferSelectModel<T>;
}

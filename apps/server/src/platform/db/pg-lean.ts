// Two of node-postgres's per-statement costs that our statements do not need (issue 27, ADR 122). Profiles of
// `bench/callback` put them at about 7 % of the server's CPU a callback, every statement paying them:
// - `normalizeQueryConfig` copies each query's config with its property descriptors (to keep the caller's
//   object as it was): the slowest way to copy a plain object. A plain object is copied by spreading it; any
//   other (a class's instance) is left to pg's own copy.
// - `Result.addFields` builds, for each RowDescription, an object with every column's name (a dictionary-
//   mode object, then spread into another) that only rows read as objects use. Drizzle reads its rows as
//   arrays (`rowMode: 'array'`); for those the object is not built.
// Everything else is pg's own code, unchanged: the same parsers, in the same order, the same rows. Installed
// once per process, by platform/db/client.ts, before any query; `pg-lean.test.ts` checks that it applies to
// the pg this project has and that rows read both ways are as pg makes them.
import { createRequire } from 'node:module';

type Parser = (value: string) => unknown;
type TypeSource = { getTypeParser(oid: number, format: string): Parser };
type FieldDescription = { name: string; dataTypeID: number; format?: string };
type ResultState = {
  fields: FieldDescription[];
  _parsers: Parser[] | undefined;
  _types: TypeSource | undefined;
  rowAsArray: boolean;
  _prebuiltEmptyResultObject: Record<string, null> | null;
};
type Normalize = (config: unknown, values?: unknown, callback?: unknown) => unknown;

const requireHere = createRequire(import.meta.url);
const resultPath = requireHere.resolve('pg/lib/result.js');
/** The same modules pg itself loaded (pg-types resolved from pg's own folder). */
const requirePg = createRequire(resultPath);
const Result = requirePg('./result.js') as {
  prototype: { addFields: (this: ResultState, f: FieldDescription[]) => void };
};
const utils = requirePg('./utils.js') as { normalizeQueryConfig: Normalize };
const pgTypes = requirePg('pg-types') as TypeSource;

let installed = false;
/** pg's own functions, kept for what the lean ones hand back. */
const pgOriginals = {
  addFields: Result.prototype.addFields,
  normalizeQueryConfig: utils.normalizeQueryConfig,
};

function addFields(this: ResultState, fieldDescriptions: FieldDescription[]): void {
  this.fields = fieldDescriptions;
  if (fieldDescriptions.length) this._parsers = new Array(fieldDescriptions.length);
  const source = this._types ?? pgTypes;
  const parsers = this._parsers as Parser[];
  for (let i = 0; i < fieldDescriptions.length; i++) {
    const desc = fieldDescriptions[i] as FieldDescription;
    parsers[i] = source.getTypeParser(desc.dataTypeID, desc.format || 'text');
  }
  if (this.rowAsArray) return;
  // Rows read as objects: pg's own empty row (made on a prototype-less object, so a column named
  // `__proto__` is a column like any other).
  const row = Object.create(null) as Record<string, null>;
  for (const desc of fieldDescriptions) row[desc.name] = null;
  this._prebuiltEmptyResultObject = { ...row };
}

function normalizeQueryConfig(config: unknown, values?: unknown, callback?: unknown): unknown {
  if (config === null || typeof config !== 'object' || Object.getPrototypeOf(config) !== Object.prototype)
    return pgOriginals.normalizeQueryConfig(config, values, callback);
  const copy: Record<string, unknown> = { ...(config as Record<string, unknown>) };
  if (values) {
    if (typeof values === 'function') copy.callback = values;
    else copy.values = values;
  }
  if (callback) copy.callback = callback;
  return copy;
}

/** Puts the lean functions in place of pg's (once; a second call does nothing). */
export function leanNodePostgres(): void {
  if (installed) return;
  installed = true;
  Result.prototype.addFields = addFields;
  utils.normalizeQueryConfig = normalizeQueryConfig;
}

/** Whether pg's functions are the lean ones now. */
export const pgIsLean = (): boolean =>
  Result.prototype.addFields === addFields && utils.normalizeQueryConfig === normalizeQueryConfig;

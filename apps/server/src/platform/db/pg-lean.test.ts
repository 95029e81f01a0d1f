// ADR 122: the lean copies of two of pg's functions are in place for the pg this project has, and rows read
// as objects and as arrays are what pg makes of them, through a real PostgreSQL.
import { createRequire } from 'node:module';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { pgIsLean } from './pg-lean.ts';

/** pg's own utils module (the one the lean copy took the place of its function in). */
const pgUtils = createRequire(createRequire(import.meta.url).resolve('pg/lib/result.js'))('./utils.js') as {
  normalizeQueryConfig: (config: unknown, values?: unknown) => Record<string, unknown>;
};

let t: TestApp;
let client: pg.PoolClient;
beforeAll(async () => {
  t = await createTestApp();
  client = await t.pool.connect();
});
afterAll(async () => {
  client?.release();
  await t?.close();
});

const SQL = `select 1::int as n, 'x' as "__proto__", null::text as nothing,
                    '2026-12-01T10:00:00Z'::timestamptz as at, '{"a":[1]}'::jsonb as doc, 2::int as n`;

describe("pg's per-statement work, lean (ADR 122)", () => {
  it('is in place in this process (the platform installs it before any query)', () => {
    expect(pgIsLean()).toBe(true);
  });

  it('reads rows as objects as pg does: a column named __proto__ is a column, the last of a name wins', async () => {
    const { rows, fields } = await client.query(SQL);
    expect(fields.map((f) => f.name)).toEqual(['n', '__proto__', 'nothing', 'at', 'doc', 'n']);
    const [row] = rows;
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.keys(row)).toEqual(['n', '__proto__', 'nothing', 'at', 'doc']);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe('x');
    expect(row).toMatchObject({ n: 2, nothing: null, doc: { a: [1] } });
    expect(row.at).toEqual(new Date('2026-12-01T10:00:00Z'));
  });

  it('reads rows as arrays, with the parsers of the query or of pg, and a named statement twice', async () => {
    const types = {
      getTypeParser: (oid: number, format?: string) =>
        oid === 1184 ? (v: string) => `at ${v}` : pg.types.getTypeParser(oid, format as 'text'),
    };
    const config = { name: 'pg-lean-arrays', text: `${SQL} where $1::int > 0`, rowMode: 'array', types };
    const first = await client.query(config, [1]);
    const second = await client.query(config, [2]);
    for (const r of [first, second])
      expect(r.rows).toEqual([[1, 'x', null, 'at 2026-12-01 10:00:00+00', { a: [1] }, 2]]);
    // The caller's config is left as it was: no values, no callback written into it.
    expect(Object.keys(config)).toEqual(['name', 'text', 'rowMode', 'types']);
  });

  it("keeps pg's own copy for a config that is not a plain object", async () => {
    class Config {
      text = 'select $1::int + 1 as n';
    }
    const config = new Config();
    const { rows } = await client.query(config as unknown as pg.QueryConfig, [41]);
    expect(rows).toEqual([{ n: 42 }]);
    // Copied as pg copies it: a new object with the instance's prototype, the caller's left as it was.
    const copy = pgUtils.normalizeQueryConfig(config, [41]);
    expect(copy).not.toBe(config);
    expect(Object.getPrototypeOf(copy)).toBe(Config.prototype);
    expect(copy).toMatchObject({ text: config.text, values: [41] });
    expect(Object.keys(config)).toEqual(['text']);
  });
});

// Run by one-statement-at-a-time.test.ts under `node --throw-deprecation`: statements started together on one
// connection (a transaction's reads in `Promise.all`, pg-pool's callback form), through createDb's pool.
// pg 8 warns when a statement is sent while its connection works on another (pg 9 refuses it), and with
// --throw-deprecation that warning throws: this process then fails.
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { createDb } from '../src/platform/db/client.ts';

const { db, pool } = createDb(process.env.DATABASE_URL as string, 2);
try {
  const inTx = await db.transaction(async (tx) =>
    Promise.all(
      [0, 1, 2, 3, 4].map(async (i) => {
        const r = await tx.execute(sql`select ${i}::int as n, pg_sleep(0.01)`);
        return (r.rows[0] as { n: number }).n;
      }),
    ),
  );
  const client = await pool.connect();
  const byCallback = await Promise.all(
    [5, 6, 7].map(
      (i) =>
        new Promise<number>((resolve, reject) => {
          (
            client.query as (
              t: string,
              v: unknown[],
              cb: (e: Error | null, r?: pg.QueryResult) => void,
            ) => void
          )('select $1::int as n', [i], (err, r) => (err ? reject(err) : resolve(r?.rows[0].n)));
        }),
    ),
  );
  // A statement pg refuses at once, sent while another is on its way: its callback still hears why.
  const slow = client.query('select pg_sleep(0.01)');
  const refused = await new Promise<string>((resolve) =>
    (client.query as unknown as (c: null, cb: (e: Error | null) => void) => void)(null, (err) =>
      resolve(String(err?.message)),
    ),
  );
  await slow;
  client.release();
  console.log(JSON.stringify({ inTx, byCallback, refused }));
} finally {
  await pool.end();
}

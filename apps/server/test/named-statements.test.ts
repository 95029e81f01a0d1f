// Statements with parameters that are sent again go to PostgreSQL as named prepared statements (issue 27,
// ADR 102): parsed once per connection instead of at every run. What must hold: such a statement is kept
// on the connection, one sent once and a batch of many parameters are not, answers stay right, and on the tenants' pool one prepared statement
// serves every tenant with its own rows only, however often it runs (a generic plan must not keep a tenant).
import { and, asc, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts } from '../src/modules/contacts/tables.ts';
import { prepared, slot } from '../src/platform/db/prepared.ts';
import { type Ctx, inTransaction, tenantContext } from '../src/platform/tenancy/context.ts';
import { createTestApp, seedTenants, type TestApp } from './helpers.ts';

let t: TestApp;
let seed: Awaited<ReturnType<typeof seedTenants>>;

beforeAll(async () => {
  t = await createTestApp();
  seed = await seedTenants(t.db);
  await t.db.insert(contacts).values([
    { agency_id: seed.a.agency.id, business_id: seed.a.business.id, phone: '+14155550111' },
    { agency_id: seed.a.agency.id, business_id: seed.a.business.id, phone: '+14155550112' },
    { agency_id: seed.b.agency.id, business_id: seed.b.business.id, phone: '+14155550211' },
  ]);
});

afterAll(async () => {
  await t?.close();
});

/** The two seeded businesses' contexts (a system job acting for each). */
function tenantsAB(): { a: Ctx; b: Ctx } {
  const ctxOf = (agencyId: number, businessId: number): Ctx =>
    tenantContext(
      t.app.deps,
      { level: 'business', agencyId, businessId },
      { kind: 'system', source: 'job', name: 'named statements test' },
    );
  return {
    a: ctxOf(seed.a.agency.id, seed.a.business.id),
    b: ctxOf(seed.b.agency.id, seed.b.business.id),
  };
}

/** The statements prepared on one connection (its own view of pg_prepared_statements). */
async function preparedOn(client: { query: (text: string) => Promise<{ rows: { statement: string }[] }> }) {
  return (await client.query('select statement from pg_prepared_statements')).rows.map((r) => r.statement);
}

describe('named prepared statements', () => {
  it('keeps a statement with parameters sent again on the connection, and answers each run with its own values', async () => {
    const client = await t.pool.connect();
    try {
      const text = 'select $1::int + 1 as next';
      const answers: number[] = [];
      for (const n of [1, 41, 99]) answers.push((await client.query({ text, values: [n] })).rows[0].next);
      expect(answers).toEqual([2, 42, 100]);
      expect(await preparedOn(client)).toContain(text);
      // A statement sent once takes no place.
      const once = 'select $1::int * 2 as twice';
      expect((await client.query({ text: once, values: [21] })).rows[0].twice).toBe(42);
      expect(await preparedOn(client)).not.toContain(once);
    } finally {
      client.release();
    }
  });

  it("names a text sent as query(text, values) too (pg-boss's form and the raw queries')", async () => {
    const client = await t.pool.connect();
    try {
      const text = 'select $1::int - 1 as prev';
      const answers: number[] = [];
      for (const n of [1, 43]) answers.push((await client.query(text, [n])).rows[0].prev);
      // And through the pool, whichever connection it lends.
      answers.push((await t.pool.query(text, [8])).rows[0].prev);
      expect(answers).toEqual([0, 42, 7]);
      expect(await preparedOn(client)).toContain(text);
    } finally {
      client.release();
    }
  });

  it('leaves a batch of many parameters unnamed (its text changes with its size)', async () => {
    const client = await t.pool.connect();
    try {
      const values = Array.from({ length: 65 }, (_, i) => i);
      const text = `select array_length(array[${values.map((_, i) => `$${i + 1}::int`).join(', ')}], 1) as n`;
      for (let i = 0; i < 3; i++) expect((await client.query({ text, values })).rows[0].n).toBe(65);
      expect(await preparedOn(client)).not.toContain(text);
    } finally {
      client.release();
    }
  });

  it("serves each tenant only its own rows from one prepared statement, past the planner's fifth run", async () => {
    const { a, b } = tenantsAB();
    // No tenant filter: what each sees is what row-level security lets through on the shared statement.
    const phones = async (ctx: Ctx) =>
      (
        await ctx.db.execute<{ phone: string }>(
          sql`select phone from contacts where phone like ${'+1415555%'} order by phone`,
        )
      ).rows.map((r) => r.phone);
    for (let i = 0; i < 8; i++) {
      expect(await phones(a)).toEqual(['+14155550111', '+14155550112']);
      expect(await phones(b)).toEqual(['+14155550211']);
    }
    // It was one prepared statement on the tenants' connection, not a new one each time.
    const prepared = await a.db.execute<{ n: number }>(
      sql`select count(*)::int as n from pg_prepared_statements where statement like ${'%from contacts where phone like%'}`,
    );
    expect(prepared.rows[0]?.n).toBe(1);
  });

  it('runs a query built once (prepared) on any handle: each tenant its own rows, a transaction its own writes', async () => {
    const { a, b } = tenantsAB();
    let builds = 0;
    // No tenant filter in the query: row-level security decides what each handle sees.
    const phonesLike = prepared((db) => {
      builds++;
      return db
        .select({ phone: contacts.phone })
        .from(contacts)
        .where(like(contacts.phone, slot('pattern')))
        .orderBy(asc(contacts.phone));
    });
    const phones = async (db: Ctx['db'], pattern = '+1415555%') =>
      (await phonesLike(db, { pattern })).map((r) => r.phone);
    for (let i = 0; i < 7; i++) {
      expect(await phones(a.db)).toEqual(['+14155550111', '+14155550112']);
      expect(await phones(b.db)).toEqual(['+14155550211']);
    }
    // The platform's handle sees every tenant's; another value is another answer.
    expect(await phones(t.db)).toEqual(['+14155550111', '+14155550112', '+14155550211']);
    expect(await phones(a.db, '+14155550112')).toEqual(['+14155550112']);
    // In a transaction: its own uncommitted row, on the transaction's connection; nothing once rolled back.
    await expect(
      inTransaction(a, async (tx) => {
        await tx.db
          .insert(contacts)
          .values({ agency_id: seed.a.agency.id, business_id: seed.a.business.id, phone: '+14155550113' });
        expect(await phones(tx.db)).toEqual(['+14155550111', '+14155550112', '+14155550113']);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await phones(a.db)).toEqual(['+14155550111', '+14155550112']);
    expect(builds).toBe(1);
    // One prepared statement, under its own name, on the tenants' connection.
    const kept = await a.db.execute<{ name: string }>(
      sql`select name from pg_prepared_statements where statement like ${'%from "contacts" where "contacts"."phone" like%'}`,
    );
    expect(kept.rows.map((r) => r.name)).toEqual([expect.stringMatching(/^stn_p\d+$/)]);
    // An update built once: the values come from the placeholders, the rows from row-level security.
    const rename = prepared((db) =>
      db
        .update(contacts)
        .set({ first_name: slot('name') })
        .where(and(eq(contacts.phone, slot('phone'))))
        .returning({ phone: contacts.phone }),
    );
    expect(await rename(b.db, { name: 'Other tenant', phone: '+14155550111' })).toEqual([]);
    expect(await rename(a.db, { name: 'Ann', phone: '+14155550111' })).toEqual([{ phone: '+14155550111' }]);
    const [ann] = await t.db.select().from(contacts).where(eq(contacts.phone, '+14155550111'));
    expect(ann?.first_name).toBe('Ann');
  });
});

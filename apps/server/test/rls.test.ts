// Tenant isolation in the database itself (issue 27, decision 097): every table that holds tenant data has
// row-level security forced with a policy, the tenant's work runs as a role that cannot bypass it, and a
// query that forgets its tenant filter finds nothing of another tenant. Each check is also seen failing: on
// this file's own database a table's protection is taken away and the check reports it.

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businesses } from '../src/modules/businesses/tables.ts';
import { contacts } from '../src/modules/contacts/tables.ts';
import { PLATFORM_ROLE, TENANT_ROLE } from '../src/platform/db/tenant-db.ts';
import { type Ctx, inTransaction, scope, tenantContext } from '../src/platform/tenancy/context.ts';
import { createTestApp, seedTenants, type TestApp } from './helpers.ts';

/**
 * Tables without a tenant column that hold no tenant's data: the platform's own (its pages of news, its
 * keys, carriers' and Stripe's deliveries seen, sign-in failures by address) or a number's pace. A new table
 * must either be protected or be named here, with its reason.
 */
const PLATFORM_TABLES = new Set([
  'analytics_watermarks', // how far the rollups have read, per source
  'broadcast_send_slots', // the next send time of a phone number, across tenants
  'carrier_events', // carrier deliveries already seen, by key
  'login_failures', // failed sign-ins by address and IP, before anyone is known
  'push_vapid_keys', // the platform's Web Push keys
  'release_notes', // the platform's "what's new"
  'stripe_events',
  'stripe_sandbox_accounts',
  'stripe_sandbox_objects',
  'stripe_webhooks',
  'support_widget_settings', // the platform's support widget installs
]);

type Gap = { table: string; problem: string };

/** Every table of the schema that holds tenant data and is not protected, with what is missing. */
async function unprotected(t: TestApp): Promise<Gap[]> {
  const { rows } = await t.pool.query<{
    table: string;
    tenant_columns: number;
    rls: boolean;
    forced: boolean;
    policies: string[];
  }>(
    `select c.relname as table,
            (select count(*)::int from pg_attribute a where a.attrelid = c.oid and not a.attisdropped
                and a.attname in ('agency_id', 'business_id')) as tenant_columns,
            c.relrowsecurity as rls, c.relforcerowsecurity as forced,
            coalesce((select array_agg(p.polname::text) from pg_policy p where p.polrelid = c.oid), '{}') as policies
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relname <> '__drizzle_migrations'
      order by c.relname`,
  );
  const gaps: Gap[] = [];
  for (const r of rows) {
    if (PLATFORM_TABLES.has(r.table)) continue;
    if (r.tenant_columns === 0 && !r.rls && !r.policies.length) {
      gaps.push({
        table: r.table,
        problem: 'no tenant column: protect it (stn_protect with its parent) or name it a platform table',
      });
      continue;
    }
    if (!r.rls) gaps.push({ table: r.table, problem: 'row-level security not enabled' });
    if (!r.forced) gaps.push({ table: r.table, problem: 'row-level security not forced' });
    if (!r.policies.includes('tenant_rows')) gaps.push({ table: r.table, problem: 'no tenant policy' });
    if (!r.policies.includes('platform_rows')) gaps.push({ table: r.table, problem: 'no platform policy' });
  }
  return gaps;
}

let t: TestApp;
let seed: Awaited<ReturnType<typeof seedTenants>>;
let ctxA: Ctx;

beforeAll(async () => {
  t = await createTestApp();
  seed = await seedTenants(t.db);
  // A second business in agency A, so that a business's view is narrower than its agency's.
  const [second] = await t.db
    .insert(businesses)
    .values({ agency_id: seed.a.agency.id, name: 'Business A2' })
    .returning();
  if (!second) throw new Error('seed');
  const contact = (agencyId: number, businessId: number, phone: string) => ({
    agency_id: agencyId,
    business_id: businessId,
    phone,
    first_name: `c${phone.slice(-2)}`,
  });
  await t.db
    .insert(contacts)
    .values([
      contact(seed.a.agency.id, seed.a.business.id, '+14155550101'),
      contact(seed.a.agency.id, seed.a.business.id, '+14155550102'),
      contact(seed.a.agency.id, second.id, '+14155550103'),
      contact(seed.b.agency.id, seed.b.business.id, '+14155550201'),
    ]);
  ctxA = tenantContext(
    t.app.deps,
    { level: 'business', agencyId: seed.a.agency.id, businessId: seed.a.business.id },
    { kind: 'system', source: 'job', name: 'rls test' },
  );
});

afterAll(async () => {
  await t?.close();
});

describe('row-level security', () => {
  it('protects every table that holds tenant data', async () => {
    expect(await unprotected(t)).toEqual([]);
  });

  it('runs a tenant as a role that cannot bypass it, and the platform as a member of its own role', async () => {
    const { rows: tenant } = await ctxA.db.execute<{
      who: string;
      agency: string;
      bypass: boolean;
      superuser: boolean;
    }>(
      sql`select current_user as who, current_setting('stn.agency_id') as agency,
                 r.rolbypassrls as bypass, r.rolsuper as superuser
            from pg_roles r where r.rolname = current_user`,
    );
    expect(tenant).toEqual([
      { who: TENANT_ROLE, agency: String(seed.a.agency.id), bypass: false, superuser: false },
    ]);
    const { rows: platform } = await t.app.deps.db.execute<{ member: boolean }>(
      sql`select pg_has_role(current_user, ${PLATFORM_ROLE}, 'MEMBER') as member`,
    );
    expect(platform).toEqual([{ member: true }]);
  });

  it('finds nothing of another tenant when a query forgets its tenant filter', async () => {
    // No scope(): every contact row the database lets this business see.
    const seen = await ctxA.db.select({ business: contacts.business_id }).from(contacts);
    expect(seen.map((r) => r.business)).toEqual([seed.a.business.id, seed.a.business.id]);
    // Asking for the other tenant's rows by name still finds none, nor their businesses.
    const other = await ctxA.db.execute<{ n: number }>(
      sql`select count(*)::int as n from contacts where agency_id = ${seed.b.agency.id}`,
    );
    expect(other.rows).toEqual([{ n: 0 }]);
    const named = await ctxA.db.execute<{ n: number }>(
      sql`select count(*)::int as n from businesses where id = ${seed.b.business.id}`,
    );
    expect(named.rows).toEqual([{ n: 0 }]);
    // The agency sees its two businesses' contacts, not the other agency's.
    const agency = tenantContext(
      t.app.deps,
      { level: 'agency', agencyId: seed.a.agency.id },
      { kind: 'system', source: 'job', name: 'rls test' },
    );
    expect(await agency.db.select({ id: contacts.id }).from(contacts)).toHaveLength(3);
    // In a transaction too, and a write to another tenant's rows changes nothing.
    await inTransaction(ctxA, async (tx) => {
      const changed = await tx.db.execute(
        sql`update contacts set first_name = 'x' where agency_id = ${seed.b.agency.id}`,
      );
      expect(changed.rowCount).toBe(0);
      expect(await tx.db.select({ id: contacts.id }).from(contacts).where(scope(tx, contacts))).toHaveLength(
        2,
      );
    });
    await expect(
      ctxA.db.insert(contacts).values({
        agency_id: seed.b.agency.id,
        business_id: seed.b.business.id,
        phone: '+14155550299',
      }),
    ).rejects.toMatchObject({ cause: { code: '42501' } });
    const { rows: still } = await t.pool.query(`select first_name from contacts where agency_id = $1`, [
      seed.b.agency.id,
    ]);
    expect(still).toEqual([{ first_name: 'c01' }]);
  });

  it('is seen failing: without a table’s policy the meta-test names it and the forgotten filter leaks', async () => {
    await t.pool.query('alter table contacts no force row level security');
    await t.pool.query('alter table contacts disable row level security');
    await t.pool.query('drop policy tenant_rows on contacts');
    try {
      expect(await unprotected(t)).toEqual([
        { table: 'contacts', problem: 'row-level security not enabled' },
        { table: 'contacts', problem: 'row-level security not forced' },
        { table: 'contacts', problem: 'no tenant policy' },
      ]);
      const leaked = await ctxA.db.select({ business: contacts.business_id }).from(contacts);
      expect(leaked.map((r) => r.business)).toContain(seed.b.business.id);
    } finally {
      await t.pool.query(`select stn_protect('contacts')`);
    }
    expect(await unprotected(t)).toEqual([]);
    const again = await ctxA.db.select({ business: contacts.business_id }).from(contacts);
    expect(again.map((r) => r.business)).toEqual([seed.a.business.id, seed.a.business.id]);
  });
});

// Tenant isolation in the database itself (issue 27, decision 097). Every table that holds tenant data has
// row-level security forced (migration 0031): a tenant's work runs as TENANT_ROLE, which sees and writes
// only the rows of the agency (and business) set on its connection; platform-level work runs as a member of
// PLATFORM_ROLE (the role DATABASE_URL names), which the policies give every row. A query that forgets its
// tenant filter in a tenant's context therefore still finds nothing of another tenant.
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { type Db, namedStatements, oneStatementAtATime, poolOf, quietClients } from './client.ts';

/** The application's role for a tenant's work: subject to row-level security, never BYPASSRLS. */
export const TENANT_ROLE = 'stn_tenant';
/** The role of platform-level work (start-up, jobs across tenants, an Admin): every row, by its policies. */
export const PLATFORM_ROLE = 'stn_platform';

/** The tenants' handles and their transactions: what `isTenantHandle` knows. */
const tenantHandles = new WeakSet<object>();

/** Whether a database handle (or a transaction on one) runs as TENANT_ROLE. */
export function isTenantHandle(db: object): boolean {
  return tenantHandles.has(db);
}

/** Marks a transaction opened on a tenant's handle as one. */
export function markTenantHandle(db: object): void {
  tenantHandles.add(db);
}

export type TenantKey = { agencyId: number; businessId?: number | null };

export type TenantDbs = {
  /** The database handle of one tenant: its every connection carries that tenant. */
  of(tenant: TenantKey): Db;
  close(): Promise<void>;
};

const SET_TENANT = "select set_config('stn.agency_id', $1, false), set_config('stn.business_id', $2, false)";
/** How many tenants' handles are kept (each is a few small objects over the one shared pool). */
const KEPT = 2_000;

/**
 * The tenants' handles over one pool of their own, connected as TENANT_ROLE with the platform pool's
 * settings (address, size, timeouts). A connection is given the tenant whenever it is taken for another
 * tenant than the one it last served, before the first statement: a transaction, a single query, or a
 * connection held for a lock all run with the tenant of the context that took it.
 */
export function createTenantDbs(platform: Db): TenantDbs {
  let pool: pg.Pool | null = null;
  const carried = new WeakMap<pg.PoolClient, string>();
  const handles = new Map<string, Db>();

  let closed = false;
  const shared = (): pg.Pool => {
    if (pool) return pool;
    // Work still running after the app closed (a timer in the background) gets a failed statement, as on
    // the platform's ended pool, not a pool that nobody would close.
    if (closed) throw new Error('db: the tenants’ pool is closed');
    const base = poolOf(platform).options as pg.PoolConfig;
    pool = new pg.Pool({ ...base, options: `-c role=${TENANT_ROLE}` });
    quietClients(pool);
    namedStatements(pool);
    oneStatementAtATime(pool);
    return pool;
  };

  const view = (key: string, agency: string, business: string): pg.Pool => {
    // The pool itself, but for how a connection is taken: Drizzle runs a transaction on `connect()` and a
    // single statement on `query()`, and both go through here. Made before any connection is needed (a
    // context is made for every request), the pool is reached only when a statement is sent.
    const v = Object.create(pg.Pool.prototype) as pg.Pool;
    const take = async (): Promise<pg.PoolClient> => {
      const client = await shared().connect();
      if (carried.get(client) !== key) {
        try {
          await client.query(SET_TENANT, [agency, business]);
        } catch (err) {
          client.release(err as Error);
          throw err;
        }
        carried.set(client, key);
      }
      return client;
    };
    Object.defineProperty(v, 'connect', { value: take });
    Object.defineProperty(v, 'options', { get: () => shared().options });
    Object.defineProperty(v, 'query', {
      value: async (...args: Parameters<pg.Pool['query']>) => {
        const client = await take();
        try {
          return await (client.query as (...a: unknown[]) => Promise<unknown>)(...args);
        } finally {
          client.release();
        }
      },
    });
    return v;
  };

  return {
    of(tenant) {
      const business = tenant.businessId ?? null;
      const key = `${tenant.agencyId}/${business ?? ''}`;
      let db = handles.get(key);
      if (!db) {
        if (handles.size >= KEPT) handles.clear();
        db = drizzle(view(key, String(tenant.agencyId), business === null ? '' : String(business)));
        tenantHandles.add(db);
        handles.set(key, db);
      }
      return db;
    },
    async close() {
      const p = pool;
      closed = true;
      pool = null;
      handles.clear();
      await p?.end().catch(() => undefined);
    },
  };
}

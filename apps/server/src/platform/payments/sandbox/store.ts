import crypto from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { noSuch } from './errors.ts';
import { stripeSandboxAccounts, stripeSandboxObjects } from './tables.ts';

// The sandbox's state in PostgreSQL: one row per Stripe object (its JSON as the API returns it, plus
// internal fields whose names start with '_', never shown). Every request of an account runs in one
// transaction holding the account's advisory lock, so concurrent requests (of any process) are serialized.

export const API_VERSION = '2026-10-28.endive';

export type Account = {
  id: string;
  secret_key: string;
  publishable_key: string;
  clock_offset_ms: number;
};

export type StripeObject = Record<string, unknown> & { id: string; object: string };

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomAlnum(n: number): string {
  const bytes = crypto.randomBytes(n);
  let out = '';
  for (let i = 0; i < n; i++) out += ALNUM[(bytes[i] as number) % ALNUM.length];
  return out;
}

/** A Stripe-like id: `cus_` + 24 random characters. */
export const newId = (prefix: string) => `${prefix}_${randomAlnum(24)}`;

export async function accountByKey(db: Tx, key: string): Promise<Account | null> {
  const column = key.startsWith('pk_')
    ? stripeSandboxAccounts.publishable_key
    : stripeSandboxAccounts.secret_key;
  const [row] = await db.select().from(stripeSandboxAccounts).where(eq(column, key)).limit(1);
  return row ?? null;
}

/** A new account; `random` given: the keys of that random part (an unknown sandbox key seen first). */
export async function createAccount(db: Tx, random = randomAlnum(24)): Promise<Account> {
  const row = {
    id: `acct_${random.slice(0, 16)}${randomAlnum(8)}`,
    secret_key: `sk_test_sandbox_${random}`,
    publishable_key: `pk_test_sandbox_${random}`,
    clock_offset_ms: 0,
  };
  await db.insert(stripeSandboxAccounts).values(row).onConflictDoNothing();
  const found = await accountByKey(db, row.secret_key);
  if (!found) throw new Error('stripe sandbox: account not created');
  return found;
}

/** Removes internal fields (`_…`), deeply, from what the API returns. */
export function render<T>(v: T): T {
  if (Array.isArray(v)) return v.map(render) as T;
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(v)) if (!k.startsWith('_')) out[k] = render(val);
  return out as T;
}

/** A request's view of one account: its objects, its clock, the events it raises. */
export class AccountCtx {
  readonly events: StripeObject[] = [];
  /** The account's clock, ms (fixed for a request; moved step by step by `advance`). */
  nowMs: number;
  idempotencyKey: string | null = null;

  constructor(
    readonly tx: Tx,
    readonly account: Account,
  ) {
    this.nowMs = Date.now() + account.clock_offset_ms;
  }

  /** Unix seconds on the account's clock. */
  now(): number {
    return Math.floor(this.nowMs / 1000);
  }

  async get(id: string): Promise<StripeObject | null> {
    const [row] = await this.tx
      .select({ data: stripeSandboxObjects.data })
      .from(stripeSandboxObjects)
      .where(and(eq(stripeSandboxObjects.id, id), eq(stripeSandboxObjects.account_id, this.account.id)))
      .limit(1);
    return (row?.data as StripeObject | undefined) ?? null;
  }

  /** An object of `type` (not deleted), else Stripe's 404 "No such …". */
  async need(type: string, id: unknown, param = 'id'): Promise<StripeObject> {
    const o = typeof id === 'string' && id ? await this.get(id) : null;
    if (!o || o.object !== type || o.deleted) throw noSuch(type, String(id ?? ''), param);
    return o;
  }

  /** Inserts or replaces an object. */
  async put<T extends StripeObject>(o: T, type: string = o.object): Promise<T> {
    await this.tx
      .insert(stripeSandboxObjects)
      .values({ id: o.id, account_id: this.account.id, type, data: o, created_at: sql`clock_timestamp()` })
      .onConflictDoUpdate({
        target: [stripeSandboxObjects.account_id, stripeSandboxObjects.id],
        set: { data: o },
      });
    return o;
  }

  /** Every object of a type, newest first (deleted ones left out). */
  async list(type: string): Promise<StripeObject[]> {
    const rows = await this.tx
      .select({ data: stripeSandboxObjects.data })
      .from(stripeSandboxObjects)
      .where(and(eq(stripeSandboxObjects.account_id, this.account.id), eq(stripeSandboxObjects.type, type)))
      .orderBy(desc(stripeSandboxObjects.created_at), desc(stripeSandboxObjects.id));
    return rows.map((r) => r.data as StripeObject).filter((o) => !o.deleted);
  }

  /** Records an event (delivered to the account's webhook endpoints once the transaction commits). */
  async emit(type: string, object: StripeObject, previous?: Record<string, unknown>): Promise<StripeObject> {
    const event: StripeObject = {
      id: newId('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: this.now(),
      data: { object: render(object), ...(previous ? { previous_attributes: render(previous) } : {}) },
      livemode: false,
      pending_webhooks: 0,
      request: { id: null, idempotency_key: this.idempotencyKey },
      type,
    };
    this.events.push(event);
    return this.put(event);
  }
}

/**
 * Runs `fn` in a transaction holding the account's lock, with the account re-read under the lock (its clock
 * may have moved). Returns what `fn` returned and the events it raised.
 */
export async function inAccount<T>(
  db: Db,
  accountId: string,
  fn: (ctx: AccountCtx) => Promise<T>,
): Promise<{ value: T; events: StripeObject[] }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('stripe-sandbox'), hashtext(${accountId}))`);
    const [account] = await tx
      .select()
      .from(stripeSandboxAccounts)
      .where(eq(stripeSandboxAccounts.id, accountId))
      .limit(1);
    if (!account) throw new Error(`stripe sandbox: no account ${accountId}`);
    const ctx = new AccountCtx(tx, account);
    const value = await fn(ctx);
    return { value, events: ctx.events };
  });
}

/** Shallow diff for an event's previous_attributes: the old values of the top-level keys that changed. */
export function changed(before: Record<string, unknown>, after: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(after)) {
    if (k.startsWith('_')) continue;
    if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) out[k] = before[k] ?? null;
  }
  return out;
}

/** Stripe's list envelope with `limit` and `starting_after`/`ending_before` over newest-first objects. */
export function page(all: StripeObject[], params: Record<string, unknown>, url: string) {
  const limit = Math.min(100, Math.max(1, Number(params.limit ?? 10) || 10));
  let start = 0;
  if (typeof params.starting_after === 'string' && params.starting_after) {
    start = all.findIndex((o) => o.id === params.starting_after) + 1;
  }
  let end = start + limit;
  if (typeof params.ending_before === 'string' && params.ending_before) {
    end = Math.max(
      0,
      all.findIndex((o) => o.id === params.ending_before),
    );
    start = Math.max(0, end - limit);
  }
  const data = all.slice(start, end);
  return { object: 'list', data, has_more: end < all.length, url };
}

// Fixtures of the broadcasts engine's tests: the telephony fixtures' app (sandbox carrier on a ManualClock),
// business A with installs and numbers, contacts made in one statement, broadcasters, a broadcast row as
// the API writes it, and waiting for a state (never for a time). Only the tests import this file.
import type { TBroadcastAudience } from '@stn/contracts/broadcasts';
import { expect } from 'vitest';
import { drainJobs } from '../../../test/helpers.ts';
import { type Ctx, inTransaction } from '../../platform/tenancy/context.ts';
import { addContactsA, addTagA, businessA, type Telephony, telephonyApp } from '../telephony/testing.ts';
import { startSending } from './engine.ts';

export type Broadcasts = Telephony & {
  ctx: Ctx;
  q: <T = Record<string, unknown>>(text: string, values?: unknown[]) => Promise<T[]>;
};

/**
 * The app; `wallClock`: the sending is done by another process on the wall clock (the crash test), so the
 * sandbox's clock stays at the wall clock's time instead of moving to 12:00 UTC.
 */
export async function broadcastsApp(
  env: Record<string, string> = {},
  opts: { wallClock?: boolean } = {},
): Promise<Broadcasts> {
  const h = await telephonyApp(env);
  if (env.WORKERS !== 'off') await drainJobs(h.t);
  // Daytime in UTC (the fixtures' contacts' zone), whenever the test runs: the sandbox's clock (the
  // engine's) moves to the next 12:00 UTC.
  const day = 86_400_000;
  const now = h.clock.now();
  if (!opts.wallClock) await h.clock.advance((((12 * 3_600_000 - (now % day)) % day) + day) % day);
  return Object.assign(h, businessA(h, 'broadcasts test'));
}

/** An install of business A with its own number; the number's phone. */
export async function installWithNumber(
  h: Broadcasts,
): Promise<{ installId: number; phone: string; numberId: number }> {
  const install = await h.install();
  const [n] = await h.q<{ id: number; phone_number: string }>(
    'select id, phone_number from numbers where install_id = $1',
    [install.id],
  );
  if (!n) throw new Error('no number');
  return { installId: install.id, phone: n.phone_number, numberId: n.id };
}

/** A broadcaster of business A on that number, with its rate (messages a second). */
export async function addBroadcaster(
  h: Broadcasts,
  n: { numberId: number; phone: string },
  rate: number | null = null,
): Promise<number> {
  const a = h.seed.a;
  const [row] = await h.q<{ id: number }>(
    `insert into broadcasters (agency_id, business_id, number_id, phone_number, kind, custom_rate)
     values ($1, $2, $3, $4, 'long_code', $5) returning id`,
    [a.agency.id, a.business.id, n.numberId, n.phone, rate],
  );
  return (row as { id: number }).id;
}

/** `count` contacts of business A on the install, phones +1415600xxxx from `first`, tagged `tagId`. */
export async function addContacts(
  h: Broadcasts,
  opts: {
    count: number;
    first?: number;
    installId: number | null;
    tagId?: number;
    prefix?: string;
    /** Their own time zone (quiet hours): UTC unless told. */
    timeZone?: string;
  },
): Promise<number[]> {
  return addContactsA(h, { ...opts, prefix: opts.prefix ?? '+1415600' });
}

export const addTag = (h: Broadcasts, name: string) => addTagA(h, name);

/** A broadcast row of business A, as the API saves a draft. */
export async function addBroadcast(
  h: Broadcasts,
  b: { body: string; audience: Partial<TBroadcastAudience>; broadcasterIds?: number[] },
): Promise<number> {
  const a = h.seed.a;
  const audience = { tag_ids: [], exclude_tag_ids: [], install_ids: [], contact_ids: [], ...b.audience };
  const [row] = await h.q<{ id: number }>(
    `insert into broadcasts (agency_id, business_id, name, body, audience, broadcaster_ids)
     values ($1, $2, 'Spring sale', $3, $4, $5) returning id`,
    [a.agency.id, a.business.id, b.body, JSON.stringify(audience), JSON.stringify(b.broadcasterIds ?? [])],
  );
  return (row as { id: number }).id;
}

export const start = (h: Broadcasts, broadcastId: number, at: Date | null = null) =>
  inTransaction(h.ctx, (tx) => startSending(tx, { broadcastId, at }));

/** A time zone where it is between 10:00 and 18:00 at `at` (a test on the wall clock sends at once). */
export function daytimeZone(at: number): string {
  const zones = [
    'UTC',
    'Asia/Tokyo',
    'Asia/Kolkata',
    'Europe/Berlin',
    'America/New_York',
    'America/Los_Angeles',
  ];
  for (const zone of zones) {
    const hour = Number(
      new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', hourCycle: 'h23' }).format(at),
    );
    if (hour >= 10 && hour < 18) return zone;
  }
  return 'UTC';
}

/** Waits (polling the state, never a fixed time) until `check` is true; fails after `timeoutMs`. */
export async function until(check: () => Promise<boolean> | boolean, timeoutMs = 20_000, what = 'a state') {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function statusOf(h: Broadcasts, id: number): Promise<string> {
  const [row] = await h.q<{ status: string }>('select status from broadcasts where id = $1', [id]);
  return row?.status ?? '';
}

export async function statesOf(h: Broadcasts, id: number): Promise<Record<string, number>> {
  const rows = await h.q<{ state: string; n: number }>(
    'select state, count(*)::int as n from broadcast_recipients where broadcast_id = $1 group by state',
    [id],
  );
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}

/** The sandbox's own record of the messages it took from a number (its time in ms, the receiver). */
export function sandboxSent(h: Broadcasts, from?: string) {
  return [...h.sandbox.messages.values()]
    .filter((m) => m.direction === 'outbound-api' && (!from || m.from === from))
    .sort((x, y) => x.dateCreated - y.dateCreated);
}

export { expect };

// The call reconciler and a live call (ADR 051). A pass ends a call only on the carrier's word (a final
// status, or a 404 for a call it does not know) or when the agency has no carrier account: an error
// reading the carrier account or asking the carrier skips the call for that pass. Two processes passing
// at the same moment ask the carrier once per leg, and a call checked recently and still live is not
// asked about again before its interval (which grows) has passed.

import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { createDb } from '../../platform/db/client.ts';
import { platformSystemContext } from '../../platform/tenancy/context.ts';
import { reconcileCalls } from './reconcile.ts';
import { connectedCall, type Telephony, telephonyApp } from './testing.ts';

let h: Telephony;
/** A second server process on the same database and the same carrier (on Twilio, every process's). */
let other: FastifyInstance;
let otherPool: pg.Pool;
/** The sandbox's REST requests for one call leg (GET .../Calls/CA....json). */
let fetches: string[] = [];
let fault: { status: number; code: number; message: string } | null = null;

beforeAll(async () => {
  h = await telephonyApp({ CALL_RECONCILE_SECONDS: '0' });
  const made = createDb(h.t.config.databaseUrl ?? '', 4);
  otherPool = made.pool;
  other = await buildApp({ config: h.t.config, db: made.db, sandbox: h.sandbox });
  await other.ready();
  h.sandbox.fault = ({ method, path }) => {
    const leg = /\/Calls\/(CA[0-9a-f]{32})\.json$/.exec(path);
    if (method !== 'GET' || !leg?.[1]) return undefined;
    fetches.push(leg[1]);
    return fault ?? undefined;
  };
});
afterAll(async () => {
  if (h) h.sandbox.fault = null;
  await other?.close();
  await otherPool?.end();
  await h?.close();
});

const rows = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;
const outcome = async (callId: number) =>
  (await rows('select outcome from calls where id = $1', [callId]))[0]?.outcome as string;
const liveLegs = async (callId: number) =>
  (
    await rows(
      `select call_sid from call_legs where call_id = $1
        and status not in ('completed', 'busy', 'no-answer', 'failed', 'canceled') order by id`,
      [callId],
    )
  ).map((r) => r.call_sid as string);
/** Time passes for the call: it has not moved (and was not checked) for `seconds` more. */
async function age(callId: number, seconds: number, opts: { checked?: boolean } = {}) {
  await h.t.pool.query(
    `update calls set updated_at = updated_at - make_interval(secs => $2)${
      opts.checked === false ? '' : ', reconciled_at = reconciled_at - make_interval(secs => $2)'
    } where id = $1`,
    [callId, seconds],
  );
  await h.t.pool.query(
    'update call_legs set updated_at = updated_at - make_interval(secs => $2) where call_id = $1',
    [callId, seconds],
  );
}

/** A callback the first staff phone takes and the visitor answers: they are talking. Its call id. */
async function talking(visitor: string): Promise<number> {
  const install = await h.install({ timeout: 60 });
  const id = await connectedCall(h, install.key, visitor);
  expect(h.sandbox.phones.get(visitor).state).toBe('in-call');
  expect(await outcome(id)).toBe('in_progress');
  return id;
}

async function hangUp(visitor: string) {
  h.sandbox.phones.hangUp(visitor);
  await h.run(2000);
}

describe('the reconciler and a live call', () => {
  it('leaves a connected call alone when the carrier or its account cannot be read, and ends it on the carrier’s 404', async () => {
    const visitor = '+14155550401';
    const id = await talking(visitor);
    const legs = await liveLegs(id);
    expect(legs.length).toBe(2);

    // Twilio rate-limits, then fails: the pass skips the call.
    for (const f of [
      { status: 429, code: 20429, message: 'Too Many Requests' },
      { status: 503, code: 20500, message: 'Service Unavailable' },
    ]) {
      fault = f;
      await age(id, 3600);
      await reconcileCalls(platformSystemContext(h.t.app.deps, 'job', 'call reconciler'));
      expect(await outcome(id)).toBe('in_progress');
      expect(await liveLegs(id)).toEqual(legs);
    }
    fault = null;

    // The agency's carrier account cannot be read (its token does not open): not "no carrier", so the
    // call goes on. The other process reads the account afresh (nothing cached there).
    const [{ cfg }] = await rows('select twilio_config as cfg from agencies where id = $1', [
      h.seed.a.agency.id,
    ]);
    await h.t.pool.query('update agencies set twilio_config = $1 where id = $2', [
      JSON.stringify({ ...cfg, authToken: 'enc:v1:not-a-sealed-token' }),
      h.seed.a.agency.id,
    ]);
    await age(id, 3600);
    await reconcileCalls(platformSystemContext(other.deps, 'job', 'call reconciler'));
    expect(await outcome(id)).toBe('in_progress');
    expect(await liveLegs(id)).toEqual(legs);
    expect(h.sandbox.phones.get(visitor).state).toBe('in-call');
    await h.t.pool.query('update agencies set twilio_config = $1 where id = $2', [
      JSON.stringify(cfg),
      h.seed.a.agency.id,
    ]);

    // The carrier no longer knows the call (a sandbox restart, a call long gone): a pass ends it.
    fault = { status: 404, code: 20404, message: 'The requested resource was not found' };
    await age(id, 3600);
    await reconcileCalls(platformSystemContext(h.t.app.deps, 'job', 'call reconciler'));
    fault = null;
    expect(await outcome(id)).toBe('completed');
    expect(await liveLegs(id)).toEqual([]);
    await hangUp(visitor);
  });

  it('two processes passing at the same moment ask the carrier once per leg, and a live call is not asked again at once', async () => {
    const visitor = '+14155550402';
    const id = await talking(visitor);
    const legs = await liveLegs(id);
    expect(legs.length).toBe(2);
    await age(id, 3600);
    fetches = [];
    await Promise.all([
      reconcileCalls(platformSystemContext(h.t.app.deps, 'job', 'call reconciler')),
      reconcileCalls(platformSystemContext(other.deps, 'job', 'call reconciler')),
    ]);
    expect(fetches.sort()).toEqual([...legs].sort());
    expect(await outcome(id)).toBe('in_progress');

    // A minute later the call has not moved, but it was checked just now and is live: not asked again.
    fetches = [];
    await age(id, 60, { checked: false });
    await Promise.all([
      reconcileCalls(platformSystemContext(h.t.app.deps, 'job', 'call reconciler')),
      reconcileCalls(platformSystemContext(other.deps, 'job', 'call reconciler')),
    ]);
    expect(fetches).toEqual([]);

    // Once its interval has passed, one pass asks again, once per leg.
    await age(id, 3600);
    await Promise.all([
      reconcileCalls(platformSystemContext(h.t.app.deps, 'job', 'call reconciler')),
      reconcileCalls(platformSystemContext(other.deps, 'job', 'call reconciler')),
    ]);
    expect(fetches.sort()).toEqual([...legs].sort());
    expect(await outcome(id)).toBe('in_progress');
    await hangUp(visitor);
    expect(await outcome(id)).toBe('completed');
  });
});

// The staff legs a process placed are answered from what it knows of them (ADR 124): their voice and gather
// webhooks read no row there. What it knows may be behind a change another process made; the claim, in
// SQL, still decides. Two server processes on one database, as behind a load balancer.
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { createDb } from '../../platform/db/client.ts';
import { carrierWebhook, type Telephony, telephonyApp } from './testing.ts';

let h: Telephony;
/** A second server process on the same database and the same carrier. */
let other: FastifyInstance;
let otherPool: pg.Pool;

beforeAll(async () => {
  h = await telephonyApp();
  const made = createDb(h.t.config.databaseUrl ?? '', 4);
  otherPool = made.pool;
  other = await buildApp({ config: h.t.config, db: made.db, sandbox: h.sandbox });
  await other.ready();
});
afterAll(async () => {
  await other?.close();
  await otherPool?.end();
  await h?.close();
});

/** A carrier webhook of tenant A's account, signed, posted to `app` (either process). */
const webhook = (app: FastifyInstance, path: string, params: Record<string, string>) =>
  carrierWebhook(h, path, params, { app });

describe('staff legs answered from what their process knows', () => {
  it('a press on the process that placed the leg cannot claim a call the other process let another leg claim', async () => {
    const install = await h.install({ calling_type: 'simultaneous' });
    const res = await h.callback(install.key, { phone: '+14155550471' });
    expect(res.statusCode, res.body).toBe(200);
    const callId = res.json().data.call_id as number;
    await h.run();
    const { rows: legs } = await h.t.pool.query(
      "select call_sid, to_number from call_legs where call_id = $1 and role = 'staff' order by id",
      [callId],
    );
    expect(legs).toHaveLength(2);
    const [first, second] = legs.map((l) => l.call_sid as string);

    // The first staff member answers on the process that placed the legs: offered the key.
    const voice = await webhook(h.t.app, `/webhooks/twilio/voice?call=${callId}&leg=staff`, {
      CallSid: first ?? '',
      CallStatus: 'in-progress',
      AnsweredBy: 'human',
    });
    expect(voice.body).toContain('<Gather');

    // The second presses 1 on the other process, which reads the rows: it claims the call.
    const press = await webhook(other, `/webhooks/twilio/gather?call=${callId}`, {
      CallSid: second ?? '',
      Digits: '1',
    });
    expect(press.body).toContain('<Dial');

    // The first presses 1 where its leg was placed. That process has not seen the claim, but the claim is
    // the database's: the call stays the second's, and the first hears that it was taken.
    const late = await webhook(h.t.app, `/webhooks/twilio/gather?call=${callId}`, {
      CallSid: first ?? '',
      Digits: '1',
    });
    expect(late.body).not.toContain('<Dial');
    expect(late.body).toContain('Another team member took this call');
    const { rows: call } = await h.t.pool.query('select claimed_leg_sid from calls where id = $1', [callId]);
    expect(call[0]?.claimed_leg_sid).toBe(second);
    // The first process learnt the claim from its refusal: a repeat of the first's press is refused at once.
    const again = await webhook(h.t.app, `/webhooks/twilio/gather?call=${callId}`, {
      CallSid: first ?? '',
      Digits: '1',
    });
    expect(again.body).toContain('Another team member took this call');
    await h.run(60_000);
  });
});

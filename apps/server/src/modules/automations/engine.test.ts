// The engine (ADR 068) through its public functions against real PostgreSQL: entering (idempotent, the
// re-entry rules, inactive automations), the step lifecycle on the engine's clock, retries with backoff, a
// step left running by a dead worker, and stopping a journey.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { inTransaction } from '../../platform/tenancy/context.ts';
import { ACTIONS } from './actions/index.ts';
import type { ActionExecutor } from './actions/types.ts';
import { stopRun } from './engine.ts';
import { blockCounts, getRun, listRuns } from './runs.ts';
import {
  type AutomationsTest,
  addAutomation,
  addContacts,
  automationsApp,
  block,
  chain,
  enter,
  expect,
  moveClock,
  runOf,
  stepsOf,
  untilRun,
  untilStep,
} from './test-support.ts';
import { runnerOf } from './wake.ts';

let h: AutomationsTest;
beforeAll(async () => {
  h = await automationsApp();
});
afterAll(() => h?.close());

/** Swaps a block kind's executor for the test's (restored after). */
async function withExecutor<T>(kind: keyof typeof ACTIONS, fn: ActionExecutor, work: () => Promise<T>) {
  const original = ACTIONS[kind];
  ACTIONS[kind] = fn;
  try {
    return await work();
  } finally {
    ACTIONS[kind] = original;
  }
}

const twoWaits = () =>
  chain(
    block('w1', 'Wait', { amount: 1, unit: 'minutes' }),
    block('w2', 'Wait', { amount: 2, unit: 'hours' }),
  );

describe('a journey', () => {
  it('walks its blocks on the engine clock: each wait durable until its time, then completed', async () => {
    const id = await addAutomation(h, { blocks: twoWaits() });
    const [contact] = await addContacts(h, { count: 1, first: 1 });
    const [runId] = await enter(h, id, [contact as number]);
    expect(runId).toBeDefined();
    const run = runId as number;
    await untilRun(h, run, 'waiting', 'w1');
    const [s1] = await stepsOf(h, run);
    expect(s1).toMatchObject({ seq: 1, block_id: 'w1', status: 'waiting', attempts: 1 });
    expect((s1?.due_at as Date).getTime()).toBe(h.clock.now() + 60_000);
    await moveClock(h, 59_000);
    expect((await runOf(h, run)).current_block).toBe('w1');
    await moveClock(h, 1_000);
    await untilRun(h, run, 'waiting', 'w2');
    await moveClock(h, 2 * 3_600_000);
    await untilRun(h, run, 'completed', null);
    const steps = await stepsOf(h, run);
    expect(steps.map((s) => [s.seq, s.block_id, s.status, s.output, s.attempts])).toEqual([
      [1, 'w1', 'done', 'next', 1],
      [2, 'w2', 'done', 'next', 1],
    ]);
    // The views the API shows.
    const view = await getRun(h.ctx, { id: run });
    expect(view).toMatchObject({ status: 'completed', current_block: null, trigger: 'direct-call' });
    expect(view.steps).toHaveLength(2);
    const list = await listRuns(h.ctx, { automationId: id, page: 1, perPage: 10 });
    expect(list.meta.total).toBe(1);
    expect(list.data[0]).toMatchObject({ id: run, contact_id: contact, automation_name: 'Journey' });
    expect((await blockCounts(h.ctx, { automationId: id })).data).toEqual([
      { block_id: 'w1', at: 0, passed: 1 },
      { block_id: 'w2', at: 0, passed: 1 },
    ]);
  });

  it('counts contacts at each block and lists runs by status and block', async () => {
    const id = await addAutomation(h, { blocks: twoWaits() });
    const contacts = await addContacts(h, { count: 3, first: 10 });
    const runs = await enter(h, id, contacts);
    for (const r of runs) await untilRun(h, r, 'waiting', 'w1');
    expect((await blockCounts(h.ctx, { automationId: id })).data).toEqual([
      { block_id: 'w1', at: 3, passed: 0 },
    ]);
    const list = await listRuns(h.ctx, {
      automationId: id,
      status: 'waiting',
      block_id: 'w1',
      page: 1,
      perPage: 2,
    });
    expect(list.meta.total).toBe(3);
    expect(list.data).toHaveLength(2);
    await expect(getRun(h.ctx, { id: 999_999 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('entering', () => {
  it('is idempotent by entry key and makes one run per contact', async () => {
    const id = await addAutomation(h, { blocks: twoWaits(), options: { reentry: 'always' } });
    const [c] = await addContacts(h, { count: 1, first: 20 });
    const first = await enter(h, id, [{ contactId: c as number, entryKey: 'call-1' }]);
    const again = await enter(h, id, [
      { contactId: c as number, entryKey: 'call-1' },
      { contactId: c as number, entryKey: 'call-1' },
    ]);
    expect(first).toHaveLength(1);
    expect(again).toEqual([]);
    const rows = await h.q('select id from automation_runs where automation_id = $1', [id]);
    expect(rows).toHaveLength(1);
  });

  it('follows the re-entry rule: never, after_finish, always (one live journey at a time)', async () => {
    const contacts = await addContacts(h, { count: 3, first: 30 });
    for (const [i, reentry] of (['never', 'after_finish', 'always'] as const).entries()) {
      const id = await addAutomation(h, { blocks: [block('w', 'Wait')], options: { reentry } });
      const c = contacts[i] as number;
      const [run] = await enter(h, id, [{ contactId: c, entryKey: 'a' }]);
      await untilRun(h, run as number, 'waiting');
      // While the journey runs nobody enters again, whatever the rule.
      expect(await enter(h, id, [{ contactId: c, entryKey: 'b' }])).toEqual([]);
      await moveClock(h, 1000);
      await untilRun(h, run as number, 'completed');
      const after = await enter(h, id, [{ contactId: c, entryKey: 'c' }]);
      expect(after.length, reentry).toBe(reentry === 'never' ? 0 : 1);
    }
  });

  it('starts nothing for an inactive or deleted automation, or one without blocks', async () => {
    const [c] = await addContacts(h, { count: 1, first: 40 });
    const inactive = await addAutomation(h, { blocks: twoWaits(), active: false });
    const deleted = await addAutomation(h, { blocks: twoWaits() });
    await h.q('update automations set deleted_at = now() where id = $1', [deleted]);
    const empty = await addAutomation(h, { blocks: [] });
    const otherBusiness = await addAutomation(h, { blocks: twoWaits(), tenant: 'b' });
    for (const id of [inactive, deleted, empty, otherBusiness])
      expect(await enter(h, id, [c as number])).toEqual([]);
  });

  it('enters 2,000 contacts in one statement', async () => {
    const id = await addAutomation(h, { blocks: [block('w', 'Wait', { amount: 1, unit: 'days' })] });
    const contacts = await addContacts(h, { count: 2000, first: 0, prefix: '+1415800' });
    const started = Date.now();
    const runs = await enter(h, id, contacts);
    expect(runs).toHaveLength(2000);
    expect(Date.now() - started).toBeLessThan(5000);
    await expect
      .poll(async () => (await blockCounts(h.ctx, { automationId: id })).data[0]?.at, { timeout: 20_000 })
      .toBe(2000);
    await expect
      .poll(
        async () =>
          (
            await h.q<{ n: number }>(
              "select count(*)::int as n from automation_runs where automation_id = $1 and status = 'waiting'",
              [id],
            )
          )[0]?.n,
        { timeout: 20_000 },
      )
      .toBe(2000);
  });
});

describe('steps', () => {
  it('retries a failing step with backoff, with the same key, then goes on', async () => {
    const keys: string[] = [];
    const fn: ActionExecutor = async (input) => {
      keys.push(input.step.key);
      if (input.step.attempt < 3) return { kind: 'fail', error: 'busy', retry: true, retryAfterMs: 30_000 };
      return { kind: 'next', detail: { ok: true } };
    };
    await withExecutor('Alert', fn, async () => {
      const id = await addAutomation(h, {
        blocks: chain(block('al', 'Alert', { channels: ['task'], message: 'Hi' }), block('w', 'Wait')),
      });
      const [c] = await addContacts(h, { count: 1, first: 50 });
      const [run] = (await enter(h, id, [c as number])) as [number];
      await expect.poll(async () => (await stepsOf(h, run))[0]?.attempts).toBe(1);
      await expect.poll(async () => (await stepsOf(h, run))[0]?.status).toBe('pending');
      expect((await stepsOf(h, run))[0]).toMatchObject({ error: 'busy' });
      await moveClock(h, 30_000);
      await expect.poll(async () => (await stepsOf(h, run))[0]?.attempts).toBe(2);
      await moveClock(h, 30_000);
      await untilRun(h, run, 'waiting', 'w');
      expect((await stepsOf(h, run))[0]).toMatchObject({ status: 'done', attempts: 3, detail: { ok: true } });
      expect(new Set(keys)).toEqual(new Set([`automation-step-${run}-1`]));
      expect(keys).toHaveLength(3);
    });
  });

  it('fails the run when attempts run out, or goes on when the step says so', async () => {
    const fn: ActionExecutor = async (input) =>
      input.contact.first_name === 'Ann61'
        ? { kind: 'fail', error: 'gone', continueRun: true }
        : { kind: 'fail', error: 'down', retry: true, retryAfterMs: 1000 };
    await withExecutor('Alert', fn, async () => {
      const id = await addAutomation(h, {
        blocks: chain(block('al', 'Alert', { channels: ['task'], message: 'Hi' }), block('w', 'Wait')),
      });
      const [c1, c2] = await addContacts(h, { count: 2, first: 60 });
      const [r1, r2] = (await enter(h, id, [c1 as number, c2 as number])) as [number, number];
      await untilRun(h, r2, 'waiting', 'w');
      expect((await stepsOf(h, r2))[0]).toMatchObject({ status: 'failed', error: 'gone' });
      for (let i = 0; i < 5; i++) {
        await expect.poll(async () => (await stepsOf(h, r1))[0]?.attempts).toBe(i + 1);
        await moveClock(h, 1000);
      }
      await untilRun(h, r1, 'failed', 'al');
      expect((await stepsOf(h, r1))[0]).toMatchObject({ status: 'failed', attempts: 5, error: 'down' });
    });
  });

  it('retries a step whose executor throws, and rolls back what it wrote', async () => {
    let calls = 0;
    const fn: ActionExecutor = async (input) => {
      calls++;
      await input.ctx.db.execute(
        sql`update contacts set first_name = ${`Changed${calls}`} where id = ${input.contact.id}`,
      );
      if (calls === 1) throw new Error('boom');
      return { kind: 'next' };
    };
    await withExecutor('Alert', fn, async () => {
      const id = await addAutomation(h, {
        blocks: [block('al', 'Alert', { channels: ['task'], message: 'x' })],
      });
      const [c] = await addContacts(h, { count: 1, first: 70 });
      const [run] = (await enter(h, id, [c as number])) as [number];
      await expect.poll(async () => (await stepsOf(h, run))[0]?.error).toBe('boom');
      const [before] = await h.q<{ first_name: string }>('select first_name from contacts where id = $1', [
        c,
      ]);
      expect(before?.first_name).toBe('Ann70');
      await moveClock(h, 2000);
      await untilRun(h, run, 'completed');
      const [after] = await h.q<{ first_name: string }>('select first_name from contacts where id = $1', [c]);
      expect(after?.first_name).toBe('Changed2');
    });
  });

  it('claims again a step left running by a dead worker (attempts + 1, same key)', async () => {
    const seen: { key: string; attempt: number }[] = [];
    const fn: ActionExecutor = async (input) => {
      seen.push({ key: input.step.key, attempt: input.step.attempt });
      return { kind: 'next' };
    };
    await withExecutor('Alert', fn, async () => {
      const id = await addAutomation(h, {
        blocks: [block('al', 'Alert', { channels: ['task'], message: 'x' })],
        active: false,
      });
      await h.q('update automations set active = true where id = $1', [id]);
      const [c] = await addContacts(h, { count: 1, first: 80 });
      // A run whose step a dead worker (id 7, holding no lock) claimed.
      const [run] = await h.q<{ id: string }>(
        `insert into automation_runs (agency_id, business_id, automation_id, contact_id, trigger, entry_key, current_block)
         values ($1, $2, $3, $4, 'direct-call', 'dead', 'al') returning id`,
        [h.seed.a.agency.id, h.seed.a.business.id, id, c],
      );
      const runId = Number(run?.id);
      await h.q(
        `insert into automation_steps (run_id, business_id, automation_id, seq, block_id, type, status, attempts,
                                       claimed_at, claimed_by)
         values ($1, $2, $3, 1, 'al', 'Alert', 'running', 1, now(), 7)`,
        [runId, h.seed.a.business.id, id],
      );
      const runner = runnerOf(h.ctx);
      expect(await runner?.recover()).toBe(1);
      await untilRun(h, runId, 'completed');
      expect(seen).toEqual([{ key: `automation-step-${runId}-1`, attempt: 2 }]);
      // A step running under a live runner's id is left alone.
      const [r2] = await h.q<{ id: string }>(
        `insert into automation_runs (agency_id, business_id, automation_id, contact_id, trigger, entry_key, current_block)
         values ($1, $2, $3, $4, 'direct-call', 'alive', 'al') returning id`,
        [h.seed.a.agency.id, h.seed.a.business.id, id, c],
      );
      await h.q(
        `insert into automation_steps (run_id, business_id, automation_id, seq, block_id, type, status, attempts,
                                       claimed_at, claimed_by)
         values ($1, $2, $3, 1, 'al', 'Alert', 'running', 1, now(), $4)`,
        [Number(r2?.id), h.seed.a.business.id, id, runner?.id],
      );
      expect(await runner?.recover()).toBe(0);
      await h.q("update automation_steps set status = 'skipped' where run_id = $1", [Number(r2?.id)]);
      await h.q("update automation_runs set status = 'stopped' where id = $1", [Number(r2?.id)]);
    });
  });
});

describe('changes under a journey', () => {
  it('fails the run when its contact is deleted or its block edited away; stops it when the automation is deleted', async () => {
    const [c1, c2, c3] = (await addContacts(h, { count: 3, first: 95 })) as [number, number, number];
    const a1 = await addAutomation(h, { blocks: twoWaits() });
    const a2 = await addAutomation(h, { blocks: twoWaits() });
    const a3 = await addAutomation(h, { blocks: twoWaits() });
    const [r1] = (await enter(h, a1, [c1])) as [number];
    const [r2] = (await enter(h, a2, [c2])) as [number];
    const [r3] = (await enter(h, a3, [c3])) as [number];
    for (const r of [r1, r2, r3]) await untilRun(h, r, 'waiting', 'w1');
    await h.q('update contacts set deleted_at = now() where id = $1', [c1]);
    await h.q(`update automations set blocks = blocks - 0 where id = $1`, [a2]);
    await h.q('update automations set deleted_at = now() where id = $1', [a3]);
    await moveClock(h, 60_000);
    await untilRun(h, r1, 'failed');
    expect((await stepsOf(h, r1))[0]).toMatchObject({
      status: 'failed',
      error: 'automations.engine.contact_missing',
    });
    await untilRun(h, r2, 'failed');
    expect((await stepsOf(h, r2))[0]).toMatchObject({
      status: 'failed',
      error: 'automations.engine.block_missing',
    });
    await untilRun(h, r3, 'stopped');
    expect((await stepsOf(h, r3))[0]).toMatchObject({ status: 'skipped' });
  });
});

describe('stopping', () => {
  it('stops the journey: the waiting step skipped, nothing more happens', async () => {
    const id = await addAutomation(h, { blocks: twoWaits() });
    const [c] = await addContacts(h, { count: 1, first: 90 });
    const [run] = (await enter(h, id, [c as number])) as [number];
    await untilRun(h, run, 'waiting', 'w1');
    expect(
      await inTransaction(h.ctx, (tx) => stopRun(tx, { automationId: id, contactId: c as number })),
    ).toBe(true);
    expect(await stopRun(h.ctx, { automationId: id, contactId: c as number })).toBe(false);
    await moveClock(h, 120_000);
    await untilStep(h, run, 1, 'skipped');
    const state = await runOf(h, run);
    expect(state.status).toBe('stopped');
    expect((await stepsOf(h, run)).map((s) => s.status)).toEqual(['skipped']);
    // Stopped, the contact may enter again (after_finish).
    expect(await enter(h, id, [{ contactId: c as number, entryKey: 'again' }])).toHaveLength(1);
  });
});

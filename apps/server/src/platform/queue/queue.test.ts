import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, drainJobs, type TestApp } from '../../../test/helpers.ts';
import { defineEvent, publish } from '../events/events.ts';
import { inTransaction, platformSystemContext } from '../tenancy/context.ts';
import { defineJob, enqueue } from './queue.ts';

// A job and an event that only this file registers: what ran is recorded in memory.
const ran: string[] = [];
const flaky: number[] = [];
const noteJob = defineJob({
  name: 'test.note',
  payload: z.object({ note: z.string() }),
  retry: { limit: 0, delaySeconds: 1, backoff: false },
  async handler(_deps, { note }) {
    ran.push(note);
  },
});
const flakyJob = defineJob({
  name: 'test.flaky',
  payload: z.object({ n: z.number() }),
  retry: { limit: 2, delaySeconds: 1, backoff: false },
  async handler(_deps, { n }, run) {
    flaky.push(run.retryCount);
    if (run.retryCount < 1) throw new Error(`first attempt of ${n} fails`);
  },
});
const noted = defineEvent('test.noted', z.object({ note: z.string() }));
const heard: string[] = [];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      plug: (p) => {
        p.queue.register(noteJob);
        p.queue.register(flakyJob);
        p.events.on(noted, ({ note }) => {
          if (note === 'explode') throw new Error('listener bug');
          heard.push(note);
        });
        p.events.on(noted, ({ note }) => {
          heard.push(`second:${note}`);
        });
      },
    },
  );
});
afterAll(async () => {
  await t?.close();
});

const ctx = () => platformSystemContext(t.app.deps, 'job', 'queue.test');
const jobRows = async (name: string) =>
  (await t.pool.query(`select state, data from pgboss.job where name = $1 order by created_on`, [name])).rows;

describe('jobs', () => {
  it('runs a job enqueued in a committed transaction, exactly when its row committed', async () => {
    await inTransaction(ctx(), async (tx) => {
      await tx.db.execute(sql`select 1`);
      await enqueue(tx, noteJob, { note: 'committed' });
    });
    await drainJobs(t);
    expect(ran).toEqual(['committed']);
    expect(await jobRows('test.note')).toEqual([{ state: 'completed', data: { note: 'committed' } }]);
  });

  it('never runs, nor keeps, a job enqueued in a rolled-back transaction', async () => {
    await expect(
      inTransaction(ctx(), async (tx) => {
        await enqueue(tx, noteJob, { note: 'rolled back' });
        throw new Error('the change fails after the job was enqueued');
      }),
    ).rejects.toThrow('the change fails');
    await drainJobs(t);
    expect(ran).toEqual(['committed']);
    expect((await jobRows('test.note')).map((r) => r.data.note)).toEqual(['committed']);
  });

  it('refuses a payload that does not match the job schema, and enqueues nothing', async () => {
    await expect(enqueue(ctx(), noteJob, { note: 5 } as unknown as { note: string })).rejects.toThrow();
    expect(await jobRows('test.note')).toHaveLength(1);
  });

  it('retries a failing job until it succeeds', async () => {
    await enqueue(ctx(), flakyJob, { n: 1 });
    await drainJobs(t, 20_000);
    expect(flaky).toEqual([0, 1]);
    expect((await jobRows('test.flaky'))[0].state).toBe('completed');
  });
});

describe('domain events', () => {
  it('reaches the listeners only after commit, and a failing listener breaks nothing', async () => {
    const result = await inTransaction(ctx(), async (tx) => {
      publish(tx, noted, { note: 'hello' });
      publish(tx, noted, { note: 'explode' });
      // Not yet: the transaction has not committed.
      expect(heard).toEqual([]);
      return 'done';
    });
    expect(result).toBe('done');
    expect(heard).toEqual(['hello', 'second:hello', 'second:explode']);
  });

  it('reaches no listener from a rolled-back transaction', async () => {
    heard.length = 0;
    await expect(
      inTransaction(ctx(), async (tx) => {
        publish(tx, noted, { note: 'never' });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard).toEqual([]);
  });

  it('refuses a payload that does not match the event schema', () => {
    expect(() => publish(ctx(), noted, { note: 1 } as unknown as { note: string })).toThrow();
  });
});

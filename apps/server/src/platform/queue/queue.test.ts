import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, drainJobs, type TestApp } from '../../../test/helpers.ts';
import { defineEvent, publish } from '../events/events.ts';
import { inTransaction, platformSystemContext } from '../tenancy/context.ts';
import { createQueue, defineJob, enqueue, JOB_SCHEMA } from './queue.ts';

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
// Looked for only every five minutes: within a test, only the database's notification of new jobs wakes it.
const quiet: string[] = [];
const quietJob = defineJob({
  name: 'test.quiet',
  payload: z.object({ note: z.string() }),
  retry: { limit: 0, delaySeconds: 1, backoff: false },
  pollSeconds: 300,
  async handler(_deps, { note }) {
    quiet.push(note);
  },
});
// Started later or retried, and looked for only every five minutes (ADR 120): only the announcement of when
// each may start wakes them within a test. The time each ran is kept.
const whenRan = new Map<string, number>();
const laterJob = defineJob({
  name: 'test.later',
  payload: z.object({ note: z.string() }),
  retry: { limit: 0, delaySeconds: 1, backoff: false },
  pollSeconds: 300,
  async handler(_deps, { note }) {
    whenRan.set(note, Date.now());
  },
});
const attempts: number[] = [];
const quietFlakyJob = defineJob({
  name: 'test.quiet-flaky',
  payload: z.object({}),
  retry: { limit: 1, delaySeconds: 1, backoff: false },
  pollSeconds: 300,
  async handler(_deps, _p, run) {
    attempts.push(Date.now());
    if (run.retryCount < 1) throw new Error('the first attempt fails');
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
        p.queue.register(quietJob);
        p.queue.register(laterJob);
        p.queue.register(quietFlakyJob);
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

describe('new jobs announced by the database (ADR 106)', () => {
  const WAIT = { timeout: 20_000, interval: 50 };
  /** Sent as another process sends: through the pool, with no wake-up of this process's workers. */
  const sendQuietly = (notes: string[]) =>
    inTransaction(ctx(), async (tx) => {
      for (const note of notes) await t.app.deps.queue.send(tx.db, quietJob, { note });
    });

  it('wakes an idle worker for a job committed elsewhere, and takes every job a transaction added', async () => {
    await sendQuietly(['first']);
    await expect.poll(() => [...quiet], WAIT).toEqual(['first']);
    // Three at once to a worker that takes one at a time: the notification counts them.
    await sendQuietly(['a', 'b', 'c']);
    await expect.poll(() => [...quiet].sort(), WAIT).toEqual(['a', 'b', 'c', 'first']);
    // Each job is completed once its handler has returned: its last note may come a moment before that.
    await expect
      .poll(async () => (await jobRows('test.quiet')).map((r) => r.state), WAIT)
      .toEqual(Array(4).fill('completed'));
  });

  it('announces nothing for a transaction that rolled back', async () => {
    const received: string[] = [];
    const client = await t.pool.connect();
    try {
      client.on('notification', (m) => received.push(m.payload ?? ''));
      await client.query('listen stn_jobs');
      await expect(
        inTransaction(ctx(), async (tx) => {
          await t.app.deps.queue.send(tx.db, quietJob, { note: 'never' });
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      await sendQuietly(['after']);
      await expect.poll(() => [...quiet], WAIT).toContain('after');
      await expect.poll(() => received.filter((r) => r.startsWith('test.quiet ')).length, WAIT).toBe(1);
      expect(received.filter((r) => r.startsWith('test.quiet '))).toEqual([
        expect.stringMatching(/^test\.quiet 1 [0-9a-f-]{36}$/),
      ]);
      expect(quiet).not.toContain('never');
    } finally {
      await client.query('unlisten stn_jobs');
      client.release();
    }
  });

  it('listens again after its connection was cut, and finds what was committed meanwhile', async () => {
    const listenerPid = async () =>
      (
        await t.pool.query<{ pid: number }>(
          `select pid from pg_stat_activity where datname = current_database() and query = 'listen stn_jobs'
             and pid <> pg_backend_pid()`,
        )
      ).rows.map((r) => r.pid);
    const [pid] = await listenerPid();
    expect(pid).toBeGreaterThan(0);
    await t.pool.query('select pg_terminate_backend($1)', [pid]);
    await sendQuietly(['while cut']);
    await expect.poll(() => [...quiet], WAIT).toContain('while cut');
    await expect.poll(async () => (await listenerPid()).filter((p) => p !== pid).length, WAIT).toBe(1);
    await sendQuietly(['after reconnect']);
    await expect.poll(() => [...quiet], WAIT).toContain('after reconnect');
  });
});

describe('jobs that start later announced with their time (ADR 120)', () => {
  const WAIT = { timeout: 20_000, interval: 50 };
  const sendLater = (note: string, startAfter: Date) =>
    inTransaction(ctx(), (tx) => t.app.deps.queue.send(tx.db, laterJob, { note }, { startAfter }));

  it('starts each job sent for later at its time, not before, with no poll', async () => {
    const sent = Date.now();
    const first = new Date(sent + 1_500);
    const second = new Date(sent + 2_500);
    // The later one first: the process's timer moves to the earlier one, then finds the next.
    await sendLater('second', second);
    await sendLater('first', first);
    await expect.poll(() => whenRan.size, WAIT).toBe(2);
    expect(whenRan.get('first')).toBeGreaterThanOrEqual(first.getTime());
    expect(whenRan.get('second')).toBeGreaterThanOrEqual(second.getTime());
    await expect
      .poll(async () => (await jobRows('test.later')).map((r) => r.state), WAIT)
      .toEqual(['completed', 'completed']);
  });

  it("starts a failed job's retry after its delay, with no poll", async () => {
    await inTransaction(ctx(), (tx) => t.app.deps.queue.send(tx.db, quietFlakyJob, {}));
    await expect.poll(() => attempts.length, WAIT).toBe(2);
    const [failed, retried] = attempts as [number, number];
    expect(retried - failed).toBeGreaterThanOrEqual(1_000);
    await expect.poll(async () => (await jobRows('test.quiet-flaky'))[0]?.state, WAIT).toBe('completed');
  });

  it('a process that starts after a job was sent for later starts it at its time', async () => {
    const ranHere: string[] = [];
    const other = defineJob({
      name: 'test.later-elsewhere',
      payload: z.object({ note: z.string() }),
      retry: { limit: 0, delaySeconds: 1, backoff: false },
      pollSeconds: 300,
      async handler(_deps, { note }) {
        ranHere.push(note);
      },
    });
    const setup = createQueue({ db: t.db, log: t.app.deps.log, workers: false });
    setup.register(other);
    await setup.install();
    await inTransaction(ctx(), (tx) =>
      setup.send(tx.db, other, { note: 'sent before' }, { startAfter: new Date(Date.now() + 1_000) }),
    );
    // Nothing in this process works that queue; a new process does, and has heard nothing of the job.
    const q = createQueue({ db: t.db, log: t.app.deps.log, workers: true });
    q.register(other);
    await q.start(t.app.deps);
    try {
      await expect.poll(() => [...ranHere], WAIT).toEqual(['sent before']);
    } finally {
      await q.stop();
    }
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

describe('installing the queues (ADR 113)', () => {
  const job = (name: string, cron?: string, retry = { limit: 1, delaySeconds: 1, backoff: false }) =>
    defineJob({
      name,
      payload: z.object({}),
      retry,
      ...(cron ? { cron } : {}),
      async handler() {},
    });
  const queueOf = (...jobs: ReturnType<typeof job>[]) => {
    const q = createQueue({ db: t.db, log: t.app.deps.log, workers: false });
    for (const j of jobs) q.register(j);
    return q;
  };
  const scheduleOf = async (name: string) =>
    (
      await t.pool.query(`select cron, timezone, updated_on from ${JOB_SCHEMA}.schedule where name = $1`, [
        name,
      ])
    ).rows[0];
  const hasQueue = async (name: string) =>
    (await t.pool.query(`select 1 from ${JOB_SCHEMA}.queue where name = $1`, [name])).rowCount === 1;

  it('creates the queues and schedules that are missing, puts back a changed schedule, leaves the rest', async () => {
    expect(await hasQueue('test.install-a')).toBe(false);
    await queueOf(job('test.install-a', '*/5 * * * *')).install();
    expect(await hasQueue('test.install-a')).toBe(true);
    const first = await scheduleOf('test.install-a');
    expect(first).toMatchObject({ cron: '*/5 * * * *', timezone: 'UTC' });

    // A second process declaring the same: nothing is written again.
    const queueUpdated = async (name: string) =>
      (await t.pool.query(`select updated_on from ${JOB_SCHEMA}.queue where name = $1`, [name])).rows[0]
        ?.updated_on;
    const created = await queueUpdated('test.install-a');
    await queueOf(job('test.install-a', '*/5 * * * *'), job('test.install-b')).install();
    expect((await scheduleOf('test.install-a')).updated_on).toEqual(first.updated_on);
    expect(await queueUpdated('test.install-a')).toEqual(created);
    expect(await hasQueue('test.install-b')).toBe(true);

    // A version that changed the schedule (or a hand edit) gets the declared one back.
    await t.pool.query(`update ${JOB_SCHEMA}.schedule set cron = '0 * * * *' where name = 'test.install-a'`);
    await queueOf(job('test.install-a', '*/5 * * * *')).install();
    expect(await scheduleOf('test.install-a')).toMatchObject({ cron: '*/5 * * * *', timezone: 'UTC' });

    // Retry options declared anew (a setting, or a new version) replace the queue's.
    const retryOf = async (name: string) =>
      (
        await t.pool.query(
          `select retry_limit, retry_delay, retry_backoff from ${JOB_SCHEMA}.queue where name = $1`,
          [name],
        )
      ).rows[0];
    expect(await retryOf('test.install-b')).toEqual({ retry_limit: 1, retry_delay: 1, retry_backoff: false });
    const q = createQueue({ db: t.db, log: t.app.deps.log, workers: false });
    q.register(job('test.install-b', undefined, { limit: 5, delaySeconds: 2, backoff: true }));
    await q.install();
    expect(await retryOf('test.install-b')).toEqual({ retry_limit: 5, retry_delay: 2, retry_backoff: true });
  });

  it("the app's own jobs are all installed when it has started", async () => {
    const { rows } = await t.pool.query(`select name from ${JOB_SCHEMA}.queue`);
    const names = new Set(rows.map((r) => r.name as string));
    for (const name of ['test.note', 'test.flaky', 'test.quiet', 'analytics.sweep'])
      expect(names).toContain(name);
    // The template's queues (made by the same declarations) were found as declared: none was written again.
    const { rows: rewritten } = await t.pool.query(
      `select name from ${JOB_SCHEMA}.queue where updated_on > created_on and name not like 'test.%'`,
    );
    expect(rewritten).toEqual([]);
  });
});

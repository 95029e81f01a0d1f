// Jobs on pg-boss, in the application's own PostgreSQL (schema `pgboss`). A job is defined once (name,
// zod payload, handler, retry options) and enqueued through the caller's database handle: inside a
// transaction the job row is written by that transaction, so a job exists exactly when the data that
// needs it was committed (ADR 015).

import pg from 'pg';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { poolOf, type Tx } from '../db/client.ts';
import type { Deps } from '../deps.ts';
import type { Ctx } from '../tenancy/context.ts';

export type JobRetry = {
  /** Attempts after the first one. */
  limit: number;
  /** Seconds before the first retry; doubled on each retry when `backoff`. */
  delaySeconds: number;
  backoff: boolean;
};

export type JobRun = { id: string; retryCount: number; retryLimit: number; isLastAttempt: boolean };

export type JobDef<S extends z.ZodType = z.ZodType> = {
  name: string;
  payload: S;
  retry: JobRetry;
  /** How many of its jobs one process works at once (1 by default). */
  concurrency?: number;
  /**
   * How often an idle worker looks for due jobs, in seconds (ADR 106, 120): 60 by default. The database
   * announces every job it takes in (a new one, a retry, one sent for later) with when it may start, and
   * each process wakes its workers then, so the look only catches what a lost announcement would miss.
   */
  pollSeconds?: number;
  /** A cron expression (UTC): pg-boss enqueues the job on that schedule, once across all processes. */
  cron?: string;
  /** Builds its own context from the payload: a job is never a pretend user (ADR 012). */
  handler: (deps: Deps, payload: z.infer<S>, run: JobRun) => Promise<void>;
};

export function defineJob<S extends z.ZodType>(def: JobDef<S>): JobDef<S> {
  return def;
}

export type Queue = {
  /** Adds a job definition; its queue is created at start. Before `start` only. */
  register(job: JobDef): void;
  /**
   * Creates the registered jobs' queues and cron schedules that are missing, and puts back the retry
   * options and schedules that differ from the declared ones, working no job (what `start` does first).
   * What is already as declared costs one read: a start on a database that has it makes no DDL.
   * `schedules: false`: the queues only (a cron schedule found at start enqueues its job at once).
   */
  install(opts?: { schedules?: boolean }): Promise<void>;
  start(deps: Deps): Promise<void>;
  stop(): Promise<void>;
  /** Writes the job through `db` (the caller's transaction or the database); `startAfter` delays it. */
  send<S extends z.ZodType>(db: Tx, job: JobDef<S>, payload: z.infer<S>, opts?: SendOptions): Promise<string>;
  /** A job's state (`created` and `retry`: waiting; `active`: being worked), or null when it is gone. */
  state(job: JobDef, id: string): Promise<JobState | null>;
  /** Wakes this process's worker for a queue, so that a fresh job does not wait for the next poll. */
  nudge(name: string): void;
  /**
   * A job of that queue was committed: wakes this process's workers, unless the database's notification
   * of new jobs (ADR 106) is heard here and will.
   */
  committed(name: string): void;
  /** Waits until no job is waiting or running (tests, and a graceful stop); throws after `timeoutMs`. */
  drain(timeoutMs?: number): Promise<void>;
  readonly working: boolean;
};

export type JobState = 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';

/** When a job may start (a scheduled call runs at its time). */
export type SendOptions = { startAfter?: Date };

type PgBossDb = { executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }> };

/**
 * pg-boss's `db` adapter over a Drizzle handle: the pool for the database, the transaction's own
 * connection for a transaction. Drizzle's node-postgres session keeps that connection as `client`.
 */
export function sqlExecutor(db: Tx): PgBossDb {
  const client = (db as unknown as { session?: { client?: pg.Pool | pg.PoolClient } }).session?.client;
  if (!client || typeof client.query !== 'function') {
    throw new Error('queue: the database handle has no node-postgres client');
  }
  return {
    executeSql: async (text, values) => {
      const res = await client.query(text, values as unknown[]);
      return { rows: res.rows };
    },
  };
}

export const JOB_SCHEMA = 'pgboss';
/** The channel on which the database announces new jobs (ADR 106): `name count id` for each queue a statement filled. */
export const JOBS_CHANNEL = 'stn_jobs';
/** An idle worker's look for due jobs when nothing woke it (ADR 120: everything due is announced). */
const POLL_SECONDS = 60;
/** A timer for a job that starts later fires this much after its time (never before the database's clock). */
const LATER_MARGIN_MS = 5;
/** setTimeout's longest wait; a job further off is looked at again then. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;
/** How long a lost notification connection waits before it connects again. */
const LISTEN_RETRY_MS = 1_000;
/** How long jobs announced to a process and not taken by it are still looked for at once. */
const OWED_MS = 10_000;

/**
 * The trigger that announces new jobs (ADR 106, 120): once per statement that inserts jobs, one notification
 * per queue: `name count id`, the count of its jobs that may start now, and ` later` when some start later,
 * the milliseconds until the first of those. pg-boss writes a retry as an insert too (its fail deletes the
 * job and inserts it again in the `retry` state), so a retry is announced with its delay. The notification
 * is sent when the transaction commits, and not at all when it rolls back.
 */
const ANNOUNCE_BODY = `
declare r record;
begin
  -- A job's id makes each statement's notification its own: PostgreSQL sends identical ones once a transaction.
  for r in select name, count(*) filter (where start_after <= now())::int as n, min(id::text) as one,
                  ceil(extract(epoch from min(start_after) filter (where start_after > now()) - clock_timestamp())
                       * 1000)::bigint as later
             from created where state < 'active' group by name loop
    perform pg_notify('${JOBS_CHANNEL}', r.name || ' ' || r.n || ' ' || r.one
      || case when r.later is null then '' else ' ' || greatest(r.later, 0) end);
  end loop;
  return null;
end `;
const ANNOUNCE_JOBS = `
create or replace function ${JOB_SCHEMA}.stn_jobs_created() returns trigger language plpgsql as $$${ANNOUNCE_BODY}$$;
create or replace trigger stn_jobs_created after insert on ${JOB_SCHEMA}.job
  referencing new table as created for each statement execute function ${JOB_SCHEMA}.stn_jobs_created();`;
/**
 * The jobs waiting in each queue, or in one (`and name = $1`): how many may start now, and the milliseconds
 * until the first of the others may (ADR 120). What a process looks at when it (re)connects, and when a
 * timer for a job that starts later fires.
 */
const waitingJobs = (oneQueue: boolean) => `
select name, count(*) filter (where start_after <= now())::int as n,
       ceil(extract(epoch from min(start_after) filter (where start_after > now()) - clock_timestamp()) * 1000)::float8 as later
  from ${JOB_SCHEMA}.job where state < 'active'${oneQueue ? ' and name = $1' : ''} group by name`;
const WAITING = waitingJobs(false);
const WAITING_IN = waitingJobs(true);
/** Whether the trigger is there as this version writes it (a change of it is installed at the next start). */
const ANNOUNCED = `
select exists (select 1 from pg_trigger where tgname = 'stn_jobs_created' and tgrelid = '${JOB_SCHEMA}.job'::regclass)
   and exists (select 1 from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                where n.nspname = '${JOB_SCHEMA}' and p.proname = 'stn_jobs_created' and p.prosrc = $1) as ok`;

/** A job's poll interval (see JobDef.pollSeconds). */
export const pollSecondsOf = (job: JobDef): number => job.pollSeconds ?? POLL_SECONDS;

export function createQueue(opts: { db: Tx; log: Logger; workers: boolean }): Queue {
  const jobs = new Map<string, JobDef>();
  const workerIds = new Map<string, string[]>();
  // pg-boss's stop does not wait for a worker whose fetch is in flight: that fetch may still hand out a
  // job and complete it after stop returned, on a pool its owner is closing. So every pg-boss query and
  // handler is counted, and stop waits until both stay at zero.
  let busy = 0;
  const base = sqlExecutor(opts.db);
  const counted: PgBossDb = {
    executeSql: async (text, values) => {
      busy++;
      try {
        return await base.executeSql(text, values);
      } finally {
        busy--;
      }
    },
  };
  const boss = new PgBoss({
    db: counted,
    schema: JOB_SCHEMA,
    // Cron schedules (jobs with `cron`) and maintenance (expiring stuck jobs, archiving) run where jobs are worked.
    schedule: opts.workers,
    supervise: opts.workers,
  });
  boss.on('error', (err) => opts.log.error({ err }, 'job queue error'));
  let started = false;

  /** Installs the trigger that announces new jobs, once for all processes (it stays with the table). */
  const announceJobs = async () => {
    const installed = async (q: (text: string, values: unknown[]) => Promise<{ rows: unknown[] }>) =>
      ((await q(ANNOUNCED, [ANNOUNCE_BODY])).rows[0] as { ok: boolean } | undefined)?.ok === true;
    if (await installed((text, values) => base.executeSql(text, values))) return;
    const client = await poolOf(opts.db).connect();
    try {
      await client.query('begin');
      await client.query(`select pg_advisory_xact_lock(hashtext('${JOBS_CHANNEL}'))`);
      if (!(await installed((text, values) => client.query(text, values)))) await client.query(ANNOUNCE_JOBS);
      await client.query('commit');
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  };

  // The jobs announced to this process and not yet taken by it, per queue: a worker that finishes one takes
  // the next at once while some are left (a transaction may add several at once). Another process may have
  // taken them: what is left is forgotten OWED_MS after the last announcement.
  const owed = new Map<string, { n: number; at: number }>();
  /** The workers working a job now. */
  const working = new Set<string>();
  const wake = (name: string) => {
    for (const id of workerIds.get(name) ?? []) boss.notifyWorker(id);
  };
  let listener: pg.Client | null = null;
  let listening = false;
  let retry: NodeJS.Timeout | undefined;
  /** Where the next wake-up of each queue's workers begins (see `due`). */
  const turn = new Map<string, number>();
  /** `n` jobs of a queue may start now: as many of its workers look, the idle ones first. */
  const due = (name: string, n: number) => {
    const ids = workerIds.get(name);
    if (!ids?.length || !(n > 0)) return;
    owed.set(name, { n: (owed.get(name)?.n ?? 0) + n, at: Date.now() });
    // The idle workers first; a busy one takes what is left when it finishes (see `owed`). Taken in turn:
    // a worker woken a moment ago may not have fetched yet, and the next job is for another.
    const k = (turn.get(name) ?? 0) % ids.length;
    const order = [...ids.slice(k), ...ids.slice(0, k)];
    for (const id of [...order.filter((i) => !working.has(i)), ...order].slice(0, n)) boss.notifyWorker(id);
    turn.set(name, k + n);
  };
  // A queue's next job that starts later (ADR 120): one timer per queue, at the first such job this process
  // knows of. When it fires, the queue is looked at again: what is due then, and the next one after it.
  const later = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  const startsIn = (name: string, ms: number) => {
    if (!started || !workerIds.has(name) || !Number.isFinite(ms)) return;
    const wait = Math.min(Math.max(0, ms) + LATER_MARGIN_MS, LONGEST_TIMER_MS);
    const at = Date.now() + wait;
    const had = later.get(name);
    if (had && had.at <= at) return;
    if (had) clearTimeout(had.timer);
    const timer = setTimeout(() => {
      later.delete(name);
      void look(name);
    }, wait);
    timer.unref();
    later.set(name, { at, timer });
  };
  /** Reads what waits in one queue, or in all: wakes workers for what is due, a timer for what is not yet. */
  const look = async (name?: string) => {
    try {
      const { rows } = await counted.executeSql(name ? WAITING_IN : WAITING, name ? [name] : []);
      for (const r of rows as { name: string; n: number; later: number | null }[]) {
        due(r.name, r.n);
        if (r.later !== null) startsIn(r.name, r.later);
      }
    } catch (err) {
      // The workers' own look (POLL_SECONDS) finds the queue's jobs while the database is away.
      if (started) opts.log.warn({ err, queue: name }, 'job queue not looked at');
    }
  };
  const heard = (payload: string | undefined) => {
    const [name, count, , after] = (payload ?? '').split(' ');
    if (!name) return;
    due(name, Number(count));
    if (after !== undefined) startsIn(name, Number(after));
  };
  /**
   * One connection of this process listens for new jobs. While it is down, a job committed here wakes this
   * process's workers directly and the others find it at their poll; it connects again after a second.
   */
  const listen = async () => {
    const client = new pg.Client({ ...(poolOf(opts.db).options as pg.ClientConfig), keepAlive: true });
    const lost = (err?: unknown) => {
      if (listener !== client) return;
      // Said once when a working connection is lost, not at each failed attempt while the database is away.
      if (listening) opts.log.warn({ err }, 'job notifications lost; connecting again every second');
      listener = null;
      listening = false;
      client.removeAllListeners('notification');
      void client.end().catch(() => undefined);
      if (started) retry = setTimeout(() => void listen(), LISTEN_RETRY_MS);
    };
    listener = client;
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (m) => heard(m.payload));
    try {
      await client.connect();
      await client.query(`listen ${JOBS_CHANNEL}`);
      if (listener === client) listening = true;
      // Jobs committed while no one listened, and the ones that start later: one look at every queue.
      if (workerIds.size) await look();
    } catch (err) {
      lost(err);
    }
  };

  return {
    get working() {
      return opts.workers;
    },
    register(job) {
      if (started) throw new Error(`queue: ${job.name} registered after start`);
      if (jobs.has(job.name)) throw new Error(`queue: ${job.name} registered twice`);
      jobs.set(job.name, job);
    },
    async install({ schedules: withSchedules = true } = {}) {
      const [queues, schedules] = await Promise.all([
        base.executeSql(`select name, retry_limit, retry_delay, retry_backoff from ${JOB_SCHEMA}.queue`, []),
        base.executeSql(`select name, cron, timezone from ${JOB_SCHEMA}.schedule`, []),
      ]);
      const retryOf = (r: { limit: number; delaySeconds: number; backoff: boolean }) =>
        `${r.limit} ${r.delaySeconds} ${r.backoff}`;
      const have = new Map(
        (
          queues.rows as { name: string; retry_limit: number; retry_delay: number; retry_backoff: boolean }[]
        ).map((r) => [
          r.name,
          retryOf({ limit: r.retry_limit, delaySeconds: r.retry_delay, backoff: r.retry_backoff }),
        ]),
      );
      const scheduled = new Map(
        (schedules.rows as { name: string; cron: string; timezone: string }[]).map((r) => [
          r.name,
          `${r.cron} ${r.timezone}`,
        ]),
      );
      for (const job of jobs.values()) {
        const options = {
          retryLimit: job.retry.limit,
          retryDelay: job.retry.delaySeconds,
          retryBackoff: job.retry.backoff,
        };
        // Only what is missing or differs is written: a start on a database that has the queues as
        // declared makes no DDL (pg-boss's create_queue leaves a queue that exists as it was).
        const had = have.get(job.name);
        if (had === undefined) await boss.createQueue(job.name, { name: job.name, ...options });
        else if (had !== retryOf(job.retry)) await boss.updateQueue(job.name, { name: job.name, ...options });
        // An upsert by name: every process may declare it, pg-boss enqueues each occurrence once.
        if (withSchedules && job.cron && scheduled.get(job.name) !== `${job.cron} UTC`)
          await boss.schedule(job.name, job.cron, {}, { tz: 'UTC' });
      }
    },
    async start(deps) {
      await boss.start();
      started = true;
      await announceJobs();
      await this.install();
      if (!opts.workers) return;
      await listen();
      for (const job of jobs.values()) {
        const ids: string[] = [];
        workerIds.set(job.name, ids);
        // One pg-boss worker per concurrent job: each fetches and works one job at a time.
        for (let k = 0; k < Math.max(1, job.concurrency ?? 1); k++) {
          const self: string = await boss.work<unknown>(
            job.name,
            { pollingIntervalSeconds: pollSecondsOf(job), batchSize: 1, includeMetadata: true },
            async ([j]) => {
              if (!j) return;
              const announced = owed.get(job.name);
              // Taken against an announcement still owed; else found by a look of its own (a poll, a backlog
              // older than OWED_MS), and the queue may hold more.
              const wasOwed = announced !== undefined && Date.now() - announced.at < OWED_MS;
              if (announced && --announced.n <= 0) owed.delete(job.name);
              const payload = job.payload.parse(j.data);
              const run = {
                id: j.id,
                retryCount: j.retryCount,
                retryLimit: j.retryLimit,
                isLastAttempt: j.retryCount >= j.retryLimit,
              };
              busy++;
              working.add(self);
              try {
                await job.handler(deps, payload, run);
              } catch (err) {
                opts.log.warn({ err, job: job.name, id: j.id, attempt: j.retryCount + 1 }, 'job failed');
                throw err;
              } finally {
                busy--;
                working.delete(self);
                // More jobs were announced than this process has taken: the next one at once.
                const left = owed.get(job.name);
                if (left && Date.now() - left.at < OWED_MS) boss.notifyWorker(self);
                else {
                  owed.delete(job.name);
                  // A job nothing announced: the next look at once, not at the next poll.
                  if (!wasOwed) boss.notifyWorker(self);
                }
              }
            },
          );
          ids.push(self);
        }
      }
      // The jobs that start later (a scheduled call, a retry) get their timers.
      await look();
    },
    async stop() {
      if (!started) return;
      started = false;
      clearTimeout(retry);
      for (const { timer } of later.values()) clearTimeout(timer);
      later.clear();
      const l = listener;
      listener = null;
      listening = false;
      await l?.end().catch(() => undefined);
      // Our pool is closed by its owner; pg-boss only lets the jobs in flight finish.
      await boss.stop({ graceful: true, wait: true, close: false, timeout: 10_000 });
      const until = Date.now() + 10_000;
      let idle = 0;
      while (idle < 3 && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 30));
        idle = busy === 0 ? idle + 1 : 0;
      }
    },
    async send(db, job, payload, sendOpts) {
      const known = jobs.get(job.name);
      if (!known) throw new Error(`queue: ${job.name} is not registered`);
      const data = job.payload.parse(payload) as object;
      const id = await boss.send(job.name, data, {
        db: sqlExecutor(db),
        ...(sendOpts?.startAfter ? { startAfter: sendOpts.startAfter } : {}),
      });
      if (!id) throw new Error(`queue: ${job.name} was not enqueued`);
      return id;
    },
    async state(job, id) {
      return (await boss.getJobById(job.name, id))?.state ?? null;
    },
    nudge(name) {
      wake(name);
    },
    committed(name) {
      if (!listening) wake(name);
    },
    async drain(timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      const executor = sqlExecutor(opts.db);
      for (;;) {
        const { rows } = await executor.executeSql(
          `select name, count(*)::int as n from ${JOB_SCHEMA}.job
            where state in ('created', 'retry', 'active') group by name`,
          [],
        );
        if (rows.length === 0) return;
        for (const r of rows as { name: string }[]) this.nudge(r.name);
        if (Date.now() > until) throw new Error(`queue: jobs still pending: ${JSON.stringify(rows)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

/**
 * Enqueues `job` in the context's transaction when it runs in one (the job exists only if that
 * transaction commits), and wakes the local worker once the data is committed.
 */
export async function enqueue<S extends z.ZodType>(
  ctx: Ctx,
  job: JobDef<S>,
  payload: z.infer<S>,
  opts?: SendOptions,
): Promise<string> {
  const queue = ctx.deps.queue;
  const id = await queue.send(ctx.db, job, payload, opts);
  ctx.afterCommit(() => queue.committed(job.name));
  return id;
}

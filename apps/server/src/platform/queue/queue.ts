// Jobs on pg-boss, in the application's own PostgreSQL (schema `pgboss`). A job is defined once (name,
// zod payload, handler, retry options) and enqueued through the caller's database handle: inside a
// transaction the job row is written by that transaction, so a job exists exactly when the data that
// needs it was committed (ADR 015).

import type pg from 'pg';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Tx } from '../db/client.ts';
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
  start(deps: Deps): Promise<void>;
  stop(): Promise<void>;
  /** Writes the job through `db` (the caller's transaction or the database); `startAfter` delays it. */
  send<S extends z.ZodType>(db: Tx, job: JobDef<S>, payload: z.infer<S>, opts?: SendOptions): Promise<string>;
  /** A job's state (`created` and `retry`: waiting; `active`: being worked), or null when it is gone. */
  state(job: JobDef, id: string): Promise<JobState | null>;
  /** Wakes this process's worker for a queue, so that a fresh job does not wait for the next poll. */
  nudge(name: string): void;
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
const POLL_SECONDS = 1;

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

  return {
    get working() {
      return opts.workers;
    },
    register(job) {
      if (started) throw new Error(`queue: ${job.name} registered after start`);
      if (jobs.has(job.name)) throw new Error(`queue: ${job.name} registered twice`);
      jobs.set(job.name, job);
    },
    async start(deps) {
      await boss.start();
      started = true;
      for (const job of jobs.values()) {
        await boss.createQueue(job.name, {
          name: job.name,
          retryLimit: job.retry.limit,
          retryDelay: job.retry.delaySeconds,
          retryBackoff: job.retry.backoff,
        });
        // An upsert by name: every process may declare it, pg-boss enqueues each occurrence once.
        if (job.cron) await boss.schedule(job.name, job.cron, {}, { tz: 'UTC' });
        if (!opts.workers) continue;
        const ids: string[] = [];
        // One pg-boss worker per concurrent job: each fetches and works one job at a time.
        for (let k = 0; k < Math.max(1, job.concurrency ?? 1); k++)
          ids.push(
            await boss.work<unknown>(
              job.name,
              { pollingIntervalSeconds: POLL_SECONDS, batchSize: 1, includeMetadata: true },
              async ([j]) => {
                if (!j) return;
                const payload = job.payload.parse(j.data);
                const run = {
                  id: j.id,
                  retryCount: j.retryCount,
                  retryLimit: j.retryLimit,
                  isLastAttempt: j.retryCount >= j.retryLimit,
                };
                busy++;
                try {
                  await job.handler(deps, payload, run);
                } catch (err) {
                  opts.log.warn({ err, job: job.name, id: j.id, attempt: j.retryCount + 1 }, 'job failed');
                  throw err;
                } finally {
                  busy--;
                }
              },
            ),
          );
        workerIds.set(job.name, ids);
      }
    },
    async stop() {
      if (!started) return;
      started = false;
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
      for (const id of workerIds.get(name) ?? []) boss.notifyWorker(id);
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
  ctx.afterCommit(() => queue.nudge(job.name));
  return id;
}

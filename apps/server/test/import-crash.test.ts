// Issue 17 (ADR 052): a CSV import whose worker process is killed (SIGKILL) half-way does not sit
// `running` until pg-boss expires its job 15 minutes later: the next process that works jobs sees it
// stalled (no progress for IMPORT_STALL_SECONDS) and resumes it from its last written chunk, with no
// contact written twice; an import that keeps stalling ends `failed` with a message.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IMPORT_RESUMES, resumeStalledImports } from '../src/modules/contacts/import.ts';
import { serverEntry } from './child-server.ts';
import { bearer, createTestApp, login, type Seed, seedTenants, type TestApp } from './helpers.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stn-import-crash-'));
let t: TestApp;
let seed: Seed;
let token: string;
const children: ChildProcess[] = [];
const ROWS = 10_000;

function startWorker(): { child: ChildProcess; out: () => string; started: Promise<void> } {
  let out = '';
  const child = spawn(process.execPath, serverEntry('worker'), {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: t.config.databaseUrl ?? '',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      IMPORT_STALL_SECONDS: '2',
    },
  });
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  children.push(child);
  // Working jobs: on a busy machine a worker may take long to start, and the import's progress is waited
  // for from then on (a state, not a time).
  const started = new Promise<void>((resolve, reject) => {
    const check = () => {
      if (out.includes('worker started')) resolve();
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.once('exit', (code, signal) => reject(new Error(`the worker exited (${code ?? signal}):\n${out}`)));
  });
  return { child, out: () => out, started };
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

const progress = async (id: number) =>
  (await t.pool.query('select status, processed, resumes from contact_imports where id = $1', [id]))
    .rows[0] as {
    status: string;
    processed: number;
    resumes: number;
  };

/**
 * Waits until the import is done, for as long as it makes progress: it fails when `processed` has not moved
 * for a minute (a worker that never resumes it, or stalls again), not because a busy machine is slow.
 */
async function untilDone(id: number, out: () => string, stallMs = 60_000): Promise<void> {
  let last = -1;
  let movedAt = Date.now();
  for (;;) {
    const p = await progress(id);
    if (p.status === 'done') return;
    if (p.processed !== last) {
      last = p.processed;
      movedAt = Date.now();
    } else if (Date.now() - movedAt > stallMs) {
      throw new Error(`the import stopped at ${p.processed} rows (${p.status}):\n${out()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A CSV import through the API (this process only enqueues it); its id. */
async function startImport(csv: string): Promise<number> {
  const started = await t.app.inject({
    method: 'POST',
    url: '/api/v1/contacts/import',
    headers: bearer(token),
    payload: { csv },
  });
  expect(started.statusCode, started.body).toBe(200);
  return started.json().import_id as number;
}

beforeAll(async () => {
  // The API process only enqueues: the import is worked by the child worker processes.
  t = await createTestApp({ WORKERS: 'off', IMPORT_STALL_SECONDS: '2' });
  seed = await seedTenants(t.db);
  token = await login(t.app, seed.a.businessAdmin.email);
});
afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited(child);
    }
  }
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('an import killed mid-way', () => {
  it('is resumed by the next worker from where it stopped: every row once, no duplicate contacts', async () => {
    const lines = ['phone,first_name,last_name,tags'];
    for (let i = 0; i < ROWS; i++)
      lines.push(`+1500${String(6_000_000 + i).padStart(7, '0')},First${i},Last${i},"t${i % 7},all"`);
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/v1/contacts/import',
      headers: bearer(token),
      payload: { csv: lines.join('\n') },
    });
    expect(started.statusCode, started.body).toBe(200);
    const id = started.json().import_id as number;

    const first = startWorker();
    await first.started;
    // Killed once it has written some chunks, before it is done.
    await expect
      .poll(async () => (await progress(id)).processed, { timeout: 300_000, interval: 10 })
      .toBeGreaterThan(0);
    first.child.kill('SIGKILL');
    await exited(first.child);
    const atKill = await progress(id);
    expect(atKill.status, first.out()).toBe('running');
    expect(atKill.processed).toBeLessThan(ROWS);

    const second = startWorker();
    await second.started;
    await untilDone(id, second.out);
    expect((await progress(id)).resumes).toBeGreaterThanOrEqual(1);
    expect(second.out()).toContain('resuming');

    const status = await t.app.inject({ url: `/api/v1/contacts/import/${id}`, headers: bearer(token) });
    expect(status.json()).toMatchObject({
      status: 'done',
      processed: ROWS,
      imported: ROWS,
      skipped: 0,
      updated: 0,
      errors: [],
      duplicate_rows: [],
    });
    const counts = (
      await t.pool.query(
        `select count(*)::int as n, count(distinct phone)::int as phones from contacts where business_id = $1`,
        [seed.a.business.id],
      )
    ).rows[0];
    expect(counts).toEqual({ n: ROWS, phones: ROWS });
    const links = (
      await t.pool.query(
        `select count(*)::int as n from contact_tags ct join tags g on g.id = ct.tag_id where g.name = 'all'`,
      )
    ).rows[0];
    expect(links.n).toBe(ROWS);
    second.child.kill('SIGTERM');
    await exited(second.child);
  }, 600_000);

  it('ends failed with a message that says how far it got once it has stalled too often', async () => {
    const id = await startImport('phone\n+15005557001\n+15005557002\n');
    // As a worker that died on it again and again would leave it.
    await t.pool.query(
      `update contact_imports set status = 'running', processed = 1, resumes = $2,
        updated_at = now() - interval '1 minute' where id = $1`,
      [id, MAX_IMPORT_RESUMES],
    );
    expect(await resumeStalledImports(t.app.deps)).toBeGreaterThanOrEqual(1);
    const status = await t.app.inject({ url: `/api/v1/contacts/import/${id}`, headers: bearer(token) });
    expect(status.json()).toMatchObject({
      status: 'failed',
      errors: [
        {
          line: 0,
          message:
            'The import was interrupted too often and stopped after 1 of 2 rows. The rows before were imported; import the rest again.',
        },
      ],
    });
  });

  it('is not failed while the job that resumes it waits in a busy queue, and is worked once a worker is free', async () => {
    const id = await startImport('phone\n+15005557101\n+15005557102\n');
    const waiting = async () =>
      (
        await t.pool.query(
          `select count(*)::int as n from pgboss.job
            where name = 'contacts.import' and state in ('created', 'retry') and data->>'importId' = $1`,
          [String(id)],
        )
      ).rows[0].n as number;
    // Its worker died after writing the first row. Then, check after check, the job that resumes it waits
    // in the queue (this process works no jobs): no heartbeat comes while the time goes by.
    await t.pool.query(
      `update contact_imports set status = 'running', processed = 1,
        updated_at = now() - interval '1 minute' where id = $1`,
      [id],
    );
    const before = await waiting();
    for (let check = 0; check < MAX_IMPORT_RESUMES + 2; check++) {
      await resumeStalledImports(t.app.deps);
      await t.pool.query(
        `update contact_imports set updated_at = updated_at - interval '1 minute' where id = $1`,
        [id],
      );
    }
    // Taken over once, one job enqueued for it, and still running.
    expect(await progress(id)).toMatchObject({ status: 'running', processed: 1, resumes: 1 });
    expect(await waiting()).toBe(before + 1);

    // A worker comes: the import is finished from its second row.
    const worker = startWorker();
    await worker.started;
    await expect
      .poll(async () => (await progress(id)).status, { timeout: 300_000, interval: 100 })
      .toBe('done');
    const status = await t.app.inject({ url: `/api/v1/contacts/import/${id}`, headers: bearer(token) });
    expect(status.json()).toMatchObject({ status: 'done', processed: 2, imported: 1, errors: [] });
    worker.child.kill('SIGTERM');
    await exited(worker.child);
  }, 600_000);
});

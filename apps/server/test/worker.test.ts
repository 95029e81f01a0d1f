import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverEntry } from './child-server.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { type SmtpSink, startSmtpSink } from './smtp-sink.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stn-worker-'));
let t: TestApp;
let worker: ChildProcess | undefined;
let out = '';
// Mail is the job: with SMTP it is delivered by the mail job (without, it is stored at once: ADR 109).
let smtp: SmtpSink;
let smtpUrl = '';

beforeAll(async () => {
  smtp = await startSmtpSink();
  smtpUrl = `smtp://127.0.0.1:${smtp.port}`;
  // An API process that only enqueues.
  t = await createTestApp({ WORKERS: 'off', SMTP_URL: smtpUrl });
});
afterAll(async () => {
  if (worker && worker.exitCode === null && worker.signalCode === null) {
    await new Promise((resolve) => {
      worker?.on('exit', resolve);
      worker?.kill('SIGTERM');
    });
  }
  await t?.close();
  await smtp?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const status = async () =>
  (await t.pool.query(`select status from mail_outbox where "to" = 'w@example.test'`)).rows[0]?.status;

describe('npm run worker', () => {
  it('an API process with WORKERS=off leaves jobs to a separate worker process, which works them', async () => {
    await t.app.deps.mailer.send({ to: 'w@example.test', subject: 'Hi', text: 'Body' });
    // Nobody works jobs in this process.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await status()).toBe('queued');

    const url = new URL(t.config.databaseUrl ?? '');
    worker = spawn(process.execPath, serverEntry('worker'), {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: url.toString(),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        SMTP_URL: smtpUrl,
      },
    });
    worker.stdout?.on('data', (d) => (out += d));
    worker.stderr?.on('data', (d) => (out += d));
    await expect.poll(status, { timeout: 30_000, interval: 200 }).toBe('sent');
    expect(smtp.received.map((m) => m.to)).toEqual([['w@example.test']]);
    await expect.poll(() => out, { timeout: 10_000 }).toContain('worker started');

    const code = await new Promise<number | null>((resolve) => {
      worker?.on('exit', resolve);
      worker?.kill('SIGTERM');
    });
    expect(code, out).toBe(0);
  });
});

// A separate worker process on the API server's sandbox (ADR 063): the API process (WORKERS=off) holds the
// sandbox and listens; a child `npm run worker` with CARRIER_SANDBOX_URL works a scheduled message's job and
// sends it through the API process's sandbox, whose own record has it, with the status callbacks played out.
import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreSandboxNumbers } from '../src/modules/telephony/service.ts';
import { type Telephony, telephonyApp } from '../src/modules/telephony/testing.ts';
import { JOB_SCHEMA } from '../src/platform/queue/queue.ts';
import { platformSystemContext } from '../src/platform/tenancy/context.ts';
import { bearer } from './helpers.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stn-worker-sandbox-'));
// One key for both processes: the worker opens the agency's sealed carrier token.
const SECRETS_KEY = crypto.randomBytes(32).toString('base64');
const PHONE = '+14155550977';

let h: Telephony;
let base = '';
let number = '';
let worker: ChildProcess | undefined;
let out = '';

const rows = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;

beforeAll(async () => {
  h = await telephonyApp({ WORKERS: 'off', SECRETS_KEY });
  await h.t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = h.t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  base = `http://127.0.0.1:${address.port}`;
  const install = await h.install();
  [{ phone_number: number }] = await rows('select phone_number from numbers where install_id = $1', [
    install.id,
  ]);
  await restoreSandboxNumbers(platformSystemContext(h.t.app.deps, 'job', 'sandbox numbers'));
});
afterAll(async () => {
  // A child ended by a signal keeps exitCode null: its signalCode says it is gone.
  if (worker && worker.exitCode === null && worker.signalCode === null && worker.pid) {
    const exited = new Promise((resolve) => worker?.on('exit', resolve));
    process.kill(-worker.pid, 'SIGTERM');
    await exited;
  }
  await h?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run worker with CARRIER_SANDBOX_URL', () => {
  it("sends a scheduled message through the API server's sandbox", async () => {
    // The phone texts the business first (a conversation the business may answer).
    h.sandbox.phones.sendText(PHONE, number, 'hello');
    await h.run(1000);
    const [contact] = await rows('select id from contacts where business_id = $1 and phone = $2', [
      h.seed.a.business.id,
      PHONE,
    ]);
    expect(contact).toBeDefined();
    const res = await h.t.app.inject({
      method: 'POST',
      url: `/api/v1/chats/contacts/${contact.id}/messages`,
      headers: bearer(await h.token(h.seed.a.businessAdmin.email)),
      payload: { body: 'From the worker', send_at: new Date(Date.now() + 3_600_000).toISOString() },
    });
    expect(res.statusCode, res.body).toBe(200);
    const messageId = res.json().data.id as number;
    // Its time has come; nobody in this process works jobs.
    await rows(
      `update ${JOB_SCHEMA}.job set start_after = now() - interval '1 second' where data->>'messageId' = $1`,
      [String(messageId)],
    );

    worker = spawn('npm', ['run', 'worker'], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: h.t.config.databaseUrl ?? '',
        DATA_DIR: dataDir,
        SECRETS_KEY,
        PUBLIC_URL: 'http://localhost:3000',
        LOG_LEVEL: 'info',
        CARRIER_SANDBOX_URL: base,
      },
      detached: true,
    });
    worker.stdout?.on('data', (d) => (out += d));
    worker.stderr?.on('data', (d) => (out += d));

    const sent = () => h.sandbox.sentMessages({ to: PHONE }).map((m) => [m.from, m.body]);
    await expect.poll(sent, { timeout: 60_000, interval: 200 }).toEqual([[number, 'From the worker']]);
    // The API process's sandbox plays it out and calls the API process back.
    await h.run(3000);
    expect(h.sandbox.phones.get(PHONE).texts.map((t) => t.body)).toContain('From the worker');
    await expect
      .poll(async () => (await rows('select status from messages where id = $1', [messageId]))[0]?.status, {
        timeout: 15_000,
      })
      .toBe('delivered');
    // The job may be worked before the start line reaches this process (pg-boss starts during ready()).
    await expect.poll(() => out, { timeout: 15_000 }).toContain('worker started');

    // Stopped, it shuts down in order (npm itself ends by the signal).
    const child = worker;
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
    const { code, signal } = await exited;
    expect(code === 0 || signal === 'SIGTERM', out).toBe(true);
    await expect.poll(() => out).toContain('worker stopping');
    expect(out).not.toContain('closing the worker failed');
  }, 90_000);
});

import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

/**
 * Node's arguments to run one of the server's entry points as `npm start` runs the server: from this test
 * run's bundle of the sources as they are (apps/server/test/global-setup.ts, ADR 113).
 */
export function serverEntry(entry: 'main' | 'worker' | 'cli'): string[] {
  return ['--enable-source-maps', path.join(inject('serverBundle'), `${entry}.mjs`)];
}

/**
 * Runs the real entry point (as `npm start` does) as a child process with `env` on top of this one's,
 * until it prints that it runs. Crash tests kill it with SIGKILL; the others stop it with SIGTERM.
 */
export async function startChildServer(
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, serverEntry('main'), {
    cwd: root,
    env: { ...process.env, ...env },
  });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), timeoutMs);
    child.stdout?.on('data', () => {
      if (out.includes('Press Ctrl+C to stop')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
  return { child, output: () => out };
}

/**
 * Worker processes (`npm run worker`) for crash tests, working the jobs of a test app that listens on
 * loopback and holds the sandbox: each worker uses the app's database, a data folder of its own, the same
 * `secretsKey` (give it to the app) and the app's sandbox over HTTP (CARRIER_SANDBOX_URL). A worker runs in
 * a process group of its own, so a test kills it whole with `process.kill(-pid, 'SIGKILL')`.
 */
export function workerProcesses(prefix: string) {
  const children: ChildProcess[] = [];
  const secretsKey = crypto.randomBytes(32).toString('base64');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  let base = '';
  let databaseUrl = '';
  return {
    secretsKey,
    /** The app listens on a loopback port: the workers' sandbox and public URL. */
    async listen(t: { app: FastifyInstance; config: { databaseUrl?: string | undefined } }): Promise<void> {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const address = t.app.server.address();
      if (!address || typeof address === 'string') throw new Error('no port');
      base = `http://127.0.0.1:${address.port}`;
      databaseUrl = t.config.databaseUrl ?? '';
    },
    /** Starts a worker (not waited for) with `env` on top; `out()` is what it printed so far. */
    start(env: Record<string, string> = {}): { child: ChildProcess; out: () => string } {
      const child = spawn(process.execPath, serverEntry('worker'), {
        cwd: root,
        env: {
          ...process.env,
          NODE_ENV: 'test',
          DATABASE_URL: databaseUrl,
          DATA_DIR: dataDir,
          SECRETS_KEY: secretsKey,
          LOG_LEVEL: 'warn',
          CARRIER_SANDBOX_URL: base,
          PUBLIC_URL: base,
          ...env,
        },
        detached: true,
      });
      children.push(child);
      let out = '';
      child.stdout?.on('data', (d) => (out += d));
      child.stderr?.on('data', (d) => (out += d));
      return { child, out: () => out };
    },
    /** Kills the workers still running and removes the data folder (a test file's afterAll). */
    close(): void {
      for (const c of children)
        if (c.pid && c.exitCode === null && c.signalCode === null)
          try {
            process.kill(-c.pid, 'SIGKILL');
          } catch {
            // already gone
          }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

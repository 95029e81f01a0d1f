import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');

/**
 * Runs the real entry point (as `npm start` does) as a child process with `env` on top of this one's,
 * until it prints that it runs. Crash tests kill it with SIGKILL; the others stop it with SIGTERM.
 */
export async function startChildServer(
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
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

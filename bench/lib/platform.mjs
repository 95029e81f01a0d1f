// The platform as `npm start` runs it (fresh data folder, embedded PostgreSQL, demo data), in a child process
// on a free loopback port, for the benches that drive it from outside (a browser, plain HTTP).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

/** Starts the platform and resolves once it listens; `stop()` ends it and removes its data folder. */
export async function startPlatform(prefix = 'stn-bench-') {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
    },
  });
  let out = '';
  server.stdout.on('data', (d) => (out += d));
  server.stderr.on('data', (d) => (out += d));
  const stop = async () => {
    if (server.exitCode === null)
      await new Promise((resolve) => {
        server.on('exit', resolve);
        server.kill('SIGTERM');
      });
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 120_000);
      server.stdout.on('data', () => {
        if (out.includes('Press Ctrl+C to stop')) {
          clearTimeout(timer);
          resolve();
        }
      });
      server.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return { port, stop };
}

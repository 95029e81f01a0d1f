// Several processes (issue 27, ADR 098): inbound texts through a round-robin load balancer to one API
// process, then to two, on one PostgreSQL (embedded) and one Redis (127.0.0.1:6379, or REDIS_URL), with a
// worker process beside them. The API processes and the worker are the real entry points
// (apps/server/src/main.ts with WORKERS=off, apps/server/src/worker.ts) on this process's sandbox carrier
// (CARRIER_SANDBOX_URL); the carrier and the business's browser are bench/inbound/client.ts (signed SMS
// webhooks at a steady rate, a tenth delivered twice, and a WebSocket placed by the balancer on either API
// process). Prints, for each run: throughput, latency to the socket, every text stored once and announced
// once, and the CPU a text of the API processes, the worker and PostgreSQL. On two cores expect little
// gain from the second process: the point is that nothing breaks and nothing is counted twice.
// BENCH_MESSAGES (default 3000), BENCH_RPS (default 2000) and BENCH_CONNECTIONS (64) change the load.
import { type ChildProcess, fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { agencyCarrierAccount } from '../../apps/server/src/modules/agencies/service.ts';
import { DEMO_INSTALL_NUMBER } from '../../apps/server/src/modules/telephony/service.ts';
import { freePort } from '../../apps/server/src/platform/db/embedded.ts';
import { type LoadBalancer, startLoadBalancer } from '../../apps/server/test/load-balancer.ts';
import { redisReachable } from '../../apps/server/test/redis.ts';
import type { ClientDone } from '../inbound/client.ts';
import { demoAdminToken, demoBusiness, inProcessPlatform } from '../lib/in-process.ts';
import { postgresCpuMs } from '../lib/postgres-cpu.ts';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 3000);
const RPS = Number(process.env.BENCH_RPS ?? 2000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const PUBLIC = 'http://localhost:3000';
const root = path.resolve(import.meta.dirname, '../..');

if (!(await redisReachable(REDIS_URL))) {
  console.log(`multi-process bench: skipped (needs Redis at ${REDIS_URL}; set REDIS_URL or start one)`);
  process.exit(0);
}

// This process: the database (embedded PostgreSQL, the demo data) and the sandbox carrier, which the API
// processes and the worker reach over HTTP. It takes no webhook of the bench.
const platform = await inProcessPlatform('stn-bench-multi-', { WORKERS: 'off', REDIS_URL });
const { app, database, dataDir } = platform;
await app.listen({ port: 0, host: '127.0.0.1' });
const sandboxBase = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
const demo = await demoBusiness(database.pool);
const account = await agencyCarrierAccount(app.deps, demo.agency_id);
if (!account) throw new Error('no demo carrier account');
const token = await demoAdminToken(app);

const children: ChildProcess[] = [];
const stopAll = () => {
  for (const c of children)
    if (c.pid && c.exitCode === null && c.signalCode === null)
      try {
        process.kill(-c.pid, 'SIGKILL');
      } catch {
        // gone
      }
};
process.on('exit', stopAll);

const shared = {
  NODE_ENV: 'production',
  DATABASE_URL: database.url,
  DATA_DIR: dataDir,
  // The key this process made in its data folder (several processes on one database share one key).
  SECRETS_KEY:
    platform.config.secretsKey?.toString('base64') ??
    fs.readFileSync(path.join(dataDir, 'secrets.key'), 'utf8').trim(),
  REDIS_URL,
  PUBLIC_URL: PUBLIC,
  CARRIER_SANDBOX: 'true',
  CARRIER_SANDBOX_URL: sandboxBase,
  DEMO_DATA: 'false',
  LOG_LEVEL: 'fatal',
};

/** Starts an entry point (its own process group) until it prints `ready`. */
async function start(entry: string, env: Record<string, string>, ready: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: root,
    env: { ...process.env, ...shared, ...env },
    detached: true,
  });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${entry} did not start:\n${out}`)), 90_000);
    const check = () => {
      if (!out.includes(ready)) return;
      clearTimeout(timer);
      resolve();
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.on('exit', (code) => reject(new Error(`${entry} exited (${code}):\n${out}`)));
  });
  return child;
}

const startApi = async () => {
  const port = await freePort();
  const child = await start(
    'apps/server/src/main.ts',
    { WORKERS: 'off', HOST: '127.0.0.1', PORT: String(port) },
    'Press Ctrl+C to stop',
  );
  return { child, base: `http://127.0.0.1:${port}` };
};

/** CPU time (ms) of a process (Linux /proc; 0 elsewhere). */
function cpuMs(pid: number | undefined): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return 0;
  }
}

type Done = ClientDone;

async function run(
  label: string,
  tag: string,
  apis: { child: ChildProcess; base: string }[],
  worker: ChildProcess,
) {
  const lb: LoadBalancer = await startLoadBalancer(apis.map((a) => a.base));
  const client = fork(path.join(root, 'bench/inbound/client.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      BENCH_CLIENT: JSON.stringify({
        port: lb.port,
        token,
        accountSid: account?.accountSid,
        authToken: account?.authToken,
        to: DEMO_INSTALL_NUMBER,
        messages: MESSAGES,
        rps: RPS,
        connections: CONNECTIONS,
        publicUrl: PUBLIC,
        tag,
      }),
    },
  });
  const apiCpu = () => apis.reduce((s, a) => s + cpuMs(a.child.pid), 0);
  let api0 = 0;
  let worker0 = 0;
  let pg0 = 0;
  let lb0 = process.cpuUsage();
  const done = await new Promise<Done>((resolve, reject) => {
    client.on('message', (m: { type: string } & Partial<Done>) => {
      if (m.type === 'start') {
        api0 = apiCpu();
        worker0 = cpuMs(worker.pid);
        pg0 = postgresCpuMs(dataDir);
        lb0 = process.cpuUsage();
      }
      if (m.type === 'done') resolve(m as Done);
    });
    client.on('exit', (code) => code && reject(new Error(`bench client exited with ${code}`)));
  });
  const apiMs = apiCpu() - api0;
  const workerMs = cpuMs(worker.pid) - worker0;
  const pgMs = postgresCpuMs(dataDir) - pg0;
  const lbCpu = process.cpuUsage(lb0);
  const perBackend = apis.map((_, i) => lb.routed.filter((r) => r.backend === i && !r.upgrade).length);
  const socketOn = lb.routed.find((r) => r.upgrade)?.backend;
  await lb.close();
  const { rows } = await database.pool.query(
    `select count(*)::int as n, count(distinct carrier_sid)::int as d,
            count(*) filter (where dup > 1)::int as twice
       from (select carrier_sid, count(*) over (partition by carrier_sid) as dup
               from messages where body like $1) m`,
    [`${tag} message %`],
  );
  const stored = rows[0] as { n: number; d: number; twice: number };
  const per = (ms: number) => (ms / MESSAGES).toFixed(3);
  console.log(`\n-- ${label}`);
  console.log(
    `  throughput ${(MESSAGES / (done.wall / 1000)).toFixed(0)} texts/s (offered ${RPS}/s, all answered in ${(done.wall / 1000).toFixed(1)} s)`,
  );
  console.log(
    `  webhook sent -> new_message on the socket (on API process ${(socketOn ?? 0) + 1}): n=${done.n} median ${done.median.toFixed(1)} ms  p99 ${done.p99.toFixed(1)} ms  max ${done.max.toFixed(1)} ms`,
  );
  console.log(
    `  stored ${stored.n} of ${MESSAGES} (${stored.d} distinct sids, ${stored.twice} stored twice); events for ${done.events}, doubled ${done.doubled}; non-200 answers ${done.failed}; requests per API process (warm-up included) ${perBackend.join(' / ')}`,
  );
  console.log(
    `  CPU a text: API processes ${per(apiMs)} ms + worker ${per(workerMs)} ms + PostgreSQL ${per(pgMs)} ms (balancer and sandbox holder ${per((lbCpu.user + lbCpu.system) / 1000)} ms; carrier and browser client ${per(done.cpuMs)} ms)`,
  );
  const ok = stored.n === MESSAGES && stored.d === MESSAGES && done.doubled === 0 && done.failed === 0;
  console.log(`  nothing lost, nothing counted twice: ${ok ? 'yes' : 'NO'}`);
  return ok;
}

console.log(
  `multi-process bench: ${MESSAGES} signed SMS webhooks at ${RPS}/s (+10% redelivered), ${CONNECTIONS} connections, through a round-robin balancer; Redis ${REDIS_URL}; ${os.cpus().length} cores`,
);
const load0 = os.loadavg();
const [worker, first] = await Promise.all([
  start('apps/server/src/worker.ts', { LOG_LEVEL: 'info' }, 'worker started'),
  startApi(),
]);
const ok1 = await run('one API process (+ a worker)', 'one', [first], worker);
const second = await startApi();
const ok2 = await run('two API processes (+ a worker)', 'two', [first, second], worker);
console.log(
  `\n  load average ${load0.map((l) => l.toFixed(1)).join(' ')} before, ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} after (a busy machine slows every figure but the counts)`,
);
stopAll();
await app.close();
await database.close();
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(ok1 && ok2 ? 0 : 1);

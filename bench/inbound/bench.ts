// Inbound texts (issue 10): signed SMS webhooks (/webhooks/twilio/sms-in) sent at a steady rate over
// loopback HTTP to a real server on 127.0.0.1, with a WebSocket client of the business connected (both
// from a second process, ./client.ts). Prints
// the sustained throughput, the latency from the webhook's send until the client receives its
// `new_message` (median, p99), and counts: every message stored once, every event received once (a tenth
// of the webhooks are delivered twice, as carriers retry). Goal: >= 1,000/s with p99 < 100 ms.
// Also the CPU a text of the server and of PostgreSQL, and the load average (the machine may be shared).
// BENCH_MESSAGES, BENCH_RPS and BENCH_CONNECTIONS change the load.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { agencyCarrierAccount } from '../../apps/server/src/modules/agencies/service.ts';
import { DEMO_INSTALL_NUMBER } from '../../apps/server/src/modules/telephony/service.ts';
import { demoAdminToken, demoBusiness, inProcessPlatform } from '../lib/in-process.ts';
import { sampleLockWaits } from '../lib/lock-waits.ts';
import { postgresCpuMs } from '../lib/postgres-cpu.ts';
import { countStatements, resetStatementTexts, statementsSent, topStatements } from '../lib/statements.ts';
import type { ClientDone } from './client.ts';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 10_000);
const RPS = Number(process.env.BENCH_RPS ?? 1000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const PUBLIC = 'http://localhost:3000';

countStatements();
const platform = await inProcessPlatform('stn-bench-inbound-');
const { app, database, dataDir } = platform;
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as AddressInfo).port;

const demo = await demoBusiness(database.pool);
const found = await agencyCarrierAccount(app.deps, demo.agency_id);
if (!found) throw new Error('no demo carrier account');
const account = found;

// The business's user, signed in, on a WebSocket.
const token = await demoAdminToken(app);
// The carrier and the browser: another process (bench/inbound/client.ts), so that this one's CPU is the
// server's alone, and the two share the machine as a carrier and a server would not.
type Done = ClientDone;
const client = fork(path.join(import.meta.dirname, 'client.ts'), [], {
  execArgv: ['--import', 'tsx'],
  env: {
    ...process.env,
    BENCH_CLIENT: JSON.stringify({
      port,
      token,
      accountSid: account.accountSid,
      authToken: account.authToken,
      to: DEMO_INSTALL_NUMBER,
      messages: MESSAGES,
      rps: RPS,
      connections: CONNECTIONS,
      publicUrl: PUBLIC,
      awaitGo: true,
    }),
  },
});
console.log(
  `inbound bench: ${MESSAGES} signed SMS webhooks at ${RPS}/s (+10% redelivered), ${CONNECTIONS} connections`,
);
// BENCH_PROFILE=file: a V8 CPU profile of the server's measured part (open it in Chrome's DevTools).
const profiler = process.env.BENCH_PROFILE ? new Session() : null;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
}
let cpu0 = process.cpuUsage();
let pg0 = postgresCpuMs(dataDir);
let sql0 = statementsSent();
let stopLockWaits = (): string[] => [];
const load0 = os.loadavg();
const done = await new Promise<Done>((resolve, reject) => {
  client.on('message', (m: { type: string } & Partial<Done>) => {
    // Warmed up: the planner's statistics as autovacuum keeps them on a running install (this database was
    // made empty a moment ago and has since grown many times over, faster than autovacuum's first look).
    if (m.type === 'warmed') void database.pool.query('analyze').then(() => client.send({ type: 'go' }));
    if (m.type === 'start') {
      if (profiler) void profiler.post('Profiler.start');
      // Reading PostgreSQL's CPU walks /proc: done before the server's own reading starts.
      pg0 = postgresCpuMs(dataDir);
      cpu0 = process.cpuUsage();
      sql0 = statementsSent();
      resetStatementTexts();
      stopLockWaits = sampleLockWaits(database.pool);
    }
    if (m.type === 'done') resolve(m as Done);
  });
  client.on('exit', (code) => code && reject(new Error(`bench client exited with ${code}`)));
});
if (profiler) {
  const { profile } = await profiler.post('Profiler.stop');
  fs.writeFileSync(process.env.BENCH_PROFILE as string, JSON.stringify(profile));
}
// The texts' jobs (staff alerts, Zapier, analytics...) are part of their cost: the figures include them,
// taken once no job is waiting or running (at most 60 s).
const lockWaits = stopLockWaits();
const atAnswer = {
  cpu: process.cpuUsage(cpu0),
  pgMs: postgresCpuMs(dataDir) - pg0,
  statements: statementsSent() - sql0,
};
const drainUntil = Date.now() + 60_000;
let pending = -1;
while (Date.now() < drainUntil) {
  const { rows } = await database.pool.query<{ n: number }>(
    `select count(*)::int as n from pgboss.job where state < 'completed' and start_after <= now()`,
  );
  pending = rows[0]?.n ?? 0;
  if (pending === 0) break;
  await new Promise((r) => setTimeout(r, 200));
}
const cpu = process.cpuUsage(cpu0);
const pgMs = postgresCpuMs(dataDir) - pg0;
const statements = statementsSent() - sql0;
const topSql = topStatements(25, MESSAGES);
const wall = done.wall;
const failed = done.failed;
const stored = await database.pool.query(
  `select count(*)::int as n, count(distinct carrier_sid)::int as d from messages where body like 'bench message %'`,
);
const throughput = MESSAGES / (wall / 1000);
// Kept up: every text answered within 5% of the schedule's length (the last one is sent at its end).
const keptUp = wall / 1000 <= (MESSAGES / RPS) * 1.05;
console.log(
  `  throughput ${throughput.toFixed(0)} messages/s (offered ${RPS}/s, all answered in ${(wall / 1000).toFixed(1)} s: ${keptUp ? 'kept up' : 'fell behind'}; goal >= 1000/s sustained: ${keptUp && RPS >= 1000 ? 'met' : 'NOT met'})`,
);
console.log(
  `  webhook sent -> new_message on the socket: n=${done.n} median ${done.median.toFixed(1)} ms  p99 ${done.p99.toFixed(1)} ms  max ${done.max.toFixed(1)} ms (goal p99 < 100 ms: ${done.p99 < 100 ? 'met' : 'NOT met'})`,
);
console.log(
  `  stored ${stored.rows[0].n} messages (${stored.rows[0].d} distinct sids) of ${MESSAGES}; events received for ${done.events}, doubled ${done.doubled}; non-200 answers ${failed}; lost ${MESSAGES - stored.rows[0].n}`,
);
const nodeMs = (cpu.user + cpu.system) / 1000;
const perText = (ms: number) => (ms / MESSAGES).toFixed(3);
console.log(
  `  CPU a text: ${perText(nodeMs + pgMs)} ms in all = server ${perText(nodeMs)} ms (user ${perText(cpu.user / 1000)}, kernel ${perText(cpu.system / 1000)}) + PostgreSQL ${perText(pgMs)} ms (the carrier and browser client: ${perText(done.cpuMs)} ms)`,
);
console.log(
  `  (when the last text was answered: ${perText((atAnswer.cpu.user + atAnswer.cpu.system) / 1000 + atAnswer.pgMs)} ms = server ${perText((atAnswer.cpu.user + atAnswer.cpu.system) / 1000)} + PostgreSQL ${perText(atAnswer.pgMs)}, ${(atAnswer.statements / MESSAGES).toFixed(2)} statements a text; then the jobs ran${pending ? `, ${pending} still waiting after 60 s` : ''})`,
);
console.log(
  `  statements a text: ${(statements / MESSAGES).toFixed(2)} (${statements} sent to PostgreSQL by the server, its jobs and pg-boss, for ${MESSAGES} texts${MESSAGES / 10 > 0 ? ' and their redeliveries' : ''})`,
);
if (topSql.length) console.log(`  most sent (a text):\n${topSql.join('\n')}`);
for (const line of lockWaits) console.log(line);
console.log(
  `  load average ${load0.map((l) => l.toFixed(1)).join(' ')} before, ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} after, on ${os.cpus().length} cores (a busy machine slows every figure but the CPU a text)`,
);
// Its data folder too (94 MB a run was left in the temporary folder).
await platform.close();
process.exit(0);

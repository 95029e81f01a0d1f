// An idle platform (issue 27, ADR 120): the app as `npm start` runs it (embedded PostgreSQL, the demo data,
// the sandbox carrier, the jobs worked in process), with no request for IDLE_SECONDS (70 by default: a
// minute's cron jobs included). Every other bench's figures a unit carry this cost spread over their units;
// on a laptop it is what the platform takes from the machine while no one uses it, and with N processes it
// is paid N times. Prints the CPU a second of the process and of PostgreSQL, and the statements a second
// with the most sent (BENCH_SQL_TOP).
import os from 'node:os';
import { inProcessPlatform } from '../lib/in-process.ts';
import { postgresCpuMs } from '../lib/postgres-cpu.ts';
import { countStatements, resetStatementTexts, statementsSent, topStatements } from '../lib/statements.ts';

const SECONDS = Number(process.env.IDLE_SECONDS ?? 70);
countStatements();
const platform = await inProcessPlatform('stn-bench-idle-');
await platform.app.ready();
// The start's own work (queues installed, first looks, the first cron minute's catch-up) settles first.
await new Promise((r) => setTimeout(r, 5_000));
console.log(`idle bench: the platform with no request for ${SECONDS} s`);
resetStatementTexts();
const sql0 = statementsSent();
const pg0 = postgresCpuMs(platform.dataDir);
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await new Promise((r) => setTimeout(r, SECONDS * 1000));
const cpu = process.cpuUsage(cpu0);
const pgMs = postgresCpuMs(platform.dataDir) - pg0;
const s = (performance.now() - t0) / 1000;
const statements = statementsSent() - sql0;
console.log(
  `  CPU a second: this process ${((cpu.user + cpu.system) / 1000 / s).toFixed(2)} ms, PostgreSQL ${(pgMs / s).toFixed(2)} ms; ${(statements / s).toFixed(2)} statements a second`,
);
const top = topStatements(Number(process.env.BENCH_SQL_TOP ?? 8), s);
if (top.length) console.log(`  most sent (a second):\n${top.join('\n')}`);
console.log(
  `  load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${os.cpus().length} cores (figures mean little on a busy machine)`,
);
await platform.close();
process.exit(0);

// `node bench/suite.mjs`: the whole `npm test` (CI=true unless CI is set), timed against the project's rule
// of ten minutes on two cores, with the CPU of the run split by what spent it: Chromium's processes, the
// browser tests' servers, the test processes, PostgreSQL, the API tests' child processes, and the rest of
// the machine (its kernel threads and services). Linux only (it reads /proc). It takes as long as the suite
// (25-28 minutes on a slow day of the shared two-core machine), so `npm run bench` leaves it out.
// Options after `--` go to `npm test`. ADR 127.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const GOAL_S = 600;
const TICK = 100; // USER_HZ: /proc's CPU times are in hundredths of a second
const SAMPLE_MS = 500;

if (process.platform !== 'linux') {
  console.log('bench/suite: skipped (it reads /proc, which only Linux has)');
  process.exit(0);
}

/** What a process of the run is, from its command line. */
function kindOf(cmd, comm) {
  if (cmd.includes('chromium')) {
    const type = /--type=([\w-]+)/.exec(cmd)?.[1];
    return type === 'renderer' ? 'Chromium: renderers' : 'Chromium: browser, GPU and other processes';
  }
  if (comm === 'postgres' || cmd.includes('/postgres')) return 'PostgreSQL';
  if (/dist-test\/e2e-[^/]+\/main\.mjs/.test(cmd)) return 'browser tests: their servers';
  if (/dist-test\/api-[^/]+\/(main|worker|cli)\.mjs/.test(cmd))
    return 'API tests: servers, workers, CLI they start';
  if (cmd.includes('vitest')) return 'test processes (Vitest and its workers)';
  if (/\b(vite|esbuild|rolldown)\b/.test(cmd)) return 'builds (web app, widget, server bundle)';
  return 'the run: other processes';
}

/** pid -> { kind, cpu } for every process seen that descends from the run. */
const seen = new Map();
const parentOf = new Map();
let runPid = 0;

function readStat(pid) {
  const st = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const close = st.lastIndexOf(')');
  const f = st.slice(close + 2).split(' ');
  return {
    comm: st.slice(st.indexOf('(') + 1, close),
    ppid: Number(f[1]),
    cpu: (Number(f[11]) + Number(f[12])) / TICK,
    start: f[19],
  };
}

function inRun(pid) {
  for (let p = pid, hops = 0; p > 1 && hops < 64; hops++) {
    if (p === runPid) return true;
    p = parentOf.get(p) ?? 0;
  }
  return false;
}

function sample() {
  const stats = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const pid = Number(name);
      const s = readStat(pid);
      parentOf.set(pid, s.ppid);
      stats.push([pid, s]);
    } catch {
      // gone meanwhile
    }
  }
  for (const [pid, s] of stats) {
    const key = `${pid}:${s.start}`;
    let e = seen.get(key);
    if (!e) {
      if (!inRun(pid)) continue;
      let cmd = '';
      try {
        cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      } catch {}
      e = { kind: kindOf(cmd, s.comm), cpu: 0 };
      seen.set(key, e);
    }
    e.cpu = s.cpu;
  }
}

function machine() {
  const v = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
  return {
    total: v.reduce((a, b) => a + b, 0) / TICK,
    idle: (v[3] + v[4]) / TICK,
    user: v[0] / TICK,
    sys: v[2] / TICK,
  };
}

const args = process.argv.includes('--') ? process.argv.slice(process.argv.indexOf('--') + 1) : [];
const m0 = machine();
const load0 = os.loadavg();
const t0 = performance.now();
const child = spawn('npm', ['test', ...(args.length ? ['--', ...args] : [])], {
  cwd: root,
  env: { CI: 'true', ...process.env },
  stdio: ['ignore', 'pipe', 'pipe'],
});
runPid = child.pid ?? 0;
/** The run's closing line `N passed, N failed`, read from whole lines of its standard output. */
let last = '';
let rest = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  const lines = (rest + chunk).split('\n');
  rest = lines.pop() ?? '';
  last = lines.findLast((l) => /^\d+ passed, \d+ failed$/.test(l.trim())) ?? last;
});
child.stderr.pipe(process.stderr);
const timer = setInterval(sample, SAMPLE_MS);
const code = await new Promise((resolve) => child.on('close', (c) => resolve(c ?? 1)));
clearInterval(timer);
sample();
if (/^\d+ passed, \d+ failed$/.test(rest.trim())) last = rest;
const wall = (performance.now() - t0) / 1000;
const m1 = machine();
const busy = m1.total - m1.idle - (m0.total - m0.idle);

const byKind = new Map();
for (const e of seen.values()) byKind.set(e.kind, (byKind.get(e.kind) ?? 0) + e.cpu);
const ours = [...byKind.values()].reduce((a, b) => a + b, 0);
const cores = os.cpus().length;

console.log(`\nsuite bench: CI=true npm test ${args.join(' ')}`.trimEnd());
console.log(
  `  wall time ${wall.toFixed(0)} s (goal ${GOAL_S} s on two cores: ${wall <= GOAL_S ? 'met' : 'NOT met'}); ${last.trim() || 'no closing line'}; exit code ${code}`,
);
console.log(
  `  the machine busy ${busy.toFixed(0)} core-seconds of ${(m1.total - m0.total).toFixed(0)} (${cores} cores): user ${(m1.user - m0.user).toFixed(0)}, kernel ${(m1.sys - m0.sys).toFixed(0)}`,
);
console.log('  CPU by what spent it (core-seconds; processes seen at least once in half a second):');
for (const [kind, cpu] of [...byKind].sort((a, b) => b[1] - a[1]))
  console.log(`    ${cpu.toFixed(0).padStart(6)}  ${kind}`);
console.log(
  `    ${Math.max(0, busy - ours)
    .toFixed(0)
    .padStart(
      6,
    )}  outside the run, or too short-lived to be seen: the kernel's threads, the machine's services`,
);
console.log(
  `  load average ${load0.map((l) => l.toFixed(1)).join(' ')} before, ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} after`,
);
process.exitCode = code;

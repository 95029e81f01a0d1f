// The `--busy` option of the inbound and callback benches (issue 27): the bench runs twice, first on a
// quiet machine, then while another process keeps one core busy (a loop that never sleeps, as a second
// service or a noisy neighbour would), and both runs print their figures.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');

/**
 * What waking an idle process costs this machine at this moment (`bench/floor`'s fifth line, measured in 2 s):
 * the CPU figures of the inbound and callback benches move with it by a factor of two from one hour to the
 * next on a shared virtual machine, so each run prints it beside them.
 */
function wakeUpLine() {
  const probe = `const n = 200, c0 = process.cpuUsage();
    (async () => { for (let i = 0; i < n; i++) await new Promise((r) => setTimeout(r, 10));
      const d = process.cpuUsage(c0); console.log(((d.user + d.system) / 1000 / n).toFixed(3)); })();`;
  const r = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' });
  const ms = r.stdout.trim();
  return ms
    ? `  this machine now: an idle process woken every 10 ms costs ${ms} ms of CPU a wake-up (bench/floor's line; the CPU figures move with it)`
    : '  this machine now: the wake-up probe failed';
}

/**
 * Runs `script` (a .ts file under bench/, with tsx) once, or quiet then busy with `--busy` in `argv`;
 * `wakeUp`: each run first prints what a wake-up costs the machine then.
 */
export function runBench(script, argv, env = {}, { wakeUp = false } = {}) {
  const busy = argv.includes('--busy');
  const args = argv.filter((a) => a !== '--busy');
  const once = (label) => {
    if (label) console.log(`\n-- ${label}`);
    if (wakeUp) console.log(wakeUpLine());
    const r = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, DATABASE_URL: '', ...env },
    });
    return r.status ?? 1;
  };
  if (!busy) return once(null);
  const quiet = once('quiet run');
  // One core kept busy for the whole second run: a process that only spins.
  const hog = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  try {
    const loaded = once('busy run (another process keeps one core busy)');
    return quiet || loaded;
  } finally {
    hog.kill('SIGKILL');
  }
}

// The `--busy` option of the inbound and callback benches (issue 27): the bench runs twice, first on a
// quiet machine, then while another process keeps one core busy (a loop that never sleeps, as a second
// service or a noisy neighbour would), and both runs print their figures.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');

/** Runs `script` (a .ts file under bench/, with tsx) once, or quiet then busy with `--busy` in `argv`. */
export function runBench(script, argv, env = {}) {
  const busy = argv.includes('--busy');
  const args = argv.filter((a) => a !== '--busy');
  const once = (label) => {
    if (label) console.log(`\n-- ${label}`);
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

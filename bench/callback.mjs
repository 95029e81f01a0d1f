// `bench/callback`: 1,000 sandboxed callbacks at 20 requests a second against an in-process app (see
// bench/callback/bench.ts). Runs it with tsx; prints its figures.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const r = spawnSync(
  process.execPath,
  ['--import', 'tsx', 'bench/callback/bench.ts', ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: '' },
  },
);
process.exitCode = r.status ?? 1;

// `bench/broadcast`: a broadcast to many recipients through the whole sending pipeline with the throttle
// off (see bench/broadcast/bench.ts). Runs it with tsx; prints its figures.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const r = spawnSync(
  process.execPath,
  ['--import', 'tsx', 'bench/broadcast/bench.ts', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env: { ...process.env, DATABASE_URL: '' } },
);
process.exitCode = r.status ?? 1;

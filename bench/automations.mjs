// `bench/automations`: 10,000 contacts entering an automation at once, and the time from a trigger to its
// first action (see bench/automations/bench.ts). Runs it with tsx; prints its figures.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const r = spawnSync(
  process.execPath,
  ['--import', 'tsx', 'bench/automations/bench.ts', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env: { ...process.env, DATABASE_URL: '' } },
);
process.exitCode = r.status ?? 1;

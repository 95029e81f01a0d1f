// `bench/storage`: the bytes a text and a call take in PostgreSQL (see bench/storage/bench.ts), for the
// sizing in docs/operations.md. Runs it with tsx; prints its figures.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const r = spawnSync(
  process.execPath,
  ['--import', 'tsx', 'bench/storage/bench.ts', ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: '' },
  },
);
process.exitCode = r.status ?? 1;
